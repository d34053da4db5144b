package plan

import (
	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/merge"
)

// A Pairing says how a run's manifests pair with live objects (input.Match): what the
// applier sends, the subresource written, whether the requests create, and how many live
// documents could not be read.
type Pairing struct {
	Applier     appliers.Applier
	Subresource string
	// Verb is the raw request's (--verb), Command the kubectl command's (nil: none).
	Verb    merge.Verb
	Command *appliers.KubectlCommand
	// LiveErrors counts the live documents that could not be read: a manifest without a
	// live object may be one of them.
	LiveErrors int
}

// MatchOptions are the options of input.Match for the pairing: a raw request pairs as the
// server reads its body (the applier sends no namespace of its own), a write through
// /scale pairs an autoscaling/v1 Scale with its object, a create pairs objects named by
// metadata.generateName.
func (p Pairing) MatchOptions() []input.MatchOption {
	opts := []input.MatchOption{input.LiveIncomplete(p.LiveErrors)}
	if !p.Applier.SendsNamespace() {
		opts = append(opts, input.RawRequests())
	}
	if p.Subresource == "scale" {
		opts = append(opts, input.ScaleBodies())
	}
	if p.Verb == merge.VerbCreate || p.Command != nil && p.Command.Verb == appliers.KubectlCreate {
		opts = append(opts, input.GenerateNames())
	}
	return opts
}
