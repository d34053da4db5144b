package input

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/schema"
)

func mustParse(t *testing.T, name, text string) []*Object {
	t.Helper()
	objs, errs := Split(Parse(name, []byte(text)))
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	return objs
}

// testScope knows Deployments (namespaced) and Namespaces (cluster-scoped).
func testScope(gvk schema.GVK) (bool, bool) {
	switch gvk.Kind {
	case "Deployment":
		return true, true
	case "Namespace":
		return false, true
	}
	return false, false
}

func TestMatch(t *testing.T) {
	manifests := mustParse(t, "m.yaml", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
---
apiVersion: v1
kind: Namespace
metadata: {name: shop, namespace: ignored}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: g}
---
apiVersion: apps/v1beta2
kind: Deployment
metadata: {name: api, namespace: prod}
---
apiVersion: apps/v1
kind: Deployment
metadata: {namespace: prod}
`)
	live := mustParse(t, "live.json", `{"apiVersion":"v1","kind":"List","items":[
{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"team"}},
{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"api","namespace":"prod"}},
{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"shop"}},
{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"}},
{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g","namespace":"team"}},
{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"api","namespace":"prod"}}
]}`)
	m := Match(manifests, live, testScope, "team")
	if len(m.Pairs) != len(manifests) {
		t.Fatalf("%d pairs for %d manifests", len(m.Pairs), len(manifests))
	}
	wantLive := []int{0, 2, 3, 4, 1, -1} // index into live, -1: none
	wantID := []string{"Deployment.apps team/web", "Namespace shop", "Widget.example.com w", "Gadget.example.com team/g", "Deployment.apps prod/api", ""}
	for i, p := range m.Pairs {
		got := -1
		for j, l := range live {
			if p.Live == l {
				got = j
			}
		}
		if got != wantLive[i] {
			t.Errorf("manifest %d paired with live %d, want %d", i, got, wantLive[i])
		}
		if p.Err == nil && p.ID.String() != wantID[i] {
			t.Errorf("manifest %d identity %s, want %s", i, p.ID, wantID[i])
		}
		if p.Mismatched {
			t.Errorf("manifest %d paired by position", i)
		}
	}
	if err := m.Pairs[5].Err; err == nil || err.Error() != "m.yaml, document 5, line 23: .metadata.name: required field is missing" {
		t.Errorf("nameless manifest: %v", err)
	}
	if len(m.Errors) != 0 || len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], "item 5") || !strings.Contains(m.Warnings[0], "also at live.json, document 0, item 1") {
		t.Errorf("duplicate live object: %v %q", m.Errors, m.Warnings)
	}
}

func TestMatchOneToOneMismatch(t *testing.T) {
	manifests := mustParse(t, "m.yaml", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: queue, namespace: ns}\n")
	live := mustParse(t, "l.json", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"queue","namespace":"ns"}}`)
	m := Match(manifests, live, testScope, "default", RawRequests())
	p := m.Pairs[0]
	if !p.Mismatched || p.Live != live[0] || p.ID.String() != "Deployment.apps ns/queue" || p.GVK.Kind != "StatefulSet" {
		t.Fatalf("pair = %+v", p)
	}
	if len(p.Warnings) != 1 {
		t.Errorf("warnings = %q", p.Warnings)
	}

	// Without apiVersion the manifest cannot be identified, but the pair still stands: the
	// server's answer to that body is what the user wants to see.
	manifests = mustParse(t, "m.yaml", "kind: Deployment\nmetadata: {name: queue}\n")
	m = Match(manifests, live, testScope, "default", RawRequests())
	if p := m.Pairs[0]; p.Err != nil || !p.Mismatched {
		t.Errorf("pair = %+v", p)
	}
	// kubectl refuses such a manifest before sending anything.
	m = Match(manifests, live, testScope, "default")
	if p := m.Pairs[0]; p.Err == nil || p.Live != nil || !strings.Contains(p.Err.Error(), ".apiVersion: required field is missing") {
		t.Errorf("kubectl pair = %+v", p)
	}
	// kubectl sends a StatefulSet to the StatefulSet's endpoint: the live Deployment is
	// another object, and the StatefulSet's live state is unknown.
	manifests = mustParse(t, "m.yaml", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: queue, namespace: ns}\n")
	m = Match(manifests, live, testScope, "default")
	if p := m.Pairs[0]; p.Err == nil || p.Live != nil || !strings.Contains(p.Err.Error(), "m.yaml, document 0, line 1: this manifest is StatefulSet.apps ns/queue, but the only live object (l.json:1) is Deployment.apps ns/queue") {
		t.Errorf("kubectl pair = %+v", p)
	}
	// Only the namespace differs, and the manifest names none: kubectl run in the live
	// object's namespace applies to it.
	manifests = mustParse(t, "m.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: queue}\n")
	m = Match(manifests, live, testScope, "default")
	if p := m.Pairs[0]; p.Err != nil || p.Live != live[0] || p.Mismatched || p.ID.String() != "Deployment.apps ns/queue" || len(p.Warnings) != 1 {
		t.Errorf("kubectl pair = %+v", p)
	}

	// Two manifests: no pairing by position.
	manifests = mustParse(t, "m.yaml", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: a}\n---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: b}\n")
	for _, p := range Match(manifests, live, testScope, "default").Pairs {
		if p.Live != nil {
			t.Errorf("manifest %s paired with %v", p.ID, p.Live.Source)
		}
	}
}

func TestMatchLiveIncomplete(t *testing.T) {
	manifests := mustParse(t, "m.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a, namespace: ns}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: b, namespace: ns}\n")
	live := mustParse(t, "l.json", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a","namespace":"ns"}}`)
	// Without errors in the live input, b is a create.
	if p := Match(manifests, live, testScope, "default").Pairs[1]; p.Err != nil || p.Live != nil {
		t.Errorf("b = %+v", p)
	}
	// With one, b's live state may be what was not read; a is still matched.
	m := Match(manifests, live, testScope, "default", LiveIncomplete(1))
	if p := m.Pairs[0]; p.Err != nil || p.Live != live[0] {
		t.Errorf("a = %+v", p)
	}
	if p := m.Pairs[1]; p.Err == nil || !strings.Contains(p.Err.Error(), "m.yaml, document 1, line 5: no live object matches Deployment.apps ns/b, but the live input could not all be read (1 error") {
		t.Errorf("b = %+v", p)
	}
	// An unidentifiable live object counts too.
	live = append(live, mustParse(t, "l2.json", `{"apiVersion":"apps/v1","metadata":{"name":"x"}}`)...)
	if p := Match(manifests, live, testScope, "default").Pairs[1]; p.Err == nil {
		t.Errorf("b with an unreadable live object = %+v", p)
	}
}

// TestMatchGenerateNames: a manifest that names no name but a generateName is refused as
// an apply's, and under GenerateNames (a POST) is a create paired with no live object,
// even the only one (rules.md create.generate-name).
func TestMatchGenerateNames(t *testing.T) {
	manifests := mustParse(t, "m.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {generateName: web-, namespace: ns}\n")
	live := mustParse(t, "l.json", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web-abcde","namespace":"ns"}}`)
	if p := Match(manifests, live, testScope, "default").Pairs[0]; p.Err == nil || !strings.Contains(p.Err.Error(), "server-side apply cannot use generateName") {
		t.Errorf("an apply = %+v", p)
	}
	p := Match(manifests, live, testScope, "default", GenerateNames(), RawRequests()).Pairs[0]
	if p.Err != nil || p.Live != nil || p.ID != (Identity{Group: "apps", Kind: "Deployment", Namespace: "ns"}) {
		t.Errorf("a create = %+v", p)
	}
}
