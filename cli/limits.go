package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/input"
)

// inputLimits are the bounds on what ssa-diff reads (flags --max-*).
type inputLimits = input.Limits

// registerLimitFlags adds the flags that bound what is read and returns their argument
// names for the usage text.
func registerLimitFlags(fs *pflag.FlagSet, lim *inputLimits) map[string]string {
	*lim = input.DefaultLimits()
	fs.Var(&sizeFlag{&lim.MaxInputBytes, "max-input-bytes"}, "max-input-bytes",
		"Read at most this much input, all files, standard input and the cluster's answers together (suffixes Ki, Mi, Gi). Default: "+input.FormatSize(lim.MaxInputBytes)+".")
	fs.Var(&sizeFlag{&lim.MaxDocumentBytes, "max-document-bytes"}, "max-document-bytes",
		"Skip, as an error, a YAML document or JSON value larger than this; each item of a JSON List counts on its own (the List as a whole is bounded by --max-input-bytes), and so does each object read from the cluster. Default: "+input.FormatSize(lim.MaxDocumentBytes)+".")
	fs.Var(&intFlag{&lim.MaxDepth, "max-depth", input.HardMaxDepth}, "max-depth",
		fmt.Sprintf("Refuse documents whose maps and lists nest deeper than this (at most %d, the API server's own limit).", input.HardMaxDepth))
	fs.Var(&intFlag{&lim.MaxAliasNodes, "max-yaml-alias-nodes", math.MaxInt32}, "max-yaml-alias-nodes",
		"Refuse YAML documents whose aliases (*name) add more than this many nodes when expanded.")
	fs.Var(&intFlag{&lim.MaxFiles, "max-files", math.MaxInt32}, "max-files",
		"Visit at most this many files and directories when reading directories.")
	fs.Var(&intFlag{&lim.MaxObjects, "max-objects", math.MaxInt32}, "max-objects",
		"Read at most this many objects, manifests and live objects (List items each) together.")
	return map[string]string{"max-input-bytes": "SIZE", "max-document-bytes": "SIZE", "max-depth": "N",
		"max-yaml-alias-nodes": "N", "max-files": "N", "max-objects": "N"}
}

// sizeFlag is a byte count flag: 1048576, 512Ki, 64Mi, 1Gi (or k, M, G: powers of 1000).
type sizeFlag struct {
	p    *int64
	name string
}

func (f *sizeFlag) String() string { return input.FormatSize(*f.p) }
func (f *sizeFlag) Type() string   { return "size" }

func (f *sizeFlag) Set(s string) error {
	n, err := input.ParseSize(s)
	if err != nil {
		return err
	}
	*f.p = n
	return nil
}

// intFlag is a positive integer flag with an upper bound.
type intFlag struct {
	p    *int
	name string
	max  int
}

func (f *intFlag) String() string { return strconv.Itoa(*f.p) }
func (f *intFlag) Type() string   { return "int" }

func (f *intFlag) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n <= 0 {
		return fmt.Errorf("%q is not a positive integer", s)
	}
	if n > f.max {
		return fmt.Errorf("%d is more than %d, the largest allowed", n, f.max)
	}
	*f.p = n
	return nil
}
