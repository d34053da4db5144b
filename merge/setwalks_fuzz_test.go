package merge_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/ssa-diff/ssa-diff/merge"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
	"sigs.k8s.io/yaml"
)

// gadgetCRD has a field of every list and map kind a CRD can declare: a list-map with
// two keys (one defaulted), a set, an atomic list, an atomic object, a granular map of
// strings, an object that preserves unknown fields with no properties (typed as
// structured-merge-diff's deduced type) and one with some, an int-or-string.
const gadgetCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.walk.example.com}
spec:
  group: walk.example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port, protocol]
                items:
                  type: object
                  required: [port]
                  properties:
                    port: {type: integer}
                    protocol: {type: string, default: TCP}
                    name: {type: string}
                    tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}
              tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}
              args: {type: array, items: {type: string}, x-kubernetes-list-type: atomic}
              rules:
                type: array
                x-kubernetes-list-type: atomic
                items: {type: object, properties: {name: {type: string}, value: {type: string}}}
              selector:
                type: object
                x-kubernetes-map-type: atomic
                properties:
                  matchLabels: {type: object, additionalProperties: {type: string}}
                  name: {type: string}
              labels: {type: object, additionalProperties: {type: string}}
              blob: {type: object, x-kubernetes-preserve-unknown-fields: true}
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties: {name: {type: string}, value: {type: integer}}
              size: {x-kubernetes-int-or-string: true}
          status:
            type: object
            properties: {phase: {type: string}}
`

const gadgetBase = `
apiVersion: walk.example.com/v1
kind: Gadget
metadata: {name: g, namespace: ns, labels: {app: g}}
spec:
  ports: [{port: 80, name: http, tags: [a, b]}, {port: 80, protocol: UDP}, {port: 443, protocol: TCP}]
  tags: [x, "y"]
  args: [--a, --b]
  rules: [{name: a, value: b}]
  selector: {matchLabels: {app: g}, name: "n"}
  labels: {a: b}
  blob: {a: [1, 2], b: {c: d}, e: null}
  extra: {name: "n", value: 1, more: {x: ["y"]}}
  size: 3
status: {phase: Ready}
`

// FuzzSetWalks holds the engine's own walks of values and field sets (merge/valuewalks.go,
// merge/setwalks.go) to structured-merge-diff's under real schemas (a Deployment, a
// Service, a ConfigMap, two custom resources with every list and map kind): validates to
// the typing's validation and sameValue to value.Equals on random objects, with
// duplicates refused or allowed, compareValues to TypedValue.Compare on two objects and
// on one and its merge with the other, fieldSetOf to TypedValue.ToFieldSet on the object
// and on that merge, reconcileKeeps to
// ReconcileFieldSetWithSchema on random sets (subsets of the object's fields as its
// schema and as the deduced type see them, with random paths below them). Each must give
// structured-merge-diff's answer whenever it gives one.
func FuzzSetWalks(f *testing.F) {
	reg, bases := walkFuzzKinds(f)
	for _, seed := range []string{"", "\x00", "\x05", "\x06\x01\x02\x03", "\x05\x03\x04\x00\x01\x02\x05\x06\x07\x08", "\x00\x04\x80\x81\x82\x83\x84\x85\x86",
		"\x01\x02\x00\x00\x03\x03\x03\x01\x09\x09\x09", "\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &fuzzGen{data: data}
		base, typ := g.kind(reg, bases)
		obj := merge.FuzzCopy(base)
		g.mutate(obj)
		if typ == nil {
			return
		}
		var opts []typed.ValidationOptions
		allowDuplicates := g.intn(3) == 0
		if allowDuplicates {
			opts = append(opts, typed.AllowDuplicates)
		}
		tv, err := typ.Parseable.FromUnstructured(obj, opts...)
		if merge.Validates(typ.Parseable.Schema, typ.Parseable.TypeRef, obj, allowDuplicates) && err != nil {
			t.Fatalf("validates vouches for an object structured-merge-diff refuses (%v)\nobject: %s", err, mustJSON(obj))
		}
		// Equality: the object against the base and against itself mutated again, some of
		// its values in another form.
		other := merge.FuzzCopy(obj)
		if g.intn(2) == 0 {
			g.mutate(other)
		}
		other = alike(other, g).(map[string]any)
		for _, pair := range [][2]any{{obj, base}, {obj, other}, {other, obj}} {
			if got, want := merge.SameValue(pair[0], pair[1]), value.Equals(value.NewValueInterface(pair[0]), value.NewValueInterface(pair[1])); got != want {
				t.Fatalf("sameValue is %v, value.Equals %v\na: %s\nb: %s", got, want, mustJSON(pair[0]), mustJSON(pair[1]))
			}
		}
		if err != nil {
			return
		}
		// The comparison: of the object and the other, both ways, and of the object and
		// its merge with the other, as an apply compares the live and the merged object.
		if ov, err := typ.Parseable.FromUnstructured(other, typed.AllowDuplicates); err == nil {
			pairs := [][2]*typed.TypedValue{{tv, ov}, {ov, tv}}
			if merged, err := tv.Merge(ov); err == nil {
				pairs = append(pairs, [2]*typed.TypedValue{tv, merged})
				// The merged object's fields, as the prune collects them.
				if got, ok := merge.FieldSetOf(merged); ok {
					want, err := merged.ToFieldSet()
					if err != nil {
						t.Fatalf("fieldSetOf gave a set where ToFieldSet fails (%v)\nobject: %s", err, mustJSON(merged.AsValue().Unstructured()))
					}
					sameSets(t, "fieldSetOf of the merged object", got, want, obj)
				}
			}
			for _, p := range pairs {
				want, err := p[0].Compare(p[1])
				if got, ok := merge.CompareValues(p[0], p[1]); ok {
					if err != nil {
						t.Fatalf("compareValues gave a comparison where Compare fails (%v)\nlhs: %s\nrhs: %s", err, mustJSON(p[0].AsValue().Unstructured()), mustJSON(p[1].AsValue().Unstructured()))
					}
					sameSets(t, "compareValues' Added", got.Added, want.Added, obj)
					sameSets(t, "compareValues' Modified", got.Modified, want.Modified, obj)
					sameSets(t, "compareValues' Removed", got.Removed, want.Removed, obj)
				}
			}
		}

		want, wantErr := tv.ToFieldSet()
		if got, ok := merge.FieldSetOf(tv); ok {
			if wantErr != nil {
				t.Fatalf("fieldSetOf gave a set where ToFieldSet fails (%v)\nobject: %s", wantErr, mustJSON(obj))
			}
			sameSets(t, "fieldSetOf", got, want, obj)
		}

		// Sets to reconcile: parts of the object's fields as the schema and as the
		// deduced type see them, with random paths below their members.
		set := smdpath.NewSet()
		if want != nil {
			want.Iterate(func(p smdpath.Path) {
				if g.intn(2) == 0 {
					set.Insert(p)
				}
			})
		}
		if dv, err := typed.DeducedParseableType.FromUnstructured(obj); err == nil && g.intn(2) == 0 {
			if ds, err := dv.ToFieldSet(); err == nil {
				ds.Iterate(func(p smdpath.Path) {
					if g.intn(3) == 0 {
						set.Insert(p)
					}
				})
			}
		}
		var paths []smdpath.Path
		set.Iterate(func(p smdpath.Path) { paths = append(paths, p) })
		for n := g.intn(8); n > 0 && len(paths) > 0; n-- {
			p := paths[g.intn(len(paths))].Copy()
			p = p[:1+g.intn(len(p))]
			name := g.pick(fuzzWords)
			switch g.intn(4) {
			case 0:
				p = append(p, smdpath.PathElement{FieldName: &name})
			case 1:
				v := value.NewValueInterface(name)
				p = append(p, smdpath.PathElement{Value: &v})
			case 2:
				k := value.FieldList{{Name: "name", Value: value.NewValueInterface(name)}}
				p = append(p, smdpath.PathElement{Key: &k}, smdpath.PathElement{FieldName: &name})
			default:
				i := g.intn(3)
				p = append(p, smdpath.PathElement{Index: &i})
			}
			set.Insert(p)
		}
		rec, err := typed.ReconcileFieldSetWithSchema(set, tv)
		if merge.ReconcileKeeps(set, tv) && (rec != nil || err != nil) {
			t.Fatalf("reconcileKeeps says nothing changes, ReconcileFieldSetWithSchema gives %v, %v\nset: %s\nobject: %s", rec, err, set, mustJSON(obj))
		}
	})
}

func sameSets(t *testing.T, what string, got, want *smdpath.Set, obj map[string]any) {
	t.Helper()
	gj, gerr := got.ToJSON()
	wj, werr := want.ToJSON()
	if !got.Equals(want) || gerr != nil || werr != nil || !bytes.Equal(gj, wj) {
		t.Fatalf("%s differs from structured-merge-diff's\ngot:  %s (%v)\nwant: %s (%v)\nobject: %s", what, gj, gerr, wj, werr, mustJSON(obj))
	}
}

func mustJSON(v any) string {
	b, err := yaml.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

func mustRead(f *testing.F, name string) []byte {
	b, err := os.ReadFile(name)
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// alike is v with some of its values in another form value.Equals takes as the same: an
// integer as a float, an empty map or list as a nil one.
func alike(v any, g *fuzzGen) any {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 && g.intn(2) == 0 {
			return map[string]any(nil)
		}
		for k, item := range x {
			x[k] = alike(item, g)
		}
	case []any:
		if len(x) == 0 && g.intn(2) == 0 {
			return []any(nil)
		}
		for i, item := range x {
			x[i] = alike(item, g)
		}
	case int64:
		if g.intn(2) == 0 {
			return float64(x)
		}
	}
	return v
}
