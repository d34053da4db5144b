package merge

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/internal/validation"
	"github.com/ssa-diff/ssa-diff/merge/defaults"
	"github.com/ssa-diff/ssa-diff/merge/strategy"
	"github.com/ssa-diff/ssa-diff/schema"
)

// KubernetesHooks are the API server's own: the defaulting of Kubernetes 1.37's built-in
// kinds (package merge/defaults), their registry rules (package merge/strategy), and for
// custom resources the CRD schema's defaults, status reset and generation.
type KubernetesHooks struct {
	// AllowPrivileged is kube-apiserver's --allow-privileged: false, the flag's default,
	// refuses privileged and hostProcess containers (422 "disallowed by cluster policy");
	// most clusters run with true.
	AllowPrivileged bool
	// ServiceIPFamilies are the IP families of the cluster's service IP ranges
	// (kube-apiserver's --service-cluster-ip-range), the primary one first: ["IPv4"] or
	// ["IPv6"] for a single-stack cluster, both for a dual-stack one (ParseServiceIPFamilies
	// reads them). They decide a Service's IP families and which it may ask for: a
	// single-stack cluster refuses RequireDualStack and the other family (422), a
	// dual-stack one gives PreferDualStack and RequireDualStack Services both families.
	// Empty: not declared; refusals are those of the recording server, an IPv4 cluster,
	// and the families it adds are left to Result.Assigned.
	ServiceIPFamilies []string
}

// ParseServiceIPFamilies reads a cluster's service IP families as a comma-separated list,
// the primary first: "IPv4", "IPv6", "IPv4,IPv6" or "IPv6,IPv4".
func ParseServiceIPFamilies(s string) ([]string, error) {
	parts := strings.Split(s, ",")
	if len(parts) > 2 {
		return nil, fmt.Errorf("service IP families %q: at most two (the primary first)", s)
	}
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p != "IPv4" && p != "IPv6" {
			return nil, fmt.Errorf("service IP families %q: %q is not IPv4 or IPv6", s, p)
		}
		if i == 1 && p == parts[0] {
			return nil, fmt.Errorf("service IP families %q: %s twice", s, p)
		}
		parts[i] = p
	}
	return parts, nil
}

func (h KubernetesHooks) cluster() strategy.Cluster {
	return strategy.Cluster{ServiceIPFamilies: h.ServiceIPFamilies}
}

func builtinKnown(t *schema.Type) bool {
	return t.Source == schema.SourceBuiltin && defaults.Known(t.GVK.APIVersion(), t.GVK.Kind)
}

// Default runs the kind's defaulting.
func (KubernetesHooks) Default(t *schema.Type, obj map[string]any) error {
	if builtinKnown(t) {
		return defaults.Default(t.GVK.APIVersion(), t.GVK.Kind, obj)
	}
	if t.Default != nil {
		t.Default(obj)
	}
	return nil
}

// EmptyObject is the kind's zero value as the server encodes it.
func (KubernetesHooks) EmptyObject(t *schema.Type) map[string]any {
	if builtinKnown(t) {
		if obj, ok := defaults.EmptyObject(t.GVK.APIVersion(), t.GVK.Kind); ok {
			return obj
		}
	}
	return FieldManagementOnly{}.EmptyObject(t)
}

// PrepareForCreate applies the registry's create rules and the read-back defaulting.
func (h KubernetesHooks) PrepareForCreate(t *schema.Type, obj map[string]any) error {
	return h.PrepareForCreateDecoded(t, nil, obj)
}

// PrepareForCreateDecoded is PrepareForCreate given the object as the request decoded it,
// before defaulting (see strategy.NeedsDecoded; nil when not kept).
func (h KubernetesHooks) PrepareForCreateDecoded(t *schema.Type, decoded, obj map[string]any) error {
	// The store wipes the system fields a create may not set (the uid is refused before:
	// catalog N3); it fills creationTimestamp and uid itself (Assigned).
	md := ensureMetadata(obj)
	for _, k := range []string{"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"} {
		delete(md, k)
	}
	if builtinKnown(t) {
		strategy.PrepareForCreateIn(h.cluster(), t.GVK.APIVersion(), t.GVK.Kind, decoded, obj)
		return defaults.Default(t.GVK.APIVersion(), t.GVK.Kind, obj)
	}
	if t.Source != schema.SourceBuiltin {
		// Custom resources: generation starts at 1; with a status subresource, status is
		// dropped. The object is then read back from storage, which applies the schema's
		// defaults again: a status with a default comes back with it.
		ensureMetadata(obj)["generation"] = int64(1)
		if t.Status {
			delete(obj, "status")
			// The read from storage defaults the object again; all but the status that
			// was just dropped has its defaults already.
			if t.Default != nil {
				root := map[string]any{}
				t.Default(root)
				if st, ok := root["status"]; ok {
					obj["status"] = st
				}
			}
		}
	}
	return nil
}

// Validate runs the registry's validation: for built-in kinds, package internal/validation
// (the kind's strategy in the order the generic registry runs it); for every kind, that an
// update keeps the uid.
func (h KubernetesHooks) Validate(t *schema.Type, subresource string, obj, old map[string]any) Validation {
	// Custom resources of a CRD, and CRDs themselves: apiextensions-apiserver's validation.
	if v, ok := validateCustomResource(t, subresource, obj, old); ok {
		return v
	}
	if t.Source == schema.SourceBuiltin {
		res, err := validation.ValidateWrite(t.GVK.APIVersion(), t.GVK.Kind, subresource, obj, old, validation.Cluster{ServiceIPFamilies: h.ServiceIPFamilies})
		if err != nil {
			return Validation{Errors: uidChanged(obj, old), NotPredicted: fmt.Sprintf("the validation of %s %s is not predicted: %v", t.GVK.APIVersion(), t.GVK.Kind, err)}
		}
		if res.Known {
			if h.AllowPrivileged {
				res.Errors = validation.WithoutPrivilegedPolicy(res.Errors)
			}
			return Validation{Errors: res.Errors, Warnings: res.Warnings}
		}
		return Validation{Errors: uidChanged(obj, old), NotPredicted: notPortedMessage(t, subresource)}
	}
	return Validation{Errors: uidChanged(obj, old)}
}

// PrepareForUpdate applies the registry's update rules and the read-back defaulting.
func (h KubernetesHooks) PrepareForUpdate(t *schema.Type, subresource string, obj, old map[string]any) error {
	return h.PrepareForUpdateDecoded(t, subresource, nil, obj, old)
}

// PrepareForUpdateDecoded is PrepareForUpdate given the new object as the request decoded
// it, before defaulting (see strategy.NeedsDecoded; nil when not kept).
func (h KubernetesHooks) PrepareForUpdateDecoded(t *schema.Type, subresource string, decoded, obj, old map[string]any) error {
	if builtinKnown(t) {
		av, kind := t.GVK.APIVersion(), t.GVK.Kind
		switch subresource {
		case "":
			strategy.PrepareForUpdateIn(h.cluster(), av, kind, decoded, obj, old)
		case "status":
			strategy.PrepareForStatusUpdate(av, kind, obj, old)
		default:
			RestoreResetFields(t, subresource, obj, old)
		}
		return defaults.Default(av, kind, obj)
	}
	RestoreResetFields(t, subresource, obj, old)
	if t.Source != schema.SourceBuiltin {
		// Through the main resource (and /scale, which writes through it), a custom
		// resource's generation moves when anything but metadata changes (status too, when
		// there is no status subresource to keep it), compared as the decoded JSON values
		// they are. /status keeps the old object but its status.
		if g, ok := metadataOf(old)["generation"]; ok && subresource != "status" {
			ensureMetadata(obj)["generation"] = g
			if !sameExceptMetadata(obj, old) {
				if n, ok := g.(int64); ok {
					ensureMetadata(obj)["generation"] = n + 1
				}
			}
		}
		// The read from storage defaults the object again: the new parts have their
		// defaults already, and the stored status was read with them.
	}
	return nil
}

// KeepDecoded reports whether the built-in kind's registry rules look at the object as
// decoded before defaulting (strategy.NeedsDecoded).
func (KubernetesHooks) KeepDecoded(t *schema.Type, subresource string, create bool) bool {
	return subresource == "" && builtinKnown(t) && strategy.NeedsDecoded(t.GVK.APIVersion(), t.GVK.Kind, create)
}

// Assigned lists the values the server assigns in obj, the object a write stores: those of
// strategy.Assigned for built-in kinds; the uid and creation time of a create, and the
// resourceVersion of every write, for the others.
func (KubernetesHooks) Assigned(t *schema.Type, create bool, obj map[string]any) []string {
	var out []string
	if builtinKnown(t) {
		for _, a := range strategy.Assigned(t.GVK.APIVersion(), t.GVK.Kind, obj, create) {
			out = append(out, a.String())
		}
		return out
	}
	if create {
		out = append(out, ".metadata.uid", ".metadata.creationTimestamp")
	}
	return append(out, ".metadata.resourceVersion")
}

// sameExceptMetadata compares two objects as the custom resource strategy does: everything
// but metadata.
func sameExceptMetadata(a, b map[string]any) bool {
	if len(a)-hasKey(a, "metadata") != len(b)-hasKey(b, "metadata") {
		return false
	}
	for k, v := range a {
		if k == "metadata" {
			continue
		}
		w, ok := b[k]
		if !ok || !unstructured.Equal(v, w) {
			return false
		}
	}
	return true
}

func hasKey(m map[string]any, k string) int {
	if _, ok := m[k]; ok {
		return 1
	}
	return 0
}

// notPortedMessage says that a built-in kind's validation is not predicted: the write may
// still be refused by the server.
func notPortedMessage(t *schema.Type, subresource string) string {
	what := t.GVK.APIVersion() + " " + t.GVK.Kind
	if subresource != "" {
		what += " (" + subresource + ")"
	}
	return "the validation of " + what + " is not predicted: the server may still refuse the write (422)"
}
