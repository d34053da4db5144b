package helmrun

import (
	"fmt"
	"strconv"

	"github.com/ssa-diff/ssa-diff/appliers"
)

// ReadOptions reads Helm's options (the options of appliers.HelmApplier's Kind, value
// giving each one's value by name, "" when not given) into the release and its command, as
// Helm reads its flags: each value checked (Option.CheckOption), a release name needed,
// --dry-run resolved (appliers.HelmDryRunStrategy). The release's namespace and the
// command's ForceConflicts are the caller's.
func ReadOptions(value func(name string) string) (Release, error) {
	helm, _ := appliers.KindOf(appliers.HelmApplier)
	for _, o := range helm.Options {
		if err := o.CheckOption(value(o.Name)); err != nil {
			return Release{}, err
		}
	}
	revision, _ := strconv.Atoi(value("helm-revision"))
	r := Release{Name: value("helm-release"), Driver: value("helm-driver"), Command: appliers.HelmOptions{
		Command: appliers.HelmCommand(value("helm-command")), ServerSide: value("server-side"), TakeOwnership: value("take-ownership") == "true",
		Install: value("helm-install") == "true", SkipCRDs: value("skip-crds") == "true", Revision: revision}}
	if r.Name == "" {
		return Release{}, fmt.Errorf("--applier helm needs --helm-release NAME")
	}
	d, err := appliers.HelmDryRunStrategy(value("helm-dry-run"))
	if err != nil {
		return Release{}, fmt.Errorf("--helm-dry-run: %w", err)
	}
	r.Command.DryRun = d
	return r, nil
}
