package cli

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/gitopsconfig"
	"github.com/ssa-diff/ssa-diff/judge"
)

// This file reads the GitOps controllers' own configuration into the command's settings:
// an Argo CD Application (--argocd-application) and a Flux Kustomization
// (--flux-kustomization-file) set what the equivalent flags set, as if given. A flag given
// too that says otherwise is refused, naming both.

// gitopsOptions are the GitOps configuration files.
type gitopsOptions struct {
	application   string
	kustomization string
	// rules are the ignore rules the Application's ignoreDifferences make (checkNoise adds
	// them to the flags' ones).
	rules []judge.IgnoreRule
	// respect are those rules when the Application syncs with RespectIgnoreDifferences=true:
	// the fields they name keep their live values in what is applied.
	respect *judge.Ignore
}

var gitopsArgNames = map[string]string{"argocd-application": "FILE", "flux-kustomization-file": "FILE"}

// addGitOpsFlags defines the GitOps configuration files' flags.
func (c *options) addGitOpsFlags(fs *pflag.FlagSet) {
	g := &c.gitops
	fs.StringVar(&g.application, "argocd-application", "", "An Argo CD Application manifest, read as Argo CD reads it: implies --applier argocd and sets what the equivalent flags set — its name (--argocd-app), its destination namespace (-n), the sync option ClientSideApplyMigration=false (--argocd-no-csa-migration), its client-side-apply-migration-manager annotation (--argocd-csa-manager) and its ignoreDifferences (jsonPointers, the jqPathExpressions that are plain paths, managedFieldsManagers, per group/kind/namespace/name; as --ignore-path and --ignore-manager). Refused: a flag saying otherwise, syncOptions the sync would apply differently with (ServerSideApply not true, Replace, Force, Validate=false, …), jq expressions that are not paths, RespectIgnoreDifferences=true with managedFieldsManagers. RespectIgnoreDifferences=true: the fields its ignoreDifferences name keep their live values in what is applied, as Argo CD syncs them.")
	fs.StringVar(&g.kustomization, "flux-kustomization-file", "", "A Flux Kustomization manifest, read as kustomize-controller reads it: implies --applier flux and sets what the equivalent flags set — its namespace/name (--flux-kustomization) and spec.force (--flux-force). Refused: a flag saying otherwise, and what is not taken yet (spec.targetNamespace, spec.postBuild, spec.ignore: render the manifests with them first). spec.prune is not read: give --prune.")
}

// checkGitOps reads the GitOps configuration files right after the flags are parsed, and
// sets the flags they stand for.
func (c *options) checkGitOps(fs *pflag.FlagSet) error {
	g := &c.gitops
	if g.application != "" && g.kustomization != "" {
		return fmt.Errorf("--argocd-application and --flux-kustomization-file: one applier syncs the manifests, give one")
	}
	if g.application != "" {
		return c.readApplication(fs)
	}
	if g.kustomization != "" {
		return c.readKustomization(fs)
	}
	return nil
}

// setFrom sets flag name to value as the file says (what) unless it was given: then the
// values must agree.
func setFrom(fs *pflag.FlagSet, file, what, name, value string) error {
	f := fs.Lookup(name)
	if fs.Changed(name) {
		if f.Value.String() != value {
			return fmt.Errorf("%s: %s is %q, but --%s %s was given: drop the flag or change the file", file, what, value, name, f.Value.String())
		}
		return nil
	}
	return fs.Set(name, value)
}

// argoSyncOptionTaken reports the Application sync options that do not change what a sync
// applies to the objects predicted (or that the flags say).
func argoSyncOptionTaken(name string) bool {
	switch name {
	case "CreateNamespace", "PruneLast", "PrunePropagationPolicy", "FailOnSharedResource", "SkipDryRunOnMissingResource":
		return true
	}
	return false
}

func (c *options) readApplication(fs *pflag.FlagSet) error {
	file := "--argocd-application " + c.gitops.application
	data, err := os.ReadFile(c.gitops.application)
	if err != nil {
		return fmt.Errorf("--argocd-application: %w", err)
	}
	app, err := gitopsconfig.ReadApplication(data)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if err := setFrom(fs, file, "the applier of an Application", "applier", "argocd"); err != nil {
		return err
	}
	if app.Name != "" {
		if err := setFrom(fs, file, "metadata.name", "argocd-app", app.Name); err != nil {
			return err
		}
	}
	if app.Namespace != "" {
		if err := setFrom(fs, file, "spec.destination.namespace", "namespace", app.Namespace); err != nil {
			return err
		}
	}
	if app.MigrationManager != "" {
		if err := setFrom(fs, file, "the annotation "+gitopsconfig.MigrationManagerAnnotation, "argocd-csa-manager", app.MigrationManager); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(app.SyncOptions))
	for n := range app.SyncOptions {
		names = append(names, n)
	}
	sort.Strings(names)
	if app.SyncOptions["ServerSideApply"] != "true" {
		return fmt.Errorf("%s: spec.syncPolicy.syncOptions has no ServerSideApply=true: Argo CD syncs this Application with a client-side apply, which --applier argocd does not predict (it predicts ServerSideApply=true syncs)", file)
	}
	for _, n := range names {
		v := app.SyncOptions[n]
		switch {
		case n == "ServerSideApply":
		case n == "ClientSideApplyMigration":
			if v != "true" && v != "false" {
				return fmt.Errorf("%s: sync option ClientSideApplyMigration=%s: want true or false", file, v)
			}
			if err := setFrom(fs, file, "sync option ClientSideApplyMigration="+v, "argocd-no-csa-migration", fmt.Sprint(v == "false")); err != nil {
				return err
			}
		case n == "RespectIgnoreDifferences" && v != "true":
		case n == "RespectIgnoreDifferences":
			// The ignored fields keep their live values in what is applied (rules below).
		case n == "Validate" && v != "false", n == "Replace" && v != "true", n == "Force" && v != "true",
			n == "ApplyOutOfSyncOnly" && v != "true":
		case argoSyncOptionTaken(n):
		default:
			return fmt.Errorf("%s: sync option %s=%s is not predicted: it changes how Argo CD writes the objects (drop it to predict the sync without it)", file, n, v)
		}
	}
	rules, err := ignoreRules(file, app.Ignore)
	if err != nil {
		return err
	}
	c.gitops.rules = append(c.gitops.rules, rules...)
	if app.SyncOption("RespectIgnoreDifferences") && len(rules) > 0 {
		for i, r := range rules {
			if len(r.Managers) > 0 {
				return fmt.Errorf("%s: sync option RespectIgnoreDifferences=true with managedFieldsManagers (ignore rule %d) is not predicted: which fields Argo CD keeps depends on the live object's owners at sync time; drop one of them, or write the fields as jsonPointers", file, i)
			}
		}
		if c.gitops.respect, err = judge.NewIgnore(rules...); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	return nil
}

// ignoreRules are an Application's spec.ignoreDifferences as the judge's rules; file names
// the Application in errors.
func ignoreRules(file string, ignore []gitopsconfig.IgnoreDifference) ([]judge.IgnoreRule, error) {
	var rules []judge.IgnoreRule
	for i, d := range ignore {
		at := fmt.Sprintf("%s: spec.ignoreDifferences[%d]", file, i)
		r := judge.IgnoreRule{Group: d.Group, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name, Managers: d.ManagedFieldsManagers}
		for j, p := range d.JSONPointers {
			ip, err := judge.ParseIgnorePath(p)
			if err != nil {
				return nil, fmt.Errorf("%s.jsonPointers[%d]: %w", at, j, err)
			}
			r.Paths = append(r.Paths, ip)
		}
		for j, q := range d.JQPathExpressions {
			ip, err := jqPath(q)
			if err != nil {
				return nil, fmt.Errorf("%s.jqPathExpressions[%d]: %w", at, j, err)
			}
			r.Paths = append(r.Paths, ip)
		}
		if len(r.Paths) == 0 && len(r.Managers) == 0 {
			continue // Argo CD ignores nothing with it either
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// jqPath reads a jq path expression as an ignore path; what is more than a path (select,
// pipes, optional steps, recursion) is refused.
func jqPath(q string) (judge.IgnorePath, error) {
	// A path: .name steps, ["name"] steps, [N] and [] (every item). Compiled here, not at
	// start-up: only an Application's ignoreDifferences needs it.
	plain := regexp.MustCompile(`^(\.[A-Za-z_][A-Za-z0-9_]*|\.?\["[^"\\]*"\]|\.?\[[0-9]+\]|\.?\[\])+$`)
	if !plain.MatchString(q) {
		return judge.IgnorePath{}, fmt.Errorf("the jq expression %q is not taken: only plain paths (.a.b, .a[\"b.c\"], .a[0], .a[]) are, not select(), pipes, ? or ..; write the fields it selects as jsonPointers or --ignore-path", q)
	}
	p := strings.ReplaceAll(q, "[]", "[*]")
	p = strings.ReplaceAll(p, ".[", "[")
	ip, err := judge.ParseIgnorePath(p)
	if err != nil {
		return judge.IgnorePath{}, fmt.Errorf("the jq expression %q: %w", q, err)
	}
	return ip, nil
}

func (c *options) readKustomization(fs *pflag.FlagSet) error {
	file := "--flux-kustomization-file " + c.gitops.kustomization
	data, err := os.ReadFile(c.gitops.kustomization)
	if err != nil {
		return fmt.Errorf("--flux-kustomization-file: %w", err)
	}
	k, err := gitopsconfig.ReadKustomization(data)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	switch {
	case k.TargetNamespace != "":
		return fmt.Errorf("%s: spec.targetNamespace is not taken yet: it sets the namespace of every namespaced object, which -n does not (it names the namespace of those that name none); render the manifests with it first (kustomize's namespace:)", file)
	case k.HasPostBuild:
		return fmt.Errorf("%s: spec.postBuild is not taken yet: substitute the variables before predicting (e.g. envsubst < manifests.yaml | ssa-diff - live.json)", file)
	case k.Ignore != "":
		return fmt.Errorf("%s: spec.ignore is not taken yet: leave those files out with --ignore-filename-pattern", file)
	}
	if err := setFrom(fs, file, "the applier of a Kustomization", "applier", "flux"); err != nil {
		return err
	}
	if k.Namespace == "" || k.Name == "" {
		return fmt.Errorf("%s: metadata.namespace and metadata.name are needed: they make the owner labels Flux adds", file)
	}
	if err := setFrom(fs, file, "metadata.namespace/name", "flux-kustomization", k.Namespace+"/"+k.Name); err != nil {
		return err
	}
	return setFrom(fs, file, "spec.force", "flux-force", fmt.Sprint(k.Force))
}
