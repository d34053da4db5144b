package merge

import (
	"sort"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdmerge "sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// gizmoCRD is example.com Gizmo at three served versions with strategy None: v1 (storage)
// knows spec.size, .left and .right, v2 lacks .right and v3 lacks .left. An object with
// both converts to neither v2 nor v3, each refusing the other field: the server's
// converter types the converted object with the version's schema.
const gizmoCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gizmos.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gizmos, kind: Gizmo}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}, left: {type: integer}, right: {type: integer}}}}}}
  - name: v2
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}, left: {type: integer}}}}}}
  - name: v3
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}, right: {type: integer}}}}}}
`

// TestStableUpdaterAnswersOneWay: where structured-merge-diff's updater meets a failing
// conversion at two versions, ranging over a Go map, it answers either failure; the stable
// updater answers one of the updater's answers, the same every time. Where one version
// fails, it answers the updater's one answer. Each step of the updater that converts is
// made to fail: the reconciling of the live object's entries, the prune's adding back of
// what the managers own, the comparison at each manager's version — with an apply, and
// the comparison with an update.
func TestStableUpdaterAnswersOneWay(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Default())
	if err := reg.AddCRD("gizmos.yaml", []byte(gizmoCRD)); err != nil {
		t.Fatal(err)
	}
	e := New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	gvk := schema.GVK{Group: "example.com", Version: "v1", Kind: "Gizmo"}
	k := e.resolve(gvk)
	obj := func(spec string) *typed.TypedValue {
		tv, err := parseSorted(k.typ.Parseable, objFromYAML(t, "apiVersion: example.com/v1\nkind: Gizmo\nmetadata: {name: g, namespace: ns}\nspec: "+spec))
		if err != nil {
			t.Fatal(err)
		}
		return tv
	}
	size := smdpath.NewSet(smdpath.MakePathOrDie("spec", "size"))
	entries := func(versions ...string) smdpath.ManagedFields {
		m := smdpath.ManagedFields{}
		for i, v := range versions {
			m[string(rune('a'+i))] = smdpath.NewVersionedSet(size, smdpath.APIVersion(v), false)
		}
		return m
	}
	withLast := func(m smdpath.ManagedFields) smdpath.ManagedFields {
		m["team"] = smdpath.NewVersionedSet(size, "example.com/v1", true)
		return m
	}
	const (
		v2 = "example.com/v2"
		v3 = "example.com/v3"
	)
	for _, tc := range []struct {
		name       string
		update     bool
		live, next string
		managers   smdpath.ManagedFields
		// want is the stable updater's error; several: the updater's errors at random.
		want    string
		several bool
	}{
		{name: "reconcile, two versions fail", live: "{size: 3, left: 1, right: 2}", next: "{size: 4}", managers: entries(v2, v3),
			want: ".spec.right: field not declared in schema", several: true},
		{name: "reconcile, one fails", live: "{size: 3, left: 1}", next: "{size: 4}", managers: entries(v2, v3),
			want: ".spec.left: field not declared in schema"},
		{name: "update: reconcile, two versions fail", update: true, live: "{size: 3, left: 1, right: 2}", next: "{size: 4, left: 1, right: 2}", managers: entries(v2, v3),
			want: ".spec.right: field not declared in schema", several: true},
		{name: "compare, two versions fail", live: "{size: 3}", next: "{size: 4, left: 1, right: 2}", managers: entries(v2, v3),
			want: "failed to convert new object: .spec.right: field not declared in schema", several: true},
		{name: "compare, one fails", live: "{size: 3}", next: "{size: 4, right: 2}", managers: entries(v2, v3),
			want: "failed to convert new object: .spec.right: field not declared in schema"},
		{name: "update: compare, two versions fail", update: true, live: "{size: 3}", next: "{size: 4, left: 1, right: 2}", managers: entries(v2, v3),
			want: "failed to convert new object: .spec.right: field not declared in schema", several: true},
		{name: "prune, two versions fail", live: "{size: 3}", next: "{left: 1, right: 2}", managers: withLast(entries(v2, v3)),
			want: "failed to prune fields: failed add back owned items: failed to convert merged object at version example.com/v2: .spec.right: field not declared in schema", several: true},
		{name: "prune, one fails", live: "{size: 3}", next: "{left: 1}", managers: withLast(entries(v2, v3)),
			want: "failed to prune fields: failed add back owned items: failed to convert merged object at version example.com/v3: .spec.left: field not declared in schema"},
		{name: "prune at the last-applied version", live: "{size: 3}", next: "{left: 1, right: 2}", managers: map[string]smdpath.VersionedSet{
			"a": smdpath.NewVersionedSet(size, v3, false), "team": smdpath.NewVersionedSet(size, v2, true)},
			want: "failed to prune fields: failed to convert merged object to last applied version: .spec.right: field not declared in schema"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			live, next := obj(tc.live), obj(tc.next)
			run := func(up interface {
				Apply(live, config *typed.TypedValue, version smdpath.APIVersion, managers smdpath.ManagedFields, manager string, force bool) (*typed.TypedValue, smdpath.ManagedFields, error)
				Update(live, next *typed.TypedValue, version smdpath.APIVersion, managers smdpath.ManagedFields, manager string) (*typed.TypedValue, smdpath.ManagedFields, error)
			}) string {
				managers := make(smdpath.ManagedFields, len(tc.managers))
				for m, vs := range tc.managers {
					managers[m] = vs
				}
				var err error
				if tc.update {
					_, _, err = up.Update(live, next, "example.com/v1", managers, "team")
				} else {
					_, _, err = up.Apply(live, next, "example.com/v1", managers, "team", true)
				}
				if err == nil {
					return "no error"
				}
				return err.Error()
			}
			c := &versionConverter{e: e, kind: k, warn: func(string) {}}
			plain := (&smdmerge.UpdaterBuilder{Converter: c}).BuildUpdater()
			stable := newUpdater(c, nil)
			theirs, ours := map[string]bool{}, map[string]bool{}
			for range 200 {
				theirs[run(plain)] = true
				ours[run(stable)] = true
			}
			if len(ours) != 1 || !ours[tc.want] {
				t.Errorf("the stable updater answers %q, want %q", keys(ours), tc.want)
			}
			if !theirs[tc.want] {
				t.Errorf("the updater never answers %q: %q", tc.want, keys(theirs))
			}
			if tc.several != (len(theirs) > 1) {
				t.Errorf("the updater answers %q", keys(theirs))
			}
		})
	}
}

func keys(m map[string]bool) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, " | ")
}

// FuzzStableUpdater drives the stable updater with random Gizmo objects and entries at the
// kind's three versions, at a version its CRD does not list and at one with two slashes:
// the same request always gets the same answer and warnings, and that answer is one of
// those structured-merge-diff's own updater gives, run as often as it takes to meet each
// order of a few entries.
func FuzzStableUpdater(f *testing.F) {
	reg := schema.MustNewRegistry(kube.Default())
	if err := reg.AddCRD("gizmos.yaml", []byte(gizmoCRD)); err != nil {
		f.Fatal(err)
	}
	e := New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	k := e.resolve(schema.GVK{Group: "example.com", Version: "v1", Kind: "Gizmo"})
	for _, seed := range []string{"", "\x07\x07\x03\x01\x02\x03\x04", "\x05\x03\x06\x04\x01\x02\x03\x05\x00\x01\x02\x01\x07\x03\x01",
		"\x07\x01\x07\x03\x03\x00\x03\x07\x01\x03\x07\x02\x03\x01\x01"} {
		f.Add([]byte(seed))
	}
	fields := []string{"size", "left", "right"}
	versions := []smdpath.APIVersion{"example.com/v1", "example.com/v2", "example.com/v3", "example.com/v9", "example.com/v1/x"}
	f.Fuzz(func(t *testing.T, data []byte) {
		i := 0
		next := func(n int) int {
			if i >= len(data) {
				return 0
			}
			i++
			return int(data[i-1]) % n
		}
		object := func() *typed.TypedValue {
			spec := map[string]any{}
			for bits, j := next(8), 0; j < len(fields); j++ {
				if bits&(1<<j) != 0 {
					spec[fields[j]] = int64(j + 1)
				}
			}
			tv, err := parseSorted(k.typ.Parseable, map[string]any{"apiVersion": "example.com/v1", "kind": "Gizmo",
				"metadata": map[string]any{"name": "g", "namespace": "ns"}, "spec": spec})
			if err != nil {
				t.Fatal(err)
			}
			return tv
		}
		live, obj := object(), object()
		managers := smdpath.ManagedFields{}
		for n := next(4) + 1; n > 0; n-- {
			set := smdpath.NewSet()
			for bits, j := next(7)+1, 0; j < len(fields); j++ {
				if bits&(1<<j) != 0 {
					set.Insert(smdpath.MakePathOrDie("spec", fields[j]))
				}
			}
			name := []string{"a", "b", "c", "team"}[next(4)]
			managers[name] = smdpath.NewVersionedSet(set, versions[next(len(versions))], name == "team")
		}
		update, force := next(2) == 0, next(2) == 0
		run := func(up interface {
			Apply(live, config *typed.TypedValue, version smdpath.APIVersion, managers smdpath.ManagedFields, manager string, force bool) (*typed.TypedValue, smdpath.ManagedFields, error)
			Update(live, next *typed.TypedValue, version smdpath.APIVersion, managers smdpath.ManagedFields, manager string) (*typed.TypedValue, smdpath.ManagedFields, error)
		}) string {
			in := make(smdpath.ManagedFields, len(managers))
			for m, vs := range managers {
				in[m] = vs
			}
			var out smdpath.ManagedFields
			var err error
			if update {
				_, out, err = up.Update(live, obj, "example.com/v1", in, "team")
			} else {
				_, out, err = up.Apply(live, obj, "example.com/v1", in, "team", force)
			}
			if err != nil {
				if failed(err) {
					return "error: " + err.Error()
				}
				return "conflicts"
			}
			var lines []string
			for m, vs := range out {
				lines = append(lines, m+" "+string(vs.APIVersion())+" "+vs.Set().String())
			}
			sort.Strings(lines)
			return strings.Join(lines, "\n")
		}
		var warnings []string
		c := &versionConverter{e: e, kind: k, warn: func(w string) { warnings = append(warnings, w) }}
		stable := newUpdater(c, nil)
		first := run(stable)
		firstWarnings := keys(asSet(warnings))
		warnings = nil
		if again := run(stable); again != first || keys(asSet(warnings)) != firstWarnings {
			t.Fatalf("two answers:\n%s\nwarning %s\n---\n%s\nwarning %s", first, firstWarnings, again, keys(asSet(warnings)))
		}
		plain := (&smdmerge.UpdaterBuilder{Converter: c}).BuildUpdater()
		theirs := map[string]bool{}
		for range 100 {
			theirs[run(plain)] = true
		}
		if !theirs[first] {
			t.Fatalf("the stable updater answers\n%s\nstructured-merge-diff's:\n%s", first, keys(theirs))
		}
	})
}

func asSet(s []string) map[string]bool {
	m := map[string]bool{}
	for _, x := range s {
		m[x] = true
	}
	return m
}
