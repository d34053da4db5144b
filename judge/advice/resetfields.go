package advice

import (
	"fmt"
	"sort"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server"
)

// statusInManifest: fields of the endpoint's reset table in the manifest (rules.md sub.reset-fields).
// The engine's own table decides: the manifest is stripped of its reset fields as the
// registry strips an update, and whatever disappears was sent for nothing.
func (a *analysis) statusInManifest() {
	if a.in.Manifest == nil {
		return
	}
	// The manifest is copied only when it holds what stripping removes (most hold none).
	var stripped map[string]any
	if t := a.resolve(); t != nil {
		if !server.HoldsResetFields(t, a.sub, a.in.Manifest) {
			return
		}
		stripped = unstructured.DeepCopy(a.in.Manifest).(map[string]any)
		server.RestoreResetFields(t, a.sub, stripped, map[string]any{})
	} else {
		// No schema: the usual table of a kind with a status subresource.
		var drop string
		switch a.sub {
		case "":
			drop = "status"
		case "status":
			drop = "spec"
		default:
			return
		}
		if _, ok := a.in.Manifest[drop]; !ok {
			return
		}
		stripped = unstructured.DeepCopy(a.in.Manifest).(map[string]any)
		delete(stripped, drop)
	}
	var dropped []string
	droppedPaths(a.in.Manifest, stripped, "", &dropped)
	if len(dropped) == 0 {
		return
	}
	sort.Strings(dropped)
	where, fix := "the main resource", ""
	switch a.sub {
	case "":
		fix = "remove status from the manifest: the controller reports it through /status (to set it yourself, apply it to the status subresource: `kubectl apply --server-side --subresource=status`)"
	case "status":
		where = "the /status subresource"
		fix = fmt.Sprintf("send only status to /status and apply %s to the main resource", listPaths(dropped))
	default:
		where = "the /" + a.sub + " subresource"
		fix = fmt.Sprintf("apply %s to the main resource", listPaths(dropped))
	}
	verb := "ignores"
	if a.res != nil && a.res.Action == merge.ActionCreate {
		verb = "creates the object without"
	}
	a.add(Advice{ID: IDStatusInManifest, Severity: SeverityWarning,
		Message: fmt.Sprintf("the server %s %s: %s %s reset on %s, so an apply there neither sets nor owns %s",
			verb, listPaths(dropped), plural(len(dropped), "it is", "they are"), plural(len(dropped), "a field", "fields"), where, plural(len(dropped), "it", "them")),
		Fix: fix, Paths: dropped})
}

// resolve finds the endpoint's type; nil without a registry or for a kind nobody knows.
func (a *analysis) resolve() *schema.Type {
	if a.opts.Schemas == nil || a.gvk.Kind == "" {
		return nil
	}
	t, _ := a.opts.Schemas.Resolve(a.gvk)
	return t
}

// isIdentity reports whether a metadata field only names the object (every request carries
// it) or is the server's own.
func isIdentity(field string) bool {
	switch field {
	case "name", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink":
		return true
	}
	return false
}

// droppedPaths lists the topmost paths with content in orig that stripped lacks. Metadata
// is looked into, and the fields that only name the object are left out.
func droppedPaths(orig, stripped map[string]any, prefix string, out *[]string) {
	for k, v := range orig {
		p := prefix + "." + k
		if p == ".apiVersion" || p == ".kind" || (prefix == ".metadata" && isIdentity(k)) {
			continue
		}
		sv, ok := stripped[k]
		om, isMap := v.(map[string]any)
		sm, sIsMap := sv.(map[string]any)
		switch {
		case ok && isMap && sIsMap:
			droppedPaths(om, sm, p, out)
		case !ok && isMap && p == ".metadata":
			droppedPaths(om, map[string]any{}, p, out)
		case !ok && hasContent(v):
			*out = append(*out, p)
		}
	}
}

// hasContent reports whether a value sets anything: `status: {}`, as `kubectl create
// --dry-run -o yaml` prints it, does not.
func hasContent(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case map[string]any:
		for _, x := range t {
			if hasContent(x) {
				return true
			}
		}
		return false
	}
	return true
}
