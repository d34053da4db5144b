package defaults

import "sync"

// defaulterFuncs maps OpenAPI type names to their ported defaulters; it is
// read-only, merged at its first use. The walker runs a type's defaulter only for root
// kinds whose generated defaulters include it (see peerPackages).
var defaulterFuncs = sync.OnceValue(func() map[string]defaulterFunc {
	return merged(
		coreDefaulters, appsDefaulters, batchDefaulters, autoscalingDefaulters, networkingDefaulters,
		rbacDefaulters, storageDefaulters, schedulingDefaulters, discoveryDefaulters,
		admissionregistrationDefaulters, flowcontrolDefaulters, resourceDefaulters, apiextensionsDefaulters,
	)
})

// gatedDefaulterFuncs are the ported defaulters that consult feature gates, which take the
// gates' defaults at the minor defaulted; read-only, merged at its first use.
var gatedDefaulterFuncs = sync.OnceValue(func() map[string]gatedDefaulterFunc {
	return merged(coreGatedDefaulters, appsGatedDefaulters, storageGatedDefaulters)
})

func merged[F any](ms ...map[string]F) map[string]F {
	out := map[string]F{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
