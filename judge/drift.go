package judge

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// The fates of a drifted field: what the predicted write leaves of it.
const (
	// DriftKept: the predicted object has the field with its live value.
	DriftKept = "kept"
	// DriftRemoved: the predicted object no longer has the field.
	DriftRemoved = "removed"
	// DriftChanged: the predicted object has the field with another value.
	DriftChanged = "changed"
	// DriftRefused: the server refuses the write, so the object keeps everything it has.
	DriftRefused = "refused"
)

// DriftField is one field the live object has that the manifest does not set: a change
// made on the cluster (kubectl edit, a controller, a previous apply) that the repository
// lacks. Its fate is read from the prediction, never worked out apart from it.
type DriftField struct {
	// Path is the field as the server prints it in conflict messages.
	Path string `json:"path"`
	// Pointer is the field as a JSON pointer into the live object.
	Pointer string `json:"pointer,omitempty"`
	// Live is the live value.
	Live any `json:"live"`
	// Owners are the managers the live object's managedFields say own the field, in the
	// order of its entries.
	Owners []DriftOwner `json:"owners"`
	// Fate is kept, removed, changed (Predicted is the new value) or refused.
	Fate string `json:"fate"`
	// Predicted is the value the write leaves, when the fate is changed.
	Predicted any `json:"predicted,omitempty"`
	// Default says the field, owned by updates only, has the value the server gives the
	// manifest, which does not set it: the server's default, owned by whoever created the
	// object with an update (which owns every field it stored), not a change made on the
	// cluster.
	Default bool `json:"default,omitempty"`
	// WithForce, for a write refused with conflicts and predicted again with force, is
	// what that forced write leaves of the field.
	WithForce *DriftForced `json:"withForce,omitempty"`
}

// DriftForced is what the same write with force (--force-conflicts) leaves of a drifted
// field, when the write without force is refused with conflicts.
type DriftForced struct {
	// Fate is kept, removed, changed (Predicted is the new value) or refused (the server
	// refuses the forced write too).
	Fate string `json:"fate"`
	// Predicted is the value the forced write leaves, when the fate is changed.
	Predicted any `json:"predicted,omitempty"`
}

// ForcedWrite is the answer of a refused write predicted again with force.
type ForcedWrite struct {
	// Predicted is the object the forced write leaves; nil when Refused.
	Predicted map[string]any
	// Refused says the server refuses the forced write too.
	Refused bool
}

// DriftOwner names a managedFields entry that owns a drifted field.
type DriftOwner struct {
	Manager     string `json:"manager"`
	Operation   string `json:"operation"`
	APIVersion  string `json:"apiVersion,omitempty"`
	Subresource string `json:"subresource,omitempty"`
}

// Ref is the owner as a fieldpath.ManagerRef (without a time).
func (o DriftOwner) Ref() fieldpath.ManagerRef {
	return fieldpath.ManagerRef{Manager: o.Manager, Operation: fieldpath.Operation(o.Operation), APIVersion: o.APIVersion, Subresource: o.Subresource}
}

// DriftInput is what Drift reads: the inputs and the answer of one prediction.
type DriftInput struct {
	// Live is the live object as the request read it (nil for a create: no drift).
	Live map[string]any
	// Managed is Live's managedFields decoded (fieldpath.Decode of LiveEntries).
	Managed fieldpath.Managed
	// LiveEntries are Live's managedFields entries, which give the owners their order.
	LiveEntries []fieldpath.Entry
	// Manifest is the object sent.
	Manifest map[string]any
	// Applied, when set, gives the field set the server recorded for the manifest (the
	// applier's Apply entry in the predicted managedFields; nil when the write is no apply
	// or is refused): its keyed items carry the keys the server defaulted, which the
	// manifest may omit. Asked only when there is drift, and once.
	Applied func() *smdpath.Set
	// Predicted is the object the write leaves; nil when Refused.
	Predicted map[string]any
	// Refused says the server refuses the write.
	Refused bool
	// Forced, when the write is refused with conflicts and was predicted again with
	// force, is that prediction's answer: each drifted field then says what it leaves
	// (DriftField.WithForce).
	Forced *ForcedWrite
	// Defaulted, when set, is the manifest as the server decodes and defaults it (asked
	// only when there is drift, and once); nil from it when it cannot say.
	Defaulted func() map[string]any
	// Created, when set, is the manifest as the server would create it (defaulted and
	// prepared as a create is), and the fields whose values the server assigns it (paths as
	// merge.Result.Assigned prints them, positions for list items), asked only when a field
	// nobody owns is drift, and once: a field nobody owns that has the created value, or
	// that the server assigns, is the server's (Default), not a change made on the cluster.
	Created func() (map[string]any, []string)
	// CreateAddsNothing says the create Created answers stores, outside status, the
	// metadata only the server writes and the name and namespace, nothing Defaulted does
	// not give (with the same value), and assigns nothing there
	// (merge.Engine.CreateAddsToDefaults): once Defaulted has answered, a field nobody owns
	// that is not the default is not the create's either, and Created is not asked.
	CreateAddsNothing bool
}

// Drift lists the fields of the live object that the manifest does not set, with their
// owners and what the predicted write leaves of each: first those some managedFields entry
// owns, then those nobody owns (no owners: an object written before field management, or
// whose managedFields were cleared or rewritten), whose fate the prediction says as for
// the others (the server keeps them unless the write prunes what holds them). Fields of
// status and the metadata only the server writes (uid, resourceVersion, generation,
// creationTimestamp, managedFields, deletion fields) are not drift, nor are fields nobody
// owns at the values the server gives the manifest (an apply owns none of the defaults
// and allocations the server adds to what it sends: Defaulted, then Created, tell them).
func Drift(in DriftInput) []DriftField {
	if in.Live == nil {
		return nil
	}
	keys := make([]string, 0, len(in.LiveEntries))
	union := &smdpath.Set{}
	for _, e := range in.LiveEntries {
		k := fieldpath.ManagerKey(e)
		vs, ok := in.Managed.Fields[k]
		if !ok || containsKey(keys, k) {
			continue
		}
		keys = append(keys, k)
		union = union.Union(vs.Set())
	}
	var out []DriftField
	ask := &driftAsk{in: &in}
	liveLeaves(union, in.Live, in.Manifest, func(p smdpath.Path, live any) {
		if a := ask.applied(); a != nil && a.Has(p) {
			return
		}
		out = append(out, in.field(p, live, keys, ask))
	})
	// The fields nobody owns: no entry says anything of them, and the server keeps or
	// drops them as the prediction says.
	names := func(p smdpath.Path) *smdpath.Set {
		s := ask.applied()
		for _, pe := range p {
			if s == nil {
				return nil
			}
			s, _ = s.Children.Get(pe)
		}
		return s
	}
	unowned(in.Live, union, names, make(smdpath.Path, 0, 16), func(p smdpath.Path, live any) {
		if serverOnly(p) || identity(p) {
			return
		}
		if _, set := fieldpath.ValueAt(in.Manifest, p); set {
			return
		}
		if a := ask.applied(); a != nil && a.Has(p) {
			return
		}
		// The field is written out only when it is drift: nobody owns it, so the scheme's
		// default says first (as field would), then the create.
		if isDefault(p, live, ask) {
			return
		}
		// Not the scheme's default: maybe what a create adds (the registry's defaults) or
		// assigns (an allocated IP), which only a whole create tells — unless the create
		// adds nothing to the defaults the field does not have.
		if in.CreateAddsNothing && ask.defaults() != nil {
			out = append(out, in.field(p, live, nil, ask))
			return
		}
		obj, assigned := ask.created()
		if v, ok := fieldpath.ValueAt(obj, p); ok && sameJSON(v, live) {
			return
		}
		if len(assigned) > 0 {
			ptr, ok := fieldpath.JSONPointer(p, in.Live)
			if !ok {
				ptr = "" // as field leaves DriftField.Pointer
			}
			if containsKey(assigned, assignedPointer(ptr)) {
				return
			}
		}
		out = append(out, in.field(p, live, nil, ask))
	})
	return out
}

// liveLeaves calls f with each leaf of s that live has and manifest does not, outside
// status and the metadata only the server writes, and with its live value
// (fieldpath.IterateLeavesIn): no leaf below an element the live object lacks is drift.
func liveLeaves(s *smdpath.Set, live, manifest any, f func(smdpath.Path, any)) {
	fieldpath.IterateLeavesIn(s, live, manifest, serverOnly, f)
}

// assignedPointer is a JSON pointer (of a field whose name holds no "." or "[") as
// merge.Result.Assigned prints the path: /spec/ports/0/nodePort is .spec.ports[0].nodePort.
func assignedPointer(ptr string) string {
	var b strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if _, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
			continue
		}
		b.WriteString("." + tok)
	}
	return b.String()
}

// driftAsk asks DriftInput's Applied and Defaulted once each, when first needed.
type driftAsk struct {
	in                          *DriftInput
	appliedSet                  *smdpath.Set
	defaulted                   map[string]any
	askedApplied, askedDefaults bool
	createdObj                  map[string]any
	assigned                    []string
	askedCreated                bool
}

func (a *driftAsk) created() (map[string]any, []string) {
	if !a.askedCreated && a.in.Created != nil {
		a.createdObj, a.assigned = a.in.Created()
		a.askedCreated = true
	}
	return a.createdObj, a.assigned
}

func (a *driftAsk) applied() *smdpath.Set {
	if !a.askedApplied && a.in.Applied != nil {
		a.appliedSet, a.askedApplied = a.in.Applied(), true
	}
	return a.appliedSet
}

func (a *driftAsk) defaults() map[string]any {
	if !a.askedDefaults && a.in.Defaulted != nil {
		a.defaulted, a.askedDefaults = a.in.Defaulted(), true
	}
	return a.defaulted
}

// field is the drifted field at p, whose live value is live, owned by the entries of keys
// that have it (none: nobody owns it).
func (in *DriftInput) field(p smdpath.Path, live any, keys []string, ask *driftAsk) DriftField {
	d := DriftField{Path: fieldpath.PathString(p), Live: live, Owners: []DriftOwner{}}
	if ptr, ok := fieldpath.JSONPointer(p, in.Live); ok {
		d.Pointer = ptr
	}
	applies := false
	for _, k := range keys {
		if in.Managed.Fields[k].Set().Has(p) {
			r := in.Managed.Ref(k)
			d.Owners = append(d.Owners, DriftOwner{Manager: r.Manager, Operation: string(r.Operation), APIVersion: r.APIVersion, Subresource: r.Subresource})
			applies = applies || r.Operation == fieldpath.OperationApply
		}
	}
	if !applies {
		d.Default = isDefault(p, live, ask)
	}
	d.Fate, d.Predicted = fate(p, live, in.Predicted, in.Refused)
	if in.Refused && in.Forced != nil {
		f := &DriftForced{}
		f.Fate, f.Predicted = fate(p, live, in.Forced.Predicted, in.Forced.Refused)
		d.WithForce = f
	}
	return d
}

// isDefault reports whether live, the live value at p, is the value the server gives the
// manifest there (DriftInput.Defaulted).
func isDefault(p smdpath.Path, live any, ask *driftAsk) bool {
	v, ok := fieldpath.ValueAt(ask.defaults(), p)
	return ok && sameJSON(v, live)
}

// fate is what a write that leaves predicted (or is refused) does to the field at p whose
// live value is live, and the new value when it changes it.
func fate(p smdpath.Path, live any, predicted map[string]any, refused bool) (string, any) {
	if refused {
		return DriftRefused, nil
	}
	switch pred, ok := fieldpath.ValueAt(predicted, p); {
	case !ok:
		return DriftRemoved, nil
	case sameJSON(live, pred):
		return DriftKept, nil
	default:
		return DriftChanged, pred
	}
}

// unowned walks v, the value at path at of the live object, beside owned, the union of
// the field sets owning it and below (nil: nothing), and calls f with each path nobody
// owns and its value, outside status and the metadata only the server writes (serverOnly): leaves, empty maps and lists, and a list whose items nothing tells
// how to name (a whole value). The walk needs no schema: an item is named as the owned
// items of its list are (by the same key fields, by value or by position), or as names
// (the set the server recorded for the manifest, at a path) names them.
func unowned(v any, owned *smdpath.Set, names func(smdpath.Path) *smdpath.Set, at smdpath.Path, f func(smdpath.Path, any)) {
	// Room for the fields of a few levels of maps: the buffer grows seldom.
	w := unownedWalk{names: names, f: f, keys: make([]string, 0, 64)}
	w.walk(v, owned, at)
}

// unownedWalk is what unowned's walk keeps from one value to the next.
type unownedWalk struct {
	names func(smdpath.Path) *smdpath.Set
	f     func(smdpath.Path, any)
	// keys holds the fields the walk enters of each map being walked, each map's after
	// its parent's (a child's are dropped when its walk is over): the path elements point
	// into it, and no map's fields need a slice of their own.
	keys []string
}

func (w *unownedWalk) walk(v any, owned *smdpath.Set, at smdpath.Path) {
	// A child's path is at with its element appended in place: f and names keep no path
	// past their call, and a child's walk is over before its next sibling's starts.
	child := func(pe smdpath.PathElement) smdpath.Path { return append(at, pe) }
	below := func(s *smdpath.Set, pe smdpath.PathElement) *smdpath.Set {
		if s == nil {
			return nil
		}
		c, _ := s.Children.Get(pe)
		return c
	}
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			if owned == nil {
				w.f(at, v)
			}
			return
		}
		// Only the fields the walk enters are sorted: those in status or the server's
		// metadata, and those owned whole, are passed over in any order.
		start := len(w.keys)
		for k := range v {
			w.keys = append(w.keys, k)
			pe := smdpath.PathElement{FieldName: &w.keys[len(w.keys)-1]}
			// In status or the server's metadata: no drift, nor anything below it
			// (serverOnly holds below what it holds). Owned whole: nobody's is below.
			if serverOnly(child(pe)) || owned != nil && owned.Members.Has(pe) && below(owned, pe) == nil {
				w.keys = w.keys[:len(w.keys)-1]
			}
		}
		keys := w.keys[start:]
		slices.Sort(keys)
		for i := range keys {
			pe := smdpath.PathElement{FieldName: &keys[i]}
			w.walk(v[keys[i]], below(owned, pe), child(pe))
		}
		w.keys = w.keys[:start]
	case []any:
		if len(v) == 0 {
			if owned == nil {
				w.f(at, v)
			}
			return
		}
		for _, item := range v {
			if owned != nil {
				if pe, o, ok := ownedChild(item, &owned.Children); ok {
					w.walk(item, o, child(pe))
					continue
				}
				if ownedItem(item, &owned.Members) {
					continue
				}
			}
			pe, ok := nameItem(item, v, owned)
			if !ok {
				pe, ok = nameItem(item, v, w.names(at))
			}
			if !ok {
				// Nothing says how to name the item: the list, whole.
				w.f(at, v)
				return
			}
			w.walk(item, nil, child(pe))
		}
	default:
		if owned == nil {
			w.f(at, v)
		}
	}
}

// ownedItem reports whether an element of members names item.
func ownedItem(item any, members *smdpath.PathElementSet) bool {
	found := false
	members.Iterate(func(pe smdpath.PathElement) {
		found = found || fieldpath.ItemMatches(item, pe)
	})
	return found
}

// ownedChild is the element of children that names item, with the set below it.
func ownedChild(item any, children *smdpath.SetNodeMap) (smdpath.PathElement, *smdpath.Set, bool) {
	var pe smdpath.PathElement
	found := false
	children.Iterate(func(e smdpath.PathElement) {
		if !found && fieldpath.ItemMatches(item, e) {
			pe, found = e, true
		}
	})
	if !found {
		return pe, nil, false
	}
	below, _ := children.Get(pe)
	return pe, below, true
}

// nameItem names an item of list as the items of the list in set are named: by the same
// key fields (which the item must all have), by value, or by position.
func nameItem(item any, list []any, set *smdpath.Set) (smdpath.PathElement, bool) {
	if set == nil {
		return smdpath.PathElement{}, false
	}
	var like *smdpath.PathElement
	pick := func(pe smdpath.PathElement) {
		if like == nil && pe.FieldName == nil {
			like = &pe
		}
	}
	set.Members.Iterate(pick)
	set.Children.Iterate(pick)
	switch {
	case like == nil:
		return smdpath.PathElement{}, false
	case like.Key != nil:
		m, ok := item.(map[string]any)
		if !ok {
			return smdpath.PathElement{}, false
		}
		pe, _, ok := fieldpath.ItemKey(m, fieldpath.KeyNames(*like), nil)
		return pe, ok
	case like.Value != nil:
		val := value.NewValueInterface(item)
		return smdpath.PathElement{Value: &val}, true
	case like.Index != nil:
		for i := range list {
			if sameJSON(list[i], item) {
				return smdpath.PathElement{Index: &i}, true
			}
		}
	}
	return smdpath.PathElement{}, false
}

// identity reports whether p is what names the object: apiVersion, kind, metadata.name
// and metadata.namespace.
func identity(p smdpath.Path) bool {
	switch {
	case len(p) == 1 && p[0].FieldName != nil:
		return *p[0].FieldName == "apiVersion" || *p[0].FieldName == "kind"
	case len(p) == 2 && p[0].FieldName != nil && *p[0].FieldName == "metadata" && p[1].FieldName != nil:
		return *p[1].FieldName == "name" || *p[1].FieldName == "namespace"
	}
	return false
}

func containsKey(keys []string, k string) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

// serverOnly reports whether p is in status or in the metadata only the server writes.
func serverOnly(p smdpath.Path) bool {
	if len(p) == 0 || p[0].FieldName == nil {
		return false
	}
	switch *p[0].FieldName {
	case "status":
		return true
	case "metadata":
		if len(p) < 2 || p[1].FieldName == nil {
			return false
		}
		switch *p[1].FieldName {
		case "uid", "resourceVersion", "generation", "creationTimestamp", "managedFields",
			"deletionTimestamp", "deletionGracePeriodSeconds", "selfLink":
			return true
		}
	}
	return false
}

// sameJSON compares two decoded JSON values as JSON prints them (numbers of any Go type
// print alike when equal): objects, lists, strings, booleans and nulls are compared as
// they are when both are of the same kind, other values (numbers, values of two kinds) by
// their printing.
func sameJSON(a, b any) bool {
	switch x := a.(type) {
	case string:
		// Invalid UTF-8 prints as U+FFFD: two such strings may print alike.
		if y, ok := b.(string); ok && (x == y || utf8.ValidString(x) && utf8.ValidString(y)) {
			return x == y
		}
	case bool:
		if y, ok := b.(bool); ok {
			return x == y
		}
	case nil:
		if b == nil {
			return true
		}
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || (x == nil) != (y == nil) {
			break
		}
		if len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, has := y[k]
			if !has || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || (x == nil) != (y == nil) {
			break
		}
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return printedAlike(a, b)
}

// printedAlike reports whether a and b print as the same JSON.
func printedAlike(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}
