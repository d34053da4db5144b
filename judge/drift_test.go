package judge

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// driftLive is a Deployment applied by "kubectl" (annotation team, replicas), then changed
// by "kubectl-annotate" (annotation oncall), "kubectl-edit" (terminationGracePeriodSeconds)
// and co-owned by "helm" (replicas, annotation team), as managedFields record them.
const driftLive = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"ns","uid":"u1","generation":4,
 "annotations":{"team":"shop","oncall":"alice","shared":"x"},
 "managedFields":[
  {"manager":"kubectl","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{"f:team":{},"f:shared":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:name":{},"f:image":{}}}}}}}},
  {"manager":"kubectl-annotate","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{"f:oncall":{}}}}},
  {"manager":"helm","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{"f:shared":{}}},"f:spec":{"f:template":{"f:spec":{"f:dnsPolicy":{}}}}}},
  {"manager":"kubectl-edit","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:template":{"f:spec":{"f:terminationGracePeriodSeconds":{}}}}}},
  {"manager":"kube-controller-manager","operation":"Update","apiVersion":"apps/v1","subresource":"status","fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:replicas":{}}}}]},
 "spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.27"}],"dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":45}}},
 "status":{"replicas":2}}`

// The fate of each drifted field is read from the predicted object given, whatever it is:
// these predictions are made up to show each fate, as the engine's would say it.
func TestDrift(t *testing.T) {
	live := mustJSON(t, driftLive)
	entries, _, err := fieldpath.EntriesOf(live)
	if err != nil {
		t.Fatal(err)
	}
	managed, err := fieldpath.Decode(entries)
	if err != nil {
		t.Fatal(err)
	}
	manifest := mustJSON(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.28"}]}}}}`)
	predicted := mustJSON(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","annotations":{"oncall":"alice","shared":"x"}},
 "spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.28"}],"dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30}}}}`)
	defaulted := mustJSON(t, `{"spec":{"template":{"spec":{"dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30}}}}`)
	asked := 0
	in := DriftInput{Live: live, Managed: managed, LiveEntries: entries, Manifest: manifest, Predicted: predicted,
		Defaulted: func() map[string]any { asked++; return defaulted }}
	type row struct {
		path, fate string
		owners     []string
		def        bool
		predicted  any
	}
	rows := func(ds []DriftField) []row {
		var out []row
		for _, d := range ds {
			r := row{path: d.Path, fate: d.Fate, def: d.Default, predicted: d.Predicted}
			for _, o := range d.Owners {
				r.owners = append(r.owners, o.Manager+"/"+o.Operation)
			}
			out = append(out, r)
		}
		return out
	}
	want := []row{
		{".metadata.annotations.oncall", DriftKept, []string{"kubectl-annotate/Update"}, false, nil},
		{".metadata.annotations.shared", DriftKept, []string{"kubectl/Apply", "helm/Update"}, false, nil},
		{".metadata.annotations.team", DriftRemoved, []string{"kubectl/Apply"}, false, nil},
		{".spec.template.spec.dnsPolicy", DriftKept, []string{"helm/Update"}, true, nil},
		{".spec.template.spec.terminationGracePeriodSeconds", DriftChanged, []string{"kubectl-edit/Update"}, false, float64(30)},
	}
	got := Drift(in)
	if !reflect.DeepEqual(rows(got), want) {
		t.Errorf("drift:\n got %+v\nwant %+v", rows(got), want)
	}
	if asked != 1 {
		t.Errorf("the defaulted manifest was asked %d times, want once", asked)
	}
	if got[0].Pointer != "/metadata/annotations/oncall" || got[0].Live != "alice" {
		t.Errorf("first field: %+v", got[0])
	}

	// The field set the server recorded for the manifest counts as what it sets: a keyed
	// item's key the server defaults is no drift.
	applied := &smdpath.Set{}
	applied.Insert(smdpath.MakePathOrDie("metadata", "annotations", "team"))
	in.Applied = func() *smdpath.Set { return applied }
	for _, d := range Drift(in) {
		if d.Path == ".metadata.annotations.team" {
			t.Errorf("a field of the applied set is drift: %+v", d)
		}
	}

	// A refused write leaves everything.
	in.Applied, in.Predicted, in.Refused = nil, nil, true
	for _, d := range Drift(in) {
		if d.Fate != DriftRefused {
			t.Errorf("%s: fate %s under a refusal", d.Path, d.Fate)
		}
	}

	// A refused write predicted again with force: each field says what the forced write
	// leaves of it.
	in.Forced = &ForcedWrite{Predicted: predicted}
	for _, d := range Drift(in) {
		want := map[string]string{".metadata.annotations.team": DriftRemoved, ".spec.template.spec.terminationGracePeriodSeconds": DriftChanged}[d.Path]
		if want == "" {
			want = DriftKept
		}
		if d.Fate != DriftRefused || d.WithForce == nil || d.WithForce.Fate != want {
			t.Errorf("%s: fate %s, with force %+v, want refused and %s", d.Path, d.Fate, d.WithForce, want)
		}
	}
	in.Forced = &ForcedWrite{Refused: true}
	for _, d := range Drift(in) {
		if d.WithForce == nil || d.WithForce.Fate != DriftRefused {
			t.Errorf("%s: with force %+v under a forced refusal", d.Path, d.WithForce)
		}
	}
	in.Forced = nil

	// No live object, no managedFields: no drift.
	if d := Drift(DriftInput{Manifest: manifest}); d != nil {
		t.Errorf("a create has drift: %+v", d)
	}
	b, err := json.Marshal(got[4])
	if err != nil || string(b) != `{"path":".spec.template.spec.terminationGracePeriodSeconds","pointer":"/spec/template/spec/terminationGracePeriodSeconds","live":45,"owners":[{"manager":"kubectl-edit","operation":"Update","apiVersion":"apps/v1"}],"fate":"changed","predicted":30}` {
		t.Errorf("JSON: %s %v", b, err)
	}
}

// An Ignore is recorded in a report as its rules and read back the same.
func TestIgnoreJSON(t *testing.T) {
	var rules []IgnoreRule
	for _, s := range []string{"apps/Deployment/ns/web:/spec/replicas", ".metadata.labels['app.kubernetes.io/name']", "core/Service:.spec.ports[*].nodePort"} {
		r, err := ParseIgnoreRule(s)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	rules = append(rules, IgnoreRule{Group: "*", Kind: "*", Managers: []string{"kube-controller-manager"}})
	ig, err := NewIgnore(rules...)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(ig)
	if err != nil {
		t.Fatal(err)
	}
	const want = `[{"group":"apps","kind":"Deployment","namespace":"ns","name":"web","paths":["/spec/replicas"]},{"group":"*","kind":"*","paths":[".metadata.labels['app.kubernetes.io/name']"]},{"group":"","kind":"Service","paths":[".spec.ports[*].nodePort"]},{"group":"*","kind":"*","managers":["kube-controller-manager"]}]`
	if string(b) != want {
		t.Errorf("JSON:\n got %s\nwant %s", b, want)
	}
	var back Ignore
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Rules(), ig.Rules()) {
		t.Errorf("read back: %+v, want %+v", back.Rules(), ig.Rules())
	}
	for _, bad := range []string{`[{"group":"*","kind":"*","paths":["/"]}]`, `[{"group":"*","kind":""}]`, `[{"group":"*","kind":"*"}]`, `{}`} {
		var x Ignore
		if err := json.Unmarshal([]byte(bad), &x); err == nil {
			t.Errorf("%s read", bad)
		}
	}
}

// FuzzIgnoreJSON: ignore rules as a report records them are read without a panic, and
// what is read is written back to the same rules.
func FuzzIgnoreJSON(f *testing.F) {
	f.Add([]byte(`[{"group":"apps","kind":"Deployment","namespace":"ns","name":"web","paths":["/spec/replicas"]}]`))
	f.Add([]byte(`[{"group":"*","kind":"*","paths":[".metadata.labels['a/b']","$.spec.x[*].y"],"managers":["m"]}]`))
	f.Add([]byte(`[{"group":"","kind":"Service","paths":["/a~1b/0"]}]`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ig Ignore
		if err := json.Unmarshal(data, &ig); err != nil {
			return
		}
		b, err := json.Marshal(&ig)
		if err != nil {
			t.Fatalf("%s read, not written: %v", data, err)
		}
		var again Ignore
		if err := json.Unmarshal(b, &again); err != nil {
			t.Fatalf("%s (written from %s) not read: %v", b, data, err)
		}
		if !reflect.DeepEqual(again.Rules(), ig.Rules()) {
			t.Fatalf("%s: read back as %+v, want %+v", b, again.Rules(), ig.Rules())
		}
	})
}

// Fields nobody owns are drift without owners, named without a schema as the owned items
// of their lists are named; a list whose items nothing names is one field, whole.
func TestDriftUnowned(t *testing.T) {
	live := mustJSON(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"ns","uid":"u","labels":{"app":"web","tier":"x"},
 "managedFields":[{"manager":"m","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:name":{}}}}}}}}]},
 "spec":{"paused":false,"template":{"spec":{"containers":[{"name":"web","image":"a"},{"name":"side","image":"b"}],"tolerations":[{"key":"k"}]}}},"status":{"replicas":1}}`)
	entries, _, err := fieldpath.EntriesOf(live)
	if err != nil {
		t.Fatal(err)
	}
	managed, err := fieldpath.Decode(entries)
	if err != nil {
		t.Fatal(err)
	}
	manifest := mustJSON(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"ns","labels":{"app":"web"}},"spec":{"template":{"spec":{"containers":[{"name":"web"}]}}}}`)
	created := mustJSON(t, `{"spec":{"paused":false}}`)
	in := DriftInput{Live: live, Managed: managed, LiveEntries: entries, Manifest: manifest, Predicted: live,
		Created: func() (map[string]any, []string) { return created, []string{".spec.template.spec.tolerations"} }}
	got := map[string]bool{}
	for _, d := range Drift(in) {
		if len(d.Owners) != 0 {
			t.Errorf("%s: owners %v", d.Path, d.Owners)
		}
		got[d.Path] = d.Default
	}
	// .spec.paused has the created value and the tolerations are assigned: the server's.
	want := map[string]bool{
		".metadata.labels.tier":                             false,
		`.spec.template.spec.containers[name="web"].image`:  false,
		`.spec.template.spec.containers[name="side"].image`: false,
		`.spec.template.spec.containers[name="side"].name`:  false,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("drift nobody owns:\n got %v\nwant %v", got, want)
	}
	// Without managedFields every field is nobody's; the set the server recorded for the
	// manifest names the items of the lists it sets.
	in.LiveEntries, in.Managed = nil, fieldpath.Managed{}
	applied, err := fieldpath.FieldsV1ToSet([]byte(`{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:name":{}}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	in.Applied = func() *smdpath.Set { return applied }
	got = map[string]bool{}
	for _, d := range Drift(in) {
		got[d.Path] = d.Default
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("drift without managedFields:\n got %v\nwant %v", got, want)
	}
}

// FuzzLiveLeaves holds liveLeaves, one walk of a field set beside the live object and the
// manifest, to what Drift read before it: every leaf of the set (fieldpath.IterateLeaves,
// in its order) outside status and the server's metadata, looked up in both objects from
// the root (fieldpath.ValueAt), kept when the live object has it and the manifest lacks it.
func FuzzLiveLeaves(f *testing.F) {
	f.Add(driftLive,
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.28"}]}}}}`,
		`{"f:metadata":{"f:annotations":{"f:team":{},"f:shared":{},"f:oncall":{}},"f:uid":{}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:name":{},"f:image":{}},"k:{\"name\":\"gone\"}":{".":{},"f:name":{}}},"f:dnsPolicy":{}}}},"f:status":{"f:replicas":{}}}`)
	f.Add(`{"spec":{"ports":[{"port":80,"protocol":"TCP"},{"port":81}],"list":["a","b"],"idx":[1,2]}}`, `{"spec":{"ports":[{"port":80,"protocol":"TCP","name":"x"}]}}`,
		`{"f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{},"f:name":{}},"k:{\"port\":81}":{}},"f:list":{"v:\"a\"":{},"v:\"c\"":{}},"f:idx":{"i:1":{}}}}`)
	f.Add(`{"a":{"b":1}}`, `null`, `{"f:a":{".":{},"f:b":{}}}`)
	f.Fuzz(func(t *testing.T, liveText, manifestText, fieldsV1 string) {
		var live, manifest map[string]any
		if json.Unmarshal([]byte(liveText), &live) != nil || json.Unmarshal([]byte(manifestText), &manifest) != nil {
			return
		}
		set, err := fieldpath.FieldsV1ToSet([]byte(fieldsV1))
		if err != nil {
			return
		}
		type leaf struct {
			path string
			live any
		}
		var want, got []leaf
		fieldpath.IterateLeaves(set, func(p smdpath.Path) {
			if serverOnly(p) {
				return
			}
			v, ok := fieldpath.ValueAt(live, p)
			if !ok {
				return
			}
			if _, set := fieldpath.ValueAt(manifest, p); set {
				return
			}
			want = append(want, leaf{p.String(), v})
		})
		liveLeaves(set, live, manifest, func(p smdpath.Path, v any) { got = append(got, leaf{p.String(), v}) })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("liveLeaves:\n%v\nIterateLeaves and ValueAt:\n%v", got, want)
		}
	})
}

// unowned and liveLeaves skip what lies below a path serverOnly holds: it must hold for
// every path below it too.
func TestServerOnlyHoldsBelow(t *testing.T) {
	name := func(s string) smdpath.PathElement { return smdpath.PathElement{FieldName: &s} }
	i := 0
	below := []smdpath.PathElement{name("x"), name("status"), name("uid"), {Index: &i}}
	for _, p := range []smdpath.Path{
		{name("status")}, {name("metadata"), name("uid")}, {name("metadata"), name("managedFields")},
		{name("metadata"), name("resourceVersion")}, {name("metadata"), name("deletionTimestamp")},
	} {
		if !serverOnly(p) {
			t.Fatalf("%v: not serverOnly", p)
		}
		for _, pe := range below {
			for _, q := range []smdpath.Path{append(p.Copy(), pe), append(append(p.Copy(), pe), pe)} {
				if !serverOnly(q) {
					t.Errorf("%v is serverOnly, %v below it is not", p, q)
				}
			}
		}
	}
}

// A field nobody owns at the value the server gives the manifest is dropped before it is
// written out (no path, pointer or fate made for it) and before the create is asked: Drift
// allocates as much for twenty such fields as for one.
func TestDriftDropsDefaultsUnwritten(t *testing.T) {
	run := func(n int) float64 {
		spec := map[string]any{}
		for i := range n {
			spec[string(rune('a'+i))] = "default"
		}
		live := map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "s"}, "spec": spec}
		defaulted := map[string]any{"spec": spec}
		in := DriftInput{Live: live, Manifest: map[string]any{"metadata": map[string]any{"name": "s"}}, Predicted: live,
			Defaulted: func() map[string]any { return defaulted },
			Created: func() (map[string]any, []string) {
				t.Fatal("the create asked for fields the defaults explain")
				return nil, nil
			}}
		var got []DriftField
		allocs := testing.AllocsPerRun(10, func() { got = Drift(in) })
		if len(got) != 0 {
			t.Fatalf("drift of defaults: %v", got)
		}
		return allocs
	}
	if one, twenty := run(1), run(20); twenty != one {
		t.Errorf("Drift allocates %v for one default nobody owns, %v for twenty", one, twenty)
	}
}

// A create that adds nothing to the defaults (DriftInput.CreateAddsNothing) is not asked:
// a field nobody owns that is not the default is drift, as the create would have said;
// when the defaults cannot be told, the create is asked as before.
func TestDriftCreateAddsNothing(t *testing.T) {
	live := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d"},
		"spec": map[string]any{"replicas": int64(3), "paused": false}}
	manifest := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d"}}
	defaulted := map[string]any{"spec": map[string]any{"replicas": int64(1), "paused": false}}
	asked := 0
	in := DriftInput{Live: live, Manifest: manifest, Predicted: live, CreateAddsNothing: true,
		Defaulted: func() map[string]any { return defaulted },
		Created: func() (map[string]any, []string) {
			asked++
			return defaulted, nil
		}}
	got := Drift(in)
	if asked != 0 {
		t.Errorf("the create was asked %d times", asked)
	}
	if len(got) != 1 || got[0].Path != ".spec.replicas" || got[0].Fate != DriftKept || len(got[0].Owners) != 0 {
		t.Fatalf("drift %+v, want .spec.replicas nobody owns, kept", got)
	}
	in.CreateAddsNothing = false
	if again := Drift(in); asked != 1 || !reflect.DeepEqual(again, got) {
		t.Errorf("asking the create: %d asks, drift %+v; without: %+v", asked, again, got)
	}
	in.CreateAddsNothing, in.Defaulted = true, func() map[string]any { return nil }
	in.Created = func() (map[string]any, []string) {
		asked++
		return map[string]any{"spec": map[string]any{"replicas": int64(3), "paused": false}}, nil
	}
	if d := Drift(in); asked != 2 || len(d) != 0 {
		t.Errorf("defaults unknown: %d asks, drift %+v; want the create asked, and its value taken", asked, d)
	}
}

// FuzzUnowned holds unowned, which sorts only the fields it enters, to the walk before it
// (unownedSortingAll, which sorted every map's fields): the same paths and values, in the
// same order, for any live object, owners' union and set recorded for the manifest.
func FuzzUnowned(f *testing.F) {
	f.Add(driftLive,
		`{"f:metadata":{"f:annotations":{"f:team":{},"f:shared":{}},"f:labels":{}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:name":{}}},"f:dnsPolicy":{}}}}}`,
		`{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{"f:name":{}}}}}}}`)
	f.Add(`{"spec":{"ports":[{"port":80,"protocol":"TCP"},{"port":81}],"list":["a","b"],"idx":[1,2],"e":{},"l":[]},"status":{"a":1},"metadata":{"uid":"u","name":"n","z":{"y":1}}}`,
		`{"f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}}},"f:list":{"v:\"a\"":{}},"f:idx":{"i:1":{}}},"f:metadata":{".":{},"f:z":{}}}`,
		`{"f:spec":{"f:ports":{"k:{\"port\":81}":{}}}}`)
	f.Add(`{"a":{"b":1,"c":{"d":2}}}`, `{}`, `{}`)
	f.Fuzz(func(t *testing.T, liveText, ownedText, namesText string) {
		var live map[string]any
		if json.Unmarshal([]byte(liveText), &live) != nil {
			return
		}
		owned, err := fieldpath.FieldsV1ToSet([]byte(ownedText))
		if err != nil {
			return
		}
		recorded, err := fieldpath.FieldsV1ToSet([]byte(namesText))
		if err != nil {
			return
		}
		names := func(p smdpath.Path) *smdpath.Set {
			s := recorded
			for _, pe := range p {
				if s == nil {
					return nil
				}
				s, _ = s.Children.Get(pe)
			}
			return s
		}
		type field struct {
			path string
			live any
		}
		for _, o := range []*smdpath.Set{owned, nil} {
			var want, got []field
			unownedSortingAll(live, o, names, nil, func(p smdpath.Path, v any) { want = append(want, field{p.String(), v}) })
			unowned(live, o, names, nil, func(p smdpath.Path, v any) { got = append(got, field{p.String(), v}) })
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("unowned:\n%v\nsorting every map:\n%v", got, want)
			}
		}
	})
}

// unownedSortingAll is unowned as it was before it sorted only the fields it enters:
// FuzzUnowned's reference.
func unownedSortingAll(v any, owned *smdpath.Set, names func(smdpath.Path) *smdpath.Set, at smdpath.Path, f func(smdpath.Path, any)) {
	// A child's path is at with its element appended in place: f and names keep no path
	// past their call, and a child's walk is over before its next sibling's starts.
	child := func(pe smdpath.PathElement) smdpath.Path { return append(at, pe) }
	below := func(s *smdpath.Set, pe smdpath.PathElement) *smdpath.Set {
		if s == nil {
			return nil
		}
		c, _ := s.Children.Get(pe)
		return c
	}
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			if owned == nil {
				f(at, v)
			}
			return
		}
		keys := unstructured.SortedKeys(v)
		for i := range keys {
			k := keys[i]
			pe := smdpath.PathElement{FieldName: &keys[i]}
			if serverOnly(child(pe)) {
				continue // no drift: nor anything below it (serverOnly holds below what it holds)
			}
			o := below(owned, pe)
			if o == nil && owned != nil && owned.Members.Has(pe) {
				continue // owned whole
			}
			unownedSortingAll(v[k], o, names, child(pe), f)
		}
	case []any:
		if len(v) == 0 {
			if owned == nil {
				f(at, v)
			}
			return
		}
		for _, item := range v {
			if owned != nil {
				if pe, o, ok := ownedChild(item, &owned.Children); ok {
					unownedSortingAll(item, o, names, child(pe), f)
					continue
				}
				if ownedItem(item, &owned.Members) {
					continue
				}
			}
			pe, ok := nameItem(item, v, owned)
			if !ok {
				pe, ok = nameItem(item, v, names(at))
			}
			if !ok {
				// Nothing says how to name the item: the list, whole.
				f(at, v)
				return
			}
			unownedSortingAll(item, nil, names, child(pe), f)
		}
	default:
		if owned == nil {
			f(at, v)
		}
	}
}
