package shard

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/report"
)

// A Key is what decides an item's shard: its object's group, kind, namespace and name. OK
// is false for input that could not be read or identified, which is shard 1's.
type Key struct {
	Group, Kind, Namespace, Name string
	OK                           bool
}

// A Record is what a shard records for merge: the position of each of its results in the
// whole run, and the run's identity.
type Record struct {
	spec      Spec
	run       string
	total     int
	positions []int // of the items kept, in their order
}

// Select keeps the items of spec's shard, given each item's key and source: it returns the
// indexes kept, in order, and the shard's record. The run's identity hashes every item's
// key and source, in order, each source's file relative to the inputs' root
// (RelativeSources): the same in every shard of one run, wherever each is run from, and
// another for other inputs.
func Select(spec Spec, keys []Key, srcs []input.Source) ([]int, *Record) {
	h := fnv.New64a()
	rec := &Record{spec: spec, total: len(keys)}
	rel := RelativeSources(srcs)
	var kept []int
	for i, k := range keys {
		fmt.Fprintf(h, "%q %q %q %q %t %s\n", k.Group, k.Kind, k.Namespace, k.Name, k.OK, rel[i])
		owner := 1
		if k.OK {
			owner = Of(spec.Count, k.Group, k.Kind, k.Namespace, k.Name)
		}
		if owner == spec.Index {
			kept = append(kept, i)
			rec.positions = append(rec.positions, i)
		}
	}
	rec.run = fmt.Sprintf("%016x", h.Sum64())
	return kept, rec
}

// Start puts the shard's record into the report (nothing for a nil Record: no --shard).
func (r *Record) Start(rep *report.Report) {
	if r == nil {
		return
	}
	rep.Shard = &report.Shard{Index: r.spec.Index, Count: r.spec.Count, Run: r.run, Total: r.total, Results: []report.ShardResult{}}
}

// Keep records the k-th result written: its position in the run and its inputs.
func (r *Record) Keep(rep *report.Report, k int, res *report.Result) {
	if r == nil || rep.Shard == nil {
		return
	}
	rep.Shard.Results = append(rep.Shard.Results, report.ShardResult{Position: r.positions[k], Live: res.Live, Manifest: res.Manifest})
}

// RelativeSources are srcs with each file named relative to their root: the deepest
// directory holding every file (standard input and sources without a file are kept as
// they are), in slash form. A file whose absolute path cannot be known is kept as given.
func RelativeSources(srcs []input.Source) []input.Source {
	abs := make([]string, len(srcs))
	root, rooted := "", false
	for i, s := range srcs {
		if s.File == "" || s.File == input.StdinName {
			continue
		}
		a, err := filepath.Abs(s.File)
		if err != nil {
			continue
		}
		abs[i] = a
		dir := filepath.Dir(a)
		if !rooted {
			root, rooted = dir, true
			continue
		}
		for !within(dir, root) {
			parent := filepath.Dir(root)
			if parent == root {
				break
			}
			root = parent
		}
	}
	out := make([]input.Source, len(srcs))
	for i, s := range srcs {
		out[i] = s
		if abs[i] == "" {
			continue
		}
		if r, err := filepath.Rel(root, abs[i]); err == nil {
			out[i].File = filepath.ToSlash(r)
		}
	}
	return out
}

// within reports whether dir is root or under it.
func within(dir, root string) bool {
	r, err := filepath.Rel(root, dir)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}
