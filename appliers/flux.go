package appliers

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// This file holds the applier of Flux (kustomize-controller on fluxcd/pkg/ssa).

// Names Flux uses.
const (
	// FluxManager is kustomize-controller's field manager (its controller name, the
	// ssa.Owner.Field of its ResourceManager).
	FluxManager = "kustomize-controller"
	// FluxGroup prefixes kustomize-controller's labels and annotations.
	FluxGroup = "kustomize.toolkit.fluxcd.io"
)

// FluxFieldManager names managedFields entries Flux takes over (fluxcd/pkg/ssa FieldManager):
// entries of the main resource with this operation whose manager starts with Name, or equals
// it when ExactMatch is set.
type FluxFieldManager struct {
	Name       string
	Operation  fieldpath.Operation
	ExactMatch bool
}

func (m FluxFieldManager) matches(e fieldpath.Entry) bool {
	if e.Operation != m.Operation || e.Subresource != "" {
		return false
	}
	if m.ExactMatch {
		return e.Manager == m.Name
	}
	return strings.HasPrefix(e.Manager, m.Name)
}

// DefaultFluxTakeOver is the list kustomize-controller passes as Cleanup.FieldManagers
// (internal/controller/kustomization_controller.go, apply): by prefix, kubectl's Apply
// entries (kubectl, kubectl-last-applied …), kubectl's Update entries
// (kubectl-client-side-apply, kubectl-edit, kubectl-patch, kubectl-rollout, kubectl-label …),
// before-first-apply's Update entry, and the controller's own Update entries from before it
// used server-side apply.
func DefaultFluxTakeOver(manager string) []FluxFieldManager {
	if manager == "" {
		manager = FluxManager
	}
	return []FluxFieldManager{
		{Name: "kubectl", Operation: fieldpath.OperationApply},
		{Name: "kubectl", Operation: fieldpath.OperationUpdate},
		{Name: merge.BeforeFirstApplyManager, Operation: fieldpath.OperationUpdate},
		{Name: manager, Operation: fieldpath.OperationUpdate},
	}
}

// fluxOverrideManagers is what kustomize-controller's --override-manager flag
// (DisallowedFieldManagers) adds to the takeover list for each name: its Apply and its
// Update entries, by prefix.
func fluxOverrideManagers(names []string) []FluxFieldManager {
	var out []FluxFieldManager
	for _, n := range names {
		out = append(out, FluxFieldManager{Name: n, Operation: fieldpath.OperationApply},
			FluxFieldManager{Name: n, Operation: fieldpath.OperationUpdate})
	}
	return out
}

// The metadata kustomize-controller removes from live objects before applying.
var (
	fluxCleanupAnnotations = []string{merge.LastAppliedAnnotation, FluxGroup + "/checksum", "fluxcd.io/sync-checksum"}
	fluxCleanupLabels      = []string{"fluxcd.io/sync-gc-mark"}
)

// FluxOptions is what a user configures about a Flux apply.
type FluxOptions struct {
	// Manager is the field manager; "" means FluxManager.
	Manager string
	// TakeOver are the entries merged into the manager's Apply entry after the dry-run
	// (ssa ApplyCleanupOptions.FieldManagers). nil means DefaultFluxTakeOver(Manager); an
	// empty list takes nothing.
	TakeOver []FluxFieldManager
	// OverrideManagers is kustomize-controller's --override-manager: each name's Apply and
	// Update entries are taken over too.
	OverrideManagers []string
	// TakeOverBeforeDryRun are entries merged the same way before the dry-run
	// (FieldManagersBeforeDryRun, kustomize-controller's --override-manager-before-dry-run).
	TakeOverBeforeDryRun []FluxFieldManager
	// CleanupAnnotations and CleanupLabels are removed from the live object with the
	// takeover; nil means kustomize-controller's (the last-applied annotation, the
	// deprecated checksum annotations and the fluxcd.io/sync-gc-mark label).
	CleanupAnnotations []string
	CleanupLabels      []string
	// KustomizationName and KustomizationNamespace, when set, name the Kustomization: its
	// owner labels <FluxGroup>/name and /namespace are added to the manifest (SetOwnerLabels).
	KustomizationName      string
	KustomizationNamespace string
	// Force is the Kustomization's spec.force: an object whose dry-run is refused as
	// immutable (409, 422) is deleted and created again. The label or annotation
	// kustomize.toolkit.fluxcd.io/force: enabled does the same for one object.
	Force bool
	// MigrateAPIVersion is the MigrateAPIVersion feature: every managedFields entry is first
	// rewritten to the manifest's apiVersion.
	MigrateAPIVersion bool
	// Ignore is the Kustomization's spec.ignore: fields left out of the drift detection
	// (step 7) and, where they drifted, out of the apply (step 8).
	Ignore []FluxIgnoreRule
	// Normalize, when set, is the round trip through the kind's Go type that Flux's
	// normalize.UnstructuredList makes (internal/defaults.Normalize fits); an error means the
	// kind has no Go type and the object stays as it is, as in Flux. Without it only Flux's
	// explicit fixes are made.
	Normalize func(obj map[string]any) error `json:"-"`
}

// Flux predicts how Flux's kustomize-controller applies one object through
// fluxcd/pkg/ssa (ResourceManager.ApplyAll, manager_apply.go):
//
//  1. the manifest is prepared: the owner labels added, then normalized
//     (normalize.UnstructuredList: the Go-type round trip, protocol TCP on ports of pod
//     templates and Services, a Secret's stringData moved into data, creationTimestamp and
//     status — CRDs' status aside — dropped);
//  2. objects with <FluxGroup>/reconcile: disabled or <FluxGroup>/ssa: Ignore, and existing
//     objects whose manifest says <FluxGroup>/ssa: IfNotPresent, are skipped;
//  3. with MigrateAPIVersion, a JSON patch rewrites every entry's apiVersion
//     (PatchMigrateToVersion);
//  4. with TakeOverBeforeDryRun, a JSON patch merges those entries into the manager's
//     (PatchReplaceFieldsManagers, see 6);
//  5. a forced dry-run apply; its refusal fails the object, unless forced recreation applies
//     (IsImmutableError: any 409 or 422), when the object is deleted and created again;
//  6. unless <FluxGroup>/ssa: Merge is on the manifest or the live object, one JSON patch
//     (cleanupMetadata) removes CleanupAnnotations and CleanupLabels and rewrites
//     managedFields with PatchReplaceFieldsManagers: the manager's last Apply entry (any
//     apiVersion) absorbs the fields of every TakeOver entry (unions whatever their
//     apiVersion; the entry keeps its own apiVersion and time), or, without one, the first
//     matching entry is renamed to the manager with operation Apply (keeping its apiVersion
//     and time) and absorbs the rest; the merged entry moves to the end of the list. The
//     patch is an update by the manager; the server re-sorts the entries;
//  7. when nothing was patched and the dry-run result equals the live object in labels,
//     annotations and everything outside metadata and status (hasDrifted; with Ignore,
//     both without the paths of the rules whose target selects the dry-run result:
//     hasDriftedWithIgnore), nothing is applied — ownership does not move either;
//  8. otherwise the forced apply (client.ForceOwnership, FieldOwner manager); with Ignore
//     and a live object, of each path the rules name whose value the dry-run changes, the
//     manifest leaves the field out when another manager's Apply entry owns it, and
//     otherwise takes the live value (computeDriftedPaths, applyDriftResult).
//
// req.Manager and req.Force are ignored.
func Flux(e *merge.Engine, req merge.Request, opts FluxOptions) (*merge.Result, error) {
	seq, refused, err := e.Begin(req, merge.ClientMapper)
	return finish(seq, refused, err, func(seq *merge.Sequence) (*merge.Result, error) { return flux(seq, opts) })
}

func flux(seq *merge.Sequence, opts FluxOptions) (*merge.Result, error) {
	req := seq.Request()
	manager := opts.Manager
	if manager == "" {
		manager = FluxManager
	}
	takeOver := opts.TakeOver
	if takeOver == nil {
		takeOver = DefaultFluxTakeOver(manager)
	}
	takeOver = append(append([]FluxFieldManager(nil), takeOver...), fluxOverrideManagers(opts.OverrideManagers)...)
	cleanAnn, cleanLabels := opts.CleanupAnnotations, opts.CleanupLabels
	if cleanAnn == nil {
		cleanAnn = fluxCleanupAnnotations
	}
	if cleanLabels == nil {
		cleanLabels = fluxCleanupLabels
	}
	if req.Object == nil {
		return nil, fmt.Errorf("flux apply: %w: no manifest", merge.ErrNotPredictable)
	}
	ignore, err := compileFluxIgnore(opts.Ignore)
	if err != nil {
		return nil, fmt.Errorf("flux apply: spec.ignore%w", err)
	}
	cfg := unstructured.CopyAsDecoded(req.Object)
	if opts.KustomizationName != "" {
		setLabel(cfg, FluxGroup+"/name", opts.KustomizationName)
		setLabel(cfg, FluxGroup+"/namespace", opts.KustomizationNamespace)
	}
	fluxNormalize(cfg, opts.Normalize)

	orig := seq.Live()
	live := orig
	var steps []merge.Step
	var warnings []string
	step := func(desc string, res *merge.Result) {
		steps = append(steps, merge.Step{Description: desc, Manager: manager, Code: res.StatusCode()})
		for _, w := range res.Warnings {
			warnings = appendUnique(warnings, w)
		}
	}
	stop := func(res *merge.Result, why string) *merge.Result {
		res.Steps = steps
		res.Warnings = append(warnings, why)
		return res
	}
	unchanged := func() *merge.Result {
		res := &merge.Result{Action: merge.ActionUnchanged, Object: unstructured.DeepCopyObject(orig), Steps: steps, Warnings: warnings}
		res.ManagedFields, _, _ = fieldpath.EntriesOf(orig)
		// Nothing is sent: the server still holds the entries in its own key order.
		return seq.AsStored(res)
	}

	// Step 2: skipped objects.
	if anyInMetadata(map[string]string{FluxGroup + "/reconcile": "disabled", FluxGroup + "/ssa": "Ignore"}, cfg, orig) ||
		(orig != nil && anyInMetadata(map[string]string{FluxGroup + "/ssa": "IfNotPresent"}, cfg)) {
		res := unchanged()
		res.Warnings = []string{"Flux skips this object (" + FluxGroup + "/reconcile or /ssa): nothing is sent"}
		return res, nil
	}
	noCleanup := anyInMetadata(map[string]string{FluxGroup + "/ssa": "Merge"}, cfg, orig)

	patched := false
	// patch sends a patch of the live object whose outcome is next; a refusal stops the
	// object with why (the result), success makes next's answer the live object.
	patch := func(desc, why string, next map[string]any) (*merge.Result, error) {
		res, err := seq.Update(merge.Request{Live: live, Object: next, Endpoint: req.Endpoint, Manager: manager, Now: req.Now})
		if err != nil {
			return nil, fmt.Errorf("flux apply: %s: %w", desc, err)
		}
		step(desc, res)
		patched = true
		if res.Rejection != nil {
			return stop(res, why), nil
		}
		live = res.Object
		return nil, nil
	}
	// cleanup is patch of what fluxCleanup changes, if anything.
	cleanup := func(desc, why string, managers []FluxFieldManager, anns, labels []string) (*merge.Result, error) {
		next, changed, err := fluxCleanup(seq, live, managers, anns, labels, manager)
		if err != nil {
			return nil, fmt.Errorf("flux apply: %w", err)
		}
		if !changed {
			return nil, nil
		}
		return patch(desc, why, next)
	}

	// Step 3: managedFields apiVersion migration.
	if opts.MigrateAPIVersion && live != nil {
		entries, _, err := fieldpath.EntriesOf(live)
		if err != nil {
			return nil, fmt.Errorf("flux apply: reading managedFields: %w", err)
		}
		av, _ := cfg["apiVersion"].(string)
		if migrated, changed := fluxMigrateVersion(entries, av); changed {
			next, err := seq.WithManagedFields(live, migrated)
			if err != nil {
				return nil, fmt.Errorf("flux apply: %w", err)
			}
			if res, err := patch("managedFields apiVersion migration patch", "Flux fails the object: failed to migrate API version", next); res != nil || err != nil {
				return res, err
			}
		}
	}

	// Step 4: takeover before the dry-run.
	if len(opts.TakeOverBeforeDryRun) > 0 && live != nil && !noCleanup {
		if res, err := cleanup("managedFields takeover patch before the dry-run", "Flux fails the object: metadata.managedFields takeover failed",
			opts.TakeOverBeforeDryRun, nil, nil); res != nil || err != nil {
			return res, err
		}
	}

	// Step 5: the dry-run.
	dryLive := live
	apply := merge.Request{Live: live, Object: cfg, Endpoint: req.Endpoint, Manager: manager, Force: true, Now: req.Now}
	dry, err := seq.Apply(apply)
	if err != nil {
		return nil, fmt.Errorf("flux apply: dry-run: %w", err)
	}
	step("dry-run apply", dry)
	if dry.Rejection != nil {
		immutable := dry.Rejection.Code == 409 || dry.Rejection.Code == 422 || fluxImmutableMessage(dry.Rejection.Message)
		forced := opts.Force || anyInMetadata(map[string]string{FluxGroup + "/force": "enabled"}, cfg, live)
		if live == nil || !immutable || !forced {
			return stop(dry, "Flux fails the object: dry-run failed"), nil
		}
		return fluxRecreate(seq, cfg, manager, steps, warnings)
	}

	// Step 6: metadata cleanup and takeover.
	if live != nil && !noCleanup {
		if res, err := cleanup("metadata cleanup and managedFields takeover patch", "Flux fails the object: metadata.managedFields cleanup failed",
			takeOver, cleanAnn, cleanLabels); res != nil || err != nil {
			return res, err
		}
	}

	// Step 7: no drift, nothing patched: nothing applied.
	if live != nil && !patched {
		drifted, err := fluxDriftedIgnoring(live, dry.Object, ignore)
		if err != nil {
			return nil, fmt.Errorf("flux apply: spec.ignore: %w", err)
		}
		if !drifted {
			res := unchanged()
			res.Endpoint = dry.Endpoint
			return res, nil
		}
	}

	// Step 8: the apply.
	apply.Live = live
	ignored := false
	if live != nil && len(ignore) > 0 {
		payload, stripped, adopted, err := fluxIgnoredPayload(cfg, live, dry.Object, ignore, manager)
		if err != nil {
			return nil, fmt.Errorf("flux apply: spec.ignore: %w", err)
		}
		for _, p := range stripped {
			warnings = appendUnique(warnings, "Flux's spec.ignore: "+p+" drifted and another manager's Apply entry owns it: left out of the apply")
		}
		for _, p := range adopted {
			warnings = appendUnique(warnings, "Flux's spec.ignore: "+p+" drifted and no other manager applies it: applied with its live value")
		}
		if ignored = len(stripped)+len(adopted) > 0; ignored {
			apply.Object = payload
		}
	}
	// When nothing was patched since the dry-run, the apply is the dry-run's request
	// again, and its answer is the dry-run's.
	res := dry
	if ignored || !unstructured.Same(live, dryLive) {
		res, err = seq.Apply(apply)
		if err != nil {
			return nil, fmt.Errorf("flux apply: %w", err)
		}
	}
	step("apply", res)
	if res.Rejection != nil || orig == nil {
		res.Steps = steps
		res.Warnings = warnings
		return res, nil
	}
	return seq.Summarize(merge.Outcome{Manager: manager, Final: res.Object, First: res, Steps: steps, Warnings: warnings}), nil
}

// fluxRecreate is the forced recreation: delete, dry-run the create, create.
func fluxRecreate(seq *merge.Sequence, cfg map[string]any, manager string, steps []merge.Step, warnings []string) (*merge.Result, error) {
	req := seq.Request()
	steps = append(steps, merge.Step{Description: "delete (immutable field change, force)", Manager: manager, Code: 200})
	dry, err := seq.Apply(merge.Request{Object: cfg, Endpoint: req.Endpoint, Manager: manager, Force: true, Now: req.Now})
	if err != nil {
		return nil, fmt.Errorf("flux apply: dry-run after delete: %w", err)
	}
	steps = append(steps, merge.Step{Description: "dry-run apply", Manager: manager, Code: dry.StatusCode()})
	if dry.Rejection != nil {
		dry.Steps = steps
		dry.Warnings = append(warnings, "Flux deleted the object and fails to create it again")
		return dry, nil
	}
	// The create is the dry-run's request again: its answer is the dry-run's.
	res := dry
	steps = append(steps, merge.Step{Description: "apply", Manager: manager, Code: res.StatusCode()})
	warnings = append(warnings, "Flux deletes the object and creates it again (force): every other manager's fields are gone")
	out := seq.Summarize(merge.Outcome{Manager: manager, Final: res.Object, First: res, Steps: steps, Warnings: warnings})
	out.Action = merge.ActionCreate
	out.Assigned = dry.Assigned // the object is created again
	return out, nil
}

// fluxCleanup builds the body of Flux's cleanup JSON patch (cleanupMetadata or
// takeoverFieldManagersBeforeDryRun): live without the listed annotations and labels, its
// managedFields rewritten by PatchReplaceFieldsManagers. changed is false when no patch
// would be sent.
func fluxCleanup(seq *merge.Sequence, live map[string]any, managers []FluxFieldManager, anns, labels []string, manager string) (map[string]any, bool, error) {
	next := unstructured.DeepCopyObject(live)
	changed := false
	md := metadataOf(next)
	for _, k := range anns {
		if a, _ := md["annotations"].(map[string]any); a != nil {
			if _, ok := a[k]; ok {
				delete(a, k)
				changed = true
			}
		}
	}
	for _, k := range labels {
		if l, _ := md["labels"].(map[string]any); l != nil {
			if _, ok := l[k]; ok {
				delete(l, k)
				changed = true
			}
		}
	}
	if len(managers) > 0 {
		entries, _, err := fieldpath.EntriesOf(live)
		if err != nil {
			return nil, false, fmt.Errorf("reading managedFields: %w", err)
		}
		replaced, edited, err := fluxReplaceManagers(entries, managers, manager)
		if err != nil {
			return nil, false, err
		}
		if edited {
			if next, err = seq.WithManagedFields(next, replaced); err != nil {
				return nil, false, err
			}
			changed = true
		}
	}
	return next, changed, nil
}

// fluxReplaceManagers is ssa.PatchReplaceFieldsManagers on entries: see FluxApply step 6.
func fluxReplaceManagers(entries []fieldpath.Entry, managers []FluxFieldManager, name string) ([]fieldpath.Entry, bool, error) {
	prev := -1
	for i, e := range entries {
		if e.Manager == name && e.Operation == fieldpath.OperationApply {
			prev = i
		}
	}
	var merged *fieldpath.Entry
	if prev >= 0 {
		m := entries[prev]
		merged = &m
	}
	out := make([]fieldpath.Entry, 0, len(entries))
	edited := false
	for i, e := range entries {
		if i == prev {
			continue
		}
		match := false
		for _, m := range managers {
			if m.matches(e) {
				match = true
				break
			}
		}
		if !match {
			out = append(out, e)
			continue
		}
		edited = true
		if merged == nil {
			e.Manager, e.Operation = name, fieldpath.OperationApply
			merged = &e
			continue
		}
		union, err := unionFieldsV1(merged.FieldsV1, e.FieldsV1)
		if err != nil {
			return nil, false, fmt.Errorf("unable to merge managed fields: %w", err)
		}
		merged.FieldsV1 = union
	}
	if !edited {
		return entries, false, nil
	}
	return append(out, *merged), true, nil
}

func unionFieldsV1(a, b []byte) ([]byte, error) {
	if len(b) == 0 {
		return a, nil
	}
	if len(a) == 0 {
		return b, nil
	}
	sa, err := fieldpath.FieldsV1ToSet(a)
	if err != nil {
		return nil, err
	}
	sb, err := fieldpath.FieldsV1ToSet(b)
	if err != nil {
		return nil, err
	}
	return fieldpath.SetToFieldsV1(sa.Union(sb))
}

// fluxMigrateVersion is ssa.PatchMigrateToVersion: every entry, of any manager and
// subresource, gets apiVersion.
func fluxMigrateVersion(entries []fieldpath.Entry, apiVersion string) ([]fieldpath.Entry, bool) {
	out := append([]fieldpath.Entry(nil), entries...)
	changed := false
	for i := range out {
		if out[i].APIVersion != apiVersion {
			out[i].APIVersion = apiVersion
			changed = true
		}
	}
	return out, changed
}

// fluxImmutableMessage matches the immutability errors of admission webhooks and CEL rules
// that ssa/errors IsImmutableError also accepts.
func fluxImmutableMessage(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "immutable") || strings.Contains(m, "is not allowed to be changed")
}

// fluxDrifted is ssa's hasDrifted: the dry-run result differs from the live object in
// labels, annotations, or anything outside metadata and status (empty and absent compare
// equal, as with apimachinery's semantic equality).
func fluxDrifted(live, dry map[string]any) bool {
	if dry == nil {
		return false
	}
	if !unstructured.EqualNilAsEmpty(metadataOf(live)["labels"], metadataOf(dry)["labels"]) ||
		!unstructured.EqualNilAsEmpty(metadataOf(live)["annotations"], metadataOf(dry)["annotations"]) {
		return true
	}
	a, b := unstructured.DeepCopyObject(live), unstructured.DeepCopyObject(dry)
	for _, o := range []map[string]any{a, b} {
		delete(o, "metadata")
		delete(o, "status")
	}
	return !unstructured.EqualNilAsEmpty(a, b)
}

// anyInMetadata is ssa utils.AnyInMetadata on each object: a label or annotation with one of
// the keys and the value, compared case-insensitively.
func anyInMetadata(sel map[string]string, objs ...map[string]any) bool {
	for _, obj := range objs {
		if obj == nil {
			continue
		}
		labels, _ := metadataOf(obj)["labels"].(map[string]any)
		anns := annotations(obj)
		for k, v := range sel {
			for _, m := range []map[string]any{labels, anns} {
				if s, _ := m[k].(string); s != "" && strings.EqualFold(s, v) {
					return true
				}
			}
		}
	}
	return false
}

func setLabel(obj map[string]any, key, value string) {
	unstructured.EnsureObject(unstructured.EnsureObject(obj, "metadata"), "labels")[key] = value
}

// fluxNormalize is ssa normalize.UnstructuredWithScheme on the manifest. The creation
// timestamp, which Flux sets to null, is dropped: the server never takes it from a write.
func fluxNormalize(obj map[string]any, roundTrip func(map[string]any) error) {
	gvk := schema.GVKOf(obj)
	if roundTrip != nil {
		c := unstructured.DeepCopyObject(obj)
		if err := roundTrip(c); err == nil {
			for k := range obj {
				delete(obj, k)
			}
			for k, v := range unstructured.CopyAsDecoded(c) {
				obj[k] = v
			}
		}
	}
	podSpec := func(path ...string) {
		spec := unstructured.NestedObject(obj, path...)
		for _, c := range unstructured.Objects(spec, "containers") {
			defaultProtocols(c)
		}
	}
	switch gvk.Group + "/" + gvk.Version + "/" + gvk.Kind {
	case "/v1/Pod":
		podSpec("spec")
	case "apps/v1/Deployment", "apps/v1/StatefulSet", "apps/v1/DaemonSet", "apps/v1/ReplicaSet", "batch/v1/Job":
		podSpec("spec", "template", "spec")
	case "batch/v1/CronJob":
		podSpec("spec", "jobTemplate", "spec", "template", "spec")
	case "/v1/Service":
		defaultProtocols(unstructured.NestedObject(obj, "spec"))
	case "/v1/Secret":
		if sd, _ := obj["stringData"].(map[string]any); len(sd) > 0 {
			data, _ := obj["data"].(map[string]any)
			if data == nil {
				data = map[string]any{}
				obj["data"] = data
			}
			for k, v := range sd {
				s, _ := v.(string)
				data[k] = base64.StdEncoding.EncodeToString([]byte(s))
			}
		}
		delete(obj, "stringData")
	}
	if md := metadataOf(obj); md != nil {
		delete(md, "creationTimestamp")
	}
	if !(gvk.Group == "apiextensions.k8s.io" && gvk.Kind == "CustomResourceDefinition") {
		delete(obj, "status")
	}
}

// defaultProtocols sets protocol TCP on the ports of a container or Service spec that have none.
func defaultProtocols(m map[string]any) {
	for _, p := range unstructured.Objects(m, "ports") {
		if s, _ := p["protocol"].(string); s == "" {
			p["protocol"] = "TCP"
		}
	}
}

// NormalizeAsGoTypes is the round trip of an object through its kind's Go type, as Flux's
// normalize.UnstructuredList makes it with the built-in kinds' types (a FluxOptions.Normalize).
// The types are those Flux links, of its own build and not the cluster's: the newest minor's.
func NormalizeAsGoTypes(obj map[string]any) error {
	return kubeapiserver.NormalizeAsGoTypes(kube.Default(), obj)
}

// FluxApply is Flux's kustomize-controller apply ([Flux]); with Prune, the Kustomization's
// spec.prune.
type FluxApply struct {
	Options FluxOptions
	Prune   bool
}

func (f FluxApply) Name() string { return "flux" }

func (f FluxApply) Manager() string {
	if f.Options.Manager == "" {
		return FluxManager
	}
	return f.Options.Manager
}

func (f FluxApply) AlwaysForces() bool   { return true }
func (f FluxApply) Subresources() bool   { return false }
func (f FluxApply) SendsNamespace() bool { return true }

// Apply is [Flux].
func (f FluxApply) Apply(e *merge.Engine, req merge.Request) (*merge.Result, error) {
	return Flux(e, req, f.Options)
}

// Prunes is the rule of the Kustomization's spec.prune: the objects carrying its owner
// labels kustomize.toolkit.fluxcd.io/name and /namespace; the annotation
// kustomize.toolkit.fluxcd.io/prune: disabled keeps an object.
func (f FluxApply) Prunes(o PruneCandidate) string {
	ns, name := f.Options.KustomizationNamespace, f.Options.KustomizationName
	if !f.Prune || name == "" {
		return ""
	}
	lbl := stringMap(o.Object, "labels")
	if lbl[FluxGroup+"/name"] != name || lbl[FluxGroup+"/namespace"] != ns {
		return ""
	}
	if stringMap(o.Object, "annotations")[FluxGroup+"/prune"] == "disabled" {
		return ""
	}
	return fmt.Sprintf("Flux prunes it: its owner labels name the Kustomization %s/%s, whose spec.prune is on, and the manifests no longer name it", ns, name)
}

// fluxKind is the applier of Flux's kustomize-controller.
func fluxKind() Kind {
	return Kind{
		Name:            "flux",
		Usage:           "Flux's kustomize-controller (both always forced, both taking over managers first)",
		Manager:         FluxManager,
		Apply:           "Flux's apply",
		ForceHint:       "a forced sync",
		AlwaysForces:    true,
		ShowsSyncStatus: true,
		Prune:           "the Kustomization's spec.prune, of objects carrying its owner labels (--flux-kustomization)",
		Options: []Option{
			{Name: "flux-kustomization", Arg: "NAMESPACE/NAME", Usage: "Flux: the Kustomization, whose owner labels kustomize.toolkit.fluxcd.io/name and /namespace are added to every object.",
				Check: func(k string) error {
					if ns, name, ok := strings.Cut(k, "/"); !ok || ns == "" || name == "" || strings.Contains(name, "/") {
						return fmt.Errorf("must be NAMESPACE/NAME, not %q", k)
					}
					return nil
				}},
			{Name: "flux-override-manager", Arg: "NAME", Repeatable: true, Usage: "Flux: kustomize-controller's --override-manager: a manager whose Apply and Update entries Flux takes over, by name prefix (repeatable)."},
			{Name: "flux-force", Usage: "Flux: the Kustomization's spec.force: an object refused as immutable is deleted and created again."},
			{Name: "flux-ignore", Arg: "RULE", Repeatable: true, Usage: `Flux: one rule of the Kustomization's spec.ignore, as JSON ({"paths":["/spec/replicas"],"target":{"kind":"Deployment"}}): the paths are left out of drift detection and, where they drifted, out of the apply (or applied with their live value when Flux alone applies them) (repeatable).`,
				Check: func(r string) error { _, err := ParseFluxIgnoreRule(r); return err }},
		},
		New: func(s Settings) (Applier, error) {
			k := s.value("flux-kustomization")
			if s.Prune.On && k == "" {
				return nil, fmt.Errorf("--prune with --applier flux needs --flux-kustomization: its owner labels mark what it prunes")
			}
			opts := FluxOptions{
				Manager:          s.manager(FluxManager),
				OverrideManagers: s.Options["flux-override-manager"],
				Force:            s.value("flux-force") == "true",
				Normalize:        NormalizeAsGoTypes,
			}
			for _, r := range s.Options["flux-ignore"] {
				rule, err := ParseFluxIgnoreRule(r)
				if err != nil {
					return nil, fmt.Errorf("--flux-ignore %s: %w", r, err)
				}
				opts.Ignore = append(opts.Ignore, rule)
			}
			if ns, name, ok := strings.Cut(k, "/"); ok {
				opts.KustomizationNamespace, opts.KustomizationName = ns, name
			}
			return FluxApply{Prune: s.Prune.On, Options: opts}, nil
		},
	}
}
