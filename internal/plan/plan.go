package plan

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/noise"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/internal/shard"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/predict"
)

// A Slot is one result of a run: a manifest to predict (Pair), a live object the applier
// prunes (Pruned), or input that could not be read (Err); Result is its result once settled.
type Slot struct {
	Pair   *input.Pair
	Pruned *report.Result
	Err    error
	Source input.Source
	Result *report.Result
}

// Slots are a run's slots in order: the manifests as read (entries; those read are paired
// in pairs, in order), each with the warning crdWarnings holds for its object, then the
// results of the live objects pruned, then the live objects that could not be read
// (liveErrs).
func Slots(manifests []input.Entry, pairs []input.Pair, crdWarnings map[*input.Object]string, pruned []*report.Result, liveErrs []error) []*Slot {
	var slots []*Slot
	next := 0
	for _, e := range manifests {
		s := &Slot{}
		if e.Err != nil {
			s.Err, s.Source = e.Err, SourceOf(e.Err)
		} else {
			s.Pair = &pairs[next]
			s.Source = s.Pair.Manifest.Source
			if w, ok := crdWarnings[s.Pair.Manifest]; ok {
				s.Pair.Warnings = append(s.Pair.Warnings, w)
			}
			next++
		}
		slots = append(slots, s)
	}
	for _, res := range pruned {
		slots = append(slots, &Slot{Pruned: res, Source: res.Source})
	}
	for _, err := range liveErrs {
		slots = append(slots, &Slot{Err: fmt.Errorf("live object: %w", err), Source: SourceOf(err)})
	}
	return slots
}

// SourceOf is where an input error is (input.Error's source); none for other errors.
func SourceOf(err error) input.Source {
	var ie *input.Error
	if errors.As(err, &ie) {
		return ie.Source
	}
	return input.Source{}
}

// Skip leaves out the manifests and pruned objects of the kinds rules skip (--skip);
// errors stay: a document that cannot be read has no kind to skip.
func Skip(slots []*Slot, rules *noise.Rules) []*Slot {
	if !rules.Skips() {
		return slots
	}
	out := slots[:0:0]
	for _, s := range slots {
		switch {
		case s.Pair != nil && s.Pair.Manifest != nil:
			if av, kind, _, _ := s.Pair.Manifest.Meta(); rules.Skipped(av, kind) {
				continue
			}
		case s.Pruned != nil:
			if rules.Skipped(s.Pruned.APIVersion, s.Pruned.Kind) {
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// Shard keeps the slots of the shard spec names (shard.Select), and returns the shard's
// record (nil when spec is off). A slot's key is its pair's identity (a prune's: the live
// object's); input that could not be read or identified has none, and is shard 1's.
func Shard(slots []*Slot, spec shard.Spec) ([]*Slot, *shard.Record) {
	if !spec.On() {
		return slots, nil
	}
	keys, srcs := make([]shard.Key, len(slots)), make([]input.Source, len(slots))
	for i, s := range slots {
		keys[i], srcs[i] = s.key(), s.Source
	}
	kept, rec := shard.Select(spec, keys, srcs)
	out := make([]*Slot, len(kept))
	for i, k := range kept {
		out[i] = slots[k]
	}
	return out, rec
}

// key is a slot's group, kind, namespace and name, when it has them.
func (s *Slot) key() shard.Key {
	switch {
	case s.Pruned != nil:
		r := s.Pruned
		group, _, found := strings.Cut(r.APIVersion, "/")
		if !found {
			group = ""
		}
		return shard.Key{Group: group, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, OK: true}
	case s.Pair != nil && s.Pair.Err == nil:
		id := s.Pair.ID
		return shard.Key{Group: id.Group, Kind: id.Kind, Namespace: id.Namespace, Name: id.Name, OK: true}
	}
	return shard.Key{}
}

// Steps are the slots as a run's steps (predict.Step): a pair that could be read is
// predicted, every other slot passes through. patch is the raw patch a pair's request
// carries (--verb patch documents that name no object: predict.Apply.Patch); nil: none.
func Steps(slots []*Slot, patch func(*input.Pair) *merge.Patch) []predict.Step {
	steps := make([]predict.Step, len(slots))
	for i, s := range slots {
		steps[i].Name = s.Source.String()
		p := s.Pair
		if p == nil || p.Err != nil {
			continue
		}
		gvk := p.GVK
		if p.Mismatched {
			gvk = p.Live.GVK()
		}
		var raw *merge.Patch
		if patch != nil {
			raw = patch(p)
		}
		steps[i] = predict.Step{Object: predict.Identity(p.ID), Manifest: p.Manifest.Decode, Name: s.Source.String(),
			Apply: predict.Apply{GVK: gvk, Namespace: p.ID.Namespace, Name: p.ID.Name, AsWritten: p.Mismatched,
				Source: KubectlSource(p.Manifest.Source), Patch: raw}}
		if p.Live != nil {
			// A live object kept as text is decoded in the worker, and its tree goes with the
			// result once written.
			steps[i].Live = p.Live.Decode
		}
	}
	return steps
}

// KubectlSource names a manifest's file as kubectl does in its messages ("STDIN" for
// standard input).
func KubectlSource(src input.Source) string {
	if src.File == input.StdinName {
		return "STDIN"
	}
	return src.File
}

// Settle makes slot i's result of its step's outcome o, judged by v (report.Verdict.Judge;
// a prune's result is evaluated as it is). It may run in the workers, one call per slot.
func Settle(slots []*Slot, i int, o *predict.Outcome, v report.Verdict) {
	s := slots[i]
	if s.Pruned != nil {
		s.Result = s.Pruned
		v.Evaluate(s.Result, s.Pair, nil)
		return
	}
	subj := report.Subject{Source: s.Source, Pair: s.Pair, Err: s.Err, Outcome: o}
	switch {
	case s.Pair == nil || s.Pair.Err != nil || o.Manifest == nil:
	case o.LiveFrom >= 0:
		src := slots[o.LiveFrom].Source
		subj.LiveSource = &src
	case s.Pair.Live != nil:
		src := s.Pair.Live.Source
		subj.LiveSource = &src
	}
	s.Result = v.Judge(subj)
}

// Release lets the slot's result and inputs go once written: of a long run, only what the
// report's format keeps stays.
func (s *Slot) Release() {
	if s.Pair != nil {
		s.Pair.Manifest, s.Pair.Live = nil, nil
	}
	s.Result, s.Pair = nil, nil
}
