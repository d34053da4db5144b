package merge_test

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
	"sigs.k8s.io/yaml"
)

// FuzzMergeWalk holds mergeValues (merge/mergewalk.go) to structured-merge-diff's
// TypedValue.Merge under real schemas (FuzzSetWalks' kinds and generator): a live object
// and an applied one, both mutated at random from the same base, their lists reordered,
// cut and grown (so items meet in every order), some values in another form
// value.Equals takes as the same (a float for an integer, a nil map or list for an empty
// one), typed with validation or, now and then, without (so values of the wrong kind
// reach the walk). Whenever mergeValues gives an answer, Merge must give one too, and the
// same Go values (maps compared by their entries, lists in order, numbers and nil maps
// and lists by their Go type), both ways round; and neither input may change.
func FuzzMergeWalk(f *testing.F) {
	reg, bases := walkFuzzKinds(f)
	for _, seed := range []string{"", "\x00", "\x05", "\x06\x01\x02\x03", "\x05\x03\x04\x00\x01\x02\x05\x06\x07\x08", "\x00\x04\x80\x81\x82\x83\x84\x85\x86",
		"\x01\x02\x00\x00\x03\x03\x03\x01\x09\x09\x09", "\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01",
		"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x01\x01\x01\x02\x02\x02\x03\x03\x03\x01\x00\x02"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &fuzzGen{data: data}
		base, typ := g.kind(reg, bases)
		if typ == nil {
			return
		}
		var objs [2]map[string]any
		var tvs [2]*typed.TypedValue
		for i := range objs {
			obj := merge.FuzzCopy(base)
			g.mutate(obj)
			reorder(obj, g)
			if g.intn(3) == 0 {
				obj = alike(obj, g).(map[string]any)
			}
			objs[i] = obj
			tv, err := typ.Parseable.FromUnstructured(copyValue(obj), typed.AllowDuplicates)
			if err != nil {
				if g.intn(2) == 0 {
					return
				}
				//lint:ignore SA1019 an object the typing refuses, to reach the walk's refusals
				tv = typed.AsTypedUnvalidated(value.NewValueInterface(copyValue(obj)), typ.Parseable.Schema, typ.Parseable.TypeRef)
			}
			tvs[i] = tv
		}
		for _, p := range [][2]*typed.TypedValue{{tvs[0], tvs[1]}, {tvs[1], tvs[0]}} {
			lhs, rhs := copyValue(p[0].AsValue().Unstructured()), copyValue(p[1].AsValue().Unstructured())
			got, ok := merge.MergeValues(p[0], p[1])
			if !reflect.DeepEqual(lhs, p[0].AsValue().Unstructured()) || !reflect.DeepEqual(rhs, p[1].AsValue().Unstructured()) {
				t.Fatalf("mergeValues changed its input\nlhs: %s\nrhs: %s", mustJSON(lhs), mustJSON(rhs))
			}
			if !ok {
				continue
			}
			want, err := p[0].Merge(p[1])
			if err != nil {
				t.Fatalf("mergeValues merged what Merge refuses (%v)\nlhs: %s\nrhs: %s", err, mustJSON(lhs), mustJSON(rhs))
			}
			if g, w := got.AsValue().Unstructured(), want.AsValue().Unstructured(); !reflect.DeepEqual(g, w) {
				t.Fatalf("mergeValues differs from Merge\ngot:  %s\nwant: %s\nlhs: %s\nrhs: %s", mustJSON(g), mustJSON(w), mustJSON(lhs), mustJSON(rhs))
			}
			if got.Schema() != want.Schema() || !reflect.DeepEqual(got.TypeRef(), want.TypeRef()) {
				t.Fatalf("mergeValues' result is typed otherwise than Merge's")
			}
			// The comparison of live and merged guided by the applied object, as an apply
			// that prunes nothing makes it.
			if cmp, ok := merge.CompareMerged(p[0], got, p[1].AsValue().Unstructured()); ok {
				want, err := p[0].Compare(got)
				if err != nil {
					t.Fatalf("compareMerged gave a comparison where Compare fails (%v)\nlhs: %s\nrhs: %s", err, mustJSON(lhs), mustJSON(rhs))
				}
				sameSets(t, "compareMerged's Added", cmp.Added, want.Added, objs[0])
				sameSets(t, "compareMerged's Modified", cmp.Modified, want.Modified, objs[0])
				sameSets(t, "compareMerged's Removed", cmp.Removed, want.Removed, objs[0])
			}
		}
	})
}

// copyValue is a deep copy of an unstructured value, nil maps and lists and the Go
// types of numbers kept.
func copyValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		m := make(map[string]any, len(x))
		for k, item := range x {
			m[k] = copyValue(item)
		}
		return m
	case []any:
		if x == nil {
			return x
		}
		l := make([]any, len(x))
		for i, item := range x {
			l[i] = copyValue(item)
		}
		return l
	}
	return v
}

// reorder changes the lists of v at random, depth first: the items turned round, rotated,
// one dropped, or one copied with another key so that it is an item of its own.
func reorder(v any, g *fuzzGen) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range fuzzKeys(x) {
			if l, ok := x[k].([]any); ok && len(l) > 1 {
				switch g.intn(5) {
				case 0:
					for i, j := 0, len(l)-1; i < j; i, j = i+1, j-1 {
						l[i], l[j] = l[j], l[i]
					}
				case 1:
					n := 1 + g.intn(len(l)-1)
					x[k] = append(append([]any{}, l[n:]...), l[:n]...)
				case 2:
					i := g.intn(len(l))
					x[k] = append(append([]any{}, l[:i]...), l[i+1:]...)
				case 3:
					item := copyValue(l[g.intn(len(l))])
					if m, ok := item.(map[string]any); ok {
						for _, key := range []string{"name", "port", "containerPort", "key"} {
							if _, has := m[key]; has {
								m[key] = g.value(3)
							}
						}
					} else {
						item = g.value(3)
					}
					i := g.intn(len(l) + 1)
					x[k] = append(append(append([]any{}, l[:i]...), item), l[i:]...)
				}
			}
			reorder(x[k], g)
		}
	case []any:
		for _, item := range x {
			reorder(item, g)
		}
	}
}

// kind picks one of bases and its type in reg (nil when reg has none: the base's kind is
// not served).
func (g *fuzzGen) kind(reg *schema.Registry, bases []map[string]any) (map[string]any, *schema.Type) {
	base := bases[g.intn(len(bases))]
	typ, _ := reg.Resolve(schema.GVKFromAPIVersionKind(base["apiVersion"].(string), base["kind"].(string)))
	return base, typ
}

// walkFuzzKinds is the registry and the base objects of the walks' fuzz targets: the
// built-in kinds, the Backup custom resource and the Gadget one (twice, as the richest).
func walkFuzzKinds(f *testing.F) (*schema.Registry, []map[string]any) {
	reg := schema.MustNewRegistry(kube.Default())
	if err := reg.AddCRD("gadget.yaml", []byte(gadgetCRD)); err != nil {
		f.Fatal(err)
	}
	if err := reg.AddCRD("crd.yaml", mustRead(f, "../testdata/examples/crd-backup/crd.yaml")); err != nil {
		f.Fatal(err)
	}
	var bases []map[string]any
	if err := yaml.Unmarshal([]byte(fuzzBase), &bases); err != nil {
		f.Fatal(err)
	}
	var gadget map[string]any
	if err := yaml.Unmarshal([]byte(gadgetBase), &gadget); err != nil {
		f.Fatal(err)
	}
	return reg, append(bases, gadget, gadget)
}
