package merge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema"
)

// An object is stored once and served at every version of its group the server enables
// (rules.md version.conversion). A request names one version; the server converts the stored object to it,
// runs field management there, and answers at that version. A version or kind the server
// does not serve is refused before anything else happens (rules.md version.not-served).

// Client is who sends a request, which decides how a kind the server does not serve is
// refused (rules.md version.not-served).
type Client int

const (
	// ClientRaw sends the body as it is to the URL of its apiVersion (the api applier, a
	// controller): the server answers 404.
	ClientRaw Client = iota
	// ClientKubectl maps the kind to a resource through discovery first and refuses, in
	// its own words, what the server does not serve; nothing is sent.
	ClientKubectl
	// ClientMapper is any other client with a REST mapper (Argo CD, Flux): client-go's
	// refusal, nothing sent.
	ClientMapper
)

// The server's answers to a URL it does not serve.
const (
	notServedMessage     = "the server could not find the requested resource"
	notServedTextMessage = "404 page not found"
)

// KubectlMappingHint is the line kubectl prints after a kind it could not map.
const KubectlMappingHint = "ensure CRDs are installed first"

// endpointOf is where a request goes: req.Endpoint, or when that is zero the live object's
// endpoint (the object's on a create) — at the body's version when the body is the same
// group and kind at another version, as clients send a body to its own apiVersion's URL.
func endpointOf(req Request) Endpoint {
	ep := req.Endpoint
	if ep.GVK != (schema.GVK{}) {
		return ep
	}
	src := req.Live
	if src == nil {
		src = req.Object
	}
	ep.GVK = schema.GVKOf(src)
	if body := schema.GVKOf(req.Object); req.Live != nil && body.Group == ep.GVK.Group && body.Kind == ep.GVK.Kind && body.Version != "" {
		ep.GVK = body
	}
	if ep.Name == "" {
		ep.Namespace, ep.Name = nsName(src)
	}
	return ep
}

// admitted is a request as the server takes it to field management (admit): its Endpoint
// filled in, its live object read at the request's version, and what the registry says of
// its kind, asked once.
type admitted struct {
	Request
	// hubLive is the live object at the kind's hub version as the server holds it, read
	// from the object given, when the request's version is another: what the server holds,
	// which Live at the request's version may not say. A later request of a sequence is
	// given the first one's (carry).
	hubLive map[string]any
	kind    *kindTypes
	// prior is the answer of the previous request of a sequence, whose object Live most
	// often is: what it decoded and encoded need not be again (decodeLive,
	// Result.knownText), when the entries prove the same.
	prior *Result
}

// admit is what happens to a request before any field management: a kind or version the
// server does not serve is refused as client c would see it (the result), and the live
// object is read at the request's version, as the server converts the stored object, and
// as the server holds it (server.Defaulter's ReadStored: the request to run). hubLive,
// when known, is the live object as the server holds it at the hub version (carry). An
// error means the live object cannot be converted offline.
func (e *Engine) admit(req Request, c Client, hubLive map[string]any) (admitted, *Result, error) {
	a, refused, err := e.admitVersion(admitted{Request: req, hubLive: hubLive}, c)
	if refused == nil && err == nil && a.Live != nil && schema.GVKOf(a.Live) == a.Endpoint.GVK {
		// The object as the server holds it, not as another server printed it.
		if t := a.kind.known; t != nil {
			a.Live = e.model.ReadStored(t, unstructured.AsDecoded(a.Live))
		}
	}
	return a, refused, err
}

// admitVersion is admit's reading of the live object at the request's version.
func (e *Engine) admitVersion(a admitted, c Client) (admitted, *Result, error) {
	req := &a.Request
	req.Endpoint = endpointOf(*req)
	gvk := req.Endpoint.GVK
	a.kind = e.resolve(gvk)
	if a.kind.serving == schema.NotServed {
		return a, e.notServed(a, c), nil
	}
	if podOnly(req.Endpoint.Subresource) && (gvk.Group != "" || gvk.Kind != "Pod") {
		// Only Pods have /resize and /ephemeralcontainers (rules.md sub.resize,
		// sub.ephemeralcontainers): the group's handler answers 404.
		return a, &Result{Endpoint: req.Endpoint, Action: ActionRejected,
			Rejection: &StatusError{Code: 404, Reason: "NotFound", Message: notServedMessage, Details: &StatusDetails{}}}, nil
	}
	if req.Endpoint.Subresource == "resize" && e.model.Minor().Before(33) {
		// Kubernetes 1.32 registers pods/resize only with InPlacePodVerticalScaling on
		// (pkg/registry/core/rest/storage_core.go v1.32.13), off by default: 404.
		return a, &Result{Endpoint: req.Endpoint, Action: ActionRejected,
			Warnings:  []string{fmt.Sprintf("kube-apiserver %s serves no pods/resize (gate InPlacePodVerticalScaling is off)", e.model.Minor().Release())},
			Rejection: &StatusError{Code: 404, Reason: "NotFound", Message: notServedMessage, Details: &StatusDetails{}}}, nil
	}
	if t := a.kind.known; t != nil && t.Source == schema.SourceBuiltin && readOnlyKind(gvk) {
		// The kind's storage only reads: the server has no route for a write of it.
		return a, &Result{Endpoint: req.Endpoint, Action: ActionRejected,
			Rejection: &StatusError{Code: 405, Reason: "MethodNotAllowed", Message: methodNotAllowedMessage, Details: &StatusDetails{}}}, nil
	}
	if req.Live == nil {
		return a, nil, nil
	}
	at := schema.GVKOf(req.Live)
	if at.Group != gvk.Group || at.Kind != gvk.Kind {
		// The server stores and returns an object as its endpoint's group and kind: a live
		// object of another one (or of none) is not what any server holds there.
		return a, nil, fmt.Errorf("%w: the live object is %s, not a %s of %s: no server holds it at %s", ErrNotPredictable,
			describeGVK(at), gvk.Kind, groupName(gvk.Group), gvk.APIVersion())
	}
	if a.kind.hubVersion != "" {
		req.Live = unstructured.AsDecoded(req.Live)
		// The server holds the object in its internal version (the hub's shape) and reads
		// it through the request version's Go types: what that version cannot hold is
		// not there, what it always holds is.
		hub := schema.GVK{Group: gvk.Group, Version: a.kind.hubVersion, Kind: gvk.Kind}
		read, err := e.model.Convert(req.Live, gvk.APIVersion())
		switch {
		case err != nil:
		case a.hubLive != nil:
			// A later request of a client's sequence: the object as the server holds it
			// was passed on (carry).
		case hub == gvk:
			a.hubLive = read // only read: atHub copies it
		default:
			a.hubLive, err = e.model.Convert(req.Live, hub.APIVersion())
		}
		if err != nil {
			return a, nil, fmt.Errorf("%w: reading the live %s %s at %s: %w", ErrNotPredictable, at.APIVersion(), at.Kind, gvk.APIVersion(), err)
		}
		req.Live = read
		return a, nil, nil
	}
	if at == gvk {
		return a, nil, nil
	}
	if e.schemas.Serving(at) == schema.NotServed {
		// (The live object's own version: a kind's other versions are not resolved.)
		return a, nil, fmt.Errorf("%w: the live object is %s, a version kube-apiserver %s does not serve: no server returns it; read it again at %s",
			ErrNotPredictable, at.APIVersion(), e.schemas.Minor(), gvk.APIVersion())
	}
	req.Live = unstructured.AsDecoded(req.Live)
	conv, exact, err := e.convertObject(a.kind, req.Live, gvk)
	if err != nil {
		return a, nil, fmt.Errorf("%w: reading the live %s %s at %s: %w", ErrNotPredictable, at.APIVersion(), at.Kind, gvk.APIVersion(), err)
	}
	if !exact {
		return a, nil, fmt.Errorf("%w: the live object is %s and the request %s, and ssa-diff does not know how the server converts %s between them; give the live object at %s",
			ErrNotPredictable, at.APIVersion(), gvk.APIVersion(), gvk.Kind, gvk.APIVersion())
	}
	req.Live = conv
	return a, nil, nil
}

// hubLiveFor is, for next, a later request of a client's sequence that began with first,
// the object as the server holds it at the hub version, when next's live object still says
// what first's did (managedFields aside): reading it at the request's version again would
// lose what that version cannot say (the order of an HPA's metrics read at autoscaling/v1).
// nil otherwise.
func hubLiveFor(next Request, first admitted) map[string]any {
	if first.hubLive != nil && next.Live != nil && unstructured.EqualIgnoringManagedFields(next.Live, first.Live) {
		return first.hubLive
	}
	return nil
}

// readAs records on res the live object as the server reads it at the request's version,
// when that is not the object given (another version, or one the kind's Go types read
// otherwise).
func readAs(res *Result, given, read map[string]any) *Result {
	if res != nil && given != nil && read != nil && (schema.GVKOf(given) != schema.GVKOf(read) || !unstructured.Equal(given, read) && !unstructured.Equal(unstructured.AsDecoded(given), read)) {
		res.Live = read
	}
	return res
}

// errWebhookConversion: the CRD converts between versions with a webhook, which only the
// cluster can call.
var errWebhookConversion = errors.New("the CustomResourceDefinition converts between its versions with a webhook, which cannot be called offline")

// convertObject converts an object of the request's kind to gvk, as the server converts
// it. exact is false when the conversion is by structure (apiVersion rewritten, fields
// kept) for want of the server's: a kind known only from an OpenAPI document, or a CRD
// whose webhook only the cluster can call (then err is errWebhookConversion as well, and
// the converted object is the structural one). obj is not changed.
func (e *Engine) convertObject(k *kindTypes, obj map[string]any, gvk schema.GVK) (out map[string]any, exact bool, err error) {
	from := schema.GVKOf(obj)
	if from == gvk {
		return obj, true, nil
	}
	t := e.typeOf(k, gvk)
	switch {
	case t != nil && e.model.Hub(t) != "":
		out, err := e.model.Convert(obj, gvk.APIVersion())
		return out, err == nil, err
	case t != nil && t.Source == schema.SourceCRD && t.Conversion == schema.ConversionWebhook:
		return rewriteAPIVersion(obj, gvk), false, errWebhookConversion
	case t != nil && t.Source == schema.SourceCRD:
		// Strategy None: the server sets apiVersion and keeps every other field.
		return rewriteAPIVersion(obj, gvk), true, nil
	}
	return rewriteAPIVersion(obj, gvk), false, nil
}

func rewriteAPIVersion(obj map[string]any, gvk schema.GVK) map[string]any {
	c := make(map[string]any, len(obj))
	for k, v := range obj {
		c[k] = v
	}
	c["apiVersion"] = gvk.APIVersion()
	return unstructured.DeepCopyObject(c)
}

// roundTrip is the server's decoding of an object of the request's version into the
// internal version and its encoding back (rules.md version.conversion): for kinds converted by Go code, it
// can change the object (autoscaling/v1 rewrites its annotations, autoscaling/v2 drops
// them). obj is returned as it is for the other kinds.
func (r *request) roundTrip(obj map[string]any) (map[string]any, error) {
	if !r.converts() {
		return obj, nil
	}
	return r.e.model.Convert(obj, r.ep.GVK.APIVersion())
}

// converts reports a built-in kind the server converts between versions with Go code
// that package conversion ports.
func (r *request) converts() bool {
	return r.e.model.Hub(r.typ) != ""
}

// atHub runs f, a step of the registry (its rules, its validation), as the server runs it:
// on the internal version. For a kind whose request version is not its hub (package
// conversion), obj and live (nil on a create) are converted to the hub, f runs on them
// with the hub's type, and obj is replaced by the result read back at the request's
// version; live is not changed. Otherwise f runs on obj and live themselves. kept says obj
// is the live object read at the request's version, field management having changed
// nothing, with at most kubectl's last-applied annotation rewritten: the server goes on
// with the object it holds (rules.md version.no-op-keeps-stored).
func (r *request) atHub(obj, live map[string]any, kept bool, f func(t *schema.Type, obj, live map[string]any) error) error {
	if r.hub == nil {
		return f(r.typ, obj, live)
	}
	hub := r.hub.GVK.APIVersion()
	var hobj, hlive map[string]any
	var err error
	if live != nil {
		// The live object as the server holds it, when known: reading it at the request's
		// version may have lost what that version cannot say.
		if hlive = r.hubLive; hlive == nil {
			if hlive, err = r.e.model.Convert(live, hub); err != nil {
				return err
			}
		}
		if kept {
			// Field management changed nothing: the server goes on with the object it
			// holds (rules.md version.no-op-keeps-stored), with the last-applied annotation
			// of obj when kubectl's sync rewrote it. A body equal to the live object is not
			// such a write: the server decodes it from the request's version.
			hobj = unstructured.DeepCopyObject(hlive)
			if mf, ok := metadataOf(obj)["managedFields"]; ok {
				ensureMetadata(hobj)["managedFields"] = mf
			} else {
				removeManagedFields(hobj)
			}
			copyLastApplied(hobj, obj)
		}
	}
	if hobj == nil {
		if hobj, err = r.e.model.Convert(obj, hub); err != nil {
			return err
		}
	}
	if err := f(r.hub, hobj, hlive); err != nil {
		return err
	}
	back, err := r.e.model.Convert(hobj, r.ep.GVK.APIVersion())
	if err != nil {
		return err
	}
	clear(obj)
	for k, v := range back {
		obj[k] = v
	}
	return nil
}

// copyLastApplied gives to, a copy of the stored object, the last-applied annotation of
// from (the same object read at the request's version, after kubectl's sync): the same
// text, or none when from has none.
func copyLastApplied(to, from map[string]any) {
	text, ok := annotations(from)[LastAppliedAnnotation]
	a := stringMap(annotations(to)) // a copy: to's own map may be the stored object's
	if _, had := a[LastAppliedAnnotation]; !ok && !had {
		return
	}
	if ok {
		if a == nil {
			a = map[string]any{}
		}
		a[LastAppliedAnnotation] = text
	} else {
		delete(a, LastAppliedAnnotation)
	}
	if len(a) == 0 {
		delete(ensureMetadata(to), "annotations")
		return
	}
	ensureMetadata(to)["annotations"] = a
}

// notServed is the refusal of a request for a kind or version the server does not serve
// (rules.md version.not-served), as client c reports it.
func (e *Engine) notServed(a admitted, c Client) *Result {
	req, gvk := a.Request, a.Endpoint.GVK
	res := &Result{Endpoint: req.Endpoint, Action: ActionRejected, Warnings: []string{e.whyNotServed(a.kind)}}
	switch c {
	case ClientRaw:
		if e.schemas.BuiltinGroupServed(gvk.Group) {
			// The group's handler answers for the versions and resources it lacks.
			res.Rejection = &StatusError{Code: 404, Reason: "NotFound", Message: notServedMessage, Details: &StatusDetails{}}
		} else {
			// No handler for the group at all: the server's mux answers.
			res.Rejection = &StatusError{Code: 404, Message: notServedTextMessage, PlainText: true}
		}
	case ClientKubectl:
		name, _ := metadataOf(req.Object)["name"].(string)
		ns, _ := metadataOf(req.Object)["namespace"].(string)
		res.Rejection = &StatusError{Code: 404, Reason: "NotFound",
			Message: fmt.Sprintf("resource mapping not found for name: %q namespace: %q from %q: %s", name, ns, req.Source, noKindMatch(gvk))}
		res.Warnings = append(res.Warnings, "kubectl refuses the object before sending anything (and adds: "+KubectlMappingHint+"); the other objects of the run are applied")
	default:
		res.Rejection = &StatusError{Code: 404, Reason: "NotFound", Message: noKindMatch(gvk)}
	}
	return res
}

// noKindMatch is client-go's refusal of a kind its REST mapper does not know.
func noKindMatch(gvk schema.GVK) string {
	return fmt.Sprintf("no matches for kind %q in version %q", gvk.Kind, gvk.APIVersion())
}

// whyNotServed explains a refusal of rules.md version.not-served: which versions of the kind are served,
// if any.
func (e *Engine) whyNotServed(k *kindTypes) string {
	for _, t := range k.versions {
		if t.Served {
			return e.notServedReason(k) // the reason names the versions that are
		}
	}
	return e.notServedReason(k) + didYouMean(e.schemas.Suggest(k.gvk))
}

// didYouMean is "; did you mean apps/v1 Deployment?" for the kinds a request most likely
// meant, "" for none.
func didYouMean(gvks []schema.GVK) string {
	if len(gvks) == 0 {
		return ""
	}
	var names []string
	for _, g := range gvks {
		names = append(names, "apiVersion: "+g.APIVersion()+", kind: "+g.Kind)
	}
	return "; did you mean " + strings.Join(names, ", or ") + "?"
}

// notServedReason is whyNotServed without the suggestions.
func (e *Engine) notServedReason(k *kindTypes) string {
	gvk := k.gvk
	var served, known []string
	for _, t := range k.versions {
		if t.Served {
			served = append(served, t.GVK.APIVersion())
		} else {
			known = append(known, t.GVK.APIVersion())
		}
	}
	t, found := k.known, k.known != nil
	switch {
	case found && t.Source == schema.SourceCRD:
		msg := fmt.Sprintf("%s %s is not served: its CustomResourceDefinition (%s) does not set served: true on that version", gvk.Kind, gvk.APIVersion(), t.Origin)
		if len(served) > 0 {
			msg += "; served: " + strings.Join(served, ", ")
		}
		return msg
	case found || len(known) > 0:
		msg := fmt.Sprintf("kube-apiserver %s does not serve %s %s", e.schemas.Minor().Release(), gvk.Kind, gvk.APIVersion())
		if len(served) > 0 {
			msg += "; it serves it at " + strings.Join(served, ", ")
		}
		return msg
	case len(served) > 0:
		return fmt.Sprintf("%s is not served at %s; it is at %s", gvk.Kind, gvk.APIVersion(), strings.Join(served, ", "))
	}
	switch {
	case e.schemas.BuiltinGroup(gvk.Group):
		return fmt.Sprintf("kube-apiserver %s has no kind %s in %s", e.schemas.Minor().Release(), gvk.Kind, groupName(gvk.Group))
	case e.schemas.DefinesGroup(gvk.Group):
		return fmt.Sprintf("the CustomResourceDefinitions given define no kind %s in %s", gvk.Kind, groupName(gvk.Group))
	}
	return fmt.Sprintf("%s is not a group the server has (no built-in group, no CustomResourceDefinition given) and %s is a built-in kind: a typo of the group", groupName(gvk.Group), gvk.Kind)
}

// methodNotAllowedMessage is the server's answer to a write of a kind it only reads.
const methodNotAllowedMessage = "the server does not allow this method on the requested resource"

// readOnlyKind reports the built-in kinds whose storage serves only get and list: every
// write of them is answered 405 MethodNotAllowed.
func readOnlyKind(gvk schema.GVK) bool {
	return gvk.Group == "" && gvk.Kind == "ComponentStatus"
}

// describeGVK names a live object's type for a message: "apps/v1 Deployment", "an object
// without apiVersion or kind".
func describeGVK(g schema.GVK) string {
	switch {
	case g.Kind == "" && g.Group == "" && g.Version == "":
		return "an object without apiVersion or kind"
	case g.Kind == "":
		return fmt.Sprintf("%s without kind", g.APIVersion())
	}
	return g.APIVersion() + " " + g.Kind
}

// groupName is a group for a message, the core group named so.
func groupName(group string) string {
	if group == "" {
		return "the core group"
	}
	return "group " + group
}

// podOnly: the subresource is served for Pods alone.
func podOnly(subresource string) bool {
	return subresource == "resize" || subresource == "ephemeralcontainers"
}
