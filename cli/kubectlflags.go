package cli

// This file accepts the flags a kubectl user types out of habit, as kubectl means them:
// -R/--recursive (directories are read recursively anyway), --concurrency (kubectl diff's
// --jobs), and --server-side, which is both kubectl's switch (alone: a server-side apply,
// the only thing ssa-diff predicts) and Helm's auto|true|false (--applier helm).

import (
	"fmt"
	"strconv"

	"github.com/spf13/pflag"
)

// serverSideValues are the values of --server-side: Helm's.
var serverSideValues = []string{"auto", "true", "false"}

// serverSideFlag is --server-side: alone it is "true" (as kubectl's switch and Helm's
// flag mean it), or one of auto, true and false. "" when not given.
type serverSideFlag struct{ value *string }

func (f serverSideFlag) String() string { return *f.value }

func (f serverSideFlag) Set(s string) error {
	if !isServerSideValue(s) {
		return fmt.Errorf("must be auto, true or false, not %q", s)
	}
	*f.value = s
	return nil
}

func (f serverSideFlag) Type() string { return "auto|true|false" }

func isServerSideValue(s string) bool {
	for _, v := range serverSideValues {
		if s == v {
			return true
		}
	}
	return false
}

// addKubectlHabitFlags defines -R/--recursive and --concurrency.
func (c *options) addKubectlHabitFlags(fs *pflag.FlagSet) {
	fs.BoolVarP(&c.recursive, "recursive", "R", true, "kubectl's -R: directories are read recursively (always; --recursive=false is refused).")
	fs.IntVar(&c.jobs, "concurrency", c.jobs, "kubectl diff's --concurrency: the same as --jobs (default: the number of CPUs).")
}

// addServerSideFlag defines --server-side (see serverSideFlag).
func (c *options) addServerSideFlag(fs *pflag.FlagSet) {
	f := fs.VarPF(serverSideFlag{&c.helm.serverSide}, "server-side", "", "kubectl's --server-side: alone, a server-side apply (what ssa-diff predicts; --server-side=false, a client-side apply, is not). With --applier helm, Helm's --server-side auto|true|false (install: true; upgrade, rollback: auto, which follows the release's records; alone: true).")
	f.NoOptDefVal = "true"
}

// checkKubectlHabits refuses what the kubectl habits cannot mean here.
func (c *options) checkKubectlHabits(fs *pflag.FlagSet) error {
	if !c.recursive {
		return fmt.Errorf("--recursive=false: ssa-diff always reads directories recursively (give the files instead)")
	}
	if fs.Changed("jobs") && fs.Changed("concurrency") {
		return fmt.Errorf("--concurrency is --jobs: give one of them")
	}
	if c.applier != "helm" && fs.Changed("server-side") && c.helm.serverSide != "true" {
		return fmt.Errorf("--server-side=%s: ssa-diff predicts server-side applies only (kubectl apply without --server-side is client-side, not predicted); %s is Helm's (--applier helm)", c.helm.serverSide, strconv.Quote(c.helm.serverSide))
	}
	return nil
}

// joinServerSideValue rewrites Helm's space form `--server-side false` into
// `--server-side=false`: the flag's value is optional, so the parser would take the next
// argument for a positional one. Only auto, true and false are taken; nothing after "--".
func joinServerSideValue(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if a == "--server-side" && i+1 < len(args) && isServerSideValue(args[i+1]) {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}
