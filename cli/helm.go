package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/helmrun"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/schema"
)

// This file wires --applier helm into the command: Helm's flags, read into the release
// (package helmrun: its records, a rollback's manifests, the whole command predicted once).

// helmOptions are Helm's flags read (helmrun.ReadOptions): the release, less its namespace
// and the command's --force-conflicts.
type helmOptions = helmrun.Release

// checkHelm validates Helm's flags once parsed (its Kind's options, whose values checkGate
// checks), and reads them.
func (c *options) checkHelm(fs *pflag.FlagSet) error {
	h := &c.helm
	helm, _ := appliers.KindOf(appliers.HelmApplier)
	if c.applier != helm.Name {
		for _, o := range helm.Options {
			switch {
			case !fs.Changed(o.Name):
			case o.Others == nil:
				return fmt.Errorf("--%s is Helm's (--applier helm)", o.Name)
			default: // an option the other appliers take (kubectl's --server-side)
				if err := o.Others(c.helmValue(o.Name)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	release, err := helmrun.ReadOptions(c.helmValue)
	if err != nil {
		return err
	}
	*h = release
	if c.subresource != "" {
		return fmt.Errorf("--subresource: Helm applies objects, not subresources")
	}
	if fs.Changed("field-manager") {
		return fmt.Errorf("--field-manager: Helm's field manager is always %s", appliers.HelmManager)
	}
	return nil
}

// helmRollback reports a rollback, whose manifests are its target revision's.
// It reads the flag itself: the command line's arguments are checked before Helm's flags.
func (c *options) helmRollback() bool {
	return c.applier == appliers.HelmApplier && c.helmValue("helm-command") == string(appliers.HelmRollback)
}

// helmValue is the value of one of Helm's flags (its Kind's options); "" when not defined.
func (c *options) helmValue(name string) string {
	get, ok := c.gate.applierFlags[name]
	if !ok {
		return ""
	}
	v := get()
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// helmRelease is the release the run's Helm command works on, in the run's namespace.
func (c *session) helmRelease() helmrun.Release {
	r := c.helm
	r.Namespace, r.Command.ForceConflicts = c.namespace, c.force
	return r
}

// runHelm predicts the whole Helm command once, and makes the run's applier answer for
// each object from it.
func (c *session) runHelm(eng predictor, reg *schema.Registry, pairs []input.Pair, objs []*input.Object) error {
	e, ok := eng.(engine)
	if !ok {
		return errors.New("--applier helm needs the engine")
	}
	client, msgs, err := c.helmRelease().Run(e.Engine, reg, pairs, objs, c.now)
	helmrun.Say(c.stderr, msgs)
	if err != nil {
		return err
	}
	c.client = client
	return nil
}
