package judge

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// The sync statuses Argo CD gives an object of an Application.
const (
	ArgoCDSynced    = "Synced"
	ArgoCDOutOfSync = "OutOfSync"
	// ArgoCDUnknown: Argo CD fails to compare (a comparison error), as the dry-run
	// refused or a kind without a schema.
	ArgoCDUnknown = "Unknown"
)

// lastApplied is kubectl's client-side apply annotation.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// ArgoCDDiffInput is what Argo CD's application controller compares for one object of an
// Application synced with ServerSideApply=true (which turns its server-side diff on).
type ArgoCDDiffInput struct {
	// Target is the object as the repo server renders it, tracking included; Live the
	// live object with its managedFields. Either may be nil (a create, a prune).
	Target, Live map[string]any
	// Manager is the dry-run's field manager (argocd-controller).
	Manager string
	// Ignore are the Application's ignoreDifferences (nil: none).
	Ignore *Ignore
	// Type is the kind's schema as the cluster's OpenAPI gives it; nil when there is none.
	Type *typed.ParseableType
	// DryRun is the server's answer to the dry-run apply of obj (forced, by Manager): the
	// object it would store, managedFields included; an error when the server refuses it.
	DryRun func(obj map[string]any) (map[string]any, error)
}

// ArgoCDDiff is what Argo CD shows of one object: its sync status and the two sides of
// the diff it shows (the live object and the object the sync would leave, each as Argo CD
// normalizes it; absent for Unknown).
type ArgoCDDiff struct {
	Status         string         `json:"status"`
	NormalizedLive map[string]any `json:"normalizedLive,omitempty"`
	PredictedLive  map[string]any `json:"predictedLive,omitempty"`
	// Error is why the comparison fails, for Unknown.
	Error string `json:"error,omitempty"`
}

// ArgoCDCompare is Argo CD 3.x's comparison of one object with server-side diff
// (argo-cd util/argo/diff.StateDiffs and gitops-engine pkg/diff.ServerSideDiff, read in
// v3.6.2), step by step:
//
//  1. with managedFieldsManagers for the object, the fields the target changes that one
//     of those managers owns in the live object are removed from both (typed by Type);
//  2. both lose metadata.creationTimestamp; a Secret's stringData is encoded into data,
//     a Role's or ClusterRole's empty rules become null;
//  3. a create (no live object) is OutOfSync with the target as predicted; a prune (no
//     target) too — Argo CD lists it OutOfSync as requiring pruning;
//  4. the target is applied in a dry-run (DryRun); of what the server returns, the
//     fields Manager does not own are taken from the live object, and the fields the
//     apply removed stay removed only where Manager owned them in the live object (its
//     mutation-webhook filter, removeWebhookMutation);
//  5. both sides are normalized again — the ignoreDifferences paths removed (JSON
//     pointers, jq paths) — and lose managedFields, resourceVersion, generation and the
//     last-applied annotation; the object is OutOfSync when their JSON differs.
//
// Not modelled: resource overrides (argocd-cm's knownTypeFields and ignoreDifferences),
// the compare option IncludeMutationWebhook=true, the typed re-encoding of built-in
// kinds (remarshal), which changes nothing the server itself stored.
func ArgoCDCompare(in ArgoCDDiffInput) ArgoCDDiff {
	target := argoCopy(in.Target)
	live := argoCopy(in.Live)
	var oi *ObjectIgnore
	if obj := in.Target; obj != nil || in.Live != nil {
		if obj == nil {
			obj = in.Live
		}
		ns, name := metaString(obj, "namespace"), metaString(obj, "name")
		apiVersion, _ := obj["apiVersion"].(string)
		kind, _ := obj["kind"].(string)
		oi = in.Ignore.For(apiVersion, kind, ns, name, nil, nil)
	}
	if live != nil && target != nil && oi != nil && len(oi.managers) > 0 {
		var err error
		if live, target, err = argoNormalizeManagers(live, target, oi.managers, in.Type); err != nil {
			return ArgoCDDiff{Status: ArgoCDUnknown, Error: err.Error()}
		}
	}
	argoNormalize(target)
	argoNormalize(live)
	switch {
	case live == nil && target == nil:
		return ArgoCDDiff{Status: ArgoCDSynced}
	case live == nil:
		return ArgoCDDiff{Status: ArgoCDOutOfSync, PredictedLive: target}
	case target == nil:
		return ArgoCDDiff{Status: ArgoCDOutOfSync, NormalizedLive: live}
	}
	if in.DryRun == nil {
		return ArgoCDDiff{Status: ArgoCDUnknown, Error: "serverSideDryRunner is null"}
	}
	predicted, err := in.DryRun(target)
	if err != nil {
		return ArgoCDDiff{Status: ArgoCDUnknown, Error: "error calculating server side diff: " + err.Error()}
	}
	predicted = argoCopy(predicted)
	if predicted, err = argoRemoveWebhookMutation(predicted, live, in.Type, in.Manager); err != nil {
		return ArgoCDDiff{Status: ArgoCDUnknown, Error: "error calculating server side diff: " + err.Error()}
	}
	argoNormalize(predicted)
	predicted, live = oi.removePaths(predicted), oi.removePaths(live)
	for _, obj := range []map[string]any{predicted, live} {
		md, _ := obj["metadata"].(map[string]any)
		delete(md, "managedFields")
		delete(md, "resourceVersion")
		delete(md, "generation")
		if a, ok := md["annotations"].(map[string]any); ok {
			delete(a, lastApplied)
		}
	}
	status := ArgoCDSynced
	if !sameJSON(predicted, live) {
		status = ArgoCDOutOfSync
	}
	return ArgoCDDiff{Status: status, NormalizedLive: live, PredictedLive: predicted}
}

// argoCopy is a deep copy of obj as JSON decodes it, raw JSON values (managedFields'
// fieldsV1) decoded too (nil stays nil).
func argoCopy(obj map[string]any) map[string]any {
	if obj == nil {
		return nil
	}
	m, _ := decodeRaw(unstructured.CopyAsDecoded(obj)).(map[string]any)
	return m
}

// decodeRaw replaces the raw JSON values of v, a copy, by their decoding.
func decodeRaw(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = decodeRaw(x)
		}
	case []any:
		for i, x := range t {
			t[i] = decodeRaw(x)
		}
	case json.RawMessage:
		d := json.NewDecoder(bytes.NewReader(t))
		d.UseNumber()
		var x any
		if err := d.Decode(&x); err != nil {
			return v
		}
		if m, ok := x.(map[string]any); ok {
			return unstructured.CopyAsDecoded(m)
		}
		return x
	}
	return v
}

func metaString(obj map[string]any, key string) string {
	md, _ := obj["metadata"].(map[string]any)
	s, _ := md[key].(string)
	return s
}

// argoNormalize is gitops-engine's Normalize without the normalizer (which
// removePaths is): no creationTimestamp, a Secret's stringData encoded into data and its
// null data values made empty, a Role's empty rules made null.
func argoNormalize(obj map[string]any) {
	if obj == nil {
		return
	}
	if md, ok := obj["metadata"].(map[string]any); ok {
		delete(md, "creationTimestamp")
	}
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	switch {
	case apiVersion == "v1" && kind == "Secret":
		if sd, ok := obj["stringData"].(map[string]any); ok {
			data, _ := obj["data"].(map[string]any)
			if data == nil {
				data = map[string]any{}
			}
			for k, v := range sd {
				if s, ok := v.(string); ok {
					data[k] = base64.StdEncoding.EncodeToString([]byte(s))
				} else {
					data[k] = v
				}
			}
			obj["data"] = data
			delete(obj, "stringData")
		}
		if data, ok := obj["data"].(map[string]any); ok {
			for k, v := range data {
				if v == nil {
					data[k] = ""
				}
			}
		}
	case (apiVersion == "rbac.authorization.k8s.io/v1") && (kind == "Role" || kind == "ClusterRole"):
		if rules, ok := obj["rules"].([]any); ok && len(rules) == 0 {
			obj["rules"] = nil
		}
	}
}

// removePaths returns obj without the ignored paths (obj itself unchanged; the maps on the
// way to a removed path are copies), as Argo CD's ignore normalizer does
// (a JSON patch remove per JSON pointer, jq's del per jq path; a path obj lacks is left).
func (oi *ObjectIgnore) removePaths(obj map[string]any) map[string]any {
	if oi == nil || obj == nil {
		return obj
	}
	var v any = obj
	for _, p := range oi.paths {
		v, _, _ = strip(v, p.segs)
	}
	m, _ := v.(map[string]any)
	if m == nil {
		return obj
	}
	return m
}

// managerSet is the union of the field sets of manager's entries in obj's managedFields.
func managerSet(obj map[string]any, manager string) (*smdpath.Set, error) {
	set := &smdpath.Set{}
	entries, _, err := fieldpath.EntriesOf(obj)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.Manager != manager {
			continue
		}
		s, err := fieldpath.FieldsV1ToSet(e.FieldsV1)
		if err != nil {
			return nil, fmt.Errorf("error building managedFields set: %w", err)
		}
		set = set.Union(s)
	}
	return set, nil
}

// argoRemoveWebhookMutation is gitops-engine's removeWebhookMutation: predicted keeps
// only what manager owns in it, laid over live; what the apply removed stays removed
// where manager owned it in both.
func argoRemoveWebhookMutation(predicted, live map[string]any, pt *typed.ParseableType, manager string) (map[string]any, error) {
	if md, _ := predicted["metadata"].(map[string]any); md == nil || md["managedFields"] == nil {
		return nil, errors.New("the dry-run answer has no managedFields")
	}
	if pt == nil {
		return nil, errors.New("unable to resolve parseableType")
	}
	tp, err := pt.FromUnstructured(predicted)
	if err != nil {
		return nil, fmt.Errorf("error converting predicted live state from unstructured: %w", err)
	}
	tl, err := pt.FromUnstructured(live)
	if err != nil {
		return nil, fmt.Errorf("error converting live state from unstructured: %w", err)
	}
	owned, err := managerSet(predicted, manager)
	if err != nil {
		return nil, err
	}
	if owned.Empty() {
		return nil, fmt.Errorf("no managed fields found for manager: %s", manager)
	}
	all, err := tp.ToFieldSet()
	if err != nil {
		return nil, fmt.Errorf("error converting predicted live state to FieldSet: %w", err)
	}
	others := withoutOwnedAncestors(all.Difference(owned), owned)
	cmp, err := tl.Compare(tp)
	if err != nil {
		return nil, fmt.Errorf("error comparing predicted resource to live resource: %w", err)
	}
	removed := cmp.Removed
	if removed != nil && !removed.Empty() {
		removed = removed.Difference(others)
		liveOwned, err := managerSet(live, manager)
		if err != nil {
			return nil, err
		}
		removed = removed.Difference(withoutOwnedAncestors(removed.Difference(liveOwned), liveOwned))
	}
	tp = tp.RemoveItems(withoutCompositeKeyFields(others))
	if tp, err = tl.Merge(tp); err != nil {
		return nil, fmt.Errorf("error applying predicted live to live state: %w", err)
	}
	if removed != nil {
		tp = tp.RemoveItems(removed)
	}
	out, ok := tp.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil, errors.New("error converting live typedValue: not a map")
	}
	return out, nil
}

// withoutOwnedAncestors is set without the paths that have a strict descendant in owned.
func withoutOwnedAncestors(set, owned *smdpath.Set) *smdpath.Set {
	out := smdpath.NewSet()
	set.Iterate(func(p smdpath.Path) {
		sub := owned
		for _, pe := range p {
			if sub = sub.WithPrefix(pe); sub.Empty() {
				break
			}
		}
		if sub.Empty() {
			out.Insert(p)
		}
	})
	return out
}

// withoutCompositeKeyFields is set without the fields that are one of the keys of an
// item of a list keyed by more than one field, above them in their path.
func withoutCompositeKeyFields(set *smdpath.Set) *smdpath.Set {
	out := smdpath.NewSet()
	set.Iterate(func(p smdpath.Path) {
		if !compositeKeyField(p) {
			out.Insert(p)
		}
	})
	return out
}

func compositeKeyField(p smdpath.Path) bool {
	if len(p) == 0 || p[len(p)-1].FieldName == nil {
		return false
	}
	name := *p[len(p)-1].FieldName
	for i := len(p) - 2; i >= 0; i-- {
		if p[i].Key == nil || len(*p[i].Key) <= 1 {
			continue
		}
		for _, k := range *p[i].Key {
			if k.Name == name {
				return true
			}
		}
		return false
	}
	return false
}

// argoNormalizeManagers is Argo CD's managedfields.Normalize: the fields the target
// changes (typed compare of live and target) that an entry of one of managers owns in the
// live object are removed from both. A type the objects do not fit leaves them as they are.
func argoNormalizeManagers(live, target map[string]any, managers map[string]bool, pt *typed.ParseableType) (map[string]any, map[string]any, error) {
	if pt == nil {
		pt = &typed.DeducedParseableType
	}
	tl, err := pt.FromUnstructured(live)
	if err != nil {
		return live, target, nil
	}
	tt, err := pt.FromUnstructured(target)
	if err != nil {
		return live, target, nil
	}
	cmp, err := tl.Compare(tt)
	if err != nil {
		return live, target, nil
	}
	entries, _, err := fieldpath.EntriesOf(live)
	if err != nil {
		return nil, nil, err
	}
	normalized := false
	for _, e := range entries {
		if !managers[e.Manager] {
			continue
		}
		normalized = true
		s, err := fieldpath.FieldsV1ToSet(e.FieldsV1)
		if err != nil {
			return nil, nil, fmt.Errorf("error normalizing manager %s: %w", e.Manager, err)
		}
		if in := s.Intersection(cmp.Modified); !in.Empty() {
			tl, tt = tl.RemoveItems(in), tt.RemoveItems(in)
		}
	}
	if !normalized {
		return live, target, nil
	}
	l, ok := tl.AsValue().Unstructured().(map[string]any)
	t, ok2 := tt.AsValue().Unstructured().(map[string]any)
	if !ok || !ok2 {
		return nil, nil, errors.New("error converting typedValue: not a map")
	}
	return l, t, nil
}

// The GitOps tools whose per-object answer a SyncStatus is.
const (
	ToolArgoCD = "argocd"
	ToolFlux   = "flux"
)

// SyncStatus is what a GitOps controller shows of one object before its sync writes
// anything: for Argo CD the sync status of its comparison ([ArgoCDCompare]) and the two
// sides of the diff it shows; for Flux whether its drift detection finds the object
// drifted — the action of its change set (created, configured, unchanged), which
// kustomize-controller decides by the dry-run apply, spec.ignore's paths left out.
//
// It is apart from the prediction of the sync: Argo CD may show an object Synced that
// its sync still changes (a field ignoreDifferences names, which the sync applies unless
// RespectIgnoreDifferences=true), and OutOfSync one whose sync changes nothing
// the server stores.
type SyncStatus struct {
	// Tool is argocd or flux.
	Tool string `json:"tool"`
	// Status is Argo CD's Synced, OutOfSync or Unknown, or Flux's created, configured or
	// unchanged.
	Status string `json:"status"`
	// NormalizedLive and PredictedLive are, for Argo CD's OutOfSync, the two sides of the
	// diff it shows (as ArgoCDDiff's).
	NormalizedLive map[string]any `json:"normalizedLive,omitempty"`
	PredictedLive  map[string]any `json:"predictedLive,omitempty"`
	// Error is why Argo CD cannot compare (Unknown).
	Error string `json:"error,omitempty"`
}

// OutOfSync reports whether the tool shows the object as differing from Git (Argo CD's
// OutOfSync; Flux's created or configured).
func (s *SyncStatus) OutOfSync() bool {
	return s != nil && s.Status != ArgoCDSynced && s.Status != FluxUnchanged && s.Status != ArgoCDUnknown
}

// The actions of Flux's change set.
const (
	FluxCreated    = "created"
	FluxConfigured = "configured"
	FluxUnchanged  = "unchanged"
)

// SyncStatus is d as a SyncStatus (the diff's sides kept for OutOfSync only).
func (d ArgoCDDiff) SyncStatus() *SyncStatus {
	s := &SyncStatus{Tool: ToolArgoCD, Status: d.Status, Error: d.Error}
	if d.Status == ArgoCDOutOfSync {
		s.NormalizedLive, s.PredictedLive = d.NormalizedLive, d.PredictedLive
	}
	return s
}
