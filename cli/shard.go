package cli

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/spf13/pflag"

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
// 1's. The run's identity hashes every slot's key and source, in order: the same in every
// shard of one run, and another for other inputs.
func (c *invocation) shardSlots(slots []*slot) []*slot {
	if !c.shard.On() {
		return slots
	}
	h := fnv.New64a()
	sh := &sharding{spec: c.shard, total: len(slots)}
	var kept []*slot
	for i, s := range slots {
		key, ok := slotKey(s)
		fmt.Fprintf(h, "%q %q %q %q %t %s\n", key[0], key[1], key[2], key[3], ok, s.src)
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
