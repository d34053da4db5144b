package clusterstate

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// Object is one object of a cluster and where it was read from.
type Object struct {
	// Object is the object as decoded JSON, as the cluster stores it.
	Object map[string]any
	// Source names where it was read ("cluster.json:12", "cluster:kind"); errors and
	// advice name it.
	Source string
}

// GroupKind is a kind of object without its version: the state holds each object once,
// whatever version it was read at.
type GroupKind struct {
	Group, Kind string
}

func (gk GroupKind) String() string {
	if gk.Group == "" {
		return gk.Kind
	}
	return gk.Kind + "." + gk.Group
}

type key struct {
	GroupKind
	Namespace, Name string
}

// State is what a cluster holds, as far as it was given. It is immutable and safe for
// concurrent use.
type State struct {
	objects  map[key]Object
	byKind   map[GroupKind][]key // sorted by namespace, then name
	warnings []string
}

// New makes the State of objs. An object that cannot be identified (no apiVersion, kind or
// metadata.name) is an error naming its source; the others are kept. Of two objects with
// one identity the first is kept, and Warnings says so. The objects are copied: objs may
// be reused.
func New(objs []Object) (*State, error) {
	s := &State{objects: map[key]Object{}, byKind: map[GroupKind][]key{}}
	var errs []error
	for _, o := range objs {
		k, err := identify(o.Object)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", o.Source, err))
			continue
		}
		if first, dup := s.objects[k]; dup {
			s.warnings = append(s.warnings, fmt.Sprintf("%s: a second %s %s: the first, at %s, is used", o.Source, k.GroupKind, nsName(k), first.Source))
			continue
		}
		s.objects[k] = Object{Object: unstructured.CopyAsDecoded(o.Object), Source: o.Source}
		s.byKind[k.GroupKind] = append(s.byKind[k.GroupKind], k)
	}
	for _, keys := range s.byKind {
		sort.Slice(keys, func(i, j int) bool {
			if keys[i].Namespace != keys[j].Namespace {
				return keys[i].Namespace < keys[j].Namespace
			}
			return keys[i].Name < keys[j].Name
		})
	}
	return s, errors.Join(errs...)
}

func identify(obj map[string]any) (key, error) {
	av := unstructured.Str(obj, "apiVersion")
	kind := unstructured.Str(obj, "kind")
	md := unstructured.Object(obj, "metadata")
	name := unstructured.Str(md, "name")
	switch {
	case av == "":
		return key{}, errors.New("the object has no apiVersion")
	case kind == "":
		return key{}, errors.New("the object has no kind")
	case name == "":
		return key{}, fmt.Errorf("the %s has no metadata.name", kind)
	}
	group := ""
	if i := strings.LastIndex(av, "/"); i >= 0 {
		group = av[:i]
	}
	return key{GroupKind: GroupKind{Group: group, Kind: kind}, Namespace: unstructured.Str(md, "namespace"), Name: name}, nil
}

func nsName(k key) string {
	if k.Namespace == "" {
		return k.Name
	}
	return k.Namespace + "/" + k.Name
}

// Warnings are notes about the objects given (duplicates).
func (s *State) Warnings() []string {
	if s == nil {
		return nil
	}
	return append([]string(nil), s.warnings...)
}

// Len is the number of objects held.
func (s *State) Len() int {
	if s == nil {
		return 0
	}
	return len(s.objects)
}

// Knows reports whether the state holds any object of the group and kind: only then does
// it say anything about that kind (an absent object of a kind it knows is absent from the
// cluster).
func (s *State) Knows(group, kind string) bool {
	return s != nil && len(s.byKind[GroupKind{group, kind}]) > 0
}

// Get is the object of the group and kind with that namespace ("" for a cluster-scoped
// one) and name. The object is shared: read it, never change it.
func (s *State) Get(group, kind, namespace, name string) (map[string]any, bool) {
	if s == nil {
		return nil, false
	}
	o, ok := s.objects[key{GroupKind{group, kind}, namespace, name}]
	return o.Object, ok
}

// SourceOf says where the object of that identity was read from ("" when not held).
func (s *State) SourceOf(group, kind, namespace, name string) string {
	if s == nil {
		return ""
	}
	return s.objects[key{GroupKind{group, kind}, namespace, name}].Source
}

// List is every object of the group and kind in namespace (every namespace when
// namespace is "*"; cluster-scoped objects have namespace ""), by namespace and name. The
// objects are shared: read them, never change them.
func (s *State) List(group, kind, namespace string) []map[string]any {
	if s == nil {
		return nil
	}
	var out []map[string]any
	for _, k := range s.byKind[GroupKind{group, kind}] {
		if namespace == "*" || k.Namespace == namespace {
			out = append(out, s.objects[k].Object)
		}
	}
	return out
}

// Kinds are the groups and kinds of the objects held, sorted.
func (s *State) Kinds() []GroupKind {
	if s == nil {
		return nil
	}
	out := make([]GroupKind, 0, len(s.byKind))
	for gk := range s.byKind {
		out = append(out, gk)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Group != out[j].Group {
			return out[i].Group < out[j].Group
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

// Objects are every object held with its source, by kind, namespace and name. The objects
// are shared: read them, never change them.
func (s *State) Objects() []Object {
	var out []Object
	for _, gk := range s.Kinds() {
		for _, k := range s.byKind[gk] {
			out = append(out, s.objects[k])
		}
	}
	return out
}
