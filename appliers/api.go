package appliers

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/merge"
)

// This file holds the applier of one raw apply request.

// API is one raw apply request, as a controller sends it.
type API struct {
	// FieldManager is the fieldManager parameter.
	FieldManager string
}

func (a API) Name() string                 { return "api" }
func (a API) Manager() string              { return a.FieldManager }
func (a API) AlwaysForces() bool           { return false }
func (a API) Subresources() bool           { return true }
func (a API) SendsNamespace() bool         { return false }
func (a API) Prunes(PruneCandidate) string { return "" }

// Apply is the engine's Apply.
func (a API) Apply(e *merge.Engine, req merge.Request) (*merge.Result, error) { return e.Apply(req) }

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
			return API{FieldManager: s.manager("")}, nil
		},
	}
}
