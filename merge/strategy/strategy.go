package strategy

import (
	"strconv"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/merge/defaults"
)

// Create turns the result of field management on a missing object into the
// object kube-apiserver stores: defaulting, PrepareForCreate, and the
// defaulting that happens again when the object is read back from storage.
// obj is changed in place. Server-assigned values (uid, creationTimestamp,
// resourceVersion, a Service's clusterIP, …) are not invented: list them with
// Assigned.
func Create(apiVersion, kind string, obj map[string]any) error {
	var decoded map[string]any
	if NeedsDecoded(apiVersion, kind, true) {
		decoded = unstructured.DeepCopy(obj).(map[string]any)
	}
	if err := defaults.Default(apiVersion, kind, obj); err != nil {
		return err
	}
	PrepareForCreateDecoded(apiVersion, kind, decoded, obj)
	return defaults.Default(apiVersion, kind, obj)
}

// Update turns the result of field management on an existing object (obj)
// into the object kube-apiserver stores, given the stored object old (as a
// GET returned it): defaulting, BeforeUpdate/PrepareForUpdate for the main
// resource, and defaulting again. obj is changed in place; old is not.
func Update(apiVersion, kind string, obj, old map[string]any) error {
	var decoded map[string]any
	if NeedsDecoded(apiVersion, kind, false) {
		decoded = unstructured.DeepCopy(obj).(map[string]any)
	}
	if err := defaults.Default(apiVersion, kind, obj); err != nil {
		return err
	}
	PrepareForUpdateDecoded(apiVersion, kind, decoded, obj, old)
	return defaults.Default(apiVersion, kind, obj)
}

// UpdateStatus is Update for a write through the /status subresource.
func UpdateStatus(apiVersion, kind string, obj, old map[string]any) error {
	if err := defaults.Default(apiVersion, kind, obj); err != nil {
		return err
	}
	PrepareForStatusUpdate(apiVersion, kind, obj, old)
	return defaults.Default(apiVersion, kind, obj)
}

// NeedsDecoded reports whether the registry rules of a create (create is
// true) or of a main-resource update of the kind look at the object as the
// server decoded it from the request, before defaulting: a Job created with
// no labels of its own gets its template's (with the labels the strategy
// adds), and the generation of kinds compared with reflect.DeepEqual moves
// when the request holds an empty list or map. Callers keep a copy of the
// object before Default for PrepareForCreateDecoded and
// PrepareForUpdateDecoded only when it says so.
func NeedsDecoded(apiVersion, kind string, create bool) bool {
	if create {
		return groupOf(apiVersion)+"/"+kind == "batch/Job"
	}
	return RulesFor(apiVersion, kind).ReflectEqual
}

// PrepareForCreate applies the registry rules of a create to a defaulted
// object: generation 1 for kinds that track it, status cleared for kinds with
// a status subresource (with the few values a strategy sets, such as a Pod's
// phase), a Namespace's kubernetes finalizer, a DaemonSet's template
// generation annotation, a Job's generated labels, and the values a Service's
// allocator derives from what is given. Without the decoded object, a Job
// whose labels equal its template's is taken to have had none.
func PrepareForCreate(apiVersion, kind string, obj map[string]any) {
	PrepareForCreateDecoded(apiVersion, kind, nil, obj)
}

// PrepareForCreateDecoded is PrepareForCreate given decoded, the object as
// the server decoded it before defaulting (see NeedsDecoded; nil when not
// kept). decoded is not changed.
func PrepareForCreateDecoded(apiVersion, kind string, decoded, obj map[string]any) {
	r := RulesFor(apiVersion, kind)
	meta := ensureObject(obj, "metadata")
	if r.Generation != NoGeneration && r.Generation != UpdateSpecGeneration {
		meta["generation"] = int64(1)
	}
	if r.StatusReset {
		obj["status"] = map[string]any{}
	}
	switch groupOf(apiVersion) + "/" + kind {
	case "/Pod":
		obj["status"] = map[string]any{"phase": "Pending", "qosClass": podQOS(object(obj, "spec"))}
	case "/Namespace":
		obj["status"] = map[string]any{"phase": "Active"}
		spec := ensureObject(obj, "spec")
		if !containsString(list(spec, "finalizers"), "kubernetes") {
			spec["finalizers"] = append(list(spec, "finalizers"), "kubernetes")
		}
	case "/PersistentVolume":
		// lastPhaseTransitionTime is stamped with the time: see Assigned.
		obj["status"] = map[string]any{"phase": "Pending"}
	case "/Service":
		serviceCreate(ensureObject(obj, "spec"))
	case "apps/DaemonSet":
		if templateGeneration(meta) < 1 {
			setAnnotation(meta, daemonSetTemplateGeneration, "1")
		}
	case "batch/Job":
		addJobLabels(decoded, obj)
	}
}

// daemonSetTemplateGeneration is the annotation through which apps/v1 stores
// a DaemonSet's internal spec.templateGeneration.
const daemonSetTemplateGeneration = "deprecated.daemonset.template.generation"

// Labels the Job strategy adds to a Job's pod template on create (catalog
// rule of pkg/registry/batch/job generateSelector).
const (
	jobNameLabel             = "batch.kubernetes.io/job-name"
	legacyJobNameLabel       = "job-name"
	controllerUIDLabel       = "batch.kubernetes.io/controller-uid"
	legacyControllerUIDLabel = "controller-uid"
)

// addJobLabels adds what the Job strategy generates on create, unless
// spec.manualSelector is true: the job-name labels (the Job's name) on the
// pod template, unless given. The controller-uid labels and the selector's
// controller-uid term hold the uid the server generates: Assigned lists them.
// A Job created with no labels of its own ends with its template's: the
// defaulter gave it the template's label map, which the strategy then fills.
func addJobLabels(decoded, obj map[string]any) {
	spec := ensureObject(obj, "spec")
	if manual, _ := spec["manualSelector"].(bool); manual {
		return
	}
	meta := ensureObject(obj, "metadata")
	tmeta := ensureObject(ensureObject(spec, "template"), "metadata")
	var hadLabels bool
	if decoded != nil {
		hadLabels = len(object(object(decoded, "metadata"), "labels")) > 0
	} else {
		hadLabels = len(object(meta, "labels")) > 0 && !unstructured.Equal(meta["labels"], tmeta["labels"])
	}
	labels := ensureObject(tmeta, "labels")
	for _, k := range []string{legacyJobNameLabel, jobNameLabel} {
		if _, ok := labels[k]; !ok {
			labels[k] = str(meta, "name")
		}
	}
	if !hadLabels {
		meta["labels"] = unstructured.DeepCopy(labels)
	}
}

// PrepareForUpdate applies rest.BeforeUpdate and the main-resource
// PrepareForUpdate to obj, the defaulted new object, given the stored old:
// generation restored and bumped by the kind's rule, status (and the other
// fields a main-resource write may not change) restored from old. Without the
// decoded object (see PrepareForUpdateDecoded), an empty list or map in the
// request is not seen by the kinds compared with reflect.DeepEqual.
func PrepareForUpdate(apiVersion, kind string, obj, old map[string]any) {
	PrepareForUpdateDecoded(apiVersion, kind, nil, obj, old)
}

// PrepareForUpdateDecoded is PrepareForUpdate given decoded, the new object
// as the server decoded it before defaulting (see NeedsDecoded; nil when not
// kept). decoded is not changed.
//
// The generation moves as the kind's strategy decides, comparing the old and
// new values decoded into the kind's Go type (defaults.Equal): semantically
// for most kinds, so 0 equals 0.0 in a float field and "1Gi" equals "1024Mi";
// with reflect.DeepEqual for webhook configurations and NetworkPolicy.
func PrepareForUpdateDecoded(apiVersion, kind string, decoded, obj, old map[string]any) {
	r := RulesFor(apiVersion, kind)
	meta := ensureObject(obj, "metadata")
	oldMeta := object(old, "metadata")
	restore(meta, oldMeta, "generation")
	if r.StatusReset {
		restore(obj, old, "status")
	}
	if r.SpecFrozenOnUpdate {
		restore(obj, old, "spec")
	}
	gk := groupOf(apiVersion) + "/" + kind
	switch gk {
	case "/Namespace":
		restore(ensureObject(obj, "spec"), object(old, "spec"), "finalizers")
	case "/Service":
		serviceUpdate(obj, old)
	case "/Secret":
		if str(obj, "type") == "" {
			restore(obj, old, "type")
		}
	case "apps/DaemonSet":
		tg := templateGeneration(oldMeta)
		if !defaults.Equal(apiVersion, kind, defaults.Semantic, path(obj, "spec", "template"), path(old, "spec", "template"), "spec", "template") {
			tg++
		}
		if tg > 0 {
			setAnnotation(meta, daemonSetTemplateGeneration, strconv.FormatInt(tg, 10))
		}
	case "resource.k8s.io/DeviceTaintRule":
		restampTaint(apiVersion, obj, old)
	}
	eq := defaults.Semantic
	if r.ReflectEqual {
		eq = defaults.Reflect
	}
	// same compares the field at p of obj and old as the strategy does.
	same := func(p ...string) bool {
		if !defaults.Equal(apiVersion, kind, eq, path(obj, p...), path(old, p...), p...) {
			return false
		}
		return eq != defaults.Reflect || decoded == nil ||
			!defaults.HasEmptyCollection(apiVersion, kind, path(decoded, p...), path(obj, p...), p...)
	}
	changed := false
	switch r.Generation {
	case SpecGeneration, UpdateSpecGeneration:
		changed = !same("spec")
	case SpecOrAnnotationsGeneration:
		changed = !same("spec") || !same("metadata", "annotations")
	case WebhooksGeneration:
		changed = !same("webhooks")
	case TemplateGeneration:
		changed = !same("template")
	case AllButMetadataGeneration:
		// The whole object with its metadata left out, and the labels.
		changed = !same("metadata", "labels") ||
			!defaults.Equal(apiVersion, kind, eq, withoutMetadata(obj), withoutMetadata(old))
	}
	if changed {
		g, _ := asInt(meta["generation"])
		meta["generation"] = g + 1
	}
}

// withoutMetadata is a shallow copy of obj without metadata.
func withoutMetadata(obj map[string]any) map[string]any {
	c := make(map[string]any, len(obj))
	for k, v := range obj {
		if k != "metadata" {
			c[k] = v
		}
	}
	return c
}

// restampTaint follows the DeviceTaintRule strategy: when the taint's effect
// changes and its timeAdded does not, the server stamps timeAdded with the
// time of the update. The stored time is then not the prediction's: it is
// left out, and Assigned lists it.
func restampTaint(apiVersion string, obj, old map[string]any) {
	taint := path(obj, "spec", "taint")
	oldTaint := path(old, "spec", "taint")
	t, _ := taint.(map[string]any)
	o, _ := oldTaint.(map[string]any)
	if t == nil || str(t, "effect") == str(o, "effect") {
		return
	}
	if defaults.Equal(apiVersion, "DeviceTaintRule", defaults.Semantic, t["timeAdded"], o["timeAdded"], "spec", "taint", "timeAdded") {
		delete(t, "timeAdded")
	}
}

// PrepareForStatusUpdate applies the /status strategy: everything but status
// (and the metadata a status write may change) comes from old.
func PrepareForStatusUpdate(apiVersion, kind string, obj, old map[string]any) {
	meta := ensureObject(obj, "metadata")
	restore(meta, object(old, "metadata"), "generation")
	for k := range obj {
		if k != "status" && k != "metadata" && k != "apiVersion" && k != "kind" {
			delete(obj, k)
		}
	}
	for k, v := range old {
		if k != "status" && k != "metadata" && k != "apiVersion" && k != "kind" {
			obj[k] = unstructured.DeepCopy(v)
		}
	}
	if groupOf(apiVersion)+"/"+kind == "apps/Deployment" {
		restore(meta, object(old, "metadata"), "labels")
	}
}

// templateGeneration reads a DaemonSet's template generation annotation.
func templateGeneration(meta map[string]any) int64 {
	s, _ := object(meta, "annotations")[daemonSetTemplateGeneration].(string)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func setAnnotation(meta map[string]any, k, v string) {
	ensureObject(meta, "annotations")[k] = v
}

// podQOS computes a Pod's QoS class from its (defaulted) containers, as
// qos.GetPodQOS does for container-level resources: BestEffort without any
// cpu or memory request or limit, Guaranteed when every container limits cpu
// and memory with requests equal to limits, Burstable otherwise.
func podQOS(spec map[string]any) string {
	any, guaranteed := false, true
	for _, key := range []string{"initContainers", "containers"} {
		for _, c := range objects(spec, key) {
			res := object(c, "resources")
			req, lim := object(res, "requests"), object(res, "limits")
			for _, r := range []string{"cpu", "memory"} {
				if isPositive(req[r]) || isPositive(lim[r]) {
					any = true
				}
				if !isPositive(lim[r]) || (req[r] != nil && req[r] != lim[r]) {
					guaranteed = false
				}
			}
		}
	}
	switch {
	case !any:
		return "BestEffort"
	case guaranteed:
		return "Guaranteed"
	}
	return "Burstable"
}

func isPositive(v any) bool {
	s, ok := v.(string)
	return ok && s != "" && s != "0"
}
