package advice

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/clusterstate"
)

// Severity says how much an advice matters: a warning is a change the user most likely does
// not want (a fight, a deletion, a dropped field); info is worth knowing before applying.
type Severity string

// The severities.
const (
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// The advice ids. They are stable: reports carry them and users silence them by id. doc.go
// explains each one and its fix.
const (
	IDStatusInManifest          = "status-in-manifest"
	IDFightsController          = "fights-controller"
	IDOverridesManualChange     = "overrides-manual-change"
	IDClientSideApplyLeftovers  = "client-side-apply-leftovers"
	IDCoOwnedFieldKept          = "co-owned-field-kept"
	IDItemRemovedDespiteCoOwner = "item-removed-despite-co-owner"
	IDCoOwnerOfControllerValue  = "co-owner-of-controller-value"
	IDAPIVersionMismatch        = "apiversion-mismatch"
	IDAPIVersionDeprecated      = "apiversion-deprecated"
	IDAPIVersionRemoved         = "apiversion-removed"
	IDNotConverged              = "not-converged"
	IDConditionUnhealthy        = "condition-unhealthy"
	IDClusterPolicy             = "cluster-policy"
	IDDeniedByPolicy            = "denied-by-policy"
	IDWarnedByPolicy            = "warned-by-policy"
	IDHelmStaleMigration        = "helm-stale-migration"
)

const defaultConditionGrace = 5 * time.Minute

// Info describes one advice id.
type Info struct {
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	// Summary is one line: what the advice is about.
	Summary string `json:"summary"`
	// State is true for the advice of the live object's state (see StateOf), false for the
	// advice about an apply (see Analyze).
	State bool `json:"state,omitempty"`
}

// Known lists every advice id, in the order reports print them.
func Known() []Info {
	return []Info{
		{IDStatusInManifest, SeverityWarning, "the manifest sets fields the endpoint resets (status on the main resource, spec on /status): the server drops them", false},
		{IDFightsController, SeverityWarning, "the manifest sets a field a controller owns through an Update (an autoscaler's spec.replicas, a controller's annotations)", false},
		{IDOverridesManualChange, SeverityInfo, "the manifest sets a field last changed by hand (kubectl edit, scale, patch, label …)", false},
		{IDClientSideApplyLeftovers, SeverityWarning, "client-side apply's managers or last-applied annotation are on the object: what server-side apply does with them", false},
		{IDHelmStaleMigration, SeverityWarning, "Helm's migration of its client-side entry is written although the server-side apply after it is refused: the release stays server-side from then on", false},
		{IDCoOwnedFieldKept, SeverityInfo, "fields the applier stops applying stay, because another manager still owns them", false},
		{IDItemRemovedDespiteCoOwner, SeverityWarning, "a list item the applier drops is deleted although another manager owns a field inside it", false},
		{IDCoOwnerOfControllerValue, SeverityWarning, "the apply makes the applier co-owner of a value a controller manages", false},
		{IDAPIVersionMismatch, SeverityWarning, "the live object's managers recorded their fields at versions the server drops, or converts in a way ssa-diff cannot (a CRD's webhook): the prediction is approximate", false},
		{IDAPIVersionDeprecated, SeverityInfo, "the manifest's apiVersion is deprecated in the Kubernetes minor predicted", false},
		{IDAPIVersionRemoved, SeverityWarning, "the manifest's apiVersion is no longer served by the Kubernetes minor predicted", false},
		{IDClusterPolicy, SeverityInfo, "the server's refusal rests on a kube-apiserver flag that clusters set differently (--allow-privileged=false, --service-cluster-ip-range)", false},
		{IDDeniedByPolicy, SeverityWarning, "a ValidatingAdmissionPolicy of the cluster, or the namespace's Pod Security level, refuses the write: which policy, binding and validation", false},
		{IDWarnedByPolicy, SeverityInfo, "a ValidatingAdmissionPolicy of the cluster warns about the write (a Warn binding): which policy, binding and validation", false},
		{IDNotConverged, SeverityInfo, "the live object's controller has not caught up: observedGeneration behind generation, or replicas not ready", true},
		{IDConditionUnhealthy, SeverityWarning, "a condition of the live object has been False or Unknown (or True for a failure condition) for long", true},
	}
}

// IsKnown reports whether id is an advice id.
func IsKnown(id string) bool {
	for _, k := range Known() {
		if k.ID == id {
			return true
		}
	}
	return false
}

// Advice is one piece of advice about an apply or about the live object's state.
type Advice struct {
	// ID is stable (see Known); it is what users silence.
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	// Message is one line: what happens.
	Message string `json:"message"`
	// Fix is one line: what to do instead.
	Fix string `json:"fix"`
	// Paths are the fields concerned, as the server prints them (.spec.replicas).
	Paths []string `json:"paths,omitempty"`
	// Managers are the other managers concerned, by name.
	Managers []string `json:"managers,omitempty"`
}

// String prints the advice on one line, then its fix on a second.
func (a Advice) String() string {
	return fmt.Sprintf("%s [%s] %s\n  fix: %s", a.Severity, a.ID, a.Message, a.Fix)
}

// Input is one predicted apply.
type Input struct {
	// Live is the object as the server stores it, metadata.managedFields included; nil when
	// the apply creates it.
	Live map[string]any
	// Manifest is the apply configuration.
	Manifest map[string]any
	// Result is the engine's prediction; nil when it failed (then only the advice that needs
	// no prediction is given).
	Result *merge.Result
	// Manager is the applier's field manager; "" means the applier's own (appliers.Kind's
	// Manager: "kubectl" for kubectl, "argocd-controller" for argocd …).
	Manager string
	// Subresource is the endpoint's subresource: "", "status" or "scale". When empty the
	// Result's endpoint is used.
	Subresource string
	// Applier names the client that sends the apply, one of appliers.Names(); "" (or a
	// name no applier has) means "api", one raw request. It changes the wording of fixes
	// (how to force) and what the client does around the apply.
	Applier string
}

// Options configure the analysis.
type Options struct {
	// Disabled silences advice by id.
	Disabled map[string]bool
	// Now is the time state advice measures durations against; zero means time.Now().
	Now time.Time
	// ConditionGrace is how long a condition may be unhealthy before it is reported;
	// zero means five minutes.
	ConditionGrace time.Duration
	// Schemas resolves the endpoint's reset fields and the versions of built-in kinds. Nil
	// means a minimal rule: status is reset on the main resource, spec on /status.
	Schemas *schema.Registry
	// Engine, when set, is used to predict what `kubectl apply --server-side` would do to
	// client-side apply leftovers when the applier is not already kubectl.
	Engine *merge.Engine
	// ServiceIPFamilies are the service IP families the prediction was made for
	// (kubeapiserver.Config.ServiceIPFamilies); empty: not declared.
	ServiceIPFamilies []string
	// Cluster is the cluster state the prediction was made for
	// (kubeapiserver.Config.Cluster): the advice about a policy names its validations.
	Cluster *clusterstate.State
}

func (o Options) enabled(id string) bool { return !o.Disabled[id] }

func (o Options) now() time.Time {
	if o.Now.IsZero() {
		return time.Now().UTC()
	}
	return o.Now.UTC()
}

func (o Options) grace() time.Duration {
	if o.ConditionGrace <= 0 {
		return defaultConditionGrace
	}
	return o.ConditionGrace
}

// Analyze gives the advice about one apply: the mistakes against the spec/status contract
// and the ownership outcomes that will surprise. in.Result is what Engine.Apply or
// an applier of package appliers predicted (Update predictions are not applies and
// are not judged). It never fails: what it cannot judge it leaves out. Advice comes in the
// order of Known. The live object's own state is judged separately by StateOf.
func Analyze(in Input, opts Options) []Advice {
	a := newAnalysis(in, opts)
	a.statusInManifest()
	a.controllers()
	a.clientSideLeftovers()
	a.helmStaleMigration()
	a.coOwnedKept()
	a.itemsRemoved()
	a.coOwnerOfController()
	a.apiVersions()
	a.clusterPolicy()
	a.admissionPolicies()
	return a.finish()
}

// finish drops silenced advice and orders the rest as Known lists the ids.
func (a *analysis) finish() []Advice {
	return order(a.out, a.opts)
}

func order(list []Advice, opts Options) []Advice {
	// Most applies get no advice, or one: nothing to rank (the list of Known is made only
	// for two or more).
	switch {
	case len(list) == 0:
		return nil
	case len(list) == 1:
		if !opts.enabled(list[0].ID) {
			return nil
		}
		return []Advice{list[0]}
	}
	return orderRanked(list, opts)
}

// orderRanked is order for any list: the advice enabled, stably sorted by the rank of its
// id in Known.
func orderRanked(list []Advice, opts Options) []Advice {
	rank := map[string]int{}
	for i, k := range Known() {
		rank[k.ID] = i
	}
	var out []Advice
	for _, ad := range list {
		if opts.enabled(ad.ID) {
			out = append(out, ad)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return rank[out[i].ID] < rank[out[j].ID] })
	return out
}

// listPaths prints at most a few paths for a one-line message.
func listPaths(paths []string) string {
	const max = 3
	if len(paths) <= max {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:max], ", "), len(paths)-max)
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	switch len(q) {
	case 0:
		return ""
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
