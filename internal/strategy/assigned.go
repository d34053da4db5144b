package strategy

import (
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// AssignedField is a value the server assigns when it stores an object and
// that an offline prediction cannot know: a generated uid, the time, an
// allocated IP or port. A prediction reports these as "assigned by the
// server" instead of inventing them.
type AssignedField struct {
	// Path names the field: string elements are object fields, int elements
	// list indices (e.g. ["spec", "ports", 0, "nodePort"]).
	Path []any
	// Reason says in a few words who assigns it.
	Reason string
}

// String renders the path in the catalog's dotted form
// (".spec.ports[0].nodePort").
func (a AssignedField) String() string {
	var b strings.Builder
	for _, e := range a.Path {
		switch x := e.(type) {
		case string:
			b.WriteByte('.')
			b.WriteString(x)
		case int:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(x))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// Assigned lists the fields the server will assign in obj, the predicted
// object of a write that stores it (create is true for a create): fields
// absent from obj that the stored object will have, with a value nobody can
// predict. A value given in the request, or kept from the stored object, is
// not assigned; where a whole object is missing (a Job's generated
// selector), the path names it rather than its contents.
//
//   - every write: metadata.resourceVersion;
//   - a create: metadata.uid and metadata.creationTimestamp (and the name,
//     from generateName);
//   - a Service that is not ExternalName: clusterIP and clusterIPs when not
//     headless and not given, ipFamilies when neither given nor implied by
//     the cluster IPs (the cluster's families), the nodePort of each port of
//     a NodePort Service (or LoadBalancer allocating node ports) that has
//     none, and healthCheckNodePort of a LoadBalancer with
//     externalTrafficPolicy Local;
//   - a Job created without manualSelector: the controller-uid labels of its
//     pod template (and of its own labels when they are the template's), and
//     the selector's controller-uid term;
//   - a PersistentVolume created: status.lastPhaseTransitionTime;
//   - device taints (ResourceSlice devices, DeviceTaintRule) without a
//     timeAdded: the time of the write.
func Assigned(apiVersion, kind string, obj map[string]any, create bool) []AssignedField {
	var out []AssignedField
	add := func(reason string, p ...any) { out = append(out, AssignedField{Path: p, Reason: reason}) }
	meta := unstructured.Object(obj, "metadata")
	if create {
		if g := unstructured.Str(meta, "generateName"); g != "" && (unstructured.Str(meta, "name") == "" || unstructured.Str(meta, "name") == GeneratedName(g)) {
			add("generated from generateName", "metadata", "name")
			if apiVersion == "v1" && kind == "Namespace" {
				// The label naming a namespace holds the generated name too.
				add("generated from generateName", "metadata", "labels", "kubernetes.io/metadata.name")
			}
		}
		add("generated uid", "metadata", "uid")
		add("time of the create", "metadata", "creationTimestamp")
	}
	add("etcd revision", "metadata", "resourceVersion")
	switch groupOf(apiVersion) + "/" + kind {
	case "/Service":
		serviceAssigned(unstructured.Object(obj, "spec"), add)
	case "batch/Job":
		if create {
			jobAssigned(obj, add)
		}
	case "/Pod":
		for i, c := range unstructured.Objects(unstructured.Object(obj, "status"), "conditions") {
			if create && c["lastTransitionTime"] == nil {
				add("time of the create", "status", "conditions", i, "lastTransitionTime")
			}
		}
	case "/PersistentVolume":
		if create && unstructured.Nested(obj, "status", "lastPhaseTransitionTime") == nil {
			add("time of the create", "status", "lastPhaseTransitionTime")
		}
	case "certificates.k8s.io/CertificateSigningRequest":
		if create {
			add("the requesting user", "spec", "username")
			add("the requesting user", "spec", "groups")
		}
	case "apiregistration.k8s.io/APIService":
		for i, c := range unstructured.Objects(unstructured.Object(obj, "status"), "conditions") {
			if c["lastTransitionTime"] == nil {
				add("time of the write", "status", "conditions", i, "lastTransitionTime")
			}
		}
	case "resource.k8s.io/ResourceSlice":
		for i, d := range unstructured.Objects(unstructured.Object(obj, "spec"), "devices") {
			for j, t := range unstructured.Objects(d, "taints") {
				if t["timeAdded"] == nil {
					add("time of the write", "spec", "devices", i, "taints", j, "timeAdded")
				}
			}
		}
	case "resource.k8s.io/DeviceTaintRule":
		if taint, ok := unstructured.Nested(obj, "spec", "taint").(map[string]any); ok && taint["timeAdded"] == nil {
			add("time of the write", "spec", "taint", "timeAdded")
		}
	}
	return out
}

// serviceAssigned names what the Service allocators fill in spec, the
// predicted spec once the values that follow from the object are derived.
func serviceAssigned(spec map[string]any, add func(string, ...any)) {
	if !needsClusterIP(spec) {
		return
	}
	headless := unstructured.Str(spec, "clusterIP") == clusterIPNone
	if !headless {
		if unstructured.Str(spec, "clusterIP") == "" {
			add("allocated from the service CIDR", "spec", "clusterIP")
		}
		fams := unstructured.List(spec, "ipFamilies")
		if ips := unstructured.List(spec, "clusterIPs"); len(ips) == 0 || len(ips) < len(fams) {
			add("allocated from the service CIDR", "spec", "clusterIPs")
		}
	}
	if len(unstructured.List(spec, "ipFamilies")) == 0 {
		add("the cluster's IP families", "spec", "ipFamilies")
	}
	if needsNodePorts(spec) {
		for i, p := range unstructured.Objects(spec, "ports") {
			if n, _ := unstructured.Int(p["nodePort"]); n == 0 {
				add("allocated node port", "spec", "ports", i, "nodePort")
			}
		}
	}
	if needsHealthCheck(spec) {
		if n, _ := unstructured.Int(spec["healthCheckNodePort"]); n == 0 {
			add("allocated node port", "spec", "healthCheckNodePort")
		}
	}
}

// jobAssigned names the uid-based values the Job strategy adds on create.
func jobAssigned(obj map[string]any, add func(string, ...any)) {
	spec := unstructured.Object(obj, "spec")
	if manual, _ := spec["manualSelector"].(bool); manual {
		return
	}
	const reason = "the job's uid"
	selector, ok := spec["selector"].(map[string]any)
	switch {
	case !ok:
		add(reason, "spec", "selector")
	case unstructured.Object(selector, "matchLabels") == nil:
		add(reason, "spec", "selector", "matchLabels")
	default:
		if _, ok := unstructured.Object(selector, "matchLabels")[controllerUIDLabel]; !ok {
			add(reason, "spec", "selector", "matchLabels", controllerUIDLabel)
		}
	}
	tl := unstructured.Object(unstructured.Object(unstructured.Object(spec, "template"), "metadata"), "labels")
	meta := unstructured.Object(obj, "metadata")
	// Labels copied from the template when the Job had none of its own carry
	// the same generated values.
	mirrored := len(tl) > 0 && unstructured.Equal(meta["labels"], unstructured.Nested(spec, "template", "metadata", "labels"))
	for _, k := range []string{legacyControllerUIDLabel, controllerUIDLabel} {
		if _, ok := tl[k]; ok {
			continue
		}
		add(reason, "spec", "template", "metadata", "labels", k)
		if mirrored {
			add(reason, "metadata", "labels", k)
		}
	}
}
