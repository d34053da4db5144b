package core

import (
	"testing"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
)

// A lazySet is made at its first get, of its items, and the same set is handed out after.
func TestLazySetMadeOnce(t *testing.T) {
	l := &lazySet[api.Signal]{items: []api.Signal{api.SIGKILL, api.SIGTERM}}
	if l.set != nil {
		t.Fatal("made before its first use")
	}
	s := l.get()
	if s.Len() != 2 || !s.Has(api.SIGKILL) || !s.Has(api.SIGTERM) || s.Has(api.SIGINT) {
		t.Fatalf("got %v", s)
	}
	s.Insert(api.SIGINT)
	if !l.get().Has(api.SIGINT) {
		t.Fatal("a second get made the set again")
	}
	if windowsStopSignals.get().Len() != 2 || linuxStopSignals.get().Len() != len(linuxStopSignals.items) {
		t.Fatal("the stop signals' sets are not their items")
	}
}
