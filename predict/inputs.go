package predict

// This file reads a run's inputs as the command does — manifests and live objects, and
// the cluster state its admission reads — and pairs each manifest with the live object
// it applies to.

import (
	"errors"
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/clusterstate"
)

// Object is one Kubernetes object read from a file.
type Object struct {
	// Object is the object as decoded JSON: what merge.Request's Object and Live take.
	Object map[string]any
	// Source says where the object was read from.
	Source Source
	// Warnings are things about the input worth knowing (a duplicate key, say).
	Warnings []string

	in *input.Object
}

// Source says where an object was read from.
type Source struct {
	// File is the path as given.
	File string
	// Document is the 0-based index of the YAML document or JSON value in File.
	Document int
	// Item is the 0-based index of the object among its List's items, or -1.
	Item int
	// Line is the 1-based line where the object starts (0 when unknown).
	Line int
}

// Pair is a manifest and the live object it applies to.
type Pair struct {
	Manifest *Object
	// Live is the live object of the manifest's group, kind, namespace and name, or nil:
	// the apply creates the object.
	Live *Object
	// Warnings are notes about the pairing.
	Warnings []string
}

// Matching is the outcome of Match.
type Matching struct {
	// Pairs has one element per manifest that could be identified, in the manifests' order.
	Pairs []Pair
	// Warnings are notes about the live objects (two with one identity: the first is used).
	Warnings []string
}

// Files reads the objects in paths: files, or directories read recursively. The error joins
// every document that could not be read (each an error naming its file, document and line);
// the objects read are returned with it.
func Files(paths ...string) ([]*Object, error) {
	var l input.Loader
	var entries []input.Entry
	for _, p := range paths {
		entries = append(entries, l.Load(p)...)
	}
	return objects(entries)
}

// Bytes reads the objects of one stream of YAML documents or JSON values; name is how
// errors and Sources call it.
func Bytes(name string, data []byte) ([]*Object, error) {
	var l input.Loader
	return objects(l.ParseRendered(name, data))
}

func objects(entries []input.Entry) ([]*Object, error) {
	objs, errs := input.Split(entries)
	out := make([]*Object, len(objs))
	for i, o := range objs {
		out[i] = wrap(o)
	}
	return out, errors.Join(errs...)
}

func wrap(o *input.Object) *Object {
	if o == nil {
		return nil
	}
	src := Source{File: o.Source.File, Document: o.Source.Document, Item: -1, Line: o.Source.Line}
	if o.Source.Item != nil {
		src.Item = *o.Source.Item
	}
	return &Object{Object: o.Object, Source: src, Warnings: o.Warnings, in: o}
}

// Match pairs each manifest with the live object of the same group, kind, namespace and
// name. Manifests of namespaced kinds that name no namespace take namespace. reg says which
// kinds are namespaced; a kind it does not know is taken as namespaced unless its manifest
// and a live object of the same name both have no namespace. The pairs come in the
// manifests' order; a manifest that cannot be identified (no kind, no name …) has no pair
// and its error is joined into the error returned, with those of live objects that cannot
// be identified.
func Match(manifests, live []*Object, reg *schema.Registry, namespace string) (Matching, error) {
	unwrap := func(objs []*Object) []*input.Object {
		out := make([]*input.Object, len(objs))
		for i, o := range objs {
			out[i] = o.in
		}
		return out
	}
	scope := func(gvk schema.GVK) (bool, bool) {
		if t, ok := reg.Lookup(gvk); ok {
			return t.Namespaced, true
		}
		return false, false
	}
	m := input.Match(unwrap(manifests), unwrap(live), scope, namespace)
	byIn := make(map[*input.Object]*Object, len(live))
	for _, o := range live {
		byIn[o.in] = o
	}
	out := Matching{Warnings: m.Warnings}
	errs := m.Errors
	for i, p := range m.Pairs {
		if p.Err != nil {
			errs = append(errs, p.Err)
			continue
		}
		pair := Pair{Manifest: manifests[i], Warnings: p.Warnings}
		if p.Live != nil {
			pair.Live = byIn[p.Live]
		}
		out.Pairs = append(out.Pairs, pair)
	}
	return out, errors.Join(errs...)
}

// ClusterState reads the objects of a cluster its admission chain reads — a dump of
// `kubectl get namespaces,serviceaccounts,limitranges,resourcequotas,priorityclasses,
// storageclasses,ingressclasses,runtimeclasses,validatingadmissionpolicies,
// validatingadmissionpolicybindings -A -o json`, the policies' param objects, manifests
// of them — from paths as Files reads them, into the state kubeapiserver.Config.Cluster
// takes. Each object is named by its file and line. The error joins every document that
// could not be read and every object that cannot be identified; the state of the others
// is returned with it.
func ClusterState(paths ...string) (*clusterstate.State, error) {
	objs, err := Files(paths...)
	in := make([]clusterstate.Object, 0, len(objs))
	for _, o := range objs {
		in = append(in, clusterstate.Object{Object: o.Object, Source: o.Source.String()})
	}
	state, serr := clusterstate.New(in)
	return state, errors.Join(err, serr)
}

// String names the source as errors do: file:line, or file#document when the line is not
// known.
func (s Source) String() string {
	if s.Line > 0 {
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	return fmt.Sprintf("%s#%d", s.File, s.Document)
}
