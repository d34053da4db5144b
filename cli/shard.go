package cli

import (
	"github.com/spf13/pflag"
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
