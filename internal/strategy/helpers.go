package strategy

import (
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

func containsString(l []any, s string) bool {
	for _, v := range l {
		if v == s {
			return true
		}
	}
	return false
}

// restore copies field k from old into m, or removes it when old lacks it.
func restore(m, old map[string]any, k string) {
	if v, ok := old[k]; ok {
		m[k] = unstructured.DeepCopy(v)
	} else {
		delete(m, k)
	}
}
