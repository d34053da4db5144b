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

// named is a ported defaulter under the OpenAPI name of its type. Each group's defaulters
// are a list of them: data the linker lays out, where map literals would be built at every
// start of the program for a table only defaulting reads.
type named[F any] struct {
	name string
	f    F
}

// merged is the groups' lists as one map; a name in a later list wins.
func merged[F any](lists ...[]named[F]) map[string]F {
	out := map[string]F{}
	for _, l := range lists {
		for _, d := range l {
			out[d.name] = d.f
		}
	}
	return out
}
