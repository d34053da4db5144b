package appliers

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"k8s.io/apimachinery/pkg/labels"
)

// An Applier is one client that applies manifests, chosen once for a run: how it sends an
// apply (one request or its sequence), as which manager, whether it always forces, and
// which live objects it deletes because the manifests no longer name them.
type Applier interface {
	// Name is the client's name: "api", "kubectl", "argocd" or "flux".
	Name() string
	// Manager is the field manager it applies as.
	Manager() string
	// AlwaysForces reports a client that forces every apply (the GitOps controllers):
	// Request.Force changes nothing.
	AlwaysForces() bool
	// Subresources reports a client that can apply to a subresource (/status, /scale).
	Subresources() bool
	// SendsNamespace reports a client that writes the namespace an object applies to into
	// a body that names none before it sends it (kubectl does; a raw request is sent as
	// written).
	SendsNamespace() bool
	// Apply predicts the client's apply of one manifest on e. req.Manager is the client's
	// Manager for the clients that always use theirs.
	Apply(e *merge.Engine, req merge.Request) (*merge.Result, error)
	// Prunes says why the client deletes a live object the manifests no longer name, ""
	// when it does not.
	Prunes(o PruneCandidate) string
}

// PruneCandidate is a live object no manifest names.
type PruneCandidate struct {
	GVK             schema.GVK
	Namespace, Name string
	// Object is the live object.
	Object map[string]any
	// Namespaced is true for a namespaced kind; InVisitedNamespace when its namespace is
	// one the apply visits (a namespace of the manifests, or the one given).
	Namespaced, InVisitedNamespace bool
}

// API is one raw request, as a controller sends it: an apply unless Verb says otherwise.
type API struct {
	// FieldManager is the fieldManager parameter.
	FieldManager string
	// Verb is the request: apply (the zero value), update (PUT), patch or create (POST).
	Verb merge.Verb
	// PatchType is the type of a patch (Verb patch) whose Request carries no Patch: the
	// request's Object is then the patch, a JSON merge or strategic merge patch document.
	PatchType merge.PatchType
}

func (a API) Name() string                 { return "api" }
func (a API) Manager() string              { return a.FieldManager }
func (a API) AlwaysForces() bool           { return false }
func (a API) Subresources() bool           { return true }
func (a API) SendsNamespace() bool         { return false }
func (a API) Prunes(PruneCandidate) string { return "" }

// Apply sends the request of Verb: the engine's Apply, Update, Patch or Create.
func (a API) Apply(e *merge.Engine, req merge.Request) (*merge.Result, error) {
	if a.Verb == merge.VerbPatch && req.Patch.Body == nil {
		body, err := json.Marshal(req.Object)
		if err != nil {
			return nil, fmt.Errorf("%w: the patch: %v", merge.ErrNotPredictable, err)
		}
		req.Patch = merge.Patch{Type: a.PatchType, Body: body}
	}
	return e.Send(a.Verb, req)
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

// syncOption reads one option of Argo CD's comma-separated sync-options annotation.
func syncOption(options, key string) string {
	for _, o := range strings.Split(options, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(o), "=")
		if ok && k == key {
			return v
		}
	}
	return ""
}

// stringMap is an object's metadata labels or annotations, their string values.
func stringMap(obj map[string]any, key string) map[string]string {
	md, _ := obj["metadata"].(map[string]any)
	m, _ := md[key].(map[string]any)
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}
