package cli

// This file accepts the flags a kubectl user types out of habit, as kubectl means them:
// -R/--recursive (directories are read recursively anyway), --concurrency (kubectl diff's
// --jobs), and --server-side, which is both kubectl's switch (alone: a server-side apply,
// the only thing ssa-diff predicts) and Helm's auto|true|false (--applier helm).

import (
	"fmt"

	"github.com/spf13/pflag"
)

// isServerSideValue reports a value of --server-side: Helm's auto, true and false.
func isServerSideValue(s string) bool {
	return s == "auto" || s == "true" || s == "false"
}

// addKubectlHabitFlags defines -R/--recursive and --concurrency.
func (c *options) addKubectlHabitFlags(fs *pflag.FlagSet) {
	fs.BoolVarP(&c.recursive, "recursive", "R", true, "kubectl's -R: directories are read recursively (always; --recursive=false is refused).")
	fs.IntVar(&c.jobs, "concurrency", c.jobs, "kubectl diff's --concurrency: the same as --jobs (default: the number of CPUs).")
}

// checkKubectlHabits refuses what the kubectl habits cannot mean here.
func (c *options) checkKubectlHabits(fs *pflag.FlagSet) error {
	if !c.recursive {
		return fmt.Errorf("--recursive=false: ssa-diff always reads directories recursively (give the files instead)")
	}
	if fs.Changed("jobs") && fs.Changed("concurrency") {
		return fmt.Errorf("--concurrency is --jobs: give one of them")
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
