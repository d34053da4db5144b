package cli

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/internal/shard"
)

// shardFlag is --shard I/N.
type shardFlag struct{ spec *shard.Spec }

func (f shardFlag) String() string {
	if f.spec == nil || !f.spec.On() {
		return ""
	}
	return f.spec.String()
}

func (f shardFlag) Set(s string) error {
	spec, err := shard.Parse(s)
	if err != nil {
		return err
	}
	*f.spec = spec
	return nil
}

func (shardFlag) Type() string { return "string" }

func (o *options) addShardFlag(fs *pflag.FlagSet) {
	fs.Var(shardFlag{&o.shard}, "shard", "Predict only shard I of N (1-based) of the objects: those whose group, kind, namespace and name hash (FNV-1a 64) to I; every shard reads every input. `ssa-diff merge` folds the shards' -o json reports into the whole run's output.")
}

// sharding is what a shard records for merge: the position of each of its results in the
// whole run, and the run's identity.
type sharding struct {
	spec      shard.Spec
	run       string
	total     int
	positions []int // of the slots kept, in their order
}

// shardSlots keeps the slots of this shard. A slot's key is its pair's identity (a prune's:
// the live object's); input that could not be read or identified has none, and is shard
// 1's. The run's identity hashes every slot's key and source, in order, each source's file
// relative to the inputs' root (sourcesRoot): the same in every shard of one run, wherever
// each is run from, and another for other inputs.
func (c *session) shardSlots(slots []*slot) []*slot {
	if !c.shard.On() {
		return slots
	}
	h := fnv.New64a()
	sh := &sharding{spec: c.shard, total: len(slots)}
	srcs := make([]input.Source, len(slots))
	for i, s := range slots {
		srcs[i] = s.src
	}
	rel := relativeSources(srcs)
	var kept []*slot
	for i, s := range slots {
		key, ok := slotKey(s)
		fmt.Fprintf(h, "%q %q %q %q %t %s\n", key[0], key[1], key[2], key[3], ok, rel[i])
		owner := 1
		if ok {
			owner = shard.Of(c.shard.Count, key[0], key[1], key[2], key[3])
		}
		if owner == c.shard.Index {
			kept = append(kept, s)
			sh.positions = append(sh.positions, i)
		}
	}
	sh.run = fmt.Sprintf("%016x", h.Sum64())
	c.sharding = sh
	return kept
}

// relativeSources are srcs with each file named relative to their root: the deepest
// directory holding every file (standard input and sources without a file are kept as
// they are), in slash form. A file whose absolute path cannot be known is kept as given.
func relativeSources(srcs []input.Source) []input.Source {
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

// slotKey is a slot's group, kind, namespace and name, when it has them.
func slotKey(s *slot) ([4]string, bool) {
	switch {
	case s.pruned != nil:
		r := s.pruned
		group, _, found := strings.Cut(r.APIVersion, "/")
		if !found {
			group = ""
		}
		return [4]string{group, r.Kind, r.Namespace, r.Name}, true
	case s.pair != nil && s.pair.Err == nil:
		id := s.pair.ID
		return [4]string{id.Group, id.Kind, id.Namespace, id.Name}, true
	}
	return [4]string{}, false
}

// start puts the shard's record into the report.
func (sh *sharding) start(rep *report.Report) {
	if sh == nil {
		return
	}
	rep.Shard = &report.Shard{Index: sh.spec.Index, Count: sh.spec.Count, Run: sh.run, Total: sh.total, Results: []report.ShardResult{}}
}

// keep records the k-th result written: its position in the run and its inputs.
func (sh *sharding) keep(rep *report.Report, k int, res *report.Result) {
	if sh == nil || rep.Shard == nil {
		return
	}
	rep.Shard.Results = append(rep.Shard.Results, report.ShardResult{Position: sh.positions[k], Live: res.Live, Manifest: res.Manifest})
}
