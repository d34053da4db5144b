package appliers

import (
	"encoding/json"
	"fmt"

	"github.com/ssa-diff/ssa-diff/merge"
)

// This file holds the applier of one raw apply request.

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

// apiKind is the applier of one raw apply request.
func apiKind() Kind {
	return Kind{
		Name:      "api",
		Usage:     "one raw apply request, as controllers send",
		Apply:     "the apply",
		ForceHint: "force=true",
		New: func(s Settings) (Applier, error) {
			if s.Prune.On {
				return nil, fmt.Errorf("--prune: a raw apply request prunes nothing (use --applier %s)", pruners())
			}
			return API{FieldManager: s.manager(""), Verb: s.Verb, PatchType: s.PatchType}, nil
		},
	}
}
