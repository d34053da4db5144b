package schema

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/kube"
)

// FuzzAddOpenAPI reads arbitrary bytes as an OpenAPI document (v2 or v3, JSON or YAML).
// Nothing may panic; a failure is an *Error and leaves the registry as it was; reading the
// same document into two registries gives the same answer; every kind it defines resolves,
// and converts and defaults an object of its own without panicking.
func FuzzAddOpenAPI(f *testing.F) {
	for _, name := range []string{"v3-api-v1-services.yaml", "v3-apis-db.example.com-v1.json", "v2-db.example.com-v1.json"} {
		f.Add(readTestdata(f, filepath.Join("openapi", name)))
	}
	f.Add([]byte(`{"openapi":"3.0.0","components":{"schemas":{"a.B":{"type":"object","x-kubernetes-group-version-kind":[{"group":"a","version":"v1","kind":"B"}],"properties":{"spec":{"$ref":"#/components/schemas/a.B"},"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","properties":{"k":{"type":"string","default":"x"}}}}}}}}}`))
	f.Add([]byte(`{"swagger":"2.0","definitions":{"x":{"type":"object","x-kubernetes-group-version-kind":[{"group":"","version":"v1","kind":"ConfigMap"}],"properties":{"data":{"type":"object","additionalProperties":{"type":"string"}}}}}}`))
	base := MustNewRegistry(kube.Default())
	f.Fuzz(func(t *testing.T, data []byte) {
		answer := func() (*Registry, string) {
			r := cloneRegistry(base)
			before := fmt.Sprint(r.GVKs())
			warnings, err := r.AddOpenAPI("fuzz.json", data)
			if err != nil {
				var se *Error
				if !errors.As(err, &se) {
					t.Fatalf("error is not a *Error: %v", err)
				}
				if fmt.Sprint(r.GVKs()) != before {
					t.Fatal("a failed AddOpenAPI changed the registry")
				}
				return nil, "error: " + err.Error()
			}
			return r, fmt.Sprintf("%q %v", warnings, r.GVKs())
		}
		r, first := answer()
		if _, second := answer(); first != second {
			t.Fatalf("two reads differ:\n%s\n---\n%s", first, second)
		}
		if r != nil {
			exerciseTypes(t, r, SourceBuiltin)
		}
	})
}

// FuzzAddCRDObject adds an arbitrary decoded object as a CustomResourceDefinition, the way
// the command adds the CRDs it finds among its inputs.
func FuzzAddCRDObject(f *testing.F) {
	f.Add(readTestdata(f, filepath.Join("crds", "postgresclusters.yaml")))
	for _, p := range []string{filepath.Join("..", "testdata", "examples", "crd-backup", "crd.yaml")} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	fx, _ := filepath.Glob(filepath.Join(testkit.RecordedDir(f), "*", "crds.yaml"))
	for _, p := range fx {
		if data, err := os.ReadFile(p); err == nil {
			for _, doc := range strings.Split(string(data), "\n---\n") {
				f.Add([]byte(doc))
			}
		}
	}
	base := MustNewRegistry(kube.Default())
	f.Fuzz(func(t *testing.T, data []byte) {
		var obj map[string]any
		if yaml.Unmarshal(data, &obj) != nil || obj == nil {
			return
		}
		answer := func() (*Registry, string) {
			r := cloneRegistry(base)
			before := fmt.Sprint(r.GVKs())
			if err := r.AddCRDObject("fuzz.yaml", obj); err != nil {
				var se *Error
				if !errors.As(err, &se) {
					t.Fatalf("error is not a *Error: %v", err)
				}
				if fmt.Sprint(r.GVKs()) != before {
					t.Fatal("a failed AddCRDObject changed the registry")
				}
				return nil, "error: " + err.Error()
			}
			return r, fmt.Sprint(r.GVKs())
		}
		r, first := answer()
		if _, second := answer(); first != second {
			t.Fatalf("two reads differ:\n%s\n---\n%s", first, second)
		}
		if r != nil {
			exerciseTypes(t, r, SourceBuiltin)
		}
	})
}

// cloneRegistry copies a registry: building the embedded schema again for every input
// would make fuzzing (whose instrumentation slows it a hundredfold) crawl. The built-in
// kinds made are shared: adding kinds never changes them (fuzzing never calls
// ServeBuiltin, and runs one input at a time).
func cloneRegistry(r *Registry) *Registry {
	return &Registry{version: r.version, release: r.release, builtins: r.builtins, served: maps.Clone(r.served),
		servedGroups: maps.Clone(r.servedGroups), crdGroups: maps.Clone(r.crdGroups), types: maps.Clone(r.types),
		versions: maps.Clone(r.versions), scale: r.scale}
}

// exerciseTypes converts and defaults a small object of every kind not from source skip.
func exerciseTypes(t *testing.T, r *Registry, skip Source) {
	gvks := r.GVKs()
	sort.Slice(gvks, func(i, j int) bool { return gvks[i].String() < gvks[j].String() })
	for _, gvk := range gvks {
		typ, _ := r.Lookup(gvk)
		if typ.Source == skip {
			continue
		}
		if !typ.Parseable.IsValid() {
			t.Fatalf("%v: the type does not resolve", gvk)
		}
		obj := map[string]any{"apiVersion": gvk.APIVersion(), "kind": gvk.Kind,
			"metadata": map[string]any{"name": "x", "namespace": "ns"},
			"spec":     map[string]any{"a": "b", "l": []any{map[string]any{"k": "v"}}, "n": int64(1)}}
		if typ.Default != nil {
			typ.Default(obj)
		}
		_, _ = typ.Parseable.FromUnstructured(obj)
	}
}
