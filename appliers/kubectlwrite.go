package appliers

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"
)

// Apply predicts the command for one object: req.Live is the object the command names (nil
// when it does not exist), req.Object the file's object for create, replace and edit (for
// edit: the object as the user saved it in the editor). What kubectl sends (kubectl 1.37):
//
//   - create: POST of the object (kubectl-create);
//   - replace: PUT of the object carrying the live resourceVersion, which kubectl reads
//     first (kubectl-replace);
//   - edit: a patch from the object opened in the editor — the live object without its
//     managedFields — to the one saved: a strategic merge patch for a built-in kind, a JSON
//     merge patch for a custom resource; no request when nothing changed (kubectl-edit);
//   - patch: the patch given, strategic unless --type says otherwise (kubectl-patch);
//   - label, annotate: a JSON merge patch of the keys set or removed, with
//     --resource-version when given; label sends nothing when no label changes, annotate
//     always sends it (kubectl-label, kubectl-annotate);
//   - set image: a strategic merge patch of the images of the containers and init
//     containers named, in the pod template (or the pod); none when nothing changes
//     (kubectl-set);
//   - scale: a JSON merge patch {"spec":{"replicas":N}} to /scale, without fieldManager:
//     the server names the entry after kubectl's User-Agent, "kubectl";
//   - rollout restart: a strategic merge patch of the pod template's annotation
//     kubectl.kubernetes.io/restartedAt, the time of the request (kubectl-rollout), of a
//     Deployment that is not paused, a DaemonSet or a StatefulSet;
//   - debug: a strategic merge patch of the pod's /ephemeralcontainers adding the
//     ephemeral container it builds (see DebugContainer), without fieldManager ("kubectl");
//     with --copy-to, a POST of a copy of the pod (see DebugCopy), the result the copy.
//
// An object the command names that does not exist (req.Live nil, req.Object its stub) is
// kubectl's GET answered 404, printed as kubectl prints it; nothing is sent.
//
// What kubectl refuses before sending anything — a label or annotation that would change
// without --overwrite, a set image none of whose containers exists, the flags kubectl
// debug refuses — is the result's
// Rejection, worded as kubectl prints it, with a warning that nothing was sent. A set image
// that finds some of its containers sends their patch, then fails on the others: the
// result is the patch's, with a warning that kubectl exits 1.
func (c *KubectlCommand) Apply(e *merge.Engine, req merge.Request) (*merge.Result, error) {
	res, err := c.send(e, req)
	if err != nil || res == nil || res.Rejection == nil {
		return res, err
	}
	// kubectl prints the server's refusal in its own words.
	s := *res.Rejection
	switch {
	case s.Reason == "Invalid" && s.Details != nil && s.Details.Kind != "":
		s.Message = invalidMessage(&s)
	case c.Verb == KubectlPatch && s.Code == 415:
		s.Message = fmt.Sprintf("%s is not supported by %s: %s", c.Patch.Type.ContentType(), gvkString(res.Endpoint.GVK), s.Message)
	case c.Verb == KubectlCreate && s.Reason != "":
		s.Message = fmt.Sprintf("Error from server (%s): error when creating %q: %s", s.Reason, req.Source, s.Message)
	case s.Code == 404 && c.Verb != KubectlCreate && c.Verb != KubectlReplace:
		s.Message = fmt.Sprintf("Error from server (%s): %s", s.Reason, s.Message)
	case c.Verb == KubectlDebug && s.Reason != "" && s.Code != 400:
		// The POST of a copy refused (a name taken, a policy's 403).
		s.Message = fmt.Sprintf("Error from server (%s): %s", s.Reason, s.Message)
	case c.Verb == KubectlReplace && s.Reason != "":
		s.Message = fmt.Sprintf("Error from server (%s): error when replacing %q: %s", s.Reason, req.Source, s.Message)
	}
	res.Rejection = &s
	return res, nil
}

// gvkString names a kind as apimachinery's GroupVersionKind.String does.
func gvkString(g schema.GVK) string {
	return g.Group + "/" + g.Version + ", Kind=" + g.Kind
}

// send is Apply before kubectl words a refusal.
func (c *KubectlCommand) send(e *merge.Engine, req merge.Request) (*merge.Result, error) {
	req.Manager = c.Manager()
	if c.Namespace != "" && req.Endpoint.Namespace == "" && req.Live == nil {
		req.Endpoint.Namespace = c.Namespace
	}
	if c.refused != "" {
		named := req.Live
		if named == nil {
			named = req.Object
		}
		return clientRefusal(named, c.refused), nil
	}
	switch c.Verb {
	case KubectlCreate:
		return e.Create(withNamespace(req, c.Namespace))
	case KubectlReplace:
		if req.Live == nil {
			return e.Update(withNamespace(req, c.Namespace))
		}
		req = withNamespace(req, c.Namespace)
		body := unstructured.DeepCopyObject(req.Object)
		if rv := unstructured.Str(unstructured.Object(req.Live, "metadata"), "resourceVersion"); rv != "" {
			md := unstructured.EnsureObject(body, "metadata")
			if unstructured.Str(md, "resourceVersion") == "" {
				md["resourceVersion"] = rv
			}
		}
		req.Object = body
		return e.Update(req)
	}
	if req.Live == nil {
		// kubectl reads the object first: its GET answers 404, and nothing is sent. The
		// server's NotFound is a patch's of a missing object.
		ep := req.Endpoint
		if ep.GVK.Kind == "" && req.Object != nil {
			// The object the command names (its stub).
			ns := ep.Namespace
			ep = endpointOf(req.Object, "")
			if ep.Namespace == "" {
				ep.Namespace = ns
			}
		}
		res, err := e.Patch(merge.Request{Patch: merge.Patch{Type: merge.MergePatch, Body: []byte("{}")}, Manager: req.Manager, Now: req.Now, Endpoint: ep})
		if err != nil || res == nil || res.Rejection == nil || res.Rejection.Code != 404 {
			return nil, fmt.Errorf("%w: kubectl %s of an object that does not exist", merge.ErrNotPredictable, c.Verb)
		}
		res.Warnings = append(res.Warnings, "kubectl's GET of the object answers 404: kubectl "+c.Verb+" sends nothing")
		return res, nil
	}
	var p merge.Patch
	var refused string
	switch c.Verb {
	case KubectlPatch:
		body, err := asJSON(c.Patch.Body)
		if err != nil {
			return nil, fmt.Errorf("%w: kubectl patch -p: %v", merge.ErrNotPredictable, err)
		}
		p = merge.Patch{Type: c.Patch.Type, Body: body}
	case KubectlLabel, KubectlAnnotate:
		var err error
		p, refused, err = c.metadataPatch(req.Live)
		if err != nil {
			return nil, err
		}
	case KubectlSetImage:
		var err error
		p, refused, err = c.imagePatch(e, req.Live)
		if err != nil {
			return nil, err
		}
	case KubectlEdit:
		var err error
		if p, err = editPatch(e, req.Live, req.Object); err != nil {
			return nil, err
		}
	case KubectlScale:
		p = merge.Patch{Type: merge.MergePatch, Body: []byte(fmt.Sprintf(`{"spec":{"replicas":%d}}`, c.Replicas))}
		req.Endpoint = endpointOf(req.Live, "scale")
	case KubectlRestart:
		p, refused = restartPatch(e, req.Live, req.Now)
	case KubectlDebug:
		if c.Debug.Copy != nil {
			return c.sendDebugCopy(e, req)
		}
		var notes []string
		var err error
		if p, notes, err = c.debugPatch(); err != nil {
			return nil, err
		}
		req.Endpoint = endpointOf(req.Live, "ephemeralcontainers")
		req.Object, req.Patch = nil, p
		res, err := e.Patch(req)
		if res != nil {
			res.Warnings = append(res.Warnings, notes...)
		}
		return res, err
	}
	if refused != "" && p.Body == nil {
		return clientRefusal(req.Live, refused), nil
	}
	if refused != "" {
		// set image: the patch of what it found is sent; then kubectl fails on the rest.
		req.Object, req.Patch = nil, p
		res, err := e.Patch(req)
		if res != nil && res.Rejection == nil {
			res.Warnings = append(res.Warnings, "kubectl sends this, then exits 1: "+withErrorPrefix(refused))
		}
		return res, err
	}
	if p.Body == nil {
		// kubectl sends nothing: the object stays as it is (an empty merge patch changes
		// nothing either, and says so as every prediction does).
		res, err := e.Patch(merge.Request{Live: req.Live, Patch: merge.Patch{Type: merge.MergePatch, Body: []byte("{}")}, Manager: req.Manager, Now: req.Now, Endpoint: req.Endpoint})
		if res != nil {
			res.Warnings = append(res.Warnings, "kubectl "+c.Verb+" changes nothing here and sends no request")
		}
		return res, err
	}
	if c.Subresource != "" && c.Verb != KubectlScale {
		req.Endpoint = endpointOf(req.Live, c.Subresource)
	}
	req.Object, req.Patch = nil, p
	return e.Patch(req)
}

// withNamespace is req with the namespace kubectl sends a namespaced object to: the
// object's own, else --namespace (else kubectl's default namespace, which the caller's
// endpoint says).
func withNamespace(req merge.Request, ns string) merge.Request {
	if ns == "" || req.Object == nil {
		return req
	}
	if unstructured.Str(unstructured.Object(req.Object, "metadata"), "namespace") == "" {
		obj := unstructured.DeepCopyObject(req.Object)
		unstructured.EnsureObject(obj, "metadata")["namespace"] = ns
		req.Object = obj
	}
	return req
}

// endpointOf is the URL of the live object's subresource.
func endpointOf(live map[string]any, sub string) merge.Endpoint {
	ns, name := nsName(live)
	return merge.Endpoint{GVK: schema.GVKOf(live), Namespace: ns, Name: name, Subresource: sub}
}

// clientRefusal is kubectl's refusal of a command before it sends anything.
func clientRefusal(live map[string]any, msg string) *merge.Result {
	return &merge.Result{Endpoint: endpointOf(live, ""), Action: merge.ActionRejected,
		Rejection: &merge.StatusError{Code: 400, Reason: "BadRequest", Message: msg},
		Warnings:  []string{"kubectl refuses the command before sending anything (" + withErrorPrefix(msg) + ")"}}
}

// withErrorPrefix is msg as kubectl prints an error: behind "error: ", once.
func withErrorPrefix(msg string) string {
	if strings.HasPrefix(msg, "error: ") {
		return msg
	}
	return "error: " + msg
}

// asJSON is a -p patch as kubectl sends it: JSON, YAML converted to JSON.
func asJSON(b []byte) ([]byte, error) {
	if json.Valid(b) {
		return b, nil
	}
	var v any
	if err := yaml.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// metadataPatch is label's and annotate's JSON merge patch of the live object's labels or
// annotations: nil Body when label changes nothing; the refusal when a key would change
// without --overwrite.
func (c *KubectlCommand) metadataPatch(live map[string]any) (merge.Patch, string, error) {
	field := "labels"
	if c.Verb == KubectlAnnotate {
		field = "annotations"
	}
	cur := map[string]string{}
	for k, v := range unstructured.Object(unstructured.Object(live, "metadata"), field) {
		s, _ := v.(string)
		cur[k] = s
	}
	if !c.Overwrite {
		var clash []string
		for _, kv := range c.Set {
			if v, ok := cur[kv.Key]; ok && v != kv.Value && !(c.Verb == KubectlAnnotate && kv.Key == "kubernetes.io/change-cause") {
				clash = append(clash, fmt.Sprintf("'%s' already has a value (%s)", kv.Key, v))
			}
		}
		if len(clash) > 0 {
			if c.Verb == KubectlAnnotate {
				return merge.Patch{}, "--overwrite is false but found the following declared annotation(s): " + strings.Join(clash, "; "), nil
			}
			for i := range clash {
				clash[i] += ", and --overwrite is false"
			}
			sort.Strings(clash)
			if len(clash) == 1 {
				return merge.Patch{}, clash[0], nil
			}
			return merge.Patch{}, "[" + strings.Join(clash, ", ") + "]", nil
		}
	}
	next := unstructured.DeepCopyObject(live)
	md := unstructured.EnsureObject(next, "metadata")
	m := unstructured.Object(md, field)
	if m == nil {
		m = map[string]any{}
	}
	changed := false
	for _, kv := range c.Set {
		if v, ok := m[kv.Key]; !ok || v != kv.Value {
			m[kv.Key] = kv.Value
			changed = true
		}
	}
	for _, k := range c.Remove {
		if _, ok := m[k]; ok {
			delete(m, k)
			changed = true
		}
	}
	if c.Verb == KubectlLabel && !changed {
		return merge.Patch{}, "", nil
	}
	md[field] = m
	if c.ResourceVersion != "" {
		md["resourceVersion"] = c.ResourceVersion
	}
	body, err := mergePatchBetween(live, next)
	return merge.Patch{Type: merge.MergePatch, Body: body}, "", err
}

// mergePatchBetween is the JSON merge patch from a to b, as kubectl computes it.
func mergePatchBetween(a, b map[string]any) ([]byte, error) {
	old, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	cur, err := json.Marshal(b)
	if err != nil {
		return nil, err
	}
	return jsonpatch.CreateMergePatch(old, cur)
}

// strategicPatchBetween is the strategic merge patch from a to b of a kind whose Go type
// meta describes, as kubectl computes it (strategicpatch.CreateTwoWayMergePatch).
func strategicPatchBetween(meta strategicpatch.LookupPatchMeta, a, b map[string]any, pre ...mergepatch.PreconditionFunc) ([]byte, error) {
	old, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	cur, err := json.Marshal(b)
	if err != nil {
		return nil, err
	}
	return strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta(old, cur, meta, pre...)
}

// podSpecPath is where the pod spec of a kind lies (kubectl's UpdatePodSpecForObject).
func podSpecPath(kind string) []string {
	switch kind {
	case "Pod":
		return []string{"spec"}
	case "ReplicationController", "Deployment", "DaemonSet", "ReplicaSet", "StatefulSet", "Job":
		return []string{"spec", "template", "spec"}
	case "CronJob":
		return []string{"spec", "jobTemplate", "spec", "template", "spec"}
	}
	return nil
}

// imagePatch is set image's strategic merge patch of the images; nil Body when nothing
// changes; and kubectl's error for the containers it does not find. kubectl still sends
// the patch of the images it did find, then prints the error and exits 1.
func (c *KubectlCommand) imagePatch(e *merge.Engine, live map[string]any) (merge.Patch, string, error) {
	gvk := schema.GVKOf(live)
	path := podSpecPath(gvk.Kind)
	meta, ok := e.PatchMeta(gvk)
	if path == nil || !ok {
		return merge.Patch{}, fmt.Sprintf("error: %s/%s the object is not a pod or does not have a pod template", strings.ToLower(gvk.Kind), unstructured.Str(unstructured.Object(live, "metadata"), "name")), nil
	}
	next := unstructured.DeepCopyObject(live)
	spec := unstructured.NestedObject(next, path...)
	var missing []string
	for _, kv := range c.Images {
		found := false
		for _, list := range []string{"initContainers", "containers"} {
			for _, ct := range unstructured.Objects(spec, list) {
				if kv.Key == "*" || ct["name"] == kv.Key {
					ct["image"] = kv.Value
					found = true
				}
			}
		}
		if !found {
			missing = append(missing, fmt.Sprintf("unable to find container named %q", kv.Key))
		}
	}
	// kubectl prints each error on a line of its own, behind "error: ".
	failed := strings.Join(missing, "\nerror: ")
	body, err := strategicPatchBetween(meta, live, next)
	if err != nil {
		return merge.Patch{}, "", fmt.Errorf("%w: kubectl set image: %v", merge.ErrNotPredictable, err)
	}
	if string(body) == "{}" {
		return merge.Patch{}, failed, nil
	}
	return merge.Patch{Type: merge.StrategicPatch, Body: body}, failed, nil
}

// editPatch is edit's patch from the object kubectl opened (live without managedFields) to
// the one saved; nil Body when they are the same.
func editPatch(e *merge.Engine, live, edited map[string]any) (merge.Patch, error) {
	if edited == nil {
		return merge.Patch{}, fmt.Errorf("%w: kubectl edit: no edited object", merge.ErrNotPredictable)
	}
	orig := unstructured.WithoutManagedFields(live)
	saved := edited
	if _, ok := unstructured.Object(edited, "metadata")["managedFields"]; !ok {
		saved = unstructured.WithoutManagedFields(edited)
	}
	var p merge.Patch
	var err error
	if meta, ok := e.PatchMeta(schema.GVKOf(live)); ok {
		p.Type = merge.StrategicPatch
		p.Body, err = strategicPatchBetween(meta, orig, saved,
			mergepatch.RequireKeyUnchanged("apiVersion"), mergepatch.RequireKeyUnchanged("kind"),
			mergepatch.RequireMetadataKeyUnchanged("name"), mergepatch.RequireKeyUnchanged("managedFields"))
	} else {
		p.Type = merge.MergePatch
		p.Body, err = mergePatchBetween(orig, saved)
	}
	if err != nil {
		if mergepatch.IsPreconditionFailed(err) {
			return merge.Patch{}, fmt.Errorf("%w: kubectl edit: at least one of apiVersion, kind and name was changed", merge.ErrNotPredictable)
		}
		return merge.Patch{}, fmt.Errorf("%w: kubectl edit: %v", merge.ErrNotPredictable, err)
	}
	if string(p.Body) == "{}" {
		return merge.Patch{}, nil
	}
	return p, nil
}

// restartAnnotation is the pod template annotation kubectl rollout restart sets.
const restartAnnotation = "kubectl.kubernetes.io/restartedAt"

// restartPatch is kubectl rollout restart's patch of live at now (RFC 3339 in UTC; kubectl
// writes its machine's local time), or kubectl's refusal: of a kind it does not restart,
// of a paused Deployment, and of a restart already made at that second (the patch would be
// empty).
func restartPatch(e *merge.Engine, live map[string]any, now time.Time) (merge.Patch, string) {
	gvk := schema.GVKOf(live)
	_, name := nsName(live)
	resource, ok := e.QualifiedResource(gvk)
	if !ok {
		resource = gvk.Kind
	}
	switch {
	case gvk.Group == "apps" && gvk.Kind == "Deployment":
		if paused, _ := unstructured.Nested(live, "spec", "paused").(bool); paused {
			return merge.Patch{}, fmt.Sprintf("%s %q can't restart paused deployment (run rollout resume first)", resource, name)
		}
	case gvk.Group == "apps" && (gvk.Kind == "DaemonSet" || gvk.Kind == "StatefulSet"):
	default:
		return merge.Patch{}, fmt.Sprintf("%s %q restarting is not supported", resource, name)
	}
	at := now.UTC().Format(time.RFC3339)
	if unstructured.Str(unstructured.NestedObject(live, "spec", "template", "metadata", "annotations"), restartAnnotation) == at {
		return merge.Patch{}, "failed to create patch for " + name + ": if restart has already been triggered within the past second, please wait before attempting to trigger another"
	}
	body, _ := json.Marshal(map[string]any{"spec": map[string]any{"template": map[string]any{"metadata": map[string]any{
		"annotations": map[string]any{restartAnnotation: at}}}}})
	return merge.Patch{Type: merge.StrategicPatch, Body: body}, ""
}
