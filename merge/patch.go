package merge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	kjson "sigs.k8s.io/json"
	smdmerge "sigs.k8s.io/structured-merge-diff/v6/merge"
)

// PatchType is the kind of a PATCH that is not an apply, named as kubectl's --type names
// it; the request's Content-Type says it (ContentType).
type PatchType string

// The patch types the API server takes besides apply.
const (
	// MergePatch is a JSON merge patch (RFC 7386): objects merge key by key, null
	// removes a key, any other value — lists included — replaces.
	MergePatch PatchType = "merge"
	// StrategicPatch is a strategic merge patch: a merge patch whose lists merge by the
	// patch strategy and merge key of the kind's Go type (containers by name …), with
	// directives ($patch, $retainKeys, $setElementOrder, $deleteFromPrimitiveList). The
	// server takes them for built-in kinds only.
	StrategicPatch PatchType = "strategic"
	// JSONPatch is a JSON patch (RFC 6902): a list of operations (add, remove, replace,
	// move, copy, test) on JSON Pointer paths.
	JSONPatch PatchType = "json"
)

// PatchTypes are the patch types, in kubectl's order.
var PatchTypes = []PatchType{JSONPatch, MergePatch, StrategicPatch}

// ParsePatchType reads a patch type as kubectl's --type names it.
func ParsePatchType(s string) (PatchType, error) {
	for _, t := range PatchTypes {
		if string(t) == s {
			return t, nil
		}
	}
	return "", fmt.Errorf("unknown patch type %q: one of json, merge, strategic", s)
}

// ContentType is the media type a request of the patch type is sent with.
func (t PatchType) ContentType() string {
	switch t {
	case MergePatch:
		return "application/merge-patch+json"
	case StrategicPatch:
		return "application/strategic-merge-patch+json"
	case JSONPatch:
		return "application/json-patch+json"
	}
	return ""
}

// Patch is the body of a PATCH request that is not an apply.
type Patch struct {
	Type PatchType
	// Body is the patch as sent, JSON: an object for merge and strategic patches, a list
	// of operations for a JSON patch.
	Body []byte
}

// maxJSONPatchOperations is the server's limit on the operations of one JSON patch.
const maxJSONPatchOperations = 10000

// Patch predicts a PATCH that is not an apply (rules.md write.paths): req.Patch is applied to the object as the
// server encodes it at the request's version (through /scale, to its autoscaling/v1
// Scale), and the patched object is written as an update by req.Manager, which owns what
// it changed (rules.md update.takes-over). A patch of a missing object is answered 404; req.Object is
// not read. Live gives the endpoint, or req.Endpoint when Live is nil.
func (e *Engine) Patch(req Request) (*Result, error) {
	return e.patch(req, nil, nil)
}

// patch is Patch, of a request of a sequence given the object as the server holds it at
// the hub version (hubLive) when known.
func (e *Engine) patch(req Request, hubLive map[string]any, prior *Result) (*Result, error) {
	given := req.Live
	a, refused, err := e.admit(req, ClientRaw, hubLive)
	if refused != nil || err != nil {
		return refused, err
	}
	a.prior = prior
	req = a.Request
	if req.Endpoint.GVK.Kind == "" {
		return nil, fmt.Errorf("%w: a patch of no live object names no endpoint", ErrNotPredictable)
	}
	req.Live = unstructured.AsDecoded(req.Live)
	a.Request = req
	r, err := e.newRequest(a)
	if err != nil {
		return nil, err
	}
	res := r.patch(req.Live, req.Patch, req.Manager)
	res.Warnings = append(res.Warnings, r.sortedWarnings()...)
	return readAs(res, given, req.Live), nil
}

func (r *request) patch(live map[string]any, p Patch, manager string) *Result {
	res := &Result{Endpoint: r.ep}
	reject := func(s *StatusError) *Result {
		res.Action, res.Rejection = ActionRejected, s
		return res
	}
	if s := validateManager(manager, false); s != nil {
		return reject(s)
	}
	if p.Type == StrategicPatch {
		if _, ok := r.e.model.PatchMeta(r.typ); !ok {
			return reject(unsupportedMediaType(r.typ.Source != "builtin"))
		}
	}
	if p.Type.ContentType() == "" {
		return reject(unsupportedMediaType(false))
	}
	if !json.Valid(p.Body) {
		return reject(badRequest("invalid JSON patch"))
	}
	if live == nil {
		return reject(notFound(r.typ, r.ep.Name))
	}
	if r.ep.Subresource == "scale" {
		return r.throughScale(live, manager, func(s *request, old map[string]any, managed fieldpath.Managed) (map[string]any, fieldpath.Managed, smdmerge.Conflicts, *StatusError) {
			// The Scale is encoded with its entries, and the patch may change them: a
			// subresource write ignores them all the same.
			cur := unstructured.DeepCopyObject(old)
			if entries, err := managed.EncodeAs(s.fieldsText()); err == nil {
				_ = setManagedFields(cur, entries, false)
			}
			next, st := s.patched(cur, p)
			if st != nil {
				return nil, managed, nil, st
			}
			if st := s.checkNames(next); st != nil {
				return nil, managed, nil, st
			}
			next = scaleAsDecoded(next)
			after, st := s.scaleUpdate(old, next, managed, manager)
			return next, after, nil, st
		})
	}
	next, s := r.patched(live, p)
	if s != nil {
		return reject(s)
	}
	if s := r.checkNames(next); s != nil {
		return reject(s)
	}
	return r.updateObject(live, next, manager)
}

// patched is the object the patch makes of cur, the object as the server encodes it, as
// the server decodes it (numbers as decoding makes them); or the server's refusal of the
// patch. A patch the patch libraries panic on (a JSON patch replacing the root without a
// value) gets no answer at all: the server's handler panics and the connection is closed.
func (r *request) patched(cur map[string]any, p Patch) (out map[string]any, refused *StatusError) {
	defer func() {
		if v := recover(); v != nil {
			out, refused = nil, &StatusError{Code: 500, Reason: "InternalError",
				Message: fmt.Sprintf("no answer: the server's handler panics applying this %s patch (%v) and closes the connection", p.Type, v)}
		}
	}()
	return r.patchedUnguarded(cur, p)
}

func (r *request) patchedUnguarded(cur map[string]any, p Patch) (map[string]any, *StatusError) {
	switch p.Type {
	case JSONPatch, MergePatch:
		doc, err := json.Marshal(cur)
		if err != nil {
			return nil, internalError(err.Error())
		}
		var out []byte
		if p.Type == JSONPatch {
			ops, err := jsonpatch.DecodePatch(p.Body)
			if err != nil {
				return nil, badRequest(err.Error())
			}
			if len(ops) > maxJSONPatchOperations {
				return nil, &StatusError{Code: 413, Reason: "RequestEntityTooLarge",
					Message: fmt.Sprintf("Request entity too large: The allowed maximum operations in a JSON patch is %d, got %d", maxJSONPatchOperations, len(ops))}
			}
			if out, err = ops.Apply(doc); err != nil {
				r.warn("the JSON patch cannot be applied: " + err.Error())
				return nil, unprocessable()
			}
		} else {
			if out, err = jsonpatch.MergePatch(doc, p.Body); err != nil {
				if errors.Is(err, jsonpatch.ErrBadJSONPatch) {
					return nil, badRequest(err.Error())
				}
				return nil, internalError(err.Error())
			}
		}
		return decodePatched(out)
	case StrategicPatch:
		meta, _ := r.e.model.PatchMeta(r.typ)
		patch := map[string]any{}
		if err := kjson.UnmarshalCaseSensitivePreserveInts(p.Body, &patch); err != nil {
			return nil, badRequest(err.Error())
		}
		original := unstructured.CopyAsDecoded(withFieldsV1Trees(cur))
		out, err := strategicpatch.StrategicMergeMapPatchUsingLookupPatchMeta(original, patch, meta)
		if err != nil {
			return nil, strategicPatchError(err)
		}
		return unstructured.CopyAsDecoded(out), nil
	}
	return nil, unsupportedMediaType(false)
}

// decodePatched decodes the patched JSON document as the server decodes a body.
func decodePatched(doc []byte) (map[string]any, *StatusError) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil, unprocessable()
	}
	return unstructured.CopyAsDecoded(obj), nil
}

// strategicPatchError is the server's answer to a strategic merge patch it cannot apply
// (the handler's interpretStrategicMergePatchError): 400 for a patch of a bad form, 422 for
// one that contradicts the object, the library's error as it is otherwise.
func strategicPatchError(err error) *StatusError {
	switch err {
	case mergepatch.ErrBadJSONDoc, mergepatch.ErrBadPatchFormatForPrimitiveList, mergepatch.ErrBadPatchFormatForRetainKeys,
		mergepatch.ErrBadPatchFormatForSetElementOrderList, mergepatch.ErrUnsupportedStrategicMergePatchFormat:
		return badRequest(err.Error())
	case mergepatch.ErrNoListOfLists, mergepatch.ErrPatchContentNotMatchRetainKeys:
		return unprocessable()
	}
	return internalError(err.Error())
}

// unprocessable is apimachinery's generic 422 as the server sends it: the patch library's
// error is not in the answer (the engine warns with it).
func unprocessable() *StatusError {
	return &StatusError{Code: 422, Reason: "Invalid", Message: "the server rejected our request due to an error in our request", Details: &StatusDetails{}}
}

// unsupportedMediaType is the server's 415 for a patch type the resource does not take:
// custom resources take no strategic merge patch.
func unsupportedMediaType(customResource bool) *StatusError {
	accepted := []string{JSONPatch.ContentType(), MergePatch.ContentType(), "application/apply-patch+yaml"}
	if !customResource {
		accepted = append(accepted, StrategicPatch.ContentType())
	}
	return &StatusError{Code: 415, Reason: "UnsupportedMediaType",
		Message: "the body of the request was in an unknown format - accepted media types include: " + strings.Join(accepted, ", ")}
}

// checkNames is the handlers' check of a written object's name and namespace against the
// URL's (rules.md create.name-and-namespace): an object without a namespace takes the URL's,
// one of a cluster-scoped kind loses the one it has, another namespace is refused.
func (r *request) checkNames(obj map[string]any) *StatusError {
	ns, name := nsName(obj)
	switch {
	case ns == r.ep.Namespace:
	case ns == "":
		ensureMetadata(obj)["namespace"] = r.ep.Namespace
	case r.ep.Namespace == "":
		delete(metadataOf(obj), "namespace")
	default:
		return badRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	return r.checkURLName(name)
}

// checkURLName is the handlers' check of a written object's name against the URL's
// (rules.md create.name-and-namespace): an object left without a name — a patch that
// removes it, an apply whose pruning takes the whole metadata away — is "undeterminable",
// another name does not match.
func (r *request) checkURLName(name string) *StatusError {
	switch {
	case name == "" && r.ep.Name != "":
		return badRequest(fmt.Sprintf("the name of the object (%s based on URL) was undeterminable: name must be provided", r.ep.Name))
	case name != r.ep.Name:
		return badRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", name, r.ep.Name))
	}
	return nil
}

// PatchMeta is what a strategic merge patch of kind gvk follows — the patch strategies and
// merge keys of its Go type's fields — for clients that compute such patches themselves
// (kubectl edit and set, Helm's client-side updates), with the strategicpatch package.
// false for a kind without a Go type, a custom resource: clients send JSON merge patches
// instead, and the server refuses strategic ones.
func (e *Engine) PatchMeta(gvk schema.GVK) (strategicpatch.LookupPatchMeta, bool) {
	t, ok := e.clientLookup(gvk)
	if !ok {
		return nil, false
	}
	return e.model.PatchMeta(t)
}

// QualifiedResource is how the server and kubectl name kind gvk's resource in their
// messages — "configmaps", "deployments.apps" — for clients that word their own errors;
// false for a kind the registry does not know.
func (e *Engine) QualifiedResource(gvk schema.GVK) (string, bool) {
	t, ok := e.clientLookup(gvk)
	if !ok || t.Resource == "" {
		return "", false
	}
	return qualifiedResource(t), true
}

// clientLookup is the type of kind gvk, for the engine's answers to clients outside any
// request (PatchMeta, QualifiedResource).
func (e *Engine) clientLookup(gvk schema.GVK) (*schema.Type, bool) {
	return e.schemas.Lookup(gvk)
}
