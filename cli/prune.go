package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/schema"
	"k8s.io/apimachinery/pkg/labels"
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

	sel      labels.Selector
	allowed  []appliers.GroupKind // nil: kubectl's default allowlist
	explicit bool                 // -n was given: kubectl enforces it (and visits it)
}

var pruneArgNames = map[string]string{"selector": "SELECTOR", "prune-allowlist": "GROUP/VERSION/KIND"}

func (c *options) addPruneFlags(fs *pflag.FlagSet) {
	p := &c.prune
	fs.BoolVar(&p.on, "prune", false, "Preview what the applier prunes: the live objects it deletes because the manifests no longer name them (action prune). kubectl: apply --prune with -l or --all; argocd: a sync with pruning, of objects carrying the Application's tracking (--argocd-app); flux: the Kustomization's spec.prune, of objects carrying its owner labels (--flux-kustomization).")
	fs.StringVarP(&p.selector, "selector", "l", "", "kubectl --prune: the label selector of the objects to prune (key=value, key!=value, key in (a,b), key, !key; comma-separated).")
	fs.BoolVar(&p.all, "all", false, "kubectl --prune: prune every object of the allowlisted kinds, whatever its labels.")
	fs.StringArrayVar(&p.allowlist, "prune-allowlist", nil, "kubectl --prune: a kind to prune, as group/version/kind (core/v1/ConfigMap; repeatable); default: kubectl's list (ConfigMap, Endpoints, PersistentVolumeClaim, Pod, ReplicationController, Secret, Service, Job, CronJob, Ingress, DaemonSet, Deployment, ReplicaSet, StatefulSet, Namespace, PersistentVolume).")
}

// checkPrune validates the prune flags once parsed.
func (c *options) checkPrune(fs *pflag.FlagSet) error {
	p := &c.prune
	a := c.applierFor(c.namespace)
	_, kubectl := a.(appliers.KubectlApply)
	for _, f := range []string{"selector", "all", "prune-allowlist"} {
		if fs.Changed(f) && !p.on {
			return fmt.Errorf("--%s needs --prune", f)
		}
		if fs.Changed(f) && !kubectl {
			return fmt.Errorf("--%s is kubectl's (--applier kubectl); %s prunes what it tracks", f, a.Name())
		}
	}
	if _, helm := a.(appliers.HelmApply); helm {
		// Helm always deletes what the new revision drops: the preview is always on.
		p.on = true
	}
	if !p.on {
		return nil
	}
	switch a.(type) {
	case appliers.KubectlApply:
		if p.all && p.selector != "" {
			return fmt.Errorf("cannot set --all and --selector at the same time")
		}
		if !p.all && p.selector == "" {
			return fmt.Errorf("--prune: all resources selected for prune without explicitly passing --all (kubectl refuses it): give a label selector (-l key=value) or --all")
		}
		sel, err := parseSelector(p.selector)
		if err != nil {
			return err
		}
		p.sel = sel
		for _, a := range p.allowlist {
			parts := strings.Split(a, "/")
			if len(parts) != 3 || parts[1] == "" || parts[2] == "" {
				return fmt.Errorf("--prune-allowlist: invalid GroupVersionKind format: %v, please follow <group/version/kind>", a)
			}
			if parts[0] == "core" {
				parts[0] = ""
			}
			p.allowed = append(p.allowed, appliers.GroupKind{Group: parts[0], Kind: parts[2]})
		}
		p.explicit = fs.Changed("namespace")
	case appliers.ArgoCDSync:
		if c.gate.argoApp == "" {
			return fmt.Errorf("--prune with --applier argocd needs --argocd-app: the Application's tracking marks what it prunes")
		}
	case appliers.FluxApply:
		if c.gate.fluxKustomization == "" {
			return fmt.Errorf("--prune with --applier flux needs --flux-kustomization: its owner labels mark what it prunes")
		}
	case appliers.API:
		return fmt.Errorf("--prune: a raw apply request prunes nothing (use --applier kubectl, argocd or flux)")
	}
	return nil
}

// pruneWarnings are notes about what the preview stands for.
func (c *invocation) pruneWarnings() {
	if _, kubectl := c.client.(appliers.KubectlApply); kubectl && c.prune.on {
		c.warnf("--prune: kubectl refuses --prune with --server-side unless --applyset is given (\"--prune is in alpha and doesn't currently work on objects created by server-side apply\"); this previews the selector pruner of `kubectl apply --prune`")
	}
}

// pruneSlots are the live objects the applier deletes: tracked by it, and named by no
// manifest. pairs are the manifests' pairs; scope tells namespaced kinds.
func (c *invocation) pruneSlots(pairs []input.Pair, live []*input.Object, reg *schema.Registry) []*slot {
	if !c.prune.on {
		return nil
	}
	named := map[input.Identity]bool{}
	visited := map[string]bool{}
	for _, p := range pairs {
		if p.Err != nil {
			continue
		}
		named[p.ID] = true
		if t, ok := reg.Lookup(p.GVK); ok && t.Namespaced && p.ID.Namespace != "" {
			visited[p.ID.Namespace] = true
		}
	}
	if c.prune.explicit {
		visited[c.namespace] = true
	}
	var out []*slot
	for _, o := range live {
		gvk := o.GVK()
		_, _, ns, name := o.Meta()
		id := input.Identity{Group: gvk.Group, Kind: gvk.Kind, Namespace: ns, Name: name}
		if named[id] || name == "" {
			continue
		}
		// Only what could be the applier's is decoded.
		obj, err := o.Decode()
		if err != nil {
			continue
		}
		t, known := reg.Lookup(gvk)
		why := c.client.Prunes(appliers.PruneCandidate{GVK: gvk, Namespace: ns, Name: name, Object: obj,
			Namespaced: known && t.Namespaced, InVisitedNamespace: visited[ns]})
		if why == "" {
			continue
		}
		src := o.Source
		res := &report.Result{Source: src, LiveSource: &src, Action: report.ActionPrune, Changed: true, Live: obj,
			Conflicts: []report.Conflict{}, Ownership: []report.Ownership{}, Deleted: []string{}, Warnings: []string{},
			Prune: &report.Prune{Applier: c.client.Name(), Message: why}}
		res.Identity(gvk.APIVersion(), gvk.Kind, ns, name)
		out = append(out, &slot{pruned: res, src: src, done: make(chan struct{})})
	}
	return out
}
