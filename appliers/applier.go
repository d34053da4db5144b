package appliers

import (
	"strings"

	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

// An Applier is one client that applies manifests, chosen once for a run: how it sends an
// apply (one request or its sequence), as which manager, whether it always forces, and
// which live objects it deletes because the manifests no longer name them.
type Applier interface {
	// Name is the client's name, its Kind's: "kubectl", "api", "argocd", "flux" (Names).
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
