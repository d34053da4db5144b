package strategy

import (
	"math"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func object(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}

func ensureObject(m map[string]any, k string) map[string]any {
	if o, ok := m[k].(map[string]any); ok {
		return o
	}
	o := map[string]any{}
	m[k] = o
	return o
}

func list(m map[string]any, k string) []any {
	l, _ := m[k].([]any)
	return l
}

func objects(m map[string]any, k string) []map[string]any {
	var out []map[string]any
	for _, item := range list(m, k) {
		if o, ok := item.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}

func path(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

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

func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	case float64:
		if x == math.Trunc(x) {
			return int64(x), true
		}
	}
	return 0, false
}
