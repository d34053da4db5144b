package cli

import (
	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/noise"
	"github.com/ssa-diff/ssa-diff/internal/output"
)

// This file holds the flags that quiet a report without changing a prediction: unchanged
// objects folded (--show-unchanged), fields and managers hidden from the diffs and the
// gate (--ignore-path, --ignore-manager: a judge.Ignore), inputs skipped (--skip,
// --ignore-filename-pattern, as kubeconform names them).

// noiseOptions are the command line's noise controls, and their rules once read
// (package noise).
type noiseOptions struct {
	showUnchanged  bool
	ignorePaths    []string
	ignoreManagers []string
	skip           []string
	filePatterns   []string

	rules *noise.Rules
}

var noiseArgNames = [][2]string{{"ignore-path", "[TARGET:]FIELD"}, {"ignore-manager", "NAME"}, {"skip", "KIND[,KIND]"}, {"ignore-filename-pattern", "REGEX"}}

// addNoiseFlags defines the noise controls' flags.
func (c *options) addNoiseFlags(fs *pflag.FlagSet) {
	n := &c.noise
	fs.BoolVar(&n.showUnchanged, "show-unchanged", false, "Print the unchanged objects with -o text and markdown; by default they are folded into the summary's count (JSON and YAML keep every object).")
	stringArrayVarP(fs, &n.ignorePaths, "ignore-path", "", nil, "Hide a field (FIELD) from the diffs and the gate's findings, never from the prediction: a JSON pointer (/spec/replicas) or JSONPath (.spec.replicas, .spec.template.spec.containers[*].image), for every object or, as Argo CD's ignoreDifferences, for the objects of a TARGET GROUP/KIND[/NAMESPACE/NAME] (core for the core group, * any) (repeatable). A conflict the server refuses still fails.")
	stringArrayVarP(fs, &n.ignoreManagers, "ignore-manager", "", nil, "Hide the fields a manager owns from the diffs and the gate's findings, as Argo CD's managedFieldsManagers (repeatable). A conflict the server refuses still fails.")
	stringArrayVarP(fs, &n.skip, "skip", "", nil, "Kinds not predicted nor reported, as kubeconform's -skip: a comma-separated list of kinds (ConfigMap) or apiVersion/kind (apps/v1/Deployment) (repeatable). Skipped manifests still count as named by the repository for --prune.")
	stringArrayVarP(fs, &n.filePatterns, "ignore-filename-pattern", "", nil, "A regular expression (Go syntax) of file paths not read when walking a manifest directory, as kubeconform's (repeatable).")
}

// checkNoise reads the noise controls once parsed, and gives the gate's policy the
// ignore rules.
func (c *options) checkNoise() error {
	n := &c.noise
	r, err := noise.Read(noise.Settings{Rules: c.gitops.rules, IgnorePaths: n.ignorePaths, IgnoreManagers: n.ignoreManagers,
		Skip: n.skip, FilePatterns: n.filePatterns})
	if err != nil {
		return err
	}
	n.rules = r
	if r.Ignore != nil {
		c.gate.policy.Ignore = r.Ignore
	}
	return nil
}

// outputOptions sets the noise controls of the human formats.
func (n noiseOptions) outputOptions(opts *output.Options) {
	opts.ShowUnchanged = n.showUnchanged
	if n.rules != nil {
		opts.Ignore = n.rules.Ignore
	}
}
