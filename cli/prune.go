package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/appliers"
)

// This file is the prune preview's flags and slots: the live objects the run's applier
// deletes because the repository no longer names them. What each applier deletes is its
// own rule (appliers.Applier.Prunes): Argo CD's resource tracking, Flux's owner labels,
// kubectl's selector pruner.

// pruneOptions are the prune preview's flags.
type pruneOptions struct {
	on        bool
	selector  string
	all       bool
	allowlist []string

	explicit bool // -n was given: kubectl enforces it (and visits it)
}

var pruneArgNames = [][2]string{{"selector", "SELECTOR"}, {"prune-allowlist", "GROUP/VERSION/KIND"}}

func (c *options) addPruneFlags(fs *pflag.FlagSet) {
	p := &c.prune
	var what []string
	for _, k := range appliers.Kinds() {
		if k.Prune != "" {
			what = append(what, k.Name+": "+k.Prune)
		}
	}
	fs.BoolVar(&p.on, "prune", false, "Preview what the applier prunes: the live objects it deletes because the manifests no longer name them (action prune). "+strings.Join(what, "; ")+".")
	fs.StringVarP(&p.selector, "selector", "l", "", "kubectl --prune: the label selector of the objects to prune (key=value, key!=value, key in (a,b), key, !key; comma-separated).")
	fs.BoolVar(&p.all, "all", false, "kubectl --prune: prune every object of the allowlisted kinds, whatever its labels.")
	stringArrayVarP(fs, &p.allowlist, "prune-allowlist", "", nil, "kubectl --prune: a kind to prune, as group/version/kind (core/v1/ConfigMap; repeatable); default: kubectl's list (ConfigMap, Endpoints, PersistentVolumeClaim, Pod, ReplicationController, Secret, Service, Job, CronJob, Ingress, DaemonSet, Deployment, ReplicaSet, StatefulSet, Namespace, PersistentVolume).")
}

// checkPrune validates the prune flags once parsed: the selector's flags belong to an
// applier that prunes by selector, and the applier takes the preview (appliers.Kind.New).
func (c *options) checkPrune(fs *pflag.FlagSet) error {
	p := &c.prune
	kind := c.applierKind
	for _, f := range []string{"selector", "all", "prune-allowlist"} {
		if fs.Changed(f) && !p.on {
			return fmt.Errorf("--%s needs --prune", f)
		}
		if fs.Changed(f) && !kind.PrunesBySelector {
			whose, names := selectorPruners()
			return fmt.Errorf("--%s is %s (--applier %s); %s prunes what it tracks", f, whose, names, kind.Name)
		}
	}
	if kind.AlwaysPrunes {
		p.on = true
	}
	if !p.on {
		return nil
	}
	c.applierSettings.Prune = appliers.PruneSettings{On: true, Selector: p.selector, All: p.all, Allowlist: p.allowlist}
	if _, err := kind.New(c.applierSettings); err != nil {
		return err
	}
	p.explicit = kind.PrunesBySelector && fs.Changed("namespace")
	return nil
}

// selectorPruners are whose the selector's flags are ("kubectl's") and the appliers that
// take them ("kubectl").
func selectorPruners() (whose, names string) {
	var owners, list []string
	for _, k := range appliers.Kinds() {
		if k.PrunesBySelector {
			owners, list = append(owners, k.Name+"'s"), append(list, k.Name)
		}
	}
	return orList(owners), orList(list)
}
