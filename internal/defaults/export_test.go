package defaults

import "math/rand/v2"

// RandomObject is randomValue of the kind's root type, for the tests of package
// defaults_test: an object of apiVersion and kind as a client might send it.
func RandomObject(r Release, rng *rand.Rand, apiVersion, kind string) map[string]any {
	t, ok := r.rootType(apiVersion, kind)
	if !ok {
		return nil
	}
	obj, _ := randomValue(rng, t, 9).(map[string]any)
	if obj == nil {
		obj = map[string]any{}
	}
	obj["apiVersion"], obj["kind"] = apiVersion, kind
	return obj
}

// KindKeys are the release's kinds as "apiVersion/Kind".
func KindKeys(r Release) []string {
	kinds := r.r.kinds()
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.key()
	}
	return out
}
