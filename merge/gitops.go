package merge

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// This file holds the appliers of the two GitOps controllers, Argo CD (v3.x) and Flux
// (kustomize-controller on fluxcd/pkg/ssa). Like [Engine.KubectlApply], each is the
// sequence of requests the controller sends for one object, every request predicted by
// [Engine.Apply] or [Engine.Update], summed up as one [Result] relative to the live object:
// Steps lists the requests, Ownership says which manager lost which fields to the sync
// (including entries the controller renamed or merged away before applying), and Conflicts
// are the conflicts the controller's forced apply overrode. The upstream behaviour each step
// follows is named in its comment; /work/notes/gitops-appliers.md keeps the sources.

// Names Argo CD uses.
const (
	// ArgoCDManager is the field manager of Argo CD's server-side apply syncs
	// (argo-cd common.ArgoCDSSAManager, passed to gitops-engine's WithServerSideApplyManager).
	ArgoCDManager = "argocd-controller"
	// ArgoCDControllerUserAgent is the manager name the API server derives from the
	// application controller's user agent ("argocd-application-controller/<version> …"): the
	// manager of the migration patch, which Argo CD sends without a fieldManager.
	ArgoCDControllerUserAgent = "argocd-application-controller"
	// ArgoCDMigrationManagerAnnotation, on the Application, names the manager to migrate
	// instead of kubectl-client-side-apply (argo-cd common.AnnotationClientSideApplyMigrationManager).
	ArgoCDMigrationManagerAnnotation = "argocd.argoproj.io/client-side-apply-migration-manager"
	// ArgoCDTrackingAnnotation carries the tracking id "<app>:<group>/<kind>:<namespace>/<name>".
	ArgoCDTrackingAnnotation = "argocd.argoproj.io/tracking-id"
	// ArgoCDInstallationIDAnnotation carries the installation id when one is configured.
	ArgoCDInstallationIDAnnotation = "argocd.argoproj.io/installation-id"
	// ArgoCDInstanceLabel is the default application.instanceLabelKey of label tracking.
	ArgoCDInstanceLabel = "app.kubernetes.io/instance"
	// ArgoCDSyncOptionsAnnotation holds per-resource sync options.
	ArgoCDSyncOptionsAnnotation = "argocd.argoproj.io/sync-options"
)

// ArgoCDTracking is Argo CD's resource tracking method (argocd-cm application.resourceTrackingMethod).
type ArgoCDTracking string

// The tracking methods; annotation is the default since Argo CD 3.0.
const (
	ArgoCDTrackAnnotation         ArgoCDTracking = "annotation"
	ArgoCDTrackLabel              ArgoCDTracking = "label"
	ArgoCDTrackAnnotationAndLabel ArgoCDTracking = "annotation+label"
)

// argoLabelMaxLength is the limit Argo CD truncates the tracking label to (util/argo TruncateLabel).
const argoLabelMaxLength = 63

// ArgoCDOptions is what a user configures about an Argo CD server-side apply sync.
type ArgoCDOptions struct {
	// Manager is the field manager; "" means ArgoCDManager, which Argo CD hard-codes.
	Manager string
	// DisableClientSideApplyMigration is the sync option ClientSideApplyMigration=false.
	DisableClientSideApplyMigration bool
	// MigrationManager is the Application's client-side-apply-migration-manager annotation;
	// "" means kubectl-client-side-apply (gitops-engine DefaultClientSideApplyMigrationManager).
	MigrationManager string
	// Application, when set, is the Application's instance name: the tracking annotation
	// and/or label the repo server adds to every target (CRDs excepted) are added to the
	// manifest before applying. Empty: the manifest is applied as given.
	Application string
	// DestinationNamespace is the Application's destination namespace, used in the tracking
	// id of objects that carry no namespace (cluster-scoped ones).
	DestinationNamespace string
	// Tracking is the tracking method; "" means ArgoCDTrackAnnotation.
	Tracking ArgoCDTracking
	// InstanceLabelKey is the tracking label's key; "" means ArgoCDInstanceLabel.
	InstanceLabelKey string
	// InstallationID, when set, is added as the installation-id annotation (annotation tracking).
	InstallationID string
}

// ArgoCDApply predicts how Argo CD 3.x syncs one object with the ServerSideApply=true sync
// option (gitops-engine pkg/sync/sync_context.go, applyObject):
//
//  1. client-side apply migration (on unless ClientSideApplyMigration=false): when the live
//     object has an Update entry of the migration manager, Argo CD rewrites managedFields with
//     client-go's csaupgrade.UpgradeManagedFieldsPatch (performCSAUpgradeMigration): that
//     manager's main-resource Update entry at the same apiVersion as argocd-controller's
//     Apply entry is unioned into it (or, without an Apply entry, the first such Update
//     entry in the list becomes it, keeping its apiVersion and time) and all its
//     main-resource Update entries go. The JSON patch carries no fieldManager, so its manager is the user agent's;
//     it changes nothing but managedFields. A refusal fails the sync.
//  2. `kubectl apply --server-side --force-conflicts --field-manager=argocd-controller`
//     through kubectl's library (pkg/utils/kube resource_ops.go, newApplyOptions sets
//     ForceConflicts whenever server-side apply is on): the forced apply, then kubectl's own
//     migration of every Update entry that owns the last-applied annotation into
//     argocd-controller, then the apply again — [Engine.KubectlApply]'s sequence. kubectl
//     keeps the last-applied annotation only for the manager "kubectl", so once migrated
//     into argocd-controller, which does not apply it, the annotation is pruned.
//
// req.Manager and req.Force are ignored: the manager is opts.Manager and Argo CD always
// forces. The manifest must be as Argo CD sends it, namespace included.
func (e *Engine) ArgoCDApply(req Request, opts ArgoCDOptions) (*Result, error) {
	given := req.Live
	req, refused, err := e.admit(req, clientMapper)
	if refused != nil || err != nil {
		return refused, err
	}
	res, err := e.argoCDApply(req, opts)
	return readAs(res, given, req.Live), err
}

func (e *Engine) argoCDApply(req Request, opts ArgoCDOptions) (*Result, error) {
	manager := opts.Manager
	if manager == "" {
		manager = ArgoCDManager
	}
	if req.Object == nil {
		return nil, fmt.Errorf("argocd apply: %w: no manifest", errNotPredictable)
	}
	cfg := normalizeObject(req.Object)
	if opts.Application != "" {
		if err := argoSetTracking(cfg, opts); err != nil {
			return nil, fmt.Errorf("argocd apply: %w", err)
		}
	}
	warnings := argoSyncOptionWarnings(cfg, req.Live)

	orig := normalizedInput(req.Live)
	live := orig
	var steps []Step
	if orig != nil && !opts.DisableClientSideApplyMigration {
		csa := opts.MigrationManager
		if csa == "" {
			csa = KubectlClientSideApplyManager
		}
		entries, _, err := managedFieldsOf(orig)
		if err != nil {
			return nil, fmt.Errorf("argocd apply: reading managedFields: %w", err)
		}
		if hasUpdateEntryOf(entries, csa) {
			if upgraded := upgradeManagedFields(entries, []string{csa}, manager); !reflect.DeepEqual(upgraded, entries) {
				next := copyObject(orig)
				if err := setManagedFields(next, upgraded, e.compactManagedFields); err != nil {
					return nil, fmt.Errorf("argocd apply: %w", err)
				}
				res, err := e.Update(passHubLive(Request{Live: orig, Object: next, Endpoint: req.Endpoint, Manager: ArgoCDControllerUserAgent, Now: req.Now}, req))
				if err != nil {
					return nil, fmt.Errorf("argocd apply: client-side apply migration: %w", err)
				}
				steps = append(steps, Step{Description: "client-side apply migration patch (" + csa + ")", Manager: ArgoCDControllerUserAgent, Code: stepCode(res)})
				if res.Rejection != nil {
					res.Steps = steps
					res.Warnings = append(res.Warnings, "Argo CD fails the sync: Failed to perform client-side apply migration: "+res.Rejection.Message)
					return res, nil
				}
				live = res.Object
			}
		}
	}

	kreq := passHubLive(Request{Live: live, Object: cfg, Endpoint: req.Endpoint, Manager: manager, Force: true, Now: req.Now}, req)
	res, err := e.KubectlApply(kreq)
	if err != nil {
		return nil, fmt.Errorf("argocd apply: %w", err)
	}
	res.Warnings = append(warnings, res.Warnings...)
	if len(steps) == 0 {
		return res, nil
	}
	steps = append(steps, res.Steps...)
	if res.Rejection != nil {
		res.Steps = steps
		res.Warnings = append(res.Warnings, "the client-side apply migration patch was already written when the apply was refused")
		return res, nil
	}
	return e.kubectlResult(kreq, orig, res.Object, res, steps, res.Warnings, false), nil
}

// hasUpdateEntryOf is gitops-engine's needsClientSideApplyMigration: an Update entry of the
// manager, on any subresource.
func hasUpdateEntryOf(entries []fieldpath.Entry, manager string) bool {
	for _, e := range entries {
		if e.Manager == manager && e.Operation == fieldpath.OperationUpdate {
			return true
		}
	}
	return false
}

// argoSetTracking adds what the repo server's SetAppInstance adds to a target (argo-cd
// util/argo/resource_tracking.go): the tracking-id annotation "<app>:<group>/<kind>:<ns>/<name>"
// (ns defaulting to the destination namespace) and the installation-id annotation, and/or
// the instance label (truncated to 63 characters with annotation+label). CRDs get nothing.
func argoSetTracking(obj map[string]interface{}, opts ArgoCDOptions) error {
	gvk := gvkOf(obj)
	if gvk.Group == "apiextensions.k8s.io" && gvk.Kind == "CustomResourceDefinition" {
		return nil
	}
	md := metadataOf(obj)
	if md == nil {
		md = map[string]interface{}{}
		obj["metadata"] = md
	}
	setAnnotation := func() {
		a, _ := md["annotations"].(map[string]interface{})
		if a == nil {
			a = map[string]interface{}{}
			md["annotations"] = a
		}
		if opts.InstallationID != "" {
			a[ArgoCDInstallationIDAnnotation] = opts.InstallationID
		} else {
			delete(a, ArgoCDInstallationIDAnnotation)
		}
		ns, name := nsName(obj)
		if ns == "" {
			ns = opts.DestinationNamespace
		}
		a[ArgoCDTrackingAnnotation] = fmt.Sprintf("%s:%s/%s:%s/%s", opts.Application, gvk.Group, gvk.Kind, ns, name)
	}
	setLabel := func(v string) {
		l, _ := md["labels"].(map[string]interface{})
		if l == nil {
			l = map[string]interface{}{}
			md["labels"] = l
		}
		key := opts.InstanceLabelKey
		if key == "" {
			key = ArgoCDInstanceLabel
		}
		l[key] = v
	}
	switch opts.Tracking {
	case ArgoCDTrackLabel:
		setLabel(opts.Application)
	case ArgoCDTrackAnnotationAndLabel:
		setAnnotation()
		v, err := argoTruncateLabel(opts.Application)
		if err != nil {
			return err
		}
		setLabel(v)
	case "", ArgoCDTrackAnnotation:
		setAnnotation()
	default:
		return fmt.Errorf("unknown Argo CD tracking method %q", opts.Tracking)
	}
	return nil
}

// argoTruncateLabel cuts a label value to 63 characters and then drops trailing characters
// until it ends with a letter or digit.
func argoTruncateLabel(v string) (string, error) {
	if len(v) <= argoLabelMaxLength {
		return v, nil
	}
	v = v[:argoLabelMaxLength]
	for !endsAlphanumeric(v) {
		if len(v) <= 1 {
			return "", fmt.Errorf("unable to truncate label %q to not end with a special character", v)
		}
		v = v[:len(v)-1]
	}
	return v, nil
}

func endsAlphanumeric(s string) bool {
	if s == "" {
		return false
	}
	c := s[len(s)-1]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// argoSyncOptionWarnings flags per-resource sync options that make Argo CD write the object
// other than by server-side apply.
func argoSyncOptionWarnings(cfg, live map[string]interface{}) []string {
	has := func(obj map[string]interface{}, opt string) bool {
		s, _ := annotations(obj)[ArgoCDSyncOptionsAnnotation].(string)
		for _, o := range strings.Split(s, ",") {
			if strings.TrimSpace(o) == opt {
				return true
			}
		}
		return false
	}
	var out []string
	if has(cfg, "ServerSideApply=false") {
		out = append(out, "the manifest has sync option ServerSideApply=false: Argo CD applies it client-side, not as predicted here")
	}
	if has(cfg, "Replace=true") || (live != nil && has(live, "Replace=true")) {
		out = append(out, "sync option Replace=true: Argo CD replaces (or creates) the object instead of applying it, not as predicted here")
	}
	return out
}

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
		{Name: BeforeFirstApplyManager, Operation: fieldpath.OperationUpdate},
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
	fluxCleanupAnnotations = []string{LastAppliedAnnotation, FluxGroup + "/checksum", "fluxcd.io/sync-checksum"}
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
	// Normalize, when set, is the round trip through the kind's Go type that Flux's
	// normalize.UnstructuredList makes (merge/defaults.Normalize fits); an error means the
	// kind has no Go type and the object stays as it is, as in Flux. Without it only Flux's
	// explicit fixes are made.
	Normalize func(obj map[string]interface{}) error `json:"-"`
}

// FluxApply predicts how Flux's kustomize-controller applies one object through
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
//     annotations and everything outside metadata and status (hasDrifted), nothing is
//     applied — ownership does not move either;
//  8. otherwise the forced apply (client.ForceOwnership, FieldOwner manager).
//
// req.Manager and req.Force are ignored.
func (e *Engine) FluxApply(req Request, opts FluxOptions) (*Result, error) {
	given := req.Live
	req, refused, err := e.admit(req, clientMapper)
	if refused != nil || err != nil {
		return refused, err
	}
	res, err := e.fluxApply(req, opts)
	return readAs(res, given, req.Live), err
}

func (e *Engine) fluxApply(req Request, opts FluxOptions) (*Result, error) {
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
		return nil, fmt.Errorf("flux apply: %w: no manifest", errNotPredictable)
	}
	cfg := normalizeObject(req.Object)
	if opts.KustomizationName != "" {
		setLabel(cfg, FluxGroup+"/name", opts.KustomizationName)
		setLabel(cfg, FluxGroup+"/namespace", opts.KustomizationNamespace)
	}
	fluxNormalize(cfg, opts.Normalize)

	orig := normalizedInput(req.Live)
	live := orig
	var steps []Step
	var warnings []string
	step := func(desc string, res *Result) {
		steps = append(steps, Step{Description: desc, Manager: manager, Code: stepCode(res)})
		for _, w := range res.Warnings {
			warnings = appendUnique(warnings, w)
		}
	}
	stop := func(res *Result, why string) *Result {
		res.Steps = steps
		res.Warnings = append(warnings, why)
		return res
	}

	// Step 2: skipped objects.
	if anyInMetadata(map[string]string{FluxGroup + "/reconcile": "disabled", FluxGroup + "/ssa": "Ignore"}, cfg, orig) ||
		(orig != nil && anyInMetadata(map[string]string{FluxGroup + "/ssa": "IfNotPresent"}, cfg)) {
		res := &Result{Action: ActionUnchanged, Object: copyObject(orig), Warnings: []string{"Flux skips this object (" + FluxGroup + "/reconcile or /ssa): nothing is sent"}}
		res.ManagedFields, _, _ = managedFieldsOf(orig)
		return res, nil
	}
	noCleanup := anyInMetadata(map[string]string{FluxGroup + "/ssa": "Merge"}, cfg, orig)

	patched := false
	patch := func(desc string, next map[string]interface{}) (*Result, error) {
		res, err := e.Update(passHubLive(Request{Live: live, Object: next, Endpoint: req.Endpoint, Manager: manager, Now: req.Now}, req))
		if err != nil {
			return nil, fmt.Errorf("flux apply: %s: %w", desc, err)
		}
		step(desc, res)
		patched = true
		return res, nil
	}

	// Step 3: managedFields apiVersion migration.
	if opts.MigrateAPIVersion && live != nil {
		entries, _, err := managedFieldsOf(live)
		if err != nil {
			return nil, fmt.Errorf("flux apply: reading managedFields: %w", err)
		}
		av, _ := cfg["apiVersion"].(string)
		if migrated, changed := fluxMigrateVersion(entries, av); changed {
			next := copyObject(live)
			if err := setManagedFields(next, migrated, e.compactManagedFields); err != nil {
				return nil, fmt.Errorf("flux apply: %w", err)
			}
			res, err := patch("managedFields apiVersion migration patch", next)
			if err != nil {
				return nil, err
			}
			if res.Rejection != nil {
				return stop(res, "Flux fails the object: failed to migrate API version"), nil
			}
			live = res.Object
		}
	}

	// Step 4: takeover before the dry-run.
	if len(opts.TakeOverBeforeDryRun) > 0 && live != nil && !noCleanup {
		next, changed, err := fluxCleanup(live, opts.TakeOverBeforeDryRun, nil, nil, manager, e.compactManagedFields)
		if err != nil {
			return nil, fmt.Errorf("flux apply: %w", err)
		}
		if changed {
			res, err := patch("managedFields takeover patch before the dry-run", next)
			if err != nil {
				return nil, err
			}
			if res.Rejection != nil {
				return stop(res, "Flux fails the object: metadata.managedFields takeover failed"), nil
			}
			live = res.Object
		}
	}

	// Step 5: the dry-run.
	dryLive := live
	dry, err := e.applyStep(passHubLive(Request{Live: live, Object: cfg, Endpoint: req.Endpoint, Manager: manager, Force: true, Now: req.Now}, req))
	if err != nil {
		return nil, fmt.Errorf("flux apply: dry-run: %w", err)
	}
	step("dry-run apply", dry)
	if dry.Rejection != nil {
		immutable := dry.Rejection.Code == 409 || dry.Rejection.Code == 422 || fluxImmutableMessage(dry.Rejection.Message)
		forced := opts.Force || anyInMetadata(map[string]string{FluxGroup + "/force": "enabled"}, cfg, live)
		if live == nil || !immutable || !forced {
			return stop(dry.complete(), "Flux fails the object: dry-run failed"), nil
		}
		return e.fluxRecreate(req, cfg, orig, manager, steps, warnings)
	}

	// Step 6: metadata cleanup and takeover.
	if live != nil && !noCleanup {
		next, changed, err := fluxCleanup(live, takeOver, cleanAnn, cleanLabels, manager, e.compactManagedFields)
		if err != nil {
			return nil, fmt.Errorf("flux apply: %w", err)
		}
		if changed {
			res, err := patch("metadata cleanup and managedFields takeover patch", next)
			if err != nil {
				return nil, err
			}
			if res.Rejection != nil {
				return stop(res, "Flux fails the object: metadata.managedFields cleanup failed"), nil
			}
			live = res.Object
		}
	}

	// Step 7: no drift, nothing patched: nothing applied.
	if live != nil && !patched && !fluxDrifted(live, dry.Object) {
		res := &Result{Endpoint: dry.Endpoint, Action: ActionUnchanged, Object: copyObject(orig), Steps: steps, Warnings: warnings}
		res.ManagedFields, _, _ = managedFieldsOf(orig)
		return res, nil
	}

	// Step 8: the apply.
	areq := passHubLive(Request{Live: live, Object: cfg, Endpoint: req.Endpoint, Manager: manager, Force: true, Now: req.Now}, req)
	// When nothing was patched since the dry-run, the apply is the dry-run's request
	// again, and its answer is the dry-run's.
	res := dry
	if !sameObject(live, dryLive) {
		res, err = e.applyStep(areq)
		if err != nil {
			return nil, fmt.Errorf("flux apply: %w", err)
		}
	}
	step("apply", res)
	if res.Rejection != nil || orig == nil {
		res.complete()
		res.Steps = steps
		res.Warnings = warnings
		return res, nil
	}
	return e.kubectlResult(areq, orig, res.Object, res, steps, warnings, false), nil
}

// fluxRecreate is the forced recreation: delete, dry-run the create, create.
func (e *Engine) fluxRecreate(req Request, cfg, orig map[string]interface{}, manager string, steps []Step, warnings []string) (*Result, error) {
	steps = append(steps, Step{Description: "delete (immutable field change, force)", Manager: manager, Code: 200})
	creq := Request{Object: cfg, Endpoint: req.Endpoint, Manager: manager, Force: true, Now: req.Now}
	dry, err := e.applyStep(creq)
	if err != nil {
		return nil, fmt.Errorf("flux apply: dry-run after delete: %w", err)
	}
	steps = append(steps, Step{Description: "dry-run apply", Manager: manager, Code: stepCode(dry)})
	if dry.Rejection != nil {
		dry.Steps = steps
		dry.Warnings = append(warnings, "Flux deleted the object and fails to create it again")
		return dry.complete(), nil
	}
	// The create is the dry-run's request again: its answer is the dry-run's.
	res := dry
	steps = append(steps, Step{Description: "apply", Manager: manager, Code: stepCode(res)})
	warnings = append(warnings, "Flux deletes the object and creates it again (force): every other manager's fields are gone")
	if res.Rejection != nil {
		res.Steps, res.Warnings = steps, warnings
		return res.complete(), nil
	}
	out := e.kubectlResult(Request{Live: orig, Object: cfg, Endpoint: res.Endpoint, Manager: manager, Now: req.Now}, orig, res.Object, res, steps, warnings, false)
	out.Action = ActionCreate
	out.Assigned = dry.Assigned // the object is created again
	return out, nil
}

// fluxCleanup builds the body of Flux's cleanup JSON patch (cleanupMetadata or
// takeoverFieldManagersBeforeDryRun): live without the listed annotations and labels, its
// managedFields rewritten by PatchReplaceFieldsManagers. changed is false when no patch
// would be sent.
func fluxCleanup(live map[string]interface{}, managers []FluxFieldManager, anns, labels []string, manager string, text bool) (map[string]interface{}, bool, error) {
	next := copyObject(live)
	changed := false
	md := metadataOf(next)
	for _, k := range anns {
		if a, _ := md["annotations"].(map[string]interface{}); a != nil {
			if _, ok := a[k]; ok {
				delete(a, k)
				changed = true
			}
		}
	}
	for _, k := range labels {
		if l, _ := md["labels"].(map[string]interface{}); l != nil {
			if _, ok := l[k]; ok {
				delete(l, k)
				changed = true
			}
		}
	}
	if len(managers) > 0 {
		entries, _, err := managedFieldsOf(live)
		if err != nil {
			return nil, false, fmt.Errorf("reading managedFields: %w", err)
		}
		replaced, edited, err := fluxReplaceManagers(entries, managers, manager)
		if err != nil {
			return nil, false, err
		}
		if edited {
			if err := setManagedFields(next, replaced, text); err != nil {
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
func fluxDrifted(live, dry map[string]interface{}) bool {
	if dry == nil {
		return false
	}
	if !semanticEqual(metadataOf(live)["labels"], metadataOf(dry)["labels"]) ||
		!semanticEqual(metadataOf(live)["annotations"], metadataOf(dry)["annotations"]) {
		return true
	}
	a, b := copyObject(live), copyObject(dry)
	for _, o := range []map[string]interface{}{a, b} {
		delete(o, "metadata")
		delete(o, "status")
	}
	return !semanticEqual(a, b)
}

func semanticEqual(a, b interface{}) bool {
	am, aIsMap := a.(map[string]interface{})
	bm, bIsMap := b.(map[string]interface{})
	al, aIsList := a.([]interface{})
	bl, bIsList := b.([]interface{})
	switch {
	case (a == nil || aIsMap) && (b == nil || bIsMap) && (aIsMap || bIsMap):
		if len(am) != len(bm) {
			return false
		}
		for k, v := range am {
			w, ok := bm[k]
			if !ok || !semanticEqual(v, w) {
				return false
			}
		}
		return true
	case (a == nil || aIsList) && (b == nil || bIsList) && (aIsList || bIsList):
		if len(al) != len(bl) {
			return false
		}
		for i := range al {
			if !semanticEqual(al[i], bl[i]) {
				return false
			}
		}
		return true
	default:
		return unstructured.Equal(a, b)
	}
}

// anyInMetadata is ssa utils.AnyInMetadata on each object: a label or annotation with one of
// the keys and the value, compared case-insensitively.
func anyInMetadata(sel map[string]string, objs ...map[string]interface{}) bool {
	for _, obj := range objs {
		if obj == nil {
			continue
		}
		labels, _ := metadataOf(obj)["labels"].(map[string]interface{})
		anns := annotations(obj)
		for k, v := range sel {
			for _, m := range []map[string]interface{}{labels, anns} {
				if s, _ := m[k].(string); s != "" && strings.EqualFold(s, v) {
					return true
				}
			}
		}
	}
	return false
}

func setLabel(obj map[string]interface{}, key, value string) {
	md := metadataOf(obj)
	if md == nil {
		md = map[string]interface{}{}
		obj["metadata"] = md
	}
	l, _ := md["labels"].(map[string]interface{})
	if l == nil {
		l = map[string]interface{}{}
		md["labels"] = l
	}
	l[key] = value
}

// fluxNormalize is ssa normalize.UnstructuredWithScheme on the manifest. The creation
// timestamp, which Flux sets to null, is dropped: the server never takes it from a write.
func fluxNormalize(obj map[string]interface{}, roundTrip func(map[string]interface{}) error) {
	gvk := gvkOf(obj)
	if roundTrip != nil {
		c := copyObject(obj)
		if err := roundTrip(c); err == nil {
			for k := range obj {
				delete(obj, k)
			}
			for k, v := range normalizeObject(c) {
				obj[k] = v
			}
		}
	}
	podSpec := func(path ...string) {
		spec := nestedMap(obj, path...)
		for _, c := range listOf(spec["containers"]) {
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
		defaultProtocols(nestedMap(obj, "spec"))
	case "/v1/Secret":
		if sd, _ := obj["stringData"].(map[string]interface{}); len(sd) > 0 {
			data, _ := obj["data"].(map[string]interface{})
			if data == nil {
				data = map[string]interface{}{}
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
func defaultProtocols(m map[string]interface{}) {
	for _, p := range listOf(m["ports"]) {
		if s, _ := p["protocol"].(string); s == "" {
			p["protocol"] = "TCP"
		}
	}
}

func nestedMap(obj map[string]interface{}, path ...string) map[string]interface{} {
	cur := obj
	for _, p := range path {
		next, _ := cur[p].(map[string]interface{})
		if next == nil {
			return nil
		}
		cur = next
	}
	return cur
}

func listOf(v interface{}) []map[string]interface{} {
	l, _ := v.([]interface{})
	out := make([]map[string]interface{}, 0, len(l))
	for _, x := range l {
		if m, ok := x.(map[string]interface{}); ok {
			out = append(out, m)
		}
	}
	return out
}

// sameObject reports whether a and b are the same map (not merely equal ones).
func sameObject(a, b map[string]interface{}) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
