package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/merge/appliers"
	"github.com/ssa-diff/ssa-diff/schema"
)

// This file is the prune preview: the live objects an applier deletes because the
// repository no longer names them. Each applier marks what it owns its own way:
//
//   - Argo CD: the Application's resource tracking — the annotation
//     argocd.argoproj.io/tracking-id "<app>:<group>/<kind>:<namespace>/<name>", which must
//     name the object itself (a copy carrying another object's id is not the
//     Application's), or with label tracking the instance label; with an installation id,
//     the installation-id annotation too. Objects owned by another object
//     (ownerReferences) are a controller's, and sync option Prune=false keeps an object.
//   - Flux: the Kustomization's owner labels kustomize.toolkit.fluxcd.io/name and
//     /namespace, when its spec.prune is on; the annotation
//     kustomize.toolkit.fluxcd.io/prune: disabled keeps an object.
//   - kubectl apply --prune (the selector pruner): objects of the allowlisted kinds
//     (--prune-allowlist, or kubectl's default list) matching -l/--selector (or --all),
//     in the namespaces the apply visits (and cluster-scoped ones), that carry the
//     last-applied-configuration annotation: objects kubectl apply made.

// pruneOptions are the prune preview's flags.
type pruneOptions struct {
	on        bool
	selector  string
	all       bool
	allowlist []string

	sel      labelSelector
	allowed  []groupKind // nil: kubectl's default allowlist
	explicit bool        // -n was given: kubectl enforces it (and visits it)
}

type groupKind struct{ group, kind string }

var pruneArgNames = map[string]string{"selector": "SELECTOR", "prune-allowlist": "GROUP/VERSION/KIND"}

func (c *config) addPruneFlags(fs *pflag.FlagSet) {
	p := &c.prune
	fs.BoolVar(&p.on, "prune", false, "Preview what the applier prunes: the live objects it deletes because the manifests no longer name them (action prune). kubectl: apply --prune with -l or --all; argocd: a sync with pruning, of objects carrying the Application's tracking (--argocd-app); flux: the Kustomization's spec.prune, of objects carrying its owner labels (--flux-kustomization).")
	fs.StringVarP(&p.selector, "selector", "l", "", "kubectl --prune: the label selector of the objects to prune (key=value, key!=value, key in (a,b), key, !key; comma-separated).")
	fs.BoolVar(&p.all, "all", false, "kubectl --prune: prune every object of the allowlisted kinds, whatever its labels.")
	fs.StringArrayVar(&p.allowlist, "prune-allowlist", nil, "kubectl --prune: a kind to prune, as group/version/kind (core/v1/ConfigMap; repeatable); default: kubectl's list (ConfigMap, Endpoints, PersistentVolumeClaim, Pod, ReplicationController, Secret, Service, Job, CronJob, Ingress, DaemonSet, Deployment, ReplicaSet, StatefulSet, Namespace, PersistentVolume).")
}

// checkPrune validates the prune flags once parsed.
func (c *config) checkPrune(fs *pflag.FlagSet) error {
	p := &c.prune
	for _, f := range []string{"selector", "all", "prune-allowlist"} {
		if fs.Changed(f) && !p.on {
			return fmt.Errorf("--%s needs --prune", f)
		}
		if fs.Changed(f) && c.applier != "kubectl" {
			return fmt.Errorf("--%s is kubectl's (--applier kubectl); %s prunes what it tracks", f, c.applier)
		}
	}
	if !p.on {
		return nil
	}
	switch c.applier {
	case "kubectl":
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
			p.allowed = append(p.allowed, groupKind{parts[0], parts[2]})
		}
		p.explicit = fs.Changed("namespace")
	case "argocd":
		if c.gate.argoApp == "" {
			return fmt.Errorf("--prune with --applier argocd needs --argocd-app: the Application's tracking marks what it prunes")
		}
	case "flux":
		if c.gate.fluxKustomization == "" {
			return fmt.Errorf("--prune with --applier flux needs --flux-kustomization: its owner labels mark what it prunes")
		}
	case "api":
		return fmt.Errorf("--prune: a raw apply request prunes nothing (use --applier kubectl, argocd or flux)")
	}
	return nil
}

// pruneWarnings are notes about what the preview stands for.
func (c *config) pruneWarnings() {
	if c.prune.on && c.applier == "kubectl" {
		c.warnf("--prune: kubectl refuses --prune with --server-side unless --applyset is given (\"--prune is in alpha and doesn't currently work on objects created by server-side apply\"); this previews the selector pruner of `kubectl apply --prune`")
	}
}

// kubectlDefaultPrune is kubectl's default prune allowlist (k8s.io/kubectl pkg/util/prune).
var kubectlDefaultPrune = []groupKind{
	{"", "ConfigMap"}, {"", "Endpoints"}, {"", "PersistentVolumeClaim"}, {"", "Pod"},
	{"", "ReplicationController"}, {"", "Secret"}, {"", "Service"}, {"batch", "Job"},
	{"batch", "CronJob"}, {"networking.k8s.io", "Ingress"}, {"apps", "DaemonSet"},
	{"apps", "Deployment"}, {"apps", "ReplicaSet"}, {"apps", "StatefulSet"},
	{"", "Namespace"}, {"", "PersistentVolume"},
}

// pruneSlots are the live objects the applier deletes: tracked by it, and named by no
// manifest. pairs are the manifests' pairs; scope tells namespaced kinds.
func (c *config) pruneSlots(pairs []input.Pair, live []*input.Object, reg *schema.Registry) []*slot {
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
		why := c.prunes(gvk, id, obj, visited, reg)
		if why == "" {
			continue
		}
		src := o.Source
		res := &report.Result{Source: src, LiveSource: &src, Action: report.ActionPrune, Changed: true, Live: obj,
			Conflicts: []report.Conflict{}, Ownership: []report.Ownership{}, Deleted: []string{}, Warnings: []string{},
			Prune: &report.Prune{Applier: c.applier, Message: why}}
		res.Identity(gvk.APIVersion(), gvk.Kind, ns, name)
		out = append(out, &slot{pruned: res, src: src, done: make(chan struct{})})
	}
	return out
}

// prunes says why the applier deletes the live object obj of identity id ("" when it
// does not).
func (c *config) prunes(gvk schema.GVK, id input.Identity, obj map[string]any, visited map[string]bool, reg *schema.Registry) string {
	ann, labels := annotationsOf(obj), labelsOf(obj)
	md, _ := obj["metadata"].(map[string]any)
	owned := false
	if refs, ok := md["ownerReferences"].([]any); ok && len(refs) > 0 {
		owned = true
	}
	switch c.applier {
	case "argocd":
		g := &c.gate
		app := g.argoApp
		tracked := ""
		switch appliers.ArgoCDTracking(g.argoTracking) {
		case appliers.ArgoCDTrackLabel:
			if labels[appliers.ArgoCDInstanceLabel] == app {
				tracked = fmt.Sprintf("its label %s is %q", appliers.ArgoCDInstanceLabel, app)
			}
		default:
			want := fmt.Sprintf("%s:%s/%s:%s/%s", app, id.Group, id.Kind, id.Namespace, id.Name)
			if ann[appliers.ArgoCDTrackingAnnotation] == want {
				tracked = fmt.Sprintf("its annotation %s is %q", appliers.ArgoCDTrackingAnnotation, want)
			}
		}
		if tracked == "" || owned {
			return ""
		}
		if g.argoInstallation != "" && ann[appliers.ArgoCDInstallationIDAnnotation] != g.argoInstallation {
			return ""
		}
		if syncOption(ann["argocd.argoproj.io/sync-options"], "Prune") == "false" {
			return ""
		}
		return fmt.Sprintf("Argo CD prunes it: %s (the Application %q tracks it) and the manifests no longer name it", tracked, app)
	case "flux":
		ns, name, _ := strings.Cut(c.gate.fluxKustomization, "/")
		if labels["kustomize.toolkit.fluxcd.io/name"] != name || labels["kustomize.toolkit.fluxcd.io/namespace"] != ns {
			return ""
		}
		if ann["kustomize.toolkit.fluxcd.io/prune"] == "disabled" {
			return ""
		}
		return fmt.Sprintf("Flux prunes it: its owner labels name the Kustomization %s, whose spec.prune is on, and the manifests no longer name it", c.gate.fluxKustomization)
	case "kubectl":
		allowed := c.prune.allowed
		if allowed == nil {
			allowed = kubectlDefaultPrune
		}
		listed := false
		for _, gk := range allowed {
			listed = listed || gk.group == id.Group && gk.kind == id.Kind
		}
		if !listed {
			return ""
		}
		if t, ok := reg.Lookup(gvk); ok && t.Namespaced && !visited[id.Namespace] {
			return ""
		}
		if !c.prune.sel.matches(labels) {
			return ""
		}
		if _, ok := ann[merge.LastAppliedAnnotation]; !ok {
			return "" // kubectl prunes only what kubectl apply made
		}
		what := "matches --all"
		if c.prune.selector != "" {
			what = fmt.Sprintf("matches the selector %q", c.prune.selector)
		}
		return fmt.Sprintf("kubectl apply --prune deletes it: its kind is in the prune allowlist, it %s and carries %s, and the manifests no longer name it", what, merge.LastAppliedAnnotation)
	}
	return ""
}

// syncOption reads one option of Argo CD's comma-separated sync-options annotation.
func syncOption(options, key string) string {
	for _, o := range strings.Split(options, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(o), "=")
		if ok && k == key {
			return v
		}
	}
	return ""
}
