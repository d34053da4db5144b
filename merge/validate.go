package merge

import (
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validate runs the registry's validation on obj, the object a write would store (rules.md
// valid.builtin, valid.update): live is the stored object on an update, and nil on a create. The server refuses
// an invalid object with 422 Invalid, its errors listed as the validators found them.
func (r *request) validate(obj, live map[string]any) *StatusError {
	return r.validateAs(r.ep.Subresource, obj, live)
}

// validateAs is validate as the given subresource's strategy validates.
func (r *request) validateAs(subresource string, obj, live map[string]any) *StatusError {
	if live != nil {
		keepSystemFields(obj, live)
		obj = withResourceVersion(obj, live)
	}
	var v server.Validation
	if r.hub == nil {
		v = r.e.model.Validate(r.typ, subresource, obj, live)
	} else if err := r.atHub(unstructured.DeepCopyObject(obj), live, false, func(t *schema.Type, obj, live map[string]any) error {
		// The server validates the internal version: paths and values are the hub's.
		v = r.e.model.Validate(t, subresource, obj, live)
		return nil
	}); err != nil {
		return internalError(err.Error())
	}
	if v.NotPredicted != "" {
		r.warn(v.NotPredicted)
	}
	for _, w := range v.Warnings {
		r.warn(serverWarningPrefix + w)
	}
	if len(v.Errors) > 0 {
		_, name := nsName(obj)
		return invalid(r.e.model.ErrorGroup(r.ep.GVK.Group, r.ep.GVK.Kind), r.ep.GVK.Kind, name, v.Errors)
	}
	// The validating admission phase sees what the registry would store (rules.md admission).
	return r.admitted(r.e.model.ValidateAdmission(r.admissionRequest(r.typ, obj, live)))
}

// admissionRequest is the write as the admission chain sees it, obj and live (nil on a
// create) being objects of t.
func (r *request) admissionRequest(t *schema.Type, obj, live map[string]any) server.AdmissionRequest {
	return server.AdmissionRequest{Type: t, Kind: r.ep.GVK, Subresource: r.ep.Subresource, Namespace: r.ep.Namespace, Name: r.ep.Name,
		Object: obj, Old: live, FieldManager: r.manager, Schemas: r.e.schemas}
}

// admitted reports what an admission phase said: its warnings, audit annotations and what
// it could not know become the request's warnings; its refusal, the server's answer.
func (r *request) admitted(a server.Admission) *StatusError {
	for _, w := range a.Warnings {
		r.warn(serverWarningPrefix + w)
	}
	for _, w := range a.Audit {
		r.warn(auditPrefix + w)
	}
	for _, w := range a.NotPredicted {
		r.warn(w)
	}
	if a.Refusal == nil {
		return nil
	}
	s := statusError(a.Refusal)
	s.Admission = a.RefusedBy
	return s
}

// auditPrefix starts the annotations the server would write to its audit log (a policy's
// Audit action): the client never sees them.
const auditPrefix = "the server's audit log would record: "

// statusError is a metav1.Status as the engine reports it.
func statusError(st *metav1.Status) *StatusError {
	out := &StatusError{Code: int(st.Code), Reason: string(st.Reason), Message: st.Message}
	if d := st.Details; d != nil {
		out.Details = &StatusDetails{Name: d.Name, Group: d.Group, Kind: d.Kind}
		for _, c := range d.Causes {
			out.Details.Causes = append(out.Details.Causes, StatusCause{Reason: string(c.Type), Message: c.Message, Field: c.Field})
		}
	}
	return out
}

// invalid is the server's 422 for field errors: the message names the kind with its group
// ("Deployment.apps"), the object, and the errors — one bare, several in brackets, each
// message once — and every error is a cause (rules.md valid.builtin). apimachinery words it, as it
// does on the server.
func invalid(group, kind, name string, errs field.ErrorList) *StatusError {
	st := apierrors.NewInvalid(k8sschema.GroupKind{Group: group, Kind: kind}, name, errs).ErrStatus
	return statusError(&st)
}

// keepSystemFields does what the registry does to an update before it validates it: a body
// without uid or creationTimestamp keeps the stored ones, and a deletion under way cannot be
// undone (its timestamp and grace period stay).
func keepSystemFields(obj, live map[string]any) {
	lm := metadataOf(live)
	if lm == nil {
		return
	}
	md := ensureMetadata(obj)
	for _, k := range []string{"uid", "creationTimestamp"} {
		if v, ok := lm[k]; ok && v != nil && v != "" {
			if cur, _ := md[k].(string); cur == "" || k == "creationTimestamp" {
				md[k] = v
			}
		}
	}
	if v, ok := lm["deletionTimestamp"]; ok && v != nil {
		md["deletionTimestamp"] = v
	}
	if v, ok := lm["deletionGracePeriodSeconds"]; ok && v != nil {
		if _, has := md["deletionGracePeriodSeconds"]; !has {
			md["deletionGracePeriodSeconds"] = v
		}
	}
}

// withResourceVersion is obj as the registry validates an update of it: the body of a
// write through the API carries the stored object's resourceVersion (an apply is merged
// into the stored object; a PUT without one is an unconditional update). A live object
// without one (a dump that left it out) gets a stand-in, so that validation does not refuse
// what the server never sees. obj itself is not changed.
func withResourceVersion(obj, live map[string]any) map[string]any {
	if rv, _ := metadataOf(obj)["resourceVersion"].(string); rv != "" {
		return obj
	}
	rv, _ := metadataOf(live)["resourceVersion"].(string)
	if rv == "" {
		rv = "1"
	}
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	md := make(map[string]any, len(metadataOf(obj))+1)
	for k, v := range metadataOf(obj) {
		md[k] = v
	}
	md["resourceVersion"] = rv
	out["metadata"] = md
	return out
}
