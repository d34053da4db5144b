package defaults

import (
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"k8s.io/apimachinery/pkg/api/resource"
)

// PodLevelResources defaults a pod's pod-level resources (spec.resources) from its
// containers' (already defaulted) resources, as kube-apiserver does in one of two places:
//
//   - up to 1.36, SetDefaults_Pod (pkg/apis/core/v1/defaults.go defaultHugePagePodLimits,
//     defaultPodRequests; fix false): hugepage limits from the containers' aggregated
//     limits, then — only when pod-level limits are set — requests from the containers'
//     aggregated requests (cpu and memory) and from the pod-level limits;
//   - from 1.37, with PodLevelResourcesFixDefaulting, the pod strategy's PrepareForCreate
//     (pkg/api/pod/util.go DefaultPodLevelResources, v1.37.2:2253; fix true): the same
//     hugepage limits, requests defaulted when requests or limits are set, then limits of
//     the requested resources every container limits, at the larger of the pod-level
//     request and the containers' aggregated limits.
//
// Only cpu, memory and hugepages are pod-level resources. spec is changed in place.
func PodLevelResources(spec map[string]any, fix bool) {
	res, _ := spec["resources"].(map[string]any)
	if res == nil {
		return
	}
	reqs, lims := quantities(unstructured.Object(res, "requests")), quantities(unstructured.Object(res, "limits"))
	if len(reqs) == 0 && len(lims) == 0 {
		return
	}
	aggLims := aggregatedContainerResources(spec, "limits")
	// Hugepage limits from the containers', unless the pod requests the size.
	for name, q := range aggLims {
		if _, ok := reqs[name]; !ok && isHugePages(name) {
			if _, ok := lims[name]; !ok {
				lims[name] = q
			}
		}
	}
	// Requests: up to 1.36 only with pod-level limits.
	if fix || len(lims) > 0 {
		for name, q := range aggregatedContainerResources(spec, "requests") {
			if _, ok := reqs[name]; !ok && (name == "cpu" || name == "memory") {
				reqs[name] = q
			}
		}
		for name, q := range lims {
			if _, ok := reqs[name]; !ok && isPodLevelResource(name) {
				reqs[name] = q.DeepCopy()
			}
		}
	}
	if fix {
		// Limits of the requested resources that every container limits.
		for name, req := range reqs {
			if _, ok := lims[name]; ok || !isPodLevelResource(name) || !everyContainerLimits(spec, name) {
				continue
			}
			q, ok := aggLims[name]
			if !ok {
				continue
			}
			if req.Cmp(q) > 0 {
				q = req
			}
			lims[name] = q
		}
	}
	setQuantities(res, "requests", reqs)
	setQuantities(res, "limits", lims)
}

// isPodLevelResource: cpu, memory and hugepages (component-helpers
// IsSupportedPodLevelResource).
func isPodLevelResource(name string) bool {
	return name == "cpu" || name == "memory" || isHugePages(name)
}

func isHugePages(name string) bool { return strings.HasPrefix(name, "hugepages-") }

// quantities are a resource list's values parsed; unparsable ones are left out (validation
// refuses them).
func quantities(m map[string]any) map[string]resource.Quantity {
	out := make(map[string]resource.Quantity, len(m))
	for name, v := range m {
		if q, ok := quantityOrZero(v); ok && v != nil {
			out[name] = q
		}
	}
	return out
}

// setQuantities writes list under k of res, as the server stores quantities; an empty
// list is not written (nor was one there: a defaulted list only grows).
func setQuantities(res map[string]any, k string, list map[string]resource.Quantity) {
	if len(list) == 0 {
		return
	}
	m := unstructured.EnsureObject(res, k)
	for name, q := range list {
		if _, ok := m[name]; !ok {
			m[name] = q.String()
		}
	}
}

// aggregatedContainerResources is what a pod's containers need together of their
// resources' requests or limits (component-helpers AggregateContainerRequests and
// AggregateContainerLimits, no status): the regular containers and sidecars summed, or the
// largest need while an init container runs (it and the sidecars started before it),
// whichever is larger, per resource.
func aggregatedContainerResources(spec map[string]any, which string) map[string]resource.Quantity {
	of := func(c map[string]any) map[string]resource.Quantity {
		return quantities(unstructured.Object(unstructured.Object(c, "resources"), which))
	}
	total := map[string]resource.Quantity{}
	for _, c := range unstructured.Objects(spec, "containers") {
		addQuantities(total, of(c))
	}
	sidecars := map[string]resource.Quantity{}
	peak := map[string]resource.Quantity{}
	for _, c := range unstructured.Objects(spec, "initContainers") {
		own := of(c)
		need := map[string]resource.Quantity{}
		if unstructured.Str(c, "restartPolicy") == "Always" {
			addQuantities(total, own)
			addQuantities(sidecars, own)
			addQuantities(need, sidecars)
		} else {
			addQuantities(need, own)
			addQuantities(need, sidecars)
		}
		for name, q := range need {
			if p, ok := peak[name]; !ok || q.Cmp(p) > 0 {
				peak[name] = q
			}
		}
	}
	for name, q := range peak {
		if t, ok := total[name]; !ok || q.Cmp(t) > 0 {
			total[name] = q
		}
	}
	return total
}

func addQuantities(list, more map[string]resource.Quantity) {
	for name, q := range more {
		if v, ok := list[name]; ok {
			v.Add(q)
			list[name] = v
		} else {
			list[name] = q.DeepCopy()
		}
	}
}

// everyContainerLimits: every container of the pod — init, regular and ephemeral —
// limits the resource (pkg/api/pod/util.go aggregateContainerLimits).
func everyContainerLimits(spec map[string]any, name string) bool {
	for _, key := range []string{"initContainers", "containers", "ephemeralContainers"} {
		for _, c := range unstructured.Objects(spec, key) {
			if _, ok := unstructured.Object(unstructured.Object(c, "resources"), "limits")[name]; !ok {
				return false
			}
		}
	}
	return true
}
