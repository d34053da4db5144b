package report

import (
	"fmt"
	"runtime/debug"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/mistakes"
	"github.com/ssa-diff/ssa-diff/judge/gate"
	"github.com/ssa-diff/ssa-diff/predict"
)

// A Subject is one step of a run as the report receives it: a manifest paired with the live
// state and predicted (Pair and Outcome), or input that could not be read (Err).
type Subject struct {
	// Source is where the step's manifest (or unreadable input) is.
	Source input.Source
	// Pair is the manifest and its live object; nil for input that could not be read.
	Pair *input.Pair
	// Err is why the input could not be read (Pair nil).
	Err error
	// Outcome is the run's outcome of the step (predict.Run.PredictAll).
	Outcome *predict.Outcome
	// LiveSource is where the live object the step was predicted against was read: the
	// live state's, or the manifest of the step before it in its chain.
	LiveSource *input.Source
}

// A Verdict is what a run's results are judged with: the manager the apply is made as, the
// policy, and whether the applier applies (a manifest exported from the cluster is said
// only then).
type Verdict struct {
	Manager string
	Applies bool
	Policy  Policy
}

// Judge is one step's result as the report says it — the prediction (FromPrediction, with
// its approximations, refusal fields, advice, state, drift and the forced re-prediction),
// or why there is none — with the policy's findings, located in the manifest. A panic
// while it is made becomes the step's error.
func (v Verdict) Judge(s Subject) *Result {
	var res *Result
	var tree map[string]any
	p, o := s.Pair, s.Outcome
	switch {
	case p == nil:
		res = FromError(s.Source, s.Err)
	case p.Err != nil:
		res = FromError(s.Source, p.Err)
		withIdentity(res, p)
	case o.Manifest == nil: // the manifest or the live object could not be read
		res = FromError(s.Source, o.Err)
		withIdentity(res, p)
	default:
		tree = o.Manifest
		res = v.predicted(p, o)
		res.LiveSource = s.LiveSource
		res.Warnings = append(res.Warnings, o.Warnings...)
	}
	v.Evaluate(res, p, tree)
	return res
}

// Evaluate sets the result's findings: the policy's judgement of it, each located in the
// manifest of p (nil: at the result's source) read as tree (nil: decoded again).
func (v Verdict) Evaluate(res *Result, p *input.Pair, tree map[string]any) {
	var locate gate.Locator
	if p != nil && p.Manifest != nil {
		m := p.Manifest
		locate = func(path string) (string, int) {
			if tree == nil {
				return m.Source.File, fieldLine(m, path)
			}
			return m.LocateFieldPath(tree, path)
		}
	}
	res.Findings = v.Policy.Evaluate(res.Write(), v.Manager, locate)
}

// fieldLine is the line of a field path in a manifest decoded again (its line when it
// cannot be).
func fieldLine(o *input.Object, path string) int {
	tree, err := o.Decode()
	if err != nil {
		return o.Source.Line
	}
	_, line := o.LocateFieldPath(tree, path)
	return line
}

// withIdentity names the result's object as the pair does, with the manifest's and the
// pairing's warnings.
func withIdentity(res *Result, p *input.Pair) {
	av, kind, ns, name := p.Manifest.Meta()
	if p.ID.Name != "" || p.GenerateName != "" {
		ns, name = p.ID.Namespace, p.ID.Name
	}
	res.Identity(av, kind, ns, name)
	res.GenerateName = p.GenerateName
	res.Warnings = append(res.Warnings, p.Manifest.Warnings...)
	res.Warnings = append(res.Warnings, p.Warnings...)
}

// predicted is one apply's outcome as the report says it (its prediction, or why there is
// none). A panic here becomes this object's error.
func (v Verdict) predicted(p *input.Pair, o *predict.Outcome) (res *Result) {
	src, manifest := p.Manifest.Source, o.Manifest
	defer func() {
		if r := recover(); r != nil {
			res = FromError(src, fmt.Errorf("internal error in ssa-diff (please report it): %v\n%s", r, debug.Stack()))
			withIdentity(res, p)
		}
	}()
	if o.Err != nil {
		res = FromError(src, o.Err)
		withIdentity(res, p)
		return res
	}
	res = fromPrediction(src, manifest, v.Manager, o.Prediction)
	withIdentity(res, p)
	if r := o.Prediction.Result; r != nil && p.GenerateName == "" && r.Endpoint.Name != "" && r.Endpoint.Name != res.Name && r.Endpoint.GVK.Kind == res.Kind {
		// The request wrote another object than the one paired: kubectl debug --copy-to's
		// copy of the pod (the diff is from the pod copied).
		res.Namespace, res.Name = r.Endpoint.Namespace, r.Endpoint.Name
	}
	if h := mistakes.Exported(manifest, p.Manifest.Line); h != "" && v.Applies {
		res.Warnings = append(res.Warnings, h)
	}
	if res.Action == ActionRejected {
		res.Warnings = append(res.Warnings, mistakes.Variables(manifest, p.Manifest.Line)...)
	}
	if res.WithForce != nil {
		res.WithForce.Identity(res.APIVersion, res.Kind, res.Namespace, res.Name)
	}
	return res
}

// Predicted is one prediction (predict.Run.Predict) as the report says it, judged: the
// engine's answer (FromPrediction, at src, the manifest's tree manifest), its
// approximations, the fields a refusal is about, advice, state, drift and the forced
// re-prediction, with the policy's findings (at src: a caller with the manifest's
// input.Pair has Judge locate each at its field's line).
func (v Verdict) Predicted(src input.Source, manifest map[string]any, pred *predict.Prediction) *Result {
	res := fromPrediction(src, manifest, v.Manager, pred)
	av, kind, ns, name := metaOf(manifest)
	res.Identity(av, kind, ns, name)
	if res.WithForce != nil {
		res.WithForce.Identity(av, kind, ns, name)
	}
	v.Evaluate(res, nil, nil)
	return res
}

// fromPrediction is a prediction as the report says it, its identity left to the caller.
func fromPrediction(src input.Source, manifest map[string]any, manager string, pred *predict.Prediction) *Result {
	res := FromPrediction(src, pred.Live, manifest, manager, pred.Result)
	res.Warnings = append(res.Warnings[:0], pred.Warnings...)
	res.Approximations = pred.Approximations
	if res.Action == ActionRejected && res.Error != nil {
		res.Error.Fields = pred.RefusalFields
	}
	res.Advice, res.State, res.Drift = pred.Advice, pred.State, pred.Drift
	res.SyncStatus = pred.SyncStatus
	if pred.WithForce != nil {
		res.WithForce = FromPrediction(src, pred.Live, manifest, manager, pred.WithForce)
		res.WithForce.Drift = pred.WithForceDrift
	}
	return res
}

// metaOf is a manifest's apiVersion, kind, namespace and name.
func metaOf(obj map[string]any) (apiVersion, kind, namespace, name string) {
	apiVersion, _ = obj["apiVersion"].(string)
	kind, _ = obj["kind"].(string)
	meta, _ := obj["metadata"].(map[string]any)
	namespace, _ = meta["namespace"].(string)
	name, _ = meta["name"].(string)
	return apiVersion, kind, namespace, name
}
