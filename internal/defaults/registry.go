package defaults

// defaulterFuncs maps OpenAPI type names to their ported defaulters; it is
// read-only. The walker runs a type's defaulter only for root kinds whose
// generated defaulters include it (see peerPackages).
var defaulterFuncs = merged(
	coreDefaulters, appsDefaulters, batchDefaulters, autoscalingDefaulters, networkingDefaulters,
	rbacDefaulters, storageDefaulters, schedulingDefaulters, discoveryDefaulters,
	admissionregistrationDefaulters, flowcontrolDefaulters, resourceDefaulters, apiextensionsDefaulters,
)

func merged(ms ...map[string]defaulterFunc) map[string]defaulterFunc {
	out := map[string]defaulterFunc{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
