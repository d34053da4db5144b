package strategy

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"k8s.io/apimachinery/pkg/api/resource"
)

// defaulting is the decoding and defaulting of the built-in kinds at cfg's minor. A Config
// reaches the strategies from a model built for a minor with every table generated
// (kubeapiserver.New checks): a minor without its defaulting is a bug, and panics.
func defaulting(cfg *serverconfig.Config) defaults.Release {
	r, ok := defaults.For(cfg.Minor)
	if !ok {
		panic(fmt.Sprintf("strategy: no defaulting of the built-in kinds of Kubernetes %s is generated", cfg.Minor))
	}
	return r
}

// Create turns the result of field management on a missing object into the
// object kube-apiserver stores: defaulting, PrepareForCreate, and the
// defaulting that happens again when the object is read back from storage.
// obj is changed in place. Server-assigned values (uid, creationTimestamp,
// resourceVersion, a Service's clusterIP, …) are not invented: list them with
// Assigned.
func Create(cfg *serverconfig.Config, apiVersion, kind string, obj map[string]any) error {
	var decoded map[string]any
	if NeedsDecoded(apiVersion, kind, true) {
		decoded = unstructured.DeepCopy(obj).(map[string]any)
	}
	if err := defaulting(cfg).Default(apiVersion, kind, obj); err != nil {
		return err
	}
	PrepareForCreate(cfg, apiVersion, kind, decoded, obj)
	return defaulting(cfg).Default(apiVersion, kind, obj)
}

// Update turns the result of field management on an existing object (obj)
// into the object kube-apiserver stores, given the stored object old (as a
// GET returned it): defaulting, BeforeUpdate/PrepareForUpdate for the main
// resource, and defaulting again. obj is changed in place; old is not.
func Update(cfg *serverconfig.Config, apiVersion, kind string, obj, old map[string]any) error {
	var decoded map[string]any
	if NeedsDecoded(apiVersion, kind, false) {
		decoded = unstructured.DeepCopy(obj).(map[string]any)
	}
	if err := defaulting(cfg).Default(apiVersion, kind, obj); err != nil {
		return err
	}
	PrepareForUpdate(cfg, apiVersion, kind, decoded, obj, old)
	return defaulting(cfg).Default(apiVersion, kind, obj)
}

// UpdateStatus is Update for a write through the /status subresource.
func UpdateStatus(cfg *serverconfig.Config, apiVersion, kind string, obj, old map[string]any) error {
	if err := defaulting(cfg).Default(apiVersion, kind, obj); err != nil {
		return err
	}
	PrepareForStatusUpdate(cfg, apiVersion, kind, obj, old)
	return defaulting(cfg).Default(apiVersion, kind, obj)
}

// NeedsDecoded reports whether the registry rules of a create (create is
// true) or of a main-resource update of the kind look at the object as the
// server decoded it from the request, before defaulting: a Job created with
// no labels of its own gets its template's (with the labels the strategy
// adds), and the generation of kinds compared with reflect.DeepEqual moves
// when the request holds an empty list or map. Callers keep a copy of the
// object before Default for PrepareForCreate and PrepareForUpdate only when
// it says so.
func NeedsDecoded(apiVersion, kind string, create bool) bool {
	if create {
		return groupOf(apiVersion)+"/"+kind == "batch/Job"
	}
	// Whether a kind compares with reflect.DeepEqual is the same in every minor.
	return rulesByGroupKind[groupOf(apiVersion)+"/"+kind].ReflectEqual
}

// PrepareForCreate applies the registry rules of a create, on the server cfg
// describes, to a defaulted object: generation 1 for kinds that track it,
// status cleared for kinds with a status subresource (with the few values a
// strategy sets, such as a Pod's phase), a Namespace's kubernetes finalizer, a
// DaemonSet's template generation annotation, a Job's generated labels, and the
// values a Service's allocator derives from what is given (the IP families of
// cfg's service IP ranges). decoded is the object as the server decoded it
// before defaulting (see NeedsDecoded; nil when not kept): without it, a Job
// whose labels equal its template's is taken to have had none. decoded is not
// changed.
func PrepareForCreate(cfg *serverconfig.Config, apiVersion, kind string, decoded, obj map[string]any) {
	r := RulesFor(cfg, apiVersion, kind)
	meta := unstructured.EnsureObject(obj, "metadata")
	if r.Generation != NoGeneration && r.Generation != UpdateSpecGeneration {
		meta["generation"] = int64(1)
	}
	if r.StatusReset && !r.StatusKeptOnCreate {
		obj["status"] = map[string]any{}
	}
	gk := groupOf(apiVersion) + "/" + kind
	dropOffFeatures(cfg, gk, obj, nil)
	switch gk {
	case "/Pod":
		spec := unstructured.Object(obj, "spec")
		// With PodLevelResourcesFixDefaulting (1.37 on) the strategy defaults the pod-level
		// resources (pkg/registry/core/pod/strategy.go PrepareForCreate, v1.37.2:101);
		// before, SetDefaults_Pod did (package defaults). The QoS class sees the result.
		if cfg.Enabled(features.PodLevelResources) && cfg.Enabled(features.PodLevelResourcesFixDefaulting) && spec != nil {
			defaults.PodLevelResources(spec, true)
		}
		status := map[string]any{"phase": "Pending", "qosClass": podQOS(cfg, spec)}
		if len(unstructured.List(spec, "schedulingGates")) > 0 {
			// The time of the create is the server's: Assigned lists it.
			status["conditions"] = []any{map[string]any{"type": "PodScheduled", "status": "False", "reason": "SchedulingGated",
				"message": "Scheduling is blocked due to non-empty scheduling gates"}}
		}
		obj["status"] = status
		mergeLabelKeys(spec, unstructured.Object(unstructured.Object(obj, "metadata"), "labels"))
	case "/Namespace":
		obj["status"] = map[string]any{"phase": "Active"}
		spec := unstructured.EnsureObject(obj, "spec")
		if !containsString(unstructured.List(spec, "finalizers"), "kubernetes") {
			spec["finalizers"] = append(unstructured.List(spec, "finalizers"), "kubernetes")
		}
	case "/PersistentVolume":
		// lastPhaseTransitionTime is stamped with the time: see Assigned.
		obj["status"] = map[string]any{"phase": "Pending"}
	case "/Service":
		serviceCreate(unstructured.EnsureObject(obj, "spec"), cfg)
	case "apps/DaemonSet":
		if templateGeneration(meta) < 1 {
			setAnnotation(meta, daemonSetTemplateGeneration, "1")
		}
	case "batch/Job":
		addJobLabels(decoded, obj)
	case "/PersistentVolumeClaim":
		pvcDataSources(unstructured.EnsureObject(obj, "spec"), nil)
	case "/ServiceAccount":
		cleanSecretReferences(obj)
	case "certificates.k8s.io/CertificateSigningRequest":
		// The requester's identity replaces what the request says: Assigned lists it.
		spec := unstructured.EnsureObject(obj, "spec")
		for _, k := range []string{"username", "uid", "groups", "extra"} {
			delete(spec, k)
		}
	case "apiregistration.k8s.io/APIService":
		if unstructured.Nested(obj, "spec", "service") == nil {
			// A local APIService is available at once; the time is the server's.
			obj["status"] = map[string]any{"conditions": []any{map[string]any{
				"type": "Available", "status": "True", "reason": "Local", "message": "Local APIServices are always available"}}}
		}
	case "discovery.k8s.io/EndpointSlice":
		dropDeprecatedTopology(cfg, obj, nil)
	}
}

// CreateAddsToDefaults reports whether a create of the built-in kind may store, outside
// status and the metadata only the server writes (uid, resourceVersion, generation,
// creationTimestamp, managedFields, deletion fields), a value the object as decoded and
// defaulted does not have: the kinds PrepareForCreate writes more than generation and
// status for (PrepareForCreate's own cases: a Namespace's finalizer, a Service's IP
// families, a Job's labels …) and those Assigned names values of on a create (a Service's
// cluster IPs, a ResourceSlice's taint times …). Every other kind's create stores what
// the defaulting gives, less the fields of features that are off (dropped, never added),
// and generation and status (conformance/defaulting's
// TestCreateAddsNothingToDefaultsMatchesKubeAPIServer holds this to the server's
// strategies on random objects of every kind). The name a generateName gives, and the
// admission plugins' changes, are not the strategy's: the callers tell them.
func CreateAddsToDefaults(apiVersion, kind string) bool {
	switch groupOf(apiVersion) + "/" + kind {
	case "/Pod", "/Namespace", "/PersistentVolume", "/Service", "apps/DaemonSet", "batch/Job",
		"/PersistentVolumeClaim", "/ServiceAccount", "certificates.k8s.io/CertificateSigningRequest",
		"apiregistration.k8s.io/APIService", "discovery.k8s.io/EndpointSlice",
		"resource.k8s.io/ResourceSlice", "resource.k8s.io/DeviceTaintRule":
		return true
	}
	return false
}

// mergeLabelKeys follows the Pod strategy on create: the pod's own values of the label keys
// named by matchLabelKeys (and mismatchLabelKeys) of its affinity terms and topology spread
// constraints become In (NotIn) requirements of their label selectors.
func mergeLabelKeys(spec, labels map[string]any) {
	apply := func(term map[string]any, keys string, op string) {
		sel, ok := term["labelSelector"].(map[string]any)
		if !ok {
			return
		}
		for _, k := range unstructured.List(term, keys) {
			key, _ := k.(string)
			if v, ok := labels[key]; ok {
				sel["matchExpressions"] = append(unstructured.List(sel, "matchExpressions"),
					map[string]any{"key": key, "operator": op, "values": []any{v}})
			}
		}
	}
	for _, kind := range []string{"podAffinity", "podAntiAffinity"} {
		aff := unstructured.Object(unstructured.Object(spec, "affinity"), kind)
		for _, t := range unstructured.Objects(aff, "requiredDuringSchedulingIgnoredDuringExecution") {
			apply(t, "matchLabelKeys", "In")
			apply(t, "mismatchLabelKeys", "NotIn")
		}
		for _, w := range unstructured.Objects(aff, "preferredDuringSchedulingIgnoredDuringExecution") {
			if t := unstructured.Object(w, "podAffinityTerm"); t != nil {
				apply(t, "matchLabelKeys", "In")
				apply(t, "mismatchLabelKeys", "NotIn")
			}
		}
	}
	for _, c := range unstructured.Objects(spec, "topologySpreadConstraints") {
		apply(c, "matchLabelKeys", "In")
	}
}

// addStoredVersion records a CRD's storage version in status.storedVersions when it is not
// there yet, as the CRD strategy does on update (defaulting does it on create).
func addStoredVersion(obj map[string]any) {
	for _, v := range unstructured.Objects(unstructured.Object(obj, "spec"), "versions") {
		if b, _ := v["storage"].(bool); !b {
			continue
		}
		status := unstructured.EnsureObject(obj, "status")
		if !containsString(unstructured.List(status, "storedVersions"), unstructured.Str(v, "name")) {
			status["storedVersions"] = append(unstructured.List(status, "storedVersions"), unstructured.Str(v, "name"))
		}
		return
	}
}

// cleanSecretReferences keeps only the name of a ServiceAccount's secret references.
func cleanSecretReferences(obj map[string]any) {
	for i, s := range unstructured.List(obj, "secrets") {
		ref, _ := s.(map[string]any)
		if name, ok := ref["name"]; ok {
			unstructured.List(obj, "secrets")[i] = map[string]any{"name": name}
		} else {
			unstructured.List(obj, "secrets")[i] = map[string]any{}
		}
	}
}

// pvcDataSources follows the PersistentVolumeClaim strategy (old is the stored spec, nil on
// create): unless the stored claim has a data source, a dataSource that is neither a
// PersistentVolumeClaim nor a VolumeSnapshot is dropped when dataSourceRef is unset; a
// dataSourceRef naming a namespace (CrossNamespaceVolumeDataSource is off) is dropped
// unless the stored claim has one; then each of the two fields is filled from the other.
func pvcDataSources(spec, old map[string]any) {
	if ref := unstructured.Object(spec, "dataSourceRef"); ref != nil && unstructured.Str(ref, "namespace") != "" && (old == nil || old["dataSourceRef"] == nil) {
		delete(spec, "dataSourceRef")
	}
	if old == nil || (old["dataSource"] == nil && old["dataSourceRef"] == nil) {
		if spec["dataSourceRef"] == nil {
			if ds := unstructured.Object(spec, "dataSource"); ds != nil {
				kind, group := unstructured.Str(ds, "kind"), unstructured.Str(ds, "apiGroup")
				if !(kind == "PersistentVolumeClaim" && group == "") && !(kind == "VolumeSnapshot" && group == "snapshot.storage.k8s.io") {
					delete(spec, "dataSource")
				}
			}
		}
	}
	ds, ref := unstructured.Object(spec, "dataSource"), unstructured.Object(spec, "dataSourceRef")
	switch {
	case ds != nil && ref == nil:
		r := map[string]any{"kind": ds["kind"], "name": ds["name"]}
		if g, ok := ds["apiGroup"]; ok {
			r["apiGroup"] = g
		}
		spec["dataSourceRef"] = r
	case ref != nil && ds == nil && unstructured.Str(ref, "namespace") == "":
		d := map[string]any{"kind": ref["kind"], "name": ref["name"]}
		if g, ok := ref["apiGroup"]; ok {
			d["apiGroup"] = g
		}
		spec["dataSource"] = d
	}
}

// dropDeprecatedTopology follows the EndpointSlice strategy for discovery.k8s.io/v1 writes:
// deprecatedTopology is dropped from every endpoint (keeping, as nodeName, a hostname the
// stored slice had there), unless an update leaves the endpoints as stored.
func dropDeprecatedTopology(cfg *serverconfig.Config, obj, old map[string]any) {
	if old != nil && defaulting(cfg).Equal("discovery.k8s.io/v1", "EndpointSlice", defaults.Semantic, obj["endpoints"], old["endpoints"], "endpoints") {
		return
	}
	known := map[string]bool{}
	for _, ep := range unstructured.Objects(old, "endpoints") {
		if n := unstructured.Str(unstructured.Object(ep, "deprecatedTopology"), "kubernetes.io/hostname"); n != "" {
			known[n] = true
		}
	}
	for _, ep := range unstructured.Objects(obj, "endpoints") {
		if n := unstructured.Str(unstructured.Object(ep, "deprecatedTopology"), "kubernetes.io/hostname"); ep["nodeName"] == nil && known[n] && validNodeName(n) {
			ep["nodeName"] = n
		}
		delete(ep, "deprecatedTopology")
	}
}

// daemonSetTemplateGeneration is the annotation through which apps/v1 stores
// a DaemonSet's internal spec.templateGeneration.
const daemonSetTemplateGeneration = "deprecated.daemonset.template.generation"

// Labels the Job strategy adds to a Job's pod template on create (the
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
	spec := unstructured.EnsureObject(obj, "spec")
	if manual, _ := spec["manualSelector"].(bool); manual {
		return
	}
	meta := unstructured.EnsureObject(obj, "metadata")
	tmeta := unstructured.EnsureObject(unstructured.EnsureObject(spec, "template"), "metadata")
	var hadLabels bool
	if decoded != nil {
		hadLabels = len(unstructured.Object(unstructured.Object(decoded, "metadata"), "labels")) > 0
	} else {
		hadLabels = len(unstructured.Object(meta, "labels")) > 0 && !unstructured.Equal(meta["labels"], tmeta["labels"])
	}
	labels := unstructured.EnsureObject(tmeta, "labels")
	for _, k := range []string{legacyJobNameLabel, jobNameLabel} {
		if _, ok := labels[k]; !ok {
			labels[k] = unstructured.Str(meta, "name")
		}
	}
	if !hadLabels {
		meta["labels"] = unstructured.DeepCopy(labels)
	}
}

// PrepareForUpdate applies rest.BeforeUpdate and the main-resource
// PrepareForUpdate, on the server cfg describes, to obj, the defaulted new
// object, given the stored old: generation restored and bumped by the kind's
// rule, status (and the other fields a main-resource write may not change)
// restored from old. decoded is the new object as the server decoded it before
// defaulting (see NeedsDecoded; nil when not kept): without it, an empty list or
// map in the request is not seen by the kinds compared with reflect.DeepEqual.
// decoded is not changed.
//
// The generation moves as the kind's strategy decides, comparing the old and
// new values decoded into the kind's Go type (defaults.Equal): semantically
// for most kinds, so 0 equals 0.0 in a float field and "1Gi" equals "1024Mi";
// with reflect.DeepEqual for webhook configurations and NetworkPolicy.
func PrepareForUpdate(cfg *serverconfig.Config, apiVersion, kind string, decoded, obj, old map[string]any) {
	r := RulesFor(cfg, apiVersion, kind)
	meta := unstructured.EnsureObject(obj, "metadata")
	oldMeta := unstructured.Object(old, "metadata")
	restore(meta, oldMeta, "generation")
	if r.StatusReset {
		restore(obj, old, "status")
	}
	if r.SpecFrozenOnUpdate {
		restore(obj, old, "spec")
	}
	gk := groupOf(apiVersion) + "/" + kind
	// A ResourceSlice's strategy compares the specs before it drops what its features off
	// leave out: a field dropped still moves the generation. The others drop first.
	dropLate := gk == "resource.k8s.io/ResourceSlice"
	if !dropLate {
		dropOffFeatures(cfg, gk, obj, old)
	}
	switch gk {
	case "/Namespace":
		restore(unstructured.EnsureObject(obj, "spec"), unstructured.Object(old, "spec"), "finalizers")
	case "/PersistentVolumeClaim":
		pvcDataSources(unstructured.EnsureObject(obj, "spec"), unstructured.Object(old, "spec"))
	case "/ServiceAccount":
		cleanSecretReferences(obj)
	case "discovery.k8s.io/EndpointSlice":
		dropDeprecatedTopology(cfg, obj, old)
	case "/Pod":
		// Pod-level resources a client unaware of them left out are kept, with
		// PodLevelResourcesFixDefaulting (1.37 on; pkg/registry/core/pod/strategy.go
		// PrepareForUpdate, v1.37.2:112-117).
		if spec := unstructured.EnsureObject(obj, "spec"); spec["resources"] == nil && cfg.Enabled(features.PodLevelResourcesFixDefaulting) {
			if r := unstructured.Nested(old, "spec", "resources"); r != nil {
				spec["resources"] = unstructured.DeepCopy(r)
			}
		}
	case "apiextensions.k8s.io/CustomResourceDefinition":
		addStoredVersion(obj)
	case "/Service":
		serviceUpdate(obj, old, cfg)
	case "/Secret":
		if unstructured.Str(obj, "type") == "" {
			restore(obj, old, "type")
		}
	case "apps/DaemonSet":
		tg := templateGeneration(oldMeta)
		if !defaulting(cfg).Equal(apiVersion, kind, defaults.Semantic, unstructured.Nested(obj, "spec", "template"), unstructured.Nested(old, "spec", "template"), "spec", "template") {
			tg++
		}
		if tg > 0 {
			setAnnotation(meta, daemonSetTemplateGeneration, strconv.FormatInt(tg, 10))
		}
	case "resource.k8s.io/DeviceTaintRule":
		restampTaint(cfg, apiVersion, obj, old)
	}
	eq := defaults.Semantic
	if r.ReflectEqual {
		eq = defaults.Reflect
	}
	// same compares the field at p of obj and old as the strategy does.
	same := func(p ...string) bool {
		if !defaulting(cfg).Equal(apiVersion, kind, eq, unstructured.Nested(obj, p...), unstructured.Nested(old, p...), p...) {
			return false
		}
		return eq != defaults.Reflect || decoded == nil ||
			!defaulting(cfg).HasEmptyCollection(apiVersion, kind, unstructured.Nested(decoded, p...), unstructured.Nested(obj, p...), p...)
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
			!defaulting(cfg).Equal(apiVersion, kind, eq, withoutMetadata(obj), withoutMetadata(old))
	}
	if changed {
		g, _ := unstructured.Int(meta["generation"])
		meta["generation"] = g + 1
	}
	if dropLate {
		dropOffFeatures(cfg, gk, obj, old)
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
func restampTaint(cfg *serverconfig.Config, apiVersion string, obj, old map[string]any) {
	taint := unstructured.Nested(obj, "spec", "taint")
	oldTaint := unstructured.Nested(old, "spec", "taint")
	t, _ := taint.(map[string]any)
	o, _ := oldTaint.(map[string]any)
	if t == nil || unstructured.Str(t, "effect") == unstructured.Str(o, "effect") {
		return
	}
	if defaulting(cfg).Equal(apiVersion, "DeviceTaintRule", defaults.Semantic, t["timeAdded"], o["timeAdded"], "spec", "taint", "timeAdded") {
		delete(t, "timeAdded")
	}
}

// PrepareForStatusUpdate applies the /status strategy: everything but status
// (and the metadata a status write may change) comes from old.
func PrepareForStatusUpdate(cfg *serverconfig.Config, apiVersion, kind string, obj, old map[string]any) {
	meta := unstructured.EnsureObject(obj, "metadata")
	restore(meta, unstructured.Object(old, "metadata"), "generation")
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
	gk := groupOf(apiVersion) + "/" + kind
	if gk == "apps/Deployment" {
		restore(meta, unstructured.Object(old, "metadata"), "labels")
	}
	if gk == "/Pod" {
		// pkg/registry/core/pod/strategy.go podStatusStrategy.PrepareForUpdate (every
		// supported minor): a /status write never sets a deletion timestamp (the generic
		// update keeps a stored one), never changes the owner references (old kubelets
		// corrupted them), and keeps the stored QoS class when it sends none.
		delete(meta, "deletionTimestamp")
		restore(meta, unstructured.Object(old, "metadata"), "ownerReferences")
		if status := unstructured.Object(obj, "status"); status != nil && unstructured.Str(status, "qosClass") == "" {
			if q := unstructured.Str(unstructured.Object(old, "status"), "qosClass"); q != "" {
				status["qosClass"] = q
			}
		}
	}
	if gk == "/Pod" && cfg.AtLeast(37) {
		// Kubernetes 1.37 kept the stored DRA status fields a /status write leaves out
		// (pkg/registry/core/pod/strategy.go podStatusStrategy.PrepareForUpdate,
		// v1.37.2:242-253), for clients that strip fields they do not know; an empty list
		// still clears them. Up to 1.36 leaving them out removes them.
		status, oldStatus := unstructured.EnsureObject(obj, "status"), unstructured.Object(old, "status")
		for _, k := range []string{"resourceClaimStatuses", "extendedResourceClaimStatus", "nodeAllocatableResourceClaimStatuses"} {
			if _, ok := status[k]; !ok && oldStatus[k] != nil {
				status[k] = unstructured.DeepCopy(oldStatus[k])
			}
		}
	}
	dropOffStatusFeatures(cfg, gk, obj, old)
}

// templateGeneration reads a DaemonSet's template generation annotation.
func templateGeneration(meta map[string]any) int64 {
	s, _ := unstructured.Object(meta, "annotations")[daemonSetTemplateGeneration].(string)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func setAnnotation(meta map[string]any, k, v string) {
	unstructured.EnsureObject(meta, "annotations")[k] = v
}

// podQOS computes a Pod's QoS class from its (defaulted) spec, as qos.GetPodQOS does on
// the server cfg. With PodLevelResources (on in every supported minor) pod-level resources
// decide when the pod has them: up to 1.36 whenever spec.resources is there, even empty
// (1.36.3 pkg/apis/core/helper/qos/qos.go ComputePodQOS); with
// PodLevelResourcesFixKubeletQOSClass (1.37 on) only when they name a pod-level resource
// (1.37.2 qos.go, helper.IsPodLevelResourcesSet). Otherwise the containers decide:
// BestEffort without any cpu or memory request or limit, Guaranteed when every container
// limits cpu and memory with requests equal to limits, Burstable otherwise (the two
// releases' algorithms agree there, requests never exceeding limits).
func podQOS(cfg *serverconfig.Config, spec map[string]any) string {
	if res, ok := spec["resources"].(map[string]any); ok && cfg.Enabled(features.PodLevelResources) {
		switch {
		case !cfg.Enabled(features.PodLevelResourcesFixKubeletQOSClass):
			return summedQOS(res)
		case podLevelResourcesSet(res):
			return requirementsQOS(res)
		}
	}
	any, guaranteed := false, true
	for _, key := range []string{"initContainers", "containers"} {
		for _, c := range unstructured.Objects(spec, key) {
			res := unstructured.Object(c, "resources")
			req, lim := unstructured.Object(res, "requests"), unstructured.Object(res, "limits")
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

// summedQOS is the class of one set of requirements as 1.36's ComputePodQOS reads
// pod-level resources: BestEffort without a positive cpu or memory request or limit,
// Guaranteed when cpu and memory are limited and every positive request equals its limit,
// one for one.
func summedQOS(res map[string]any) string {
	positive := func(list map[string]any) map[string]resource.Quantity {
		out := map[string]resource.Quantity{}
		for _, r := range []string{"cpu", "memory"} {
			if q, ok := quantity(list[r]); ok && q.Sign() > 0 {
				out[r] = q
			}
		}
		return out
	}
	reqs, lims := positive(unstructured.Object(res, "requests")), positive(unstructured.Object(res, "limits"))
	if len(reqs) == 0 && len(lims) == 0 {
		return "BestEffort"
	}
	guaranteed := len(lims) == 2 && len(reqs) == len(lims)
	for r, q := range reqs {
		if l, ok := lims[r]; !ok || l.Cmp(q) != 0 {
			guaranteed = false
		}
	}
	if guaranteed {
		return "Guaranteed"
	}
	return "Burstable"
}

// requirementsQOS is 1.37's requirementsQOS: BestEffort without requests or limits; else
// per cpu and memory BestEffort (request and limit zero), Guaranteed (equal, not zero) or
// Burstable; alike, the class, else Burstable.
func requirementsQOS(res map[string]any) string {
	reqs, lims := unstructured.Object(res, "requests"), unstructured.Object(res, "limits")
	if len(reqs) == 0 && len(lims) == 0 {
		return "BestEffort"
	}
	class := ""
	for _, r := range []string{"cpu", "memory"} {
		req, _ := quantity(reqs[r])
		lim, _ := quantity(lims[r])
		c := "Guaranteed"
		switch {
		case req.Cmp(lim) != 0:
			return "Burstable"
		case req.IsZero():
			c = "BestEffort"
		}
		if class != "" && class != c {
			return "Burstable"
		}
		class = c
	}
	return class
}

// podLevelResourcesSet is helper.IsPodLevelResourcesSet: a request or limit of cpu,
// memory or hugepages.
func podLevelResourcesSet(res map[string]any) bool {
	for _, k := range []string{"requests", "limits"} {
		for name := range unstructured.Object(res, k) {
			if name == "cpu" || name == "memory" || strings.HasPrefix(name, "hugepages-") {
				return true
			}
		}
	}
	return false
}

// quantity is a quantity of the encoded form (zero and false when absent or unparsable).
func quantity(v any) (resource.Quantity, bool) {
	if v == nil {
		return resource.Quantity{}, false
	}
	s, err := defaults.CanonicalQuantity(v)
	if err != nil {
		return resource.Quantity{}, false
	}
	q, err := resource.ParseQuantity(s)
	return q, err == nil
}

func isPositive(v any) bool {
	s, ok := v.(string)
	return ok && s != "" && s != "0"
}

// nodeNameRE is a DNS subdomain (RFC 1123), what a node name must be.
var nodeNameRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
})

func validNodeName(n string) bool { return len(n) <= 253 && nodeNameRE().MatchString(n) }
