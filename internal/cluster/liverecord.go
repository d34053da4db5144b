package cluster

import (
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/schema"
)

// This file finds the record of a cluster read (RecordKind, written by --save-live) among
// the objects of a live input.

// TakeRecord removes the record of a cluster read (RecordKind) from the live objects, and
// returns it; the objects come back without it even when it cannot be read.
func TakeRecord(live []*input.Object) (*Record, []*input.Object, error) {
	var rec *Record
	var firstErr error
	out := live[:0:0]
	for _, o := range live {
		av, kind, _, _ := o.Meta()
		if !IsRecord(av, kind) {
			out = append(out, o)
			continue
		}
		if rec != nil || firstErr != nil {
			if firstErr == nil {
				firstErr = o.Errorf("", "a second %s in the live input: give one cluster read at a time", RecordKind)
			}
			continue
		}
		obj, err := o.Decode()
		if err == nil {
			rec, err = DecodeRecord(obj)
		}
		if err != nil {
			firstErr = o.Errorf("", "%v", err)
		}
	}
	if firstErr != nil {
		return nil, out, firstErr
	}
	return rec, out, nil
}

// Scope is how the cluster read serves a kind, when it says (r may be nil: it says
// nothing).
func (r *Record) Scope(gvk schema.GVK) (namespaced, known bool) {
	if r == nil {
		return false, false
	}
	for _, res := range r.Resources {
		if res.Kind == gvk.Kind && res.Group() == gvk.Group {
			return res.Namespaced, true
		}
	}
	return false, false
}

// RecordedServer is the version of the cluster a live dump was read from, when the dump
// holds the record of a cluster read (--save-live writes one), and where that dump is.
func RecordedServer(live []input.Entry) (server, where string) {
	for _, e := range live {
		if e.Object == nil {
			continue
		}
		if av, kind, _, _ := e.Object.Meta(); !IsRecord(av, kind) {
			continue
		}
		obj, err := e.Object.Decode()
		if err != nil {
			return "", ""
		}
		rec, err := DecodeRecord(obj)
		if err != nil || rec.ServerVersion == "" {
			return "", ""
		}
		where := "the cluster the live state " + e.Object.Source.File + " was read from"
		if rec.Context != "" {
			where += " (context " + rec.Context + ")"
		}
		return rec.ServerVersion, where
	}
	return "", ""
}
