package appliers

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

// This file holds the applier of Argo CD (v3.x).

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

// ArgoCD predicts how Argo CD 3.x syncs one object with the ServerSideApply=true sync
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
//     argocd-controller, then the apply again — [Kubectl]'s sequence. kubectl
//     keeps the last-applied annotation only for the manager "kubectl", so once migrated
//     into argocd-controller, which does not apply it, the annotation is pruned.
//
// req.Manager and req.Force are ignored: the manager is opts.Manager and Argo CD always
// forces. The manifest must be as Argo CD sends it, namespace included.
func ArgoCD(e *merge.Engine, req merge.Request, opts ArgoCDOptions) (*merge.Result, error) {
	seq, refused, err := e.Begin(req, merge.ClientMapper)
	return finish(seq, refused, err, func(seq *merge.Sequence) (*merge.Result, error) { return argoCD(seq, opts) })
}

func argoCD(seq *merge.Sequence, opts ArgoCDOptions) (*merge.Result, error) {
	req := seq.Request()
	manager := opts.Manager
	if manager == "" {
		manager = ArgoCDManager
	}
	if req.Object == nil {
		return nil, fmt.Errorf("argocd apply: %w: no manifest", merge.ErrNotPredictable)
	}
	cfg := unstructured.CopyAsDecoded(req.Object)
	if opts.Application != "" {
		if err := argoSetTracking(cfg, opts); err != nil {
			return nil, fmt.Errorf("argocd apply: %w", err)
		}
	}
	warnings := argoSyncOptionWarnings(cfg, req.Live)

	orig := seq.Live()
	live := orig
	var steps []merge.Step
	if orig != nil && !opts.DisableClientSideApplyMigration {
		csa := opts.MigrationManager
		if csa == "" {
			csa = KubectlClientSideApplyManager
		}
		entries, _, err := fieldpath.EntriesOf(orig)
		if err != nil {
			return nil, fmt.Errorf("argocd apply: reading managedFields: %w", err)
		}
		if hasUpdateEntryOf(entries, csa) {
			if upgraded := upgradeManagedFields(entries, []string{csa}, manager); !reflect.DeepEqual(upgraded, entries) {
				next, err := seq.WithManagedFields(orig, upgraded)
				if err != nil {
					return nil, fmt.Errorf("argocd apply: %w", err)
				}
				res, err := seq.Update(merge.Request{Live: orig, Object: next, Endpoint: req.Endpoint, Manager: ArgoCDControllerUserAgent, Now: req.Now})
				if err != nil {
					return nil, fmt.Errorf("argocd apply: client-side apply migration: %w", err)
				}
				steps = append(steps, merge.Step{Description: "client-side apply migration patch (" + csa + ")", Manager: ArgoCDControllerUserAgent, Code: res.StatusCode()})
				if res.Rejection != nil {
					res.Steps = steps
					res.Warnings = append(res.Warnings, "Argo CD fails the sync: Failed to perform client-side apply migration: "+res.Rejection.Message)
					return res, nil
				}
				live = res.Object
			}
		}
	}

	res, err := kubectlIn(seq, merge.Request{Live: live, Object: cfg, Endpoint: req.Endpoint, Manager: manager, Force: true, Now: req.Now})
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
	return seq.Summarize(merge.Outcome{Manager: manager, Final: res.Object, First: res, Steps: steps, Warnings: res.Warnings}), nil
}

// kubectlIn is kubectl's apply of req, run inside seq by a controller that uses kubectl's
// library, as its own finished sequence.
func kubectlIn(seq *merge.Sequence, req merge.Request) (*merge.Result, error) {
	kseq, refused, err := seq.Continue(req, merge.ClientKubectl)
	return finish(kseq, refused, err, kubectl)
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
func argoSetTracking(obj map[string]any, opts ArgoCDOptions) error {
	gvk := schema.GVKOf(obj)
	if gvk.Group == "apiextensions.k8s.io" && gvk.Kind == "CustomResourceDefinition" {
		return nil
	}
	md := metadataOf(obj)
	if md == nil {
		md = map[string]any{}
		obj["metadata"] = md
	}
	setAnnotation := func() {
		a, _ := md["annotations"].(map[string]any)
		if a == nil {
			a = map[string]any{}
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
		l, _ := md["labels"].(map[string]any)
		if l == nil {
			l = map[string]any{}
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
func argoSyncOptionWarnings(cfg, live map[string]any) []string {
	has := func(obj map[string]any, opt string) bool {
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

// ArgoCDSync is an Argo CD server-side sync ([ArgoCD]); with Prune, a sync with pruning.
type ArgoCDSync struct {
	Options ArgoCDOptions
	Prune   bool
}

func (a ArgoCDSync) Name() string { return "argocd" }

func (a ArgoCDSync) Manager() string {
	if a.Options.Manager == "" {
		return ArgoCDManager
	}
	return a.Options.Manager
}

func (a ArgoCDSync) AlwaysForces() bool   { return true }
func (a ArgoCDSync) Subresources() bool   { return false }
func (a ArgoCDSync) SendsNamespace() bool { return true }

// Apply is [ArgoCD].
func (a ArgoCDSync) Apply(e *merge.Engine, req merge.Request) (*merge.Result, error) {
	return ArgoCD(e, req, a.Options)
}

// Target is manifest as Argo CD's repo server renders it, the object its comparison and
// its sync start from: with the Application's resource tracking when Options.Application
// is set. manifest is not changed.
func (a ArgoCDSync) Target(manifest map[string]any) (map[string]any, error) {
	cfg := unstructured.CopyAsDecoded(manifest)
	if a.Options.Application != "" {
		if err := argoSetTracking(cfg, a.Options); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// Prunes is the rule of Argo CD's pruning: the Application's resource tracking — the
// annotation argocd.argoproj.io/tracking-id "<app>:<group>/<kind>:<namespace>/<name>",
// which must name the object itself (a copy carrying another object's id is not the
// Application's), or with label tracking the instance label; with an installation id, the
// installation-id annotation too. Objects owned by another object (ownerReferences) are a
// controller's, and the sync option Prune=false keeps an object.
func (a ArgoCDSync) Prunes(o PruneCandidate) string {
	app := a.Options.Application
	if !a.Prune || app == "" {
		return ""
	}
	ann, lbl := stringMap(o.Object, "annotations"), stringMap(o.Object, "labels")
	tracked := ""
	switch a.Options.Tracking {
	case ArgoCDTrackLabel:
		key := a.Options.InstanceLabelKey
		if key == "" {
			key = ArgoCDInstanceLabel
		}
		if lbl[key] == app {
			tracked = fmt.Sprintf("its label %s is %q", key, app)
		}
	default:
		want := fmt.Sprintf("%s:%s/%s:%s/%s", app, o.GVK.Group, o.GVK.Kind, o.Namespace, o.Name)
		if ann[ArgoCDTrackingAnnotation] == want {
			tracked = fmt.Sprintf("its annotation %s is %q", ArgoCDTrackingAnnotation, want)
		}
	}
	md, _ := o.Object["metadata"].(map[string]any)
	if refs, ok := md["ownerReferences"].([]any); tracked == "" || ok && len(refs) > 0 {
		return ""
	}
	if id := a.Options.InstallationID; id != "" && ann[ArgoCDInstallationIDAnnotation] != id {
		return ""
	}
	if syncOption(ann[ArgoCDSyncOptionsAnnotation], "Prune") == "false" {
		return ""
	}
	return fmt.Sprintf("Argo CD prunes it: %s (the Application %q tracks it) and the manifests no longer name it", tracked, app)
}

// argoCDKind is the applier of an Argo CD server-side sync.
func argoCDKind() Kind {
	return Kind{
		Name:            "argocd",
		Usage:           "an Argo CD sync with ServerSideApply=true",
		Manager:         ArgoCDManager,
		Apply:           "Argo CD's sync",
		ForceHint:       "a forced sync",
		AlwaysForces:    true,
		ShowsSyncStatus: true,
		Prune:           "a sync with pruning, of objects carrying the Application's tracking (--argocd-app)",
		Options: []Option{
			{Name: "argocd-app", Arg: "NAME", Usage: "Argo CD: the Application's name; its resource tracking (annotation argocd.argoproj.io/tracking-id, or the instance label) is added to every object, as Argo CD's repo server does."},
			{Name: "argocd-tracking", Arg: "METHOD", Default: string(ArgoCDTrackAnnotation), Usage: "Argo CD: the resource tracking method, annotation, label or annotation+label.",
				Choices: []string{string(ArgoCDTrackAnnotation), string(ArgoCDTrackLabel), string(ArgoCDTrackAnnotationAndLabel)}},
			{Name: "argocd-installation-id", Arg: "ID", Usage: "Argo CD: the installation id added as annotation argocd.argoproj.io/installation-id."},
			{Name: "argocd-no-csa-migration", Usage: "Argo CD: the sync option ClientSideApplyMigration=false."},
			{Name: "argocd-csa-manager", Arg: "NAME", Usage: "Argo CD: the client-side apply manager to migrate (the Application annotation argocd.argoproj.io/client-side-apply-migration-manager; default kubectl-client-side-apply)."},
		},
		New: func(s Settings) (Applier, error) {
			app := s.value("argocd-app")
			if s.Prune.On && app == "" {
				return nil, fmt.Errorf("--prune with --applier argocd needs --argocd-app: the Application's tracking marks what it prunes")
			}
			return ArgoCDSync{Prune: s.Prune.On, Options: ArgoCDOptions{
				Manager:                         s.manager(ArgoCDManager),
				DisableClientSideApplyMigration: s.value("argocd-no-csa-migration") == "true",
				MigrationManager:                s.value("argocd-csa-manager"),
				Application:                     app,
				DestinationNamespace:            s.Namespace,
				Tracking:                        ArgoCDTracking(s.value("argocd-tracking")),
				InstallationID:                  s.value("argocd-installation-id"),
			}}, nil
		},
	}
}
