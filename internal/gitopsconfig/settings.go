package gitopsconfig

import (
	"fmt"
	"sort"

	"github.com/ssa-diff/ssa-diff/judge"
)

// A Setting is what a GitOps configuration file sets that one of the command's flags stands
// for: the flag's name and value, and What of the file says it (for the message when the
// flag was given too and says otherwise). A repeatable flag's values are added to those
// given.
type Setting struct {
	What, Flag, Value string
}

// Sync is what an Application makes of an Argo CD sync: the ignore rules of its
// ignoreDifferences, and those rules again when the sync respects them
// (RespectIgnoreDifferences=true: the fields they name keep their live values in what is
// applied).
type Sync struct {
	Rules   []judge.IgnoreRule
	Respect *judge.Ignore
}

// Settings calls set with each flag the Application stands for, in order — the applier
// (argocd), its name (--argocd-app), its destination namespace (-n), its migration
// manager annotation (--argocd-csa-manager), its sync option ClientSideApplyMigration
// (--argocd-no-csa-migration) — and returns its sync's ignore rules. It refuses (the first
// error, set's included) an Application the applier argocd does not predict: a sync that
// is not ServerSideApply=true, a sync option that changes how Argo CD writes the objects,
// RespectIgnoreDifferences=true with managedFieldsManagers (which fields Argo CD keeps
// depends on the owners at sync time).
func (a *Application) Settings(set func(Setting) error) (Sync, error) {
	for _, s := range []Setting{{"the applier of an Application", "applier", "argocd"}, {"metadata.name", "argocd-app", a.Name},
		{"spec.destination.namespace", "namespace", a.Namespace}, {"the annotation " + MigrationManagerAnnotation, "argocd-csa-manager", a.MigrationManager}} {
		if s.Value == "" {
			continue
		}
		if err := set(s); err != nil {
			return Sync{}, err
		}
	}
	if err := a.checkSyncOptions(set); err != nil {
		return Sync{}, err
	}
	rules, err := a.IgnoreRules()
	if err != nil {
		return Sync{}, err
	}
	sync := Sync{Rules: rules}
	if a.SyncOption("RespectIgnoreDifferences") && len(rules) > 0 {
		for i, r := range rules {
			if len(r.Managers) > 0 {
				return Sync{}, fmt.Errorf("sync option RespectIgnoreDifferences=true with managedFieldsManagers (ignore rule %d) is not predicted: which fields Argo CD keeps depends on the live object's owners at sync time; drop one of them, or write the fields as jsonPointers", i)
			}
		}
		if sync.Respect, err = judge.NewIgnore(rules...); err != nil {
			return Sync{}, err
		}
	}
	return sync, nil
}

// checkSyncOptions refuses the sync options that change how Argo CD writes the objects,
// in the order of their names, and sets --argocd-no-csa-migration from
// ClientSideApplyMigration.
func (a *Application) checkSyncOptions(set func(Setting) error) error {
	names := make([]string, 0, len(a.SyncOptions))
	for n := range a.SyncOptions {
		names = append(names, n)
	}
	sort.Strings(names)
	if a.SyncOptions["ServerSideApply"] != "true" {
		return fmt.Errorf("spec.syncPolicy.syncOptions has no ServerSideApply=true: Argo CD syncs this Application with a client-side apply, which --applier argocd does not predict (it predicts ServerSideApply=true syncs)")
	}
	for _, n := range names {
		v := a.SyncOptions[n]
		switch {
		case n == "ServerSideApply":
		case n == "ClientSideApplyMigration":
			if v != "true" && v != "false" {
				return fmt.Errorf("sync option ClientSideApplyMigration=%s: want true or false", v)
			}
			if err := set(Setting{"sync option ClientSideApplyMigration=" + v, "argocd-no-csa-migration", fmt.Sprint(v == "false")}); err != nil {
				return err
			}
		case n == "RespectIgnoreDifferences" && v != "true":
		case n == "RespectIgnoreDifferences":
			// The ignored fields keep their live values in what is applied (Settings).
		case n == "Validate" && v != "false", n == "Replace" && v != "true", n == "Force" && v != "true",
			n == "ApplyOutOfSyncOnly" && v != "true":
		case syncOptionTaken(n):
		default:
			return fmt.Errorf("sync option %s=%s is not predicted: it changes how Argo CD writes the objects (drop it to predict the sync without it)", n, v)
		}
	}
	return nil
}

// syncOptionTaken reports the Application sync options that do not change what a sync
// applies to the objects predicted (or that the flags say).
func syncOptionTaken(name string) bool {
	switch name {
	case "CreateNamespace", "PruneLast", "PrunePropagationPolicy", "FailOnSharedResource", "SkipDryRunOnMissingResource":
		return true
	}
	return false
}

// Settings calls set with each flag the Kustomization stands for, in order — spec.ignore's
// rules (--flux-ignore, added to those given), the applier (flux), its namespace/name
// (--flux-kustomization), spec.force (--flux-force) — and returns the first error, set's
// included. It refuses a Kustomization without a namespace and name (they make the owner
// labels Flux adds).
func (k *Kustomization) Settings(set func(Setting) error) error {
	for i, r := range k.Ignore {
		if err := set(Setting{fmt.Sprintf("spec.ignore[%d]", i), "flux-ignore", r}); err != nil {
			return err
		}
	}
	if err := set(Setting{"the applier of a Kustomization", "applier", "flux"}); err != nil {
		return err
	}
	if k.Namespace == "" || k.Name == "" {
		return fmt.Errorf("metadata.namespace and metadata.name are needed: they make the owner labels Flux adds")
	}
	if err := set(Setting{"metadata.namespace/name", "flux-kustomization", k.Namespace + "/" + k.Name}); err != nil {
		return err
	}
	return set(Setting{"spec.force", "flux-force", fmt.Sprint(k.Force)})
}
