package cli

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/ssa-diff/ssa-diff/internal/input"
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

// shardSlots keeps the slots of this shard (shard.Select). A slot's key is its pair's
// identity (a prune's: the live object's); input that could not be read or identified has
// none, and is shard 1's.
func (c *session) shardSlots(slots []*slot) []*slot {
	if !c.shard.On() {
		return slots
	}
	keys, srcs := make([]shard.Key, len(slots)), make([]input.Source, len(slots))
	for i, s := range slots {
		keys[i], srcs[i] = slotKey(s), s.src
	}
	kept, rec := shard.Select(c.shard, keys, srcs)
	c.sharding = rec
	out := make([]*slot, len(kept))
	for i, k := range kept {
		out[i] = slots[k]
	}
	return out
}

// slotKey is a slot's group, kind, namespace and name, when it has them.
func slotKey(s *slot) shard.Key {
	switch {
	case s.pruned != nil:
		r := s.pruned
		group, _, found := strings.Cut(r.APIVersion, "/")
		if !found {
			group = ""
		}
		return shard.Key{Group: group, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, OK: true}
	case s.pair != nil && s.pair.Err == nil:
		id := s.pair.ID
		return shard.Key{Group: id.Group, Kind: id.Kind, Namespace: id.Namespace, Name: id.Name, OK: true}
	}
	return shard.Key{}
}
