package cli

import (
	"cmp"
	"fmt"
	"os"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/appliers"
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
	// flux is the Kustomization read, when it changes the objects (buildFlux); substituteFrom
	// the --flux-substitute-from files.
	flux           *gitopsconfig.Kustomization
	fluxFile       string
	substituteFrom []string
	syncStatus     bool // --sync-status
}

var gitopsArgNames = [][2]string{{"argocd-application", "FILE"}, {"flux-kustomization-file", "FILE"}, {"flux-substitute-from", "FILE"}}

// addGitOpsFlags defines the GitOps configuration files' flags.
func (c *options) addGitOpsFlags(fs *pflag.FlagSet) {
	g := &c.gitops
	fs.StringVar(&g.application, "argocd-application", "", "An Argo CD Application manifest, read as Argo CD reads it: implies --applier argocd and sets what the equivalent flags set — its name (--argocd-app), its destination namespace (-n), the sync option ClientSideApplyMigration=false (--argocd-no-csa-migration), its client-side-apply-migration-manager annotation (--argocd-csa-manager) and its ignoreDifferences (jsonPointers, the jqPathExpressions that are plain paths, managedFieldsManagers, per group/kind/namespace/name; as --ignore-path and --ignore-manager). Refused: a flag saying otherwise, syncOptions the sync would apply differently with (ServerSideApply not true, Replace, Force, Validate=false, …), jq expressions that are not paths, RespectIgnoreDifferences=true with managedFieldsManagers. RespectIgnoreDifferences=true: the fields its ignoreDifferences name keep their live values in what is applied, as Argo CD syncs them.")
	fs.StringVar(&g.kustomization, "flux-kustomization-file", "", "A Flux Kustomization manifest, read as kustomize-controller reads it: implies --applier flux and sets what the equivalent flags set — its namespace/name (--flux-kustomization) and spec.force (--flux-force) — and changes each object as kustomize-controller does before it applies: spec.targetNamespace (kustomize's namespace transformer: namespaced objects get it, cluster-scoped ones do not), then spec.postBuild substitution (${var}, ${var:=default}, $${ escapes; strict, as the controller by default; substituteStrategy; objects labelled or annotated kustomize.toolkit.fluxcd.io/substitute: disabled left alone) with the variables of substitute and of substituteFrom's ConfigMaps and Secrets, found in the --flux-substitute-from files or the live objects. spec.ignore (--flux-ignore) is taken too. Refused: a flag saying otherwise. spec.prune is not read: give --prune.")
	fs.BoolVar(&g.syncStatus, "sync-status", false, "With --applier argocd or flux: say of each object what the GitOps controller shows before its sync — Argo CD's sync status (Synced or OutOfSync, and the diff it shows) as its server-side diff compares, the ignore rules (--ignore-path, --ignore-manager, an Application's ignoreDifferences) as its ignoreDifferences; Flux's drift detection (created, configured or unchanged) — beside what the sync will change.")
	stringArrayVarP(fs, &g.substituteFrom, "flux-substitute-from", "", nil, "A file of ConfigMaps and Secrets that a --flux-kustomization-file's postBuild.substituteFrom names (repeatable); those not given are looked up in the live objects.")
}

// checkGitOps reads the GitOps configuration files right after the flags are parsed, and
// sets the flags they stand for.
func (c *options) checkGitOps(fs *pflag.FlagSet) error {
	g := &c.gitops
	if g.application != "" && g.kustomization != "" {
		return fmt.Errorf("--argocd-application and --flux-kustomization-file: one applier syncs the manifests, give one")
	}
	if len(g.substituteFrom) > 0 && g.kustomization == "" {
		return fmt.Errorf("--flux-substitute-from: give the --flux-kustomization-file whose postBuild.substituteFrom it serves")
	}
	if g.application != "" {
		return c.readApplication(fs)
	}
	if g.kustomization != "" {
		return c.readKustomization(fs)
	}
	return appliers.CheckSyncStatus(c.applier, g.syncStatus)
}

// setFrom sets a flag as the file says (gitopsconfig.Setting) unless it was given: then the
// values must agree.
func setFrom(fs *pflag.FlagSet) func(gitopsconfig.Setting) error {
	return func(s gitopsconfig.Setting) error {
		f := fs.Lookup(s.Flag)
		if f.Value.Type() == "stringArray" {
			return fs.Set(s.Flag, s.Value) // repeatable: added
		}
		if fs.Changed(s.Flag) {
			if f.Value.String() != s.Value {
				return fmt.Errorf("%s is %q, but --%s %s was given: drop the flag or change the file", s.What, s.Value, s.Flag, f.Value.String())
			}
			return nil
		}
		return fs.Set(s.Flag, s.Value)
	}
}

func (c *options) readApplication(fs *pflag.FlagSet) error {
	data, err := os.ReadFile(c.gitops.application)
	if err != nil {
		return fmt.Errorf("--argocd-application: %w", err)
	}
	app, err := gitopsconfig.ReadApplication(data)
	if err == nil {
		sync, serr := app.Settings(setFrom(fs))
		c.gitops.rules, c.gitops.respect = append(c.gitops.rules, sync.Rules...), sync.Respect
		err = cmp.Or(serr, app.CheckComparison(c.gitops.syncStatus))
	}
	if err != nil {
		return fmt.Errorf("--argocd-application %s: %w", c.gitops.application, err)
	}
	return nil
}

func (c *options) readKustomization(fs *pflag.FlagSet) error {
	file := "--flux-kustomization-file " + c.gitops.kustomization
	data, err := os.ReadFile(c.gitops.kustomization)
	if err != nil {
		return fmt.Errorf("--flux-kustomization-file: %w", err)
	}
	k, err := gitopsconfig.ReadKustomization(data)
	if err == nil {
		if k.Transforms() {
			c.gitops.flux, c.gitops.fluxFile = k, file
		}
		err = k.Settings(setFrom(fs))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}
