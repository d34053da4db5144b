package livestate

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/ssa-diff/ssa-diff/internal/atomicfile"
	"github.com/ssa-diff/ssa-diff/internal/cluster"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/clusterstate"
)

// A State is the live state as the run read it: its objects, whether one was given (a
// LIVE dump or a cluster read), and the record of a cluster read (nil for a dump without
// one).
type State struct {
	Given   bool
	Record  *cluster.Record
	Objects []*input.Object
}

// Read is the live state of these objects: given, and with the cluster read's record taken
// out of them when one is among them (cluster.TakeRecord; an error when it cannot be read,
// the objects kept).
func Read(objs []*input.Object, given bool) (*State, error) {
	s := &State{Given: given}
	var err error
	s.Record, s.Objects, err = cluster.TakeRecord(objs)
	return s, err
}

// Webhooks are the live state's admission webhook configurations as package judge reads
// them, decoded, each with the place it was read.
func (s *State) Webhooks() []judge.LiveObject {
	var out []judge.LiveObject
	for _, o := range s.Objects {
		if !judge.IsWebhookConfiguration(o.GVK()) {
			continue
		}
		obj, err := o.Decode()
		if err != nil {
			continue
		}
		out = append(out, judge.LiveObject{Object: obj, Source: o.Source.Short()})
	}
	return out
}

// Judgement is the judge of a run's predictions (judge.Judge): its schemas, and the
// admission webhooks of the live state and of the cluster state (nil: none), which
// intercept requests.
func (s *State) Judgement(reg *schema.Registry, cluster *clusterstate.State) *judge.Judge {
	j := &judge.Judge{Schemas: reg, Webhooks: judge.ReadWebhooks(s.Webhooks())}
	if cluster != nil {
		var hooks []judge.LiveObject
		for _, o := range cluster.Objects() {
			hooks = append(hooks, judge.LiveObject{Object: o.Object, Source: o.Source})
		}
		j.Webhooks = append(j.Webhooks, judge.ReadWebhooks(hooks)...)
	}
	return j
}

// Scope says whether a kind is namespaced, as manifests pair with live objects
// (input.Match): as the cluster read recorded it, else as reg knows it.
func (s *State) Scope(reg *schema.Registry) func(schema.GVK) (namespaced, known bool) {
	return func(gvk schema.GVK) (bool, bool) {
		if n, ok := s.Record.Scope(gvk); ok {
			return n, true
		}
		if t, ok := reg.Lookup(gvk); ok {
			return t.Namespaced, true
		}
		return false, false
	}
}

// Judge applies what the live state says of the pairs (predict.Evidence.Notes): their
// warnings, the pairs it cannot predict (errors); it returns its word on the run ("":
// none). namespaceGiven: -n was given; allowUnowned: --allow-missing-managed-fields.
func (s *State) Judge(pairs []input.Pair, reg *schema.Registry, namespaceGiven, allowUnowned bool) string {
	ev := s.Evidence(namespaceGiven)
	ev.AllowUnowned = allowUnowned
	targets := make([]predict.Target, len(pairs))
	for i, p := range pairs {
		if p.Err != nil {
			targets[i].Failed = true
			continue
		}
		_, _, ns, _ := p.Manifest.Meta()
		t := predict.Target{ID: predict.Identity(p.ID), NamesNamespace: ns != "", HasLive: p.Live != nil, GVK: p.GVK}
		if p.Live != nil {
			t.LiveGVK, t.LiveSource = p.Live.GVK(), p.Live.Source.String()
		}
		targets[i] = t
	}
	notes, word := ev.Notes(targets, reg)
	for i, n := range notes {
		p := &pairs[i]
		p.Warnings = append(p.Warnings, n.Warnings...)
		if n.Refusal != "" {
			p.Err = p.Manifest.Errorf("", "%s", n.Refusal)
		}
	}
	return word
}

// ReadOptions are how a cluster read asks what the run's schemas know (reg, the built-in
// kinds and those of --crd) of a kind: whether it has a schema, its scope, and whether a
// CRD given here defines it (defined: the manifests' CRDs, Refs), so that none of its
// objects can exist yet on a cluster that does not serve it.
func ReadOptions(reg *schema.Registry, defined map[[2]string]bool) cluster.ReadOptions {
	known := func(g, k string) (t *schema.Type) {
		for _, gvk := range reg.Versions(g, k) {
			if t, ok := reg.Lookup(gvk); ok {
				return t
			}
		}
		return nil
	}
	return cluster.ReadOptions{
		HasSchema: func(g, v, k string) bool { return known(g, k) != nil },
		Scope: func(g, v, k string) (bool, bool) {
			if t := known(g, k); t != nil && t.Resource != "" {
				return t.Namespaced, true
			}
			return false, false
		},
		DefinedHere: func(g, k string) bool {
			t := known(g, k)
			return defined[[2]string{g, k}] || t != nil && t.Source == schema.SourceCRD
		},
	}
}

// ReadSummary is the line that says what a cluster read found: where, the cluster's
// version, the objects read, not found and not readable, and the requests sent.
func ReadSummary(where, gitVersion string, res *cluster.Result, rec *cluster.Record) string {
	n := len(res.Objects())
	plural := "s"
	if n == 1 {
		plural = ""
	}
	return fmt.Sprintf("live state: %s, Kubernetes %s: %d object%s read, %d not found, %d not readable (%d GET, %d LIST)",
		where, gitVersion, n, plural, len(rec.NotFound), len(rec.Errors), res.Gets, res.Lists)
}

// Evidence is what the live state is evidence of (predict.Evidence): its objects, the
// cluster read's record of what it found absent or could not read, whether it is a dump.
func (s *State) Evidence(namespaceGiven bool) predict.Evidence {
	ls := s
	// A dump is a List, or several objects; a single object says nothing of the namespace
	// it was read from. Without managedFields, either was most likely printed without them
	// (an object nobody tracks is rare: --allow-missing-managed-fields predicts it so).
	dump := len(ls.Objects) != 1 || ls.Objects[0].Source.Item != nil
	ev := predict.Evidence{Given: ls.Given, Read: ls.Record != nil, NamespaceGiven: namespaceGiven, NamespaceUnsaid: dump, Listing: dump}
	if !ls.Given {
		return ev
	}
	for _, o := range ls.Objects {
		av, kind, ns, name := o.Meta()
		g := schema.GVKFromAPIVersionKind(av, kind).Group
		ev.Objects = append(ev.Objects, predict.Identity{Group: g, Kind: kind, Namespace: ns, Name: name})
		ev.Managed = ev.Managed || o.HasManagedFields()
	}
	if rec := ls.Record; rec != nil {
		ev.NotFound, ev.Unreadable = map[predict.Identity]string{}, map[predict.Identity]string{}
		for _, o := range rec.NotFound {
			ev.NotFound[predict.Identity(o.Identity())] = o.Message
		}
		for _, o := range rec.Errors {
			ev.Unreadable[predict.Identity(o.Identity())] = o.Message
		}
	}
	return ev
}

// Refs are the objects the manifests name, to read from the cluster, and the group and
// kind of the CRDs among them.
func Refs(manifests []input.Entry) ([]cluster.Ref, map[[2]string]bool) {
	var refs []cluster.Ref
	defined := map[[2]string]bool{} // group, kind of the manifests' CRDs
	for _, e := range manifests {
		if e.Object == nil {
			continue
		}
		av, kind, ns, name := e.Object.Meta()
		if av == "" || kind == "" || name == "" {
			continue // not identified: Match says why
		}
		refs = append(refs, cluster.Ref{APIVersion: av, Kind: kind, Namespace: ns, Name: name})
		if gvk := e.Object.GVK(); gvk.Group == "apiextensions.k8s.io" && gvk.Kind == "CustomResourceDefinition" {
			spec, _ := e.Object.Object["spec"].(map[string]any)
			names, _ := spec["names"].(map[string]any)
			g, _ := spec["group"].(string)
			k, _ := names["kind"].(string)
			defined[[2]string{g, k}] = true
		}
	}
	return refs, defined
}

// Keep reads back what was read from the cluster of context (data, a List), as the live
// state's entries, and saves it to the file saveLive (--save-live) when asked ("": not).
func Keep(loader *input.Loader, context, saveLive string, data []byte) ([]input.Entry, error) {
	name := "cluster:" + context
	if context == "" {
		name = "cluster:in-cluster"
	}
	if saveLive != "" {
		name = saveLive
	}
	entries := loader.LoadReader(name, bytes.NewReader(data))
	if saveLive != "" {
		// What this run cannot read back is not written: a later run would not either.
		for _, e := range entries {
			if e.Err != nil {
				return nil, fmt.Errorf("--save-live %s: not written: what was read from the cluster cannot be read back: %w", saveLive, e.Err)
			}
		}
		// All at once: a run stopped while writing leaves the previous file, or none.
		if err := atomicfile.WriteFile(saveLive, data, 0o600); err != nil {
			return nil, fmt.Errorf("--save-live: %w", err)
		}
		return entries, nil
	}
	for _, e := range entries {
		if e.Object != nil {
			e.Object.Source.Line = 0 // lines of a document nobody sees
		}
	}
	return entries, nil
}

// Admission is the cluster state the admission chain reads, of what a cluster read listed
// for it (cluster.Client.ReadAdmission), with a warning for each kind that could not be
// listed (what reads it is not predicted), in the order of their names.
func Admission(read *cluster.AdmissionRead) (*clusterstate.State, []string, error) {
	list := []byte(`{"apiVersion":"v1","kind":"List","items":[`)
	for i, raw := range read.Objects {
		if i > 0 {
			list = append(list, ',')
		}
		list = append(list, raw...)
	}
	list = append(list, "]}"...)
	objs, err := predict.Bytes("cluster", list)
	if err != nil {
		return nil, nil, fmt.Errorf("admission state: %w", err)
	}
	in := make([]clusterstate.Object, len(objs))
	for i, o := range objs {
		in[i] = clusterstate.Object{Object: o.Object, Source: "the cluster"}
	}
	kinds := make([]string, 0, len(read.Errors))
	for kind := range read.Errors {
		kinds = append(kinds, kind)
	}
	sort.Strings(kinds)
	warnings := make([]string, 0, len(kinds))
	for _, kind := range kinds {
		warnings = append(warnings, fmt.Sprintf("admission state: %v: what reads it is not predicted", read.Errors[kind]))
	}
	state, err := clusterstate.New(in)
	if err != nil {
		return nil, warnings, fmt.Errorf("admission state: %w", err)
	}
	return state, warnings, nil
}
