package defaults

import (
	"encoding/base64"
	"strconv"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// Conversion effects: kube-apiserver converts every object from its request
// version to its internal version and back (and to the storage version).
// Most conversions are lossless; these are the ones that change the object.

// converters maps root type names to their conversion effect; read-only.
var converters = map[string]func(m map[string]any){
	"io.k8s.api.core.v1.Secret":      convertSecret,
	"io.k8s.api.apps.v1.StatefulSet": convertStatefulSet,
	"io.k8s.api.core.v1.Node":        convertNode,
	"io.k8s.api.apps.v1.DaemonSet":   convertDaemonSet,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition": convertCRD,
	// 1.38: the types' own module, k8s.io/apiextensions-api.
	"io.k8s.apiextensions-api.pkg.apis.apiextensions.v1.CustomResourceDefinition": convertCRD,
}

// daemonSetTemplateGeneration is the annotation that carries a DaemonSet's
// internal spec.templateGeneration in apps/v1.
const daemonSetTemplateGeneration = "deprecated.daemonset.template.generation"

// convertDaemonSet follows Convert_v1_DaemonSet_To_apps_DaemonSet and back:
// the template generation annotation is always written, as a canonical
// integer (0 when absent).
func convertDaemonSet(m map[string]any) {
	meta := unstructured.EnsureObject(m, "metadata")
	var n int64
	if s, ok := unstructured.Object(meta, "annotations")[daemonSetTemplateGeneration].(string); ok {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return // the server rejects the object
		}
		n = v
	}
	unstructured.EnsureObject(meta, "annotations")[daemonSetTemplateGeneration] = strconv.FormatInt(n, 10)
}

// convertCRD follows the CustomResourceConversion conversions: a webhook
// block without clientConfig and without conversionReviewVersions is dropped.
func convertCRD(m map[string]any) {
	conv := unstructured.NestedObject(m, "spec", "conversion")
	wh := unstructured.Object(conv, "webhook")
	if wh != nil && wh["clientConfig"] == nil && len(unstructured.List(wh, "conversionReviewVersions")) == 0 {
		delete(conv, "webhook")
	}
}

// convertSecret follows Convert_v1_Secret_To_core_Secret: stringData is
// written over data (base64-encoded) and is never stored.
func convertSecret(m map[string]any) {
	sd := unstructured.Object(m, "stringData")
	delete(m, "stringData")
	if len(sd) == 0 {
		return
	}
	data := unstructured.EnsureObject(m, "data")
	for k, v := range sd {
		s, _ := v.(string)
		data[k] = base64.StdEncoding.EncodeToString([]byte(s))
	}
}

// convertStatefulSet follows Convert_apps_StatefulSetSpec_To_v1_StatefulSetSpec:
// volume claim templates carry apiVersion v1 and kind PersistentVolumeClaim.
func convertStatefulSet(m map[string]any) {
	for _, t := range unstructured.Objects(unstructured.NestedObject(m, "spec"), "volumeClaimTemplates") {
		t["apiVersion"] = "v1"
		t["kind"] = "PersistentVolumeClaim"
	}
}

// convertNode follows Convert_v1_NodeSpec_To_core_NodeSpec and back: a
// given podCIDR that podCIDRs does not start with replaces podCIDRs; podCIDR
// is then the first of podCIDRs.
func convertNode(m map[string]any) {
	spec := unstructured.Object(m, "spec")
	if spec == nil {
		return
	}
	if c := unstructured.Str(spec, "podCIDR"); c != "" {
		cidrs := unstructured.List(spec, "podCIDRs")
		if len(cidrs) == 0 || cidrs[0] != c {
			spec["podCIDRs"] = []any{c}
		}
	}
	if cidrs := unstructured.List(spec, "podCIDRs"); len(cidrs) > 0 {
		spec["podCIDR"] = cidrs[0]
	}
}

// EmptyObject returns the JSON encoding of a built-in kind's Go zero value
// (rules.md create.empty-object), e.g. {"metadata":{},"spec":{"containers":null},"status":{}}
// for a Pod: the "old" object of a create.
func (r Release) EmptyObject(apiVersion, kind string) (map[string]any, bool) {
	t, ok := r.rootType(apiVersion, kind)
	if !ok {
		return nil, false
	}
	e, err := roundTrip(t, nil)
	if err != nil {
		return nil, false
	}
	return e.value.(map[string]any), true
}
