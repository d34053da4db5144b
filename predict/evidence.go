package predict

import "github.com/ssa-diff/ssa-diff/schema"

// This file judges what the live input is evidence of, for each apply: a prediction is
// only as good as the live state it is made against, and a dump may lack the object, its
// namespace or its ownership.

// An Identity names an object: where an apply goes, or a live object.
type Identity struct{ Group, Kind, Namespace, Name string }

// String prints the identity as kind[.group] [namespace/]name.
func (id Identity) String() string {
	k := id.Kind
	if id.Group != "" {
		k += "." + id.Group
	}
	if id.Namespace != "" {
		return k + " " + id.Namespace + "/" + id.Name
	}
	return k + " " + id.Name
}

// Evidence is what the live input says beyond its objects.
type Evidence struct {
	// Given: there is live input (a dump, or a cluster read); without it every apply is a
	// create, and nothing else is said.
	Given bool
	// Read: the live input is a cluster read, which says which objects it found absent
	// (NotFound, each with a note, "" for none) and which it could not read (Unreadable,
	// each with why).
	Read                 bool
	NotFound, Unreadable map[Identity]string
	// Objects are the live objects; Managed: one of them carries metadata.managedFields.
	Objects []Identity
	Managed bool
	// NamespaceUnsaid: the live input does not say which namespace the objects that name
	// none were read from (a List, or several objects; one object on its own is taken as
	// read from where it applies).
	NamespaceUnsaid bool
	// Listing: the live input lists objects (a List, or several), not one object on its
	// own: when none carries managedFields, it was printed without them, and ownership
	// cannot be predicted (one object on its own may be one nobody tracks).
	Listing bool
	// NamespaceGiven: the user said where objects that name no namespace go.
	NamespaceGiven bool
	// AllowUnowned: a listing printed without managedFields is predicted as if nobody owned
	// any field, instead of refused (Notes).
	AllowUnowned bool
}

// A Target is one apply as the evidence sees it.
type Target struct {
	ID Identity
	// NamesNamespace: the manifest names its namespace. HasLive: a live object was paired
	// with it (else it is a create).
	NamesNamespace, HasLive bool
	// GVK is the manifest's kind; LiveGVK and LiveSource (where it was read) the live
	// object's: the notes name them.
	GVK, LiveGVK schema.GVK
	LiveSource   string
	// Failed: the apply is already known not to be predictable (its manifest could not be
	// paired): the notes say nothing of it.
	Failed bool
}

// Trust is what the evidence says of the prediction of one apply.
type Trust struct {
	// Unreadable: the cluster read could not read the object (Note says why): it cannot be
	// predicted.
	Unreadable bool
	// NamespaceAssumed: the manifest names no namespace and the dump does not say which it
	// applies to: it is predicted in Target.ID's.
	NamespaceAssumed bool
	// NotFound: the cluster read found it absent (Note says more, when it does).
	NotFound bool
	Note     string
	// WithoutEvidence: a create although the live input holds no object of its kind in its
	// namespace at all: it may just not have been dumped.
	WithoutEvidence bool
	// Unowned: its live object carries no metadata.managedFields, so every field looks
	// unowned; NoOwnership: no live object of the dump carries them (it was printed without
	// them): ownership cannot be predicted.
	Unowned, NoOwnership bool
}

// NoOwnership reports whether the live input is a dump in which no object carries
// metadata.managedFields. A lone object without them is not: the server answers an apply to
// an object whose managedFields were cleared (SEMANTICS F1), so it is predicted as the server
// would, with a warning (Trust.Unowned).
func (e Evidence) NoOwnership() bool {
	return !e.Read && e.Listing && len(e.Objects) > 0 && !e.Managed
}

// Judge says what the evidence is worth for the prediction of each target, in order.
func (e Evidence) Judge(targets []Target) []Trust {
	type kindNS struct{ group, kind, namespace string }
	held := map[kindNS]bool{}
	for _, o := range e.Objects {
		held[kindNS{o.Group, o.Kind, o.Namespace}] = true
	}
	out := make([]Trust, len(targets))
	for i, t := range targets {
		out[i] = e.judge(t, held[kindNS{t.ID.Group, t.ID.Kind, t.ID.Namespace}])
	}
	return out
}

// judge is Judge of one target; held: the live input holds an object of its kind in its
// namespace.
func (e Evidence) judge(t Target, held bool) Trust {
	if why, ok := e.Unreadable[t.ID]; ok && !t.HasLive {
		return Trust{Unreadable: true, Note: why}
	}
	tr := Trust{NamespaceAssumed: !e.Read && e.NamespaceUnsaid && !e.NamespaceGiven && !t.NamesNamespace && t.ID.Namespace != ""}
	if !t.HasLive {
		if note, ok := e.NotFound[t.ID]; ok {
			tr.NotFound, tr.Note = true, note
		} else {
			tr.WithoutEvidence = !held
		}
		return tr
	}
	if e.Managed || e.Read {
		return tr
	}
	tr.Unowned, tr.NoOwnership = true, e.NoOwnership()
	return tr
}
