package rawpatch

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/input"
)

func TestAnonymous(t *testing.T) {
	for doc, want := range map[string]bool{
		`[{"op": "remove", "path": "/spec/replicas"}]`:                      true,
		"spec:\n  replicas: 2\n":                                            true,
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: {}\n": false,
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {a: b}\n":    true,
		"{": false,
	} {
		if _, got := Anonymous([]byte(doc)); got != want {
			t.Errorf("%q: %v, want %v", doc, got, want)
		}
	}
}

// TestStubs: each patch kept aside becomes a stub naming the one live object, and is the
// patch of that stub; two live objects are an error.
func TestStubs(t *testing.T) {
	var s Set
	s.docs = [][]byte{[]byte(`[]`), []byte(`{"data":{}}`)}
	live, _ := input.Split(input.Parse("live.json", []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"ns"}}`)))
	stubs := s.Stubs(live)
	if len(stubs) != 2 {
		t.Fatalf("%d stubs", len(stubs))
	}
	for i, e := range stubs {
		if e.Object == nil {
			t.Fatalf("stub %d: %v", i, e.Err)
		}
		if _, _, ns, name := e.Object.Meta(); ns != "ns" || name != "a" {
			t.Errorf("stub %d names %s/%s", i, ns, name)
		}
		if body, ok := s.For(e.Object); !ok || string(body) != string(s.docs[i]) {
			t.Errorf("stub %d: patch %q", i, body)
		}
	}
	if e := s.Stubs(append(live, live[0])); len(e) != 1 || e[0].Err == nil {
		t.Errorf("two live objects: %+v", e)
	}
}
