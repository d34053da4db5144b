package cli

import (
	"fmt"
	"github.com/ssa-diff/ssa-diff/internal/flagvalue"
	"math"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/input"
)

// inputLimits are the bounds on what ssa-diff reads (flags --max-*).
type inputLimits = input.Limits

// registerLimitFlags adds the flags that bound what is read (limitArgNames names their arguments).
func registerLimitFlags(fs *pflag.FlagSet, lim *inputLimits) {
	*lim = input.DefaultLimits()
	fs.Var(&flagvalue.Size{P: &lim.MaxInputBytes, Name: "max-input-bytes"}, "max-input-bytes",
		"Read at most this much input, all files, standard input and the cluster's answers together (suffixes Ki, Mi, Gi). Default: "+input.FormatSize(lim.MaxInputBytes)+".")
	fs.Var(&flagvalue.Size{P: &lim.MaxDocumentBytes, Name: "max-document-bytes"}, "max-document-bytes",
		"Skip, as an error, a YAML document or JSON value larger than this; each item of a JSON List counts on its own (the List as a whole is bounded by --max-input-bytes), and so does each object read from the cluster. Default: "+input.FormatSize(lim.MaxDocumentBytes)+".")
	fs.Var(&flagvalue.Int{P: &lim.MaxDepth, Name: "max-depth", Max: input.HardMaxDepth}, "max-depth",
		fmt.Sprintf("Refuse documents whose maps and lists nest deeper than this (at most %d, the API server's own limit).", input.HardMaxDepth))
	fs.Var(&flagvalue.Int{P: &lim.MaxAliasNodes, Name: "max-yaml-alias-nodes", Max: math.MaxInt32}, "max-yaml-alias-nodes",
		"Refuse YAML documents whose aliases (*name) add more than this many nodes when expanded.")
	fs.Var(&flagvalue.Int{P: &lim.MaxFiles, Name: "max-files", Max: math.MaxInt32}, "max-files",
		"Visit at most this many files and directories when reading directories.")
	fs.Var(&flagvalue.Int{P: &lim.MaxObjects, Name: "max-objects", Max: math.MaxInt32}, "max-objects",
		"Read at most this many objects, manifests and live objects (List items each) together.")
}

// limitArgNames are the argument names of the limits' flags in the usage.
var limitArgNames = [][2]string{{"max-input-bytes", "SIZE"}, {"max-document-bytes", "SIZE"}, {"max-depth", "N"}, {"max-yaml-alias-nodes", "N"}, {"max-files", "N"}, {"max-objects", "N"}}
