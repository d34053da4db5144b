package predict

import (
	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/schema"
)

// This file decides which live objects the run's applier prunes: those it tracks
// (Applier.Prunes says whether, and why) that no manifest of the run names.

// An Applied is the object one manifest of the run applies to: where the apply goes (ID)
// and the kind the manifest is written as.
type Applied struct {
	ID  Identity
	GVK schema.GVK
}

// A LiveObject is an object of the live state: its identity, and its tree, decoded only
// when it could be pruned (Decode).
type LiveObject struct {
	GVK             schema.GVK
	Namespace, Name string
	Decode          func() (map[string]any, error)
}

// A Pruning is a live object the applier deletes: its index in the live objects given,
// its tree, and why the applier deletes it.
type Pruning struct {
	Index  int
	Object map[string]any
	Why    string
}

// Pruned are the live objects the applier deletes because no manifest names them, in the
// order given: an object named by no manifest (applied), which the applier's Prunes rule
// claims. The namespaces the apply visits are those of the namespaced objects applied, and
// visitedAlso ("" for none: kubectl's -n when given). Objects without a name, or whose tree
// cannot be read, are never pruned.
func (r *Run) Pruned(applied []Applied, live []LiveObject, visitedAlso string) []Pruning {
	named := map[Identity]bool{}
	visited := map[string]bool{}
	for _, a := range applied {
		named[a.ID] = true
		if t, ok := r.Schemas.Lookup(a.GVK); ok && t.Namespaced && a.ID.Namespace != "" {
			visited[a.ID.Namespace] = true
		}
	}
	if visitedAlso != "" {
		visited[visitedAlso] = true
	}
	var out []Pruning
	for i, o := range live {
		if named[Identity{o.GVK.Group, o.GVK.Kind, o.Namespace, o.Name}] || o.Name == "" {
			continue
		}
		obj, err := o.Decode()
		if err != nil {
			continue
		}
		t, known := r.Schemas.Lookup(o.GVK)
		why := r.Applier.Prunes(appliers.PruneCandidate{GVK: o.GVK, Namespace: o.Namespace, Name: o.Name, Object: obj,
			Namespaced: known && t.Namespaced, InVisitedNamespace: visited[o.Namespace]})
		if why != "" {
			out = append(out, Pruning{Index: i, Object: obj, Why: why})
		}
	}
	return out
}
