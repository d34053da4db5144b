package appliers

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/merge"
	"k8s.io/apimachinery/pkg/labels"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Names kubectl uses for the managers of its server-side apply sequence.
const (
	KubectlLastAppliedManager     = "kubectl-last-applied"
	KubectlClientSideApplyManager = "kubectl-client-side-apply"
)

// KubectlAdvice is what kubectl prints after a 409 from server-side apply.
const KubectlAdvice = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the ` + "`--force-conflicts`" + ` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts`

var lastAppliedPath = smdpath.MakePathOrDie("metadata", "annotations", merge.LastAppliedAnnotation)

// Kubectl predicts `kubectl apply --server-side` (kubectl 1.37) for one object. kubectl
// sends up to four requests:
//
//  1. the apply of the manifest (with force when --force-conflicts);
//  2. for the manager "kubectl", when the result has a last-applied annotation no Apply
//     entry owns, an apply of that annotation alone as "kubectl-last-applied", so that the
//     annotation keeps an owner;
//  3. a patch of metadata.managedFields that folds every Update entry owning the
//     annotation (client-side apply's kubectl-client-side-apply, before-first-apply, …) into
//     the applier's Apply entry;
//  4. after a migration, the apply of step 1 again — which now prunes what only the
//     client-side owner held.
//
// A refusal of step 1 is the outcome; later steps failing only make kubectl warn. The
// manifest must be as kubectl sends it: a namespaced object carries its namespace.
func Kubectl(e *merge.Engine, req merge.Request) (*merge.Result, error) {
	seq, refused, err := e.Begin(req, merge.ClientKubectl)
	return finish(seq, refused, err, kubectl)
}

// finish runs requests on seq, the sequence Begin or Continue gave with refused and err,
// and finishes the answer.
func finish(seq *merge.Sequence, refused *merge.Result, err error, requests func(*merge.Sequence) (*merge.Result, error)) (*merge.Result, error) {
	if refused != nil || err != nil {
		return refused, err
	}
	res, err := requests(seq)
	if err != nil {
		return nil, err
	}
	return seq.Finish(res), nil
}

// kubectl runs kubectl's requests in seq; the result is not finished.
func kubectl(seq *merge.Sequence) (*merge.Result, error) {
	req := seq.Request()
	if req.Manager == "" {
		req.Manager = merge.KubectlManager
	}
	first, err := seq.Apply(req)
	if err != nil {
		return nil, err
	}
	first.Steps = []merge.Step{{Description: "apply", Manager: req.Manager, Code: first.StatusCode()}}
	if first.Rejection != nil {
		if first.Rejection.Reason == "Invalid" {
			// kubectl prints a refusal by validation in its own words (rules.md valid.builtin).
			s := *first.Rejection
			s.Message = invalidMessage(&s)
			first.Rejection = &s
		}
		return first, nil
	}
	created := first.Action == merge.ActionCreate
	// Later requests see the stored object, which has a uid.
	obj := seq.Stored(first)
	objRes := first // the result whose entries obj has
	steps := first.Steps
	warnings := append([]string(nil), first.Warnings...)
	step := func(desc, manager string, res *merge.Result) {
		steps = append(steps, merge.Step{Description: desc, Manager: manager, Code: res.StatusCode()})
		for _, w := range res.Warnings {
			warnings = appendUnique(warnings, w)
		}
	}
	summary := func() *merge.Result {
		return seq.Summarize(merge.Outcome{Manager: req.Manager, Final: obj, First: first, Steps: steps, Warnings: warnings, Created: created})
	}
	ep := first.Endpoint

	// Step 2: keep the annotation owned.
	if req.Manager == merge.KubectlManager && hasAnnotationKey(obj, merge.LastAppliedAnnotation) && !ownedByApply(objRes, obj, lastAppliedPath) {
		body := map[string]any{"apiVersion": obj["apiVersion"], "kind": obj["kind"]}
		md := map[string]any{"name": metadataOf(obj)["name"],
			"annotations": map[string]any{merge.LastAppliedAnnotation: annotations(obj)[merge.LastAppliedAnnotation]}}
		if ns, _ := metadataOf(obj)["namespace"].(string); ns != "" {
			md["namespace"] = ns
		}
		body["metadata"] = md
		res, err := seq.Apply(merge.Request{Live: obj, Object: body, Endpoint: ep, Manager: KubectlLastAppliedManager, Now: req.Now})
		if err != nil {
			return nil, err
		}
		step("apply of the last-applied annotation", KubectlLastAppliedManager, res)
		if res.Rejection != nil {
			warnings = append(warnings, "kubectl would warn: failed to migrate kubectl.kubernetes.io/last-applied-configuration for Server-Side Apply: "+res.Rejection.Message)
			return summary(), nil
		}
		obj, objRes = res.Object, res
	}

	// Step 3: fold client-side owners into the applier.
	entries, _, _ := fieldpath.EntriesOf(obj)
	names := updateOwnersOf(objRes, entries, lastAppliedPath)
	upgraded := upgradeManagedFieldsOf(objRes, entries, names, req.Manager)
	if len(names) == 0 || reflect.DeepEqual(upgraded, entries) {
		if len(steps) == 1 {
			// One request: its result is the prediction.
			return first, nil
		}
		return summary(), nil
	}
	next, err := seq.WithManagedFields(obj, upgraded)
	if err != nil {
		return nil, err
	}
	res, err := seq.Update(merge.Request{Live: obj, Object: next, Endpoint: ep, Manager: req.Manager, Now: req.Now})
	if err != nil {
		return nil, err
	}
	step("managedFields migration patch", req.Manager, res)
	if res.Rejection != nil {
		warnings = append(warnings, "kubectl would warn: server rejected managed fields migration to Server-Side Apply: "+res.Rejection.Message)
		return summary(), nil
	}
	obj = res.Object

	// Step 4: apply again.
	again := req
	again.Live = obj
	res, err = seq.Apply(again)
	if err != nil {
		return nil, err
	}
	step("apply", req.Manager, res)
	if res.Rejection != nil {
		warnings = append(warnings, "kubectl would warn: failed to re-apply configuration after performing Server-Side Apply migration: "+res.Rejection.Message)
	} else {
		obj = res.Object
	}
	return summary(), nil
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func hasAnnotationKey(obj map[string]any, key string) bool {
	_, ok := annotations(obj)[key]
	return ok
}

// ownedByApply reports whether any Apply entry of obj owns path; res is the result whose
// entries obj has, which may hold them decoded.
func ownedByApply(res *merge.Result, obj map[string]any, path smdpath.Path) bool {
	entries, _, _ := fieldpath.EntriesOf(obj)
	if m, ok := decodedEach(res, entries); ok {
		for _, vs := range m.Fields {
			if vs.Applied() && vs.Set().Has(path) {
				return true
			}
		}
		return false
	}
	for _, e := range entries {
		if e.Operation != fieldpath.OperationApply {
			continue
		}
		if s, err := fieldpath.FieldsV1ToSet(e.FieldsV1); err == nil && s.Has(path) {
			return true
		}
	}
	return false
}

// updateOwnersOf names the managers with an Update entry owning path, sorted; res is the
// result whose entries these are, which may hold them decoded.
func updateOwnersOf(res *merge.Result, entries []fieldpath.Entry, path smdpath.Path) []string {
	seen := map[string]bool{}
	if m, ok := decodedEach(res, entries); ok {
		for key, vs := range m.Fields {
			if !vs.Applied() && vs.Set().Has(path) {
				seen[m.Ref(key).Manager] = true
			}
		}
	} else {
		for _, e := range entries {
			if e.Operation != fieldpath.OperationUpdate {
				continue
			}
			if s, err := fieldpath.FieldsV1ToSet(e.FieldsV1); err == nil && s.Has(path) {
				seen[e.Manager] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// decodedEach is entries decoded as res decoded them, when each entry has its own set
// there (no two share an identity, which decoding would fold into one).
func decodedEach(res *merge.Result, entries []fieldpath.Entry) (fieldpath.Managed, bool) {
	m, ok := res.ManagedFieldsDecoded(entries)
	return m, ok && len(m.Fields) == len(entries)
}

// upgradeManagedFields is kubectl's migration of client-side owners (client-go's
// csaupgrade): for each name, its main-resource Update entry at the applier's apiVersion is
// unioned into the applier's Apply entry (which, if missing, is that Update entry renamed),
// and every main-resource Update entry of that name is dropped.
func upgradeManagedFields(entries []fieldpath.Entry, names []string, applier string) []fieldpath.Entry {
	return upgradeManagedFieldsOf(nil, entries, names, applier)
}

// upgradeManagedFieldsOf is upgradeManagedFields with res, when not nil, the result whose
// entries these are: the field sets it holds decoded are used rather than decoded again
// (structured-merge-diff's Union makes a new set, so they are not changed).
func upgradeManagedFieldsOf(res *merge.Result, entries []fieldpath.Entry, names []string, applier string) []fieldpath.Entry {
	if entries == nil {
		return nil
	}
	out := append([]fieldpath.Entry(nil), entries...)
	sets := make([]*smdpath.Set, len(out)) // out[i]'s field set, when known
	if res != nil {
		if m, ok := decodedEach(res, entries); ok {
			for i, e := range entries {
				if vs, has := m.Fields[fieldpath.ManagerKey(e)]; has {
					sets[i] = vs.Set()
				}
			}
		}
	}
	setAt := func(i int) (*smdpath.Set, error) {
		if sets[i] != nil {
			return sets[i], nil
		}
		return fieldpath.FieldsV1ToSet(out[i].FieldsV1)
	}
	isOld := func(name string) func(fieldpath.Entry) bool {
		return func(e fieldpath.Entry) bool {
			return e.Manager == name && e.Operation == fieldpath.OperationUpdate && e.Subresource == ""
		}
	}
	for _, name := range names {
		target := indexOf(out, func(e fieldpath.Entry) bool {
			return e.Manager == applier && e.Operation == fieldpath.OperationApply && e.Subresource == ""
		})
		if target < 0 {
			target = indexOf(out, isOld(name))
			if target < 0 {
				continue
			}
			out[target].Operation = fieldpath.OperationApply
			out[target].Manager = applier
		}
		set, err := setAt(target)
		if err != nil {
			continue
		}
		if src := indexOf(out, func(e fieldpath.Entry) bool { return isOld(name)(e) && e.APIVersion == out[target].APIVersion }); src >= 0 {
			if other, err := setAt(src); err == nil {
				set = set.Union(other)
			}
		}
		if raw, err := fieldpath.SetToFieldsV1(set); err == nil {
			out[target].FieldsV1 = raw
			sets[target] = set
		}
		kept, keptSets := out[:0:0], sets[:0:0]
		for i, e := range out {
			if !isOld(name)(e) {
				kept = append(kept, e)
				keptSets = append(keptSets, sets[i])
			}
		}
		out, sets = kept, keptSets
	}
	return out
}

func indexOf(entries []fieldpath.Entry, pred func(fieldpath.Entry) bool) int {
	for i, e := range entries {
		if pred(e) {
			return i
		}
	}
	return -1
}

// KubectlPrune is `kubectl apply --prune` with its selector pruner: objects of the
// allowlisted kinds matching the selector (or every one with --all), in the namespaces the
// apply visits (and cluster-scoped ones), that carry the last-applied-configuration
// annotation: objects kubectl apply made.
type KubectlPrune struct {
	// Selector is -l/--selector as given ("" with --all), Matches its parsed form.
	Selector string
	Matches  labels.Selector
	// Allowlist is --prune-allowlist, nil for kubectl's default list.
	Allowlist []GroupKind
}

// GroupKind names a kind in an allowlist.
type GroupKind struct{ Group, Kind string }

// kubectlDefaultPrune is kubectl's default prune allowlist (k8s.io/kubectl pkg/util/prune).
func kubectlDefaultPrune() []GroupKind {
	return []GroupKind{
		{"", "ConfigMap"}, {"", "Endpoints"}, {"", "PersistentVolumeClaim"}, {"", "Pod"},
		{"", "ReplicationController"}, {"", "Secret"}, {"", "Service"}, {"batch", "Job"},
		{"batch", "CronJob"}, {"networking.k8s.io", "Ingress"}, {"apps", "DaemonSet"},
		{"apps", "Deployment"}, {"apps", "ReplicaSet"}, {"apps", "StatefulSet"},
		{"", "Namespace"}, {"", "PersistentVolume"},
	}
}

// KubectlApply is `kubectl apply --server-side` with its request sequence ([Kubectl]).
type KubectlApply struct {
	// FieldManager is --field-manager (kubectl's default is "kubectl").
	FieldManager string
	// Prune, when set, is --prune.
	Prune *KubectlPrune
}

func (k KubectlApply) Name() string         { return "kubectl" }
func (k KubectlApply) Manager() string      { return k.FieldManager }
func (k KubectlApply) AlwaysForces() bool   { return false }
func (k KubectlApply) Subresources() bool   { return true }
func (k KubectlApply) SendsNamespace() bool { return true }

// Apply is [Kubectl].
func (k KubectlApply) Apply(e *merge.Engine, req merge.Request) (*merge.Result, error) {
	return Kubectl(e, req)
}

// Prunes is the selector pruner's rule.
func (k KubectlApply) Prunes(o PruneCandidate) string {
	p := k.Prune
	if p == nil {
		return ""
	}
	allowed := p.Allowlist
	if allowed == nil {
		allowed = kubectlDefaultPrune()
	}
	listed := false
	for _, gk := range allowed {
		listed = listed || gk.Group == o.GVK.Group && gk.Kind == o.GVK.Kind
	}
	if !listed || o.Namespaced && !o.InVisitedNamespace {
		return ""
	}
	if p.Matches != nil && !p.Matches.Matches(labels.Set(stringMap(o.Object, "labels"))) {
		return ""
	}
	if _, ok := stringMap(o.Object, "annotations")[merge.LastAppliedAnnotation]; !ok {
		return "" // kubectl prunes only what kubectl apply made
	}
	what := "matches --all"
	if p.Selector != "" {
		what = fmt.Sprintf("matches the selector %q", p.Selector)
	}
	return fmt.Sprintf("kubectl apply --prune deletes it: its kind is in the prune allowlist, it %s and carries %s, and the manifests no longer name it", what, merge.LastAppliedAnnotation)
}

// kubectlKind is the applier of `kubectl apply --server-side`.
func kubectlKind() Kind {
	return Kind{
		Name:             "kubectl",
		Usage:            "the whole `kubectl apply --server-side` request sequence",
		Manager:          merge.KubectlManager,
		Apply:            "`kubectl apply --server-side`",
		ForceHint:        "`kubectl apply --server-side --force-conflicts`",
		RunsKubectlApply: true,
		Prune:            "apply --prune with -l or --all",
		PrunesBySelector: true,
		PruneWarning: "--prune: kubectl refuses --prune with --server-side unless --applyset is given " +
			"(\"--prune is in alpha and doesn't currently work on objects created by server-side apply\"); this previews the selector pruner of `kubectl apply --prune`",
		New: newKubectlApply,
	}
}

// newKubectlApply is `kubectl apply --server-side` as the user set it up, its --prune
// checked as kubectl checks it.
func newKubectlApply(s Settings) (Applier, error) {
	k := KubectlApply{FieldManager: s.manager(merge.KubectlManager)}
	p := s.Prune
	if !p.On {
		return k, nil
	}
	if p.All && p.Selector != "" {
		return nil, fmt.Errorf("cannot set --all and --selector at the same time")
	}
	if !p.All && p.Selector == "" {
		return nil, fmt.Errorf("--prune: all resources selected for prune without explicitly passing --all (kubectl refuses it): give a label selector (-l key=value) or --all")
	}
	sel, err := parseSelector(p.Selector)
	if err != nil {
		return nil, err
	}
	prune := &KubectlPrune{Selector: p.Selector, Matches: sel}
	for _, a := range p.Allowlist {
		parts := strings.Split(a, "/")
		if len(parts) != 3 || parts[1] == "" || parts[2] == "" {
			return nil, fmt.Errorf("--prune-allowlist: invalid GroupVersionKind format: %v, please follow <group/version/kind>", a)
		}
		if parts[0] == "core" {
			parts[0] = ""
		}
		prune.Allowlist = append(prune.Allowlist, GroupKind{Group: parts[0], Kind: parts[2]})
	}
	k.Prune = prune
	return k, nil
}

// parseSelector reads -l/--selector as kubectl reads it: apimachinery's label selector
// syntax (key=value, key!=value, key in (a,b), key notin (a), key, !key, key>n, key<n;
// comma-separated requirements).
func parseSelector(s string) (labels.Selector, error) {
	sel, err := labels.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("--selector %q: %w", s, err)
	}
	return sel, nil
}
