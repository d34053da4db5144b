package defaults

import "testing"

// Equal compares values as the registry strategies compare decoded Go objects
// (apiequality.Semantic, or reflect.DeepEqual for a few kinds).
func TestEqual(t *testing.T) {
	schemaProps := func(kv ...any) map[string]any {
		m := map[string]any{"type": "integer"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return map[string]any{"versions": []any{map[string]any{"name": "v1",
			"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object",
				"properties": map[string]any{"port": m}}}}}}
	}
	container := func(res map[string]any) map[string]any {
		return map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{
			map[string]any{"name": "web", "image": "nginx", "resources": res}}}}}
	}
	tests := []struct {
		name       string
		apiVersion string
		kind       string
		eq         Equality
		path       []string
		a, b       any
		want       bool
	}{
		{"a float64 field: integer 0 equals 0.0 (issue 20)", "apiextensions.k8s.io/v1", "CustomResourceDefinition", Semantic, []string{"spec"},
			schemaProps("minimum", int64(0), "maximum", int64(65535)), schemaProps("minimum", float64(0), "maximum", float64(65535)), true},
		{"a float64 field: 1 and 1.5 differ", "apiextensions.k8s.io/v1", "CustomResourceDefinition", Semantic, []string{"spec"},
			schemaProps("minimum", int64(1)), schemaProps("minimum", 1.5), false},
		{"a float64 field: missing differs from 0 (a pointer)", "apiextensions.k8s.io/v1", "CustomResourceDefinition", Semantic, []string{"spec"},
			schemaProps(), schemaProps("minimum", float64(0)), false},
		{"additionalProperties: true differs from {}", "apiextensions.k8s.io/v1", "CustomResourceDefinition", Semantic, []string{"spec"},
			schemaProps("additionalProperties", true), schemaProps("additionalProperties", map[string]any{}), false},
		{"quantities compare by value", "apps/v1", "Deployment", Semantic, []string{"spec"},
			container(map[string]any{"requests": map[string]any{"memory": "1073741824", "cpu": "0.5"}}),
			container(map[string]any{"requests": map[string]any{"memory": "1Gi", "cpu": "500m"}}), true},
		{"quantities compare as written with reflect.DeepEqual", "apps/v1", "Deployment", Reflect, []string{"spec"},
			container(map[string]any{"requests": map[string]any{"memory": "1073741824"}}),
			container(map[string]any{"requests": map[string]any{"memory": "1Gi"}}), false},
		{"different quantities differ", "apps/v1", "Deployment", Semantic, []string{"spec"},
			container(map[string]any{"limits": map[string]any{"memory": "1Gi"}}),
			container(map[string]any{"limits": map[string]any{"memory": "1G"}}), false},
		{"a missing string is empty", "apps/v1", "Deployment", Semantic, []string{"spec"},
			map[string]any{"minReadySeconds": int64(0)}, map[string]any{}, true},
		{"a missing list is an empty one (semantic)", "apps/v1", "Deployment", Semantic, []string{"spec"},
			container(map[string]any{}), map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{
				map[string]any{"name": "web", "image": "nginx", "resources": map[string]any{}, "args": []any{}}}}}}, true},
		{"an int-or-string 1 differs from \"1\"", "apps/v1", "Deployment", Semantic, []string{"spec"},
			map[string]any{"strategy": map[string]any{"rollingUpdate": map[string]any{"maxSurge": int64(1)}}},
			map[string]any{"strategy": map[string]any{"rollingUpdate": map[string]any{"maxSurge": "1"}}}, false},
		{"times compare by instant", "batch/v1", "CronJob", Semantic, []string{"status"},
			map[string]any{"lastScheduleTime": "2026-01-01T10:00:00Z"}, map[string]any{"lastScheduleTime": "2026-01-01T11:00:00+01:00"}, true},
		{"unknown fields are dropped by decoding", "v1", "ConfigMap", Semantic, nil,
			map[string]any{"data": map[string]any{"a": "b"}, "bogus": int64(1)}, map[string]any{"data": map[string]any{"a": "b"}}, true},
		{"annotations: a missing map is an empty one", "apps/v1", "Deployment", Semantic, []string{"metadata", "annotations"},
			nil, map[string]any{}, true},
		{"a value not of its type compares as JSON", "apps/v1", "Deployment", Semantic, []string{"spec"},
			map[string]any{"replicas": "two"}, map[string]any{"replicas": "two"}, true},
		{"an unknown kind compares as JSON", "example.com/v1", "Widget", Semantic, []string{"spec"},
			map[string]any{"n": int64(0)}, map[string]any{"n": float64(0)}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := newest().Equal(tc.apiVersion, tc.kind, tc.eq, tc.a, tc.b, tc.path...); got != tc.want {
				t.Errorf("Equal = %v, want %v", got, tc.want)
			}
			if got := newest().Equal(tc.apiVersion, tc.kind, tc.eq, tc.b, tc.a, tc.path...); got != tc.want {
				t.Errorf("Equal with the values swapped = %v, want %v", got, tc.want)
			}
		})
	}
}

// HasEmptyCollection finds the empty lists and maps of a request that
// defaulting leaves empty: reflect.DeepEqual tells them from the nil ones
// storage gives back (a NetworkPolicy applied with ingress: [] gets a new
// generation on every apply; recorded from kube-apiserver 1.37.2).
func TestHasEmptyCollection(t *testing.T) {
	tests := []struct {
		name                string
		requested, defaults map[string]any
		want                bool
	}{
		{"ingress: [] stays empty", map[string]any{"podSelector": map[string]any{}, "ingress": []any{}},
			map[string]any{"podSelector": map[string]any{}, "policyTypes": []any{"Ingress"}}, true},
		{"policyTypes: [] is defaulted", map[string]any{"podSelector": map[string]any{}, "policyTypes": []any{}},
			map[string]any{"podSelector": map[string]any{}, "policyTypes": []any{"Ingress"}}, false},
		{"matchLabels: {} inside a struct", map[string]any{"podSelector": map[string]any{"matchLabels": map[string]any{}}},
			map[string]any{"podSelector": map[string]any{}, "policyTypes": []any{"Ingress"}}, true},
		{"an empty list in a list item", map[string]any{"ingress": []any{map[string]any{"from": []any{}}}},
			map[string]any{"ingress": []any{map[string]any{}}}, true},
		{"no empty collection", map[string]any{"podSelector": map[string]any{"matchLabels": map[string]any{"a": "b"}}},
			map[string]any{"podSelector": map[string]any{"matchLabels": map[string]any{"a": "b"}}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := newest().HasEmptyCollection("networking.k8s.io/v1", "NetworkPolicy", tc.requested, tc.defaults, "spec"); got != tc.want {
				t.Errorf("HasEmptyCollection = %v, want %v", got, tc.want)
			}
		})
	}
}
