package cli

import (
	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/flagvalue"
)

func (o *options) addShardFlag(fs *pflag.FlagSet) {
	fs.Var(flagvalue.Shard{Spec: &o.shard}, "shard", "Predict only shard I of N (1-based) of the objects: those whose group, kind, namespace and name hash (FNV-1a 64) to I; every shard reads every input. `ssa-diff merge` folds the shards' -o json reports into the whole run's output.")
}
