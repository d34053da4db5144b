package appliers

import (
	"fmt"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/merge"
)

// Kinds lists the appliers ssa-diff predicts, in the order the command's usage names them:
// one line each. Adding an applier is its file — its type (an Applier), its Kind — and its
// line here; the command's --applier and its options, the usage, the completion, the advice
// and the report read this list.
//
// The list is made once, at its first use, and shared: its callers (some twenty in a run,
// most while the command's flags are defined and checked) read it and never change it.
func Kinds() []Kind { return kinds() }

var kinds = sync.OnceValue(newKinds)

// newKinds makes the list Kinds shares.
func newKinds() []Kind {
	return []Kind{
		kubectlKind(),
		apiKind(),
		argoCDKind(),
		fluxKind(),
		helmKind(),
	}
}

// CheckSyncStatus refuses --sync-status (asked) for an applier that shows none.
func CheckSyncStatus(applier string, asked bool) error {
	if k, _ := KindOf(applier); asked && !k.ShowsSyncStatus {
		return fmt.Errorf("--sync-status says what Argo CD or Flux shows before a sync: give --applier argocd or flux (or --argocd-application, --flux-kustomization-file), not %s", applier)
	}
	return nil
}

// KindOf is the applier of a name; false when no applier has it.
func KindOf(name string) (Kind, bool) {
	for _, k := range Kinds() {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Names are the appliers' names, in the list's order.
func Names() []string {
	var out []string
	for _, k := range Kinds() {
		out = append(out, k.Name)
	}
	return out
}

// Summary is each applier's name and what it predicts (its Usage), in the list's order:
// "kubectl: …; api: …; …." (the command's --applier describes them so).
func Summary() string {
	var parts []string
	for _, k := range Kinds() {
		parts = append(parts, k.Name+": "+k.Usage)
	}
	return strings.Join(parts, "; ") + "."
}

// A Kind is one applier ssa-diff predicts: its name, how a user chooses and configures it,
// how advice speaks of it, and how it is built from what the user said.
type Kind struct {
	// Name is what --applier names it, and the report's applier: "kubectl".
	Name string
	// Usage says what it predicts, after its name in --applier's description.
	Usage string
	// Manager is its field manager when the user names none (--field-manager); "" for
	// the command's default, kubectl's.
	Manager string
	// Apply is how advice names its apply ("`kubectl apply --server-side`"), ForceHint how
	// it forces one.
	Apply, ForceHint string
	// AlwaysForces: every apply is forced (the GitOps controllers'), as its Applier says.
	AlwaysForces bool
	// RunsKubectlApply: its apply is kubectl's own sequence, so advice to run `kubectl
	// apply --server-side` is moot.
	RunsKubectlApply bool
	// Prune says, for --prune's description, what it prunes; "" when it prunes nothing.
	// PrunesBySelector: its pruning takes kubectl's selector options (-l, --all,
	// --prune-allowlist). PruneWarning is a note a preview of its pruning always carries.
	Prune            string
	PrunesBySelector bool
	PruneWarning     string
	// AlwaysPrunes: every run of it deletes what the manifests no longer name (Helm's
	// upgrade deletes what the new revision drops), so its preview is always on.
	AlwaysPrunes bool
	// ClientSideIsItsOwn: when it writes client-side, the entries are its own manager's
	// and its three-way patches delete what the manifests drop, so a client-side write
	// of it leaves no client-side leftovers behind (Helm's).
	ClientSideIsItsOwn bool
	// RendersChart: its manifests are a chart rendered with values, so a value meant to
	// stay goes into the values, not into a manifest (Helm's).
	RendersChart bool
	// ShowsSyncStatus: a GitOps controller that shows, before its sync, whether an object
	// is in sync (--sync-status: Argo CD's sync status, Flux's drift detection).
	ShowsSyncStatus bool
	// RecordsRevisions: each run is recorded as a revision whose apply method the next run
	// follows, so a run refused after it migrated managedFields leaves the object owned
	// server-side and the next run applies server-side again (Helm's release records).
	RecordsRevisions bool
	// Options are its own settings, each a flag of the command.
	Options []Option
	// New builds it from what the user said; an error says which setting is wrong.
	New func(Settings) (Applier, error)
}

// An Option is a setting of one applier, a flag of the command (--argocd-app).
type Option struct {
	// Name is the flag's name: "argocd-app".
	Name string
	// Arg names its value in the usage ("NAME"); "" for a switch, which takes none.
	Arg string
	// Usage describes it.
	Usage string
	// Default is its value when not given ("" when none).
	Default string
	// Repeatable: it may be given several times, each value kept.
	Repeatable bool
	// Choices are the values it takes, when they are a fixed set.
	Choices []string
	// Completions are the values shell completion offers when they are not a fixed set
	// (Choices): the usual ones, others being taken too.
	Completions []string
	// Alone is its value when given without one ("--server-side" is "true"); "" when it
	// needs one.
	Alone string
	// Others, when set, says that the other appliers take the option too, and which of its
	// values (kubectl's --server-side, a switch: nil for a value they take, why not for
	// another); nil: the option is its applier's only.
	Others func(value string) error
	// Check refuses a value given (not empty) that is not one, saying why.
	Check func(value string) error
}

// Settings are what the user said about the applier of a run.
type Settings struct {
	// Manager is the field manager the user named, when ManagerGiven; otherwise the
	// applier's own is used (Kind.Manager, else kubectl's).
	Manager      string
	ManagerGiven bool
	// Namespace is where objects that name none go (Argo CD's destination namespace).
	Namespace string
	// Verb is the request of a raw one (API): apply (the zero value), update, patch or
	// create; PatchType the type of a patch sent as the manifest.
	Verb      merge.Verb
	PatchType merge.PatchType
	// Prune is the preview of what the applier deletes because the manifests no longer
	// name it.
	Prune PruneSettings
	// Options are the values of the applier's Options, by name: the value (its Default
	// when not given), a switch's "true" or "false", a repeatable option's values in order.
	Options map[string][]string
}

// PruneSettings are the settings of a preview of pruning (the command's --prune).
type PruneSettings struct {
	On bool
	// Selector, All and Allowlist are kubectl's -l, --all and --prune-allowlist
	// (group/version/kind, "core" for the core group), for a Kind that PrunesBySelector.
	Selector  string
	All       bool
	Allowlist []string
}

// value is the option's value; "" when not given and without default.
func (s Settings) value(name string) string {
	if v := s.Options[name]; len(v) > 0 {
		return v[len(v)-1]
	}
	return ""
}

// manager is the field manager: the user's, else the Kind's, else kubectl's.
func (s Settings) manager(kindManager string) string {
	switch {
	case s.ManagerGiven:
		return s.Manager
	case kindManager != "":
		return kindManager
	}
	return merge.KubectlManager
}

// CheckOption refuses a value of an option that its Choices or Check refuse, in the
// command's words ("--argocd-tracking must be annotation, label or annotation+label, not
// \"x\"").
func (o Option) CheckOption(value string) error {
	if len(o.Choices) > 0 {
		for _, c := range o.Choices {
			if c == value {
				return nil
			}
		}
		return fmt.Errorf("--%s must be %s, not %q", o.Name, orList(o.Choices), value)
	}
	if o.Check != nil && value != "" {
		if err := o.Check(value); err != nil {
			return fmt.Errorf("--%s %w", o.Name, err)
		}
	}
	return nil
}

// pruners lists the appliers that prune: "kubectl, argocd or flux" (a list of its own: the
// api applier's refusal of --prune says it, and the shared list is made of that applier).
func pruners() string {
	var names []string
	for _, k := range newKinds() {
		if k.Prune != "" {
			names = append(names, k.Name)
		}
	}
	return orList(names)
}

// orList is "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// OptionValues reads the appliers' options for the applier k: given says which options the
// user gave, value their values by name (the default when not given). An option given
// belongs to k (those of an applier that renders a chart are that applier's to refuse),
// and every option's values are ones its applier takes (CheckOption); it returns k's, by
// name (Settings.Options).
func (k Kind) OptionValues(given func(name string) bool, value func(name string) []string) (map[string][]string, error) {
	for _, other := range Kinds() {
		for _, o := range other.Options {
			if given(o.Name) && k.Name != other.Name && !other.RendersChart {
				return nil, fmt.Errorf("--%s needs --applier %s", o.Name, other.Name)
			}
		}
	}
	out := map[string][]string{}
	for _, other := range Kinds() {
		for _, o := range other.Options {
			values := value(o.Name)
			for _, v := range values {
				if err := o.CheckOption(v); err != nil {
					return nil, err
				}
			}
			if other.Name == k.Name {
				out[o.Name] = values
			}
		}
	}
	return out, nil
}
