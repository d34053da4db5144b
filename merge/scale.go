package merge

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdmerge "sigs.k8s.io/structured-merge-diff/v6/merge"
)

// A write through /scale (rules.md sub.scale) is a write of an autoscaling/v1 Scale that
// the registry makes of the parent — its name, uid, resourceVersion, spec.replicas and
// status.replicas and selector — and carries back: the parent's replica count becomes the
// Scale's. Field management runs on the Scale, with the Scale's type and version and
// subresource "scale", on entries made of the parent's: each entry owning the parent's
// replica count, as the same identity at autoscaling/v1 owning the Scale's spec.replicas
// (managedfields.ScaleHandler.ToSubresource). Afterwards (ToParent) a parent entry keeps
// the replica count when its Scale entry still owns it and loses it otherwise; a Scale
// entry new to the parent owns the parent's replica count at the parent's apiVersion,
// with the time of the parent's entry of the same identity — which an Update through
// /scale never has, its identity naming autoscaling/v1 — or none. What the Scale's field
// manager stamped is dropped: entries written through /scale carry no time of their own.

const scaleAPIVersion = "autoscaling/v1"

var replicasInScale = smdpath.MakePathOrDie("spec", "replicas")

// scaleWrite is one verb's field management on the Scale: given the Scale the registry
// made of the parent and its entries, the Scale the write leaves and its entries, or the
// server's refusal (with the apply's conflicts, when it has any).
type scaleWrite func(s *request, old map[string]any, managed fieldpath.Managed) (next map[string]any, after fieldpath.Managed, conflicts smdmerge.Conflicts, refused *StatusError)

// replicasPath is where the parent keeps the replica count the Scale's spec.replicas maps
// to, at the request's version.
func (r *request) replicasPath() (smdpath.Path, []string, error) {
	return replicasPathOf(r.typ)
}

func replicasPathOf(t *schema.Type) (smdpath.Path, []string, error) {
	spec := ".spec.replicas"
	if t.Scale != nil && t.Scale.SpecReplicasPath != "" {
		spec = t.Scale.SpecReplicasPath
	}
	parts := strings.Split(strings.TrimPrefix(spec, "."), ".")
	elems := make([]any, len(parts))
	for i, p := range parts {
		elems[i] = p
	}
	p, err := smdpath.MakePath(elems...)
	return p, parts, err
}

// scaleMapping is the replica count's path in the parent at apiVersion (the registry's
// ResourcePathMappings): false for a version the mapping does not know, whose entries the
// handler leaves out of the Scale and drops from the parent; a nil path for a version
// without a scale subresource, whose entries stay as they are.
func (r *request) scaleMapping(apiVersion string) (smdpath.Path, bool) {
	gvk := schema.GVKFromAPIVersionKind(apiVersion, r.ep.GVK.Kind)
	if gvk.Group != r.ep.GVK.Group {
		return nil, false
	}
	if r.typ.Source == schema.SourceBuiltin {
		// Deployments, ReplicaSets and StatefulSets map apps/v1beta1, v1beta2 and v1;
		// ReplicationControllers v1.
		known := gvk.Version == "v1" || (gvk.Group == "apps" && (gvk.Version == "v1beta1" || gvk.Version == "v1beta2"))
		if !known {
			return nil, false
		}
		p, _, _ := r.replicasPath()
		return p, true
	}
	t := r.e.typeOf(r.kind, gvk)
	if t == nil {
		return nil, false
	}
	if t.Scale == nil {
		return nil, true
	}
	p, _, err := replicasPathOf(t)
	if err != nil {
		return nil, true
	}
	return p, true
}

// scaleOf is the Scale the registry makes of the parent, with its entries.
func (r *request) scaleOf(parent map[string]any, managed fieldpath.Managed) (map[string]any, fieldpath.Managed) {
	md := metadataOf(parent)
	smd := map[string]any{}
	for _, k := range []string{"name", "namespace", "uid", "resourceVersion", "creationTimestamp"} {
		if v, ok := md[k]; ok && v != nil && v != "" {
			smd[k] = v
		}
	}
	_, parts, _ := r.replicasPath()
	spec := map[string]any{}
	if v, ok := nestedValue(parent, parts); ok {
		if n, ok := unstructured.Int(v); ok && n != 0 {
			spec["replicas"] = n
		}
	}
	status := map[string]any{"replicas": int64(0)}
	statusPath := ".status.replicas"
	if r.typ.Scale != nil && r.typ.Scale.StatusReplicasPath != "" {
		statusPath = r.typ.Scale.StatusReplicasPath
	}
	if v, ok := nestedValue(parent, strings.Split(strings.TrimPrefix(statusPath, "."), ".")); ok {
		if n, ok := unstructured.Int(v); ok {
			status["replicas"] = n
		}
	}
	if sel := r.scaleSelector(parent); sel != "" {
		status["selector"] = sel
	}
	scale := map[string]any{"kind": "Scale", "apiVersion": scaleAPIVersion, "metadata": smd, "spec": spec, "status": status}

	sub := fieldpath.NewManaged()
	for key, vs := range managed.Fields {
		path, ok := r.scaleMapping(string(vs.APIVersion()))
		if !ok || path == nil || !vs.Set().Has(path) {
			continue
		}
		sub.Fields[key] = smdpath.NewVersionedSet(smdpath.NewSet(replicasInScale), scaleAPIVersion, vs.Applied())
		sub.Times[key] = managed.Times[key]
	}
	// Re-encoding names them by the Scale's apiVersion, as the handler's entries do.
	if entries, err := sub.Encode(); err == nil {
		if m, err := fieldpath.Decode(entries); err == nil {
			sub = m
		}
	}
	return scale, sub
}

// scaleSelector is the Scale's status.selector: the parent's label selector as a string.
func (r *request) scaleSelector(parent map[string]any) string {
	if r.typ.Source != schema.SourceBuiltin {
		if r.typ.Scale == nil || r.typ.Scale.LabelSelectorPath == "" {
			return ""
		}
		v, _ := nestedValue(parent, strings.Split(strings.TrimPrefix(r.typ.Scale.LabelSelectorPath, "."), "."))
		s, _ := v.(string)
		return s
	}
	sel := unstructured.NestedObject(parent, "spec", "selector")
	if r.ep.GVK.Group == "" {
		// A ReplicationController's selector is a map of labels.
		set := labels.Set{}
		for k, v := range sel {
			if s, ok := v.(string); ok {
				set[k] = s
			}
		}
		return labels.SelectorFromSet(set).String()
	}
	var ls *metav1.LabelSelector
	if sel != nil {
		ls = &metav1.LabelSelector{MatchLabels: map[string]string{}}
		for k, v := range unstructured.Object(sel, "matchLabels") {
			if s, ok := v.(string); ok {
				ls.MatchLabels[k] = s
			}
		}
		for _, e := range unstructured.Objects(sel, "matchExpressions") {
			req := metav1.LabelSelectorRequirement{Key: unstructured.Str(e, "key"), Operator: metav1.LabelSelectorOperator(unstructured.Str(e, "operator"))}
			for _, v := range unstructured.List(e, "values") {
				if s, ok := v.(string); ok {
					req.Values = append(req.Values, s)
				}
			}
			ls.MatchExpressions = append(ls.MatchExpressions, req)
		}
	}
	s, err := metav1.LabelSelectorAsSelector(ls)
	if err != nil {
		return ""
	}
	return s.String()
}

// toParent carries the Scale's entries back onto the parent's (ScaleHandler.ToParent).
func (r *request) toParent(parent, scale fieldpath.Managed) fieldpath.Managed {
	out := fieldpath.NewManaged()
	scaleFields := map[string]smdpath.VersionedSet{}
	for k, v := range scale.Fields {
		scaleFields[k] = v
	}
	for key, vs := range parent.Fields {
		path, ok := r.scaleMapping(string(vs.APIVersion()))
		if !ok {
			continue
		}
		if path == nil || !vs.Set().Has(path) {
			out.Fields[key], out.Times[key] = vs, parent.Times[key]
			continue
		}
		if _, kept := scaleFields[key]; !kept {
			if rest := vs.Set().Difference(smdpath.NewSet(path)); !rest.Empty() {
				out.Fields[key] = smdpath.NewVersionedSet(rest, vs.APIVersion(), vs.Applied())
				out.Times[key] = parent.Times[key]
			}
			continue
		}
		out.Fields[key], out.Times[key] = vs, parent.Times[key]
		delete(scaleFields, key)
	}
	path, _, _ := r.replicasPath()
	for key, vs := range scaleFields {
		if !vs.Set().Has(replicasInScale) {
			continue
		}
		out.Fields[key] = smdpath.NewVersionedSet(smdpath.NewSet(path), r.version, vs.Applied())
		out.Times[key] = parent.Times[key]
	}
	return out
}

// scaleRequest is r as the Scale's field manager runs: the Scale's type and version,
// subresource "scale", no reset fields.
func (r *request) scaleRequest() *request {
	typ := r.e.schemas.ScaleType()
	k := r.e.resolve(schema.ScaleGVK) // what the registry says of its versions, as for any kind
	k.typ = typ
	s := &request{e: r.e, ep: r.ep, kind: k, typ: typ, version: scaleAPIVersion, now: r.now}
	s.ep.GVK = schema.ScaleGVK
	s.updater = newUpdater(&versionConverter{e: r.e, kind: k, warn: r.warn}, nil)
	return s
}

// throughScale predicts a write through /scale of the parent live: write is the verb's
// field management on the Scale.
func (r *request) throughScale(live map[string]any, manager string, write scaleWrite) *Result {
	res := &Result{Endpoint: r.ep}
	reject := func(s *StatusError) *Result {
		res.Action, res.Rejection = ActionRejected, s
		return res
	}
	if live == nil {
		return reject(notFound(r.typ, r.ep.Name))
	}
	path, parts, err := r.replicasPath()
	if err != nil {
		return reject(internalError(err.Error()))
	}
	liveEntries, _, _ := managedFieldsOf(live)
	parent, err := fieldpath.Decode(liveEntries)
	if err != nil {
		return reject(internalError(err.Error()))
	}
	before := parent.Copy()
	s := r.scaleRequest()
	old, sub := r.scaleOf(live, parent)
	next, after, conflicts, refused := write(s, old, sub)
	if len(conflicts) > 0 {
		res.Conflicts = s.describeConflicts(conflicts, sub, old, next)
	}
	if refused != nil {
		return reject(refused)
	}
	for _, w := range s.warnings {
		r.warn(w)
	}
	if errs := validateScale(next); errs != nil {
		_, name := nsName(live)
		return reject(invalid("autoscaling", "Scale", name, errs))
	}
	smd := metadataOf(next)
	if uid, _ := smd["uid"].(string); uid != "" && uid != unstructured.Str(metadataOf(live), "uid") {
		sub := *r.typ
		sub.Resource += "/scale"
		return reject(conflictOn(&sub, r.ep.Name, fmt.Sprintf("Precondition failed: UID in precondition: %s, UID in object meta: %s", uid, unstructured.Str(metadataOf(live), "uid"))))
	}
	if rv, _ := smd["resourceVersion"].(string); rv != "" && rv != unstructured.Str(metadataOf(live), "resourceVersion") {
		return reject(modified(r.typ, r.ep.Name))
	}

	out := r.toParent(parent, after)
	obj := unstructured.DeepCopyObject(live)
	var replicas any = int64(0)
	if v, ok := unstructured.Object(next, "spec")["replicas"]; ok && v != nil {
		replicas = v
	}
	setNestedValue(obj, parts, replicas)
	entries, err := r.encodeEntries(out)
	if err != nil {
		return reject(internalError(fmt.Sprintf("failed to encode managed fields: %v", err)))
	}
	if err := r.holdManagedFields(obj, entries); err != nil {
		return reject(internalError(err.Error()))
	}
	// The parent is written through the main resource's store: its rules and validation.
	if err := r.e.model.PrepareForUpdate(r.typ, "", nil, obj, live); err != nil {
		return reject(prepareError(err))
	}
	if s := r.validateAs("", obj, live); s != nil {
		return reject(s)
	}
	r.settle(res, live, liveEntries, obj, entries, false)
	res.Assigned = r.assigned(res.Action, res.Object)
	if res.Action != ActionUnchanged {
		res.Ownership = r.ownershipChanges(before, out, fieldpath.ManagerKey(fieldpath.Entry{Manager: orUnknown(manager), Operation: fieldpath.OperationUpdate, APIVersion: string(r.version), Subresource: "scale"}))
	}
	_ = path
	return res
}

// validateScale is the registry's validation of the Scale written (ValidateScaleUpdate):
// the replica count may not be negative.
func validateScale(scale map[string]any) field.ErrorList {
	if n, ok := unstructured.Int(unstructured.Object(scale, "spec")["replicas"]); ok && n < 0 {
		return field.ErrorList{field.Invalid(field.NewPath("spec", "replicas"), n, "must be greater than or equal to 0")}
	}
	return nil
}

// updateScale is a PUT of the Scale body (rules.md sub.scale).
func (r *request) updateScale(live, body map[string]any, manager string) *Result {
	return r.throughScale(live, manager, func(s *request, old map[string]any, managed fieldpath.Managed) (map[string]any, fieldpath.Managed, smdmerge.Conflicts, *StatusError) {
		if got := schema.GVKOf(body); got != schema.ScaleGVK {
			return nil, managed, nil, badRequest(fmt.Sprintf("the body of a /scale request is an %s Scale, not %s", scaleAPIVersion, got))
		}
		if st := s.checkNames(body); st != nil {
			return nil, managed, nil, st
		}
		next := scaleAsDecoded(body)
		after, err := s.scaleUpdate(old, next, managed, manager)
		return next, after, nil, err
	})
}

// scaleUpdate is the update chain on the Scale: its entries come from the Scale the
// registry made (a subresource write ignores managedFields in its body), and a Scale
// nobody's entries own stays untracked (rules.md untracked.updates-stay-untracked).
func (s *request) scaleUpdate(old, next map[string]any, managed fieldpath.Managed, manager string) (fieldpath.Managed, *StatusError) {
	if len(managed.Fields) == 0 {
		return managed, nil
	}
	after, err := s.update(old, next, managed.Copy(), manager)
	if err != nil {
		s.warn("the update could not be tracked (" + err.Error() + "): the live managedFields are kept, as the server does")
		return managed, nil
	}
	return after, nil
}

// scaleAsDecoded is a Scale body as the registry decodes it into its Go type: spec.replicas
// and status.replicas integers (a missing or null one 0: the Go type's are not pointers),
// status.selector a string, no managedFields (a subresource write ignores them).
func scaleAsDecoded(body map[string]any) map[string]any {
	next := unstructured.DeepCopyObject(body)
	removeManagedFields(next)
	spec := unstructured.EnsureObject(next, "spec")
	if n, ok := unstructured.Int(spec["replicas"]); !ok || n == 0 {
		delete(spec, "replicas")
	}
	status := unstructured.EnsureObject(next, "status")
	if _, ok := unstructured.Int(status["replicas"]); !ok {
		status["replicas"] = int64(0)
	}
	if sel, _ := status["selector"].(string); sel == "" {
		delete(status, "selector")
	}
	return next
}

func orUnknown(m string) string {
	if m == "" {
		return "unknown"
	}
	return m
}

func nestedValue(obj map[string]any, parts []string) (any, bool) {
	var cur any = obj
	for _, p := range parts {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func setNestedValue(obj map[string]any, parts []string, v any) {
	cur := obj
	for _, p := range parts[:len(parts)-1] {
		next, ok := cur[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[p] = next
		}
		cur = next
	}
	cur[parts[len(parts)-1]] = v
}

// applyScale is an apply of a Scale through /scale (rules.md sub.scale): the apply chain
// runs on the Scale, as its field manager runs it — conflicts with the parent's entries
// owning the replica count, force taking it from them.
func (r *request) applyScale(live, cfg map[string]any, manager string, force bool) *Result {
	return r.throughScale(live, manager, func(s *request, old map[string]any, managed fieldpath.Managed) (map[string]any, fieldpath.Managed, smdmerge.Conflicts, *StatusError) {
		if st := validateManager(manager, true); st != nil {
			return nil, managed, nil, st
		}
		if got := schema.GVKOf(cfg); got != schema.ScaleGVK { // rules.md request.kind-mismatch
			return nil, managed, nil, badRequest(fmt.Sprintf("invalid object type: %s", got))
		}
		crd := r.typ.Source != schema.SourceBuiltin
		if crd && len(managed.Fields) == 0 {
			// Nobody owns the replica count: the field manager first records the Scale as
			// it is for before-first-apply, starting from an empty Scale the custom
			// resource's scheme makes — unstructured, which its converter does not take.
			return nil, managed, nil, internalError("failed to create manager for existing fields: failed to convert live object (/; " + scaleKindString + ") to proper version: " + crScaleConversionError)
		}
		cur := unstructured.DeepCopyObject(old)
		if entries, err := managed.EncodeAs(s.fieldsText()); err == nil {
			_ = setManagedFields(cur, entries, false)
		}
		out, st := s.applyWithLastApplied(cur, cfg, managed, manager, false)
		var taken smdmerge.Conflicts
		if force && st != nil {
			if out != nil {
				taken = out.conflicts
			}
			out, st = s.applyWithLastApplied(cur, cfg, managed, manager, true)
		}
		if st != nil {
			var cs smdmerge.Conflicts
			if out != nil {
				cs = out.conflicts
			}
			return cfg, managed, cs, st
		}
		next := old
		if out.object != nil {
			next = out.object
			removeManagedFields(next)
		}
		if crd && !unstructured.EqualIgnoringManagedFields(old, next) {
			// The merged Scale is unstructured; converting it back to the custom
			// resource's version fails (only a typed Scale converts).
			ns, name := nsName(old)
			return nil, managed, nil, internalError(fmt.Sprintf("failed to convert new object (%s/%s; %s) to proper version: %s", ns, name, scaleKindString, crScaleConversionError))
		}
		if st := s.checkNames(next); st != nil {
			return nil, managed, nil, st
		}
		return next, out.managed, taken, nil
	})
}

// What the server answers an apply through a custom resource's /scale that it cannot
// finish (rules.md sub.scale-apply): the field manager merges the Scale as unstructured
// data, and the custom resource's converter converts only a typed Scale.
const (
	scaleKindString        = scaleAPIVersion + ", Kind=Scale"
	crScaleConversionError = "request to convert CR to an invalid group/version: " + scaleAPIVersion
)
