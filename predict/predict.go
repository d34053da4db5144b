package predict

import (
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/judge/advice"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

// A Predictor answers the requests an applier sends: [Engine], or a test's fake.
type Predictor interface {
	Predict(a appliers.Applier, req merge.Request) (*merge.Result, error)
}

// Engine is the prediction engine as a Predictor: the applier's requests sent to it.
type Engine struct{ *merge.Engine }

// Predict is the applier's apply on the engine.
func (e Engine) Predict(a appliers.Applier, req merge.Request) (*merge.Result, error) {
	return a.Apply(e.Engine, req)
}

// A Run is what the predictions of one run share. Its fields are read, never changed: a
// Run is safe for concurrent use.
type Run struct {
	// Predictor answers the requests; Applier sends them.
	Predictor Predictor
	Applier   appliers.Applier
	// Schemas are the run's (at its minor, with the CRDs and documents given); Judge judges
	// every prediction against them and the live state's webhooks.
	Schemas *schema.Registry
	Judge   *judge.Judge
	// Subresource is the endpoint's: "", "status" or "scale".
	Subresource string
	// Force applies with force.
	Force bool
	// ForcedAlso: a refusal with conflicts is predicted again with force (Prediction.WithForce).
	ForcedAlso bool
	// Now is the time stamped into changed managedFields entries.
	Now time.Time
	// Advice are the advice's options; nil: no advice and no state.
	Advice *advice.Options
	// NoDrift: the manifests are no desired state (a patch, a kubectl command's stub naming
	// the object), so what the live object has beyond them is no drift
	// (Prediction.Drift stays empty).
	NoDrift bool
	// RespectIgnore, when set, are the ignore rules of an Argo CD Application synced with
	// RespectIgnoreDifferences=true: the fields they name keep their live values in what
	// is applied (judge.ObjectIgnore.KeepLive).
	RespectIgnore *judge.Ignore
	// SyncStatus: each prediction says what the GitOps controller of the applier (argocd,
	// flux) shows of the object before its sync (Prediction.SyncStatus); Ignore are the
	// Application's ignoreDifferences its comparison leaves out (argocd).
	SyncStatus bool
	Ignore     *judge.Ignore
}

// An Apply is one manifest applied to one endpoint.
type Apply struct {
	// Manifest is the object applied, Live the object it applies to (nil: a create). The
	// prediction changes neither.
	Manifest, Live map[string]any
	// GVK, Namespace and Name are the endpoint: the manifest's kind, or the live object's when
	// the two disagree; the namespace the object goes to (the manifest's, or where objects
	// naming none go).
	GVK             schema.GVK
	Namespace, Name string
	// AsWritten: the body is sent as written, its namespace not filled in (an apply whose
	// kind is not the live object's, refused before the client writes anything).
	AsWritten bool
	// Source names the manifest's file as the client does in its messages ("STDIN").
	Source string
	// Patch, when set, is a patch document sent as it is (a raw PATCH whose manifest only
	// names the object): the request carries it, and no object.
	Patch *merge.Patch
}

// A Prediction is one apply predicted and judged.
type Prediction struct {
	// Request is the request the applier sent (with force when Run.Force).
	Request merge.Request
	// Result is the engine's answer.
	Result *merge.Result
	// Live is the live object the prediction compares with: as the server read it, at the
	// request's version (Result.Live), else Apply.Live.
	Live map[string]any
	// Warnings are the Result's, less those an approximation says better.
	Warnings []string
	// Approximations are what the prediction rests on that ssa-diff could not see.
	Approximations []judge.Approximation
	// RefusalFields are the fields a refusal is about.
	RefusalFields []judge.ErrorField
	// Advice is the advice on the apply, State the live object's convergence and health
	// (nil when it has none to say, and without Run.Advice).
	Advice []advice.Advice
	State  *advice.State
	// WithForce, for a refusal with conflicts when Run.ForcedAlso, is the same apply's
	// answer with force; nil otherwise, or when that prediction failed.
	WithForce *merge.Result
	// Drift are the fields the live object has that the manifest does not set, with their
	// owners and what the write leaves of each (judge.Drift); WithForceDrift the same for
	// WithForce.
	Drift, WithForceDrift []judge.DriftField
	// SyncStatus is what the applier's GitOps controller shows of the object before its
	// sync (Run.SyncStatus): Argo CD's Synced or OutOfSync with its diff, Flux's drift.
	SyncStatus *judge.SyncStatus
}

// Predict predicts and judges one apply. An error is an apply the engine could not
// predict (not a refusal, which is a Result).
func (r *Run) Predict(a Apply) (*Prediction, error) {
	target := a.Manifest
	if r.RespectIgnore != nil && a.Live != nil && a.Patch == nil {
		a.Manifest = r.RespectIgnore.For(a.GVK.APIVersion(), a.GVK.Kind, a.Namespace, a.Name, a.Live, nil).KeepLive(a.Manifest, a.Live)
	}
	req := r.request(a, r.Force)
	out, err := r.Predictor.Predict(r.Applier, req)
	if err != nil {
		return nil, err
	}
	p := &Prediction{Request: req, Result: out, Live: a.Live}
	if out.Live != nil {
		p.Live = out.Live
	}
	p.Warnings = out.Warnings
	if r.Judge != nil {
		p.Approximations, p.Warnings = r.Judge.Approximations(a.GVK, a.Manifest, p.Live, out.Warnings)
		if out.Rejection != nil {
			p.RefusalFields = r.Judge.RefusalFields(a.GVK, out.Rejection)
		}
	}
	r.advise(p, a)
	shared := r.newDriftShared(a)
	if out.Rejection != nil && out.Rejection.Code == 409 && !r.Force && r.ForcedAlso && !r.Applier.AlwaysForces() {
		// Against the live object as the server read it for the first request, whose
		// walks the engine takes the conflicts from (merge.Request.Unforced).
		again := a
		again.Live = p.Live
		req := r.request(again, true)
		req.Unforced = out
		if forced, err := r.Predictor.Predict(r.Applier, req); err == nil {
			p.WithForce = forced
			p.WithForceDrift = r.drift(a, p.Live, forced, nil, shared)
		}
	}
	p.Drift = r.drift(a, p.Live, out, p.WithForce, shared)
	if r.SyncStatus && a.Patch == nil {
		p.SyncStatus = r.syncStatus(a, target, p)
	}
	return p, nil
}

// advise adds the advice on the apply and the live object's state.
func (r *Run) advise(p *Prediction, a Apply) {
	if r.Advice == nil {
		return
	}
	opts := *r.Advice
	if e, ok := r.Predictor.(Engine); ok && opts.Engine == nil {
		opts.Engine = e.Engine
	}
	in := advice.Input{Live: p.Live, Manifest: a.Manifest, Result: p.Result, Manager: r.Applier.Manager(), Subresource: r.Subresource, Applier: r.Applier.Name()}
	p.Advice = advice.Analyze(in, opts)
	if p.Live != nil {
		if st, ok := advice.StateOf(p.Live, opts); ok {
			p.State = st
		}
	}
}

// request is the request the applier sends for a.
func (r *Run) request(a Apply, force bool) merge.Request {
	body := a.Manifest
	// A kind the server does not serve is refused by the client, which names the object as
	// written: nothing is sent, so no namespace is filled in.
	if r.Applier.SendsNamespace() && !a.AsWritten && (r.Schemas == nil || r.Schemas.Serving(a.GVK) != schema.NotServed) {
		body = WithDefaultNamespace(body, a.Namespace)
	}
	req := merge.Request{
		Live:     a.Live,
		Object:   body,
		Endpoint: merge.Endpoint{GVK: a.GVK, Namespace: a.Namespace, Name: a.Name, Subresource: r.Subresource},
		Manager:  r.Applier.Manager(),
		Force:    force,
		Now:      r.Now,
		Source:   a.Source,
	}
	if a.Patch != nil {
		req.Patch, req.Object = *a.Patch, nil
	}
	return req
}

// WithDefaultNamespace is obj with the namespace ns a namespaced object applies to when it
// names none, as kubectl writes it before it sends (so its last-applied annotation records
// it too); obj itself is not changed, and is returned as it is when it names a namespace.
func WithDefaultNamespace(obj map[string]any, ns string) map[string]any {
	md, ok := obj["metadata"].(map[string]any)
	if !ok || ns == "" {
		return obj
	}
	if cur, _ := md["namespace"].(string); cur != "" {
		return obj
	}
	body := make(map[string]any, len(obj))
	for k, v := range obj {
		body[k] = v
	}
	meta := make(map[string]any, len(md)+1)
	for k, v := range md {
		meta[k] = v
	}
	meta["namespace"] = ns
	body["metadata"] = meta
	return body
}
