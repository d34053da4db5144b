package differential

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/conformance/differential/gen"
	"github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// managerPool are the manager names sequences draw from (a prefix of it).
var managerPool = []string{
	"ctrl-a", "ctrl-b", "helm", "kubectl", "kube-controller-manager", "argocd", "m6", "m7",
	"m8", "m9", "m10", "m11", "m12", "m13", "kubectl-client-side-apply", "mgr-ü",
}

// Generator makes the ops of one seeded sequence. Ops are made one at a time, from the
// live object the previous ops produced.
type Generator struct {
	Kind *KindSpec
	Seed int64

	g        *gen.Generator
	pt       *typed.ParseableType
	rnd      *rand.Rand
	universe map[string]any
	managers []string
	memory   map[string]map[string]any
	// For a kind served at several versions: each version's generator, type and
	// universe (g, pt and universe are those of version), and the version the op being
	// made is sent at.
	versions map[string]*versionGen
	version  string
	now      time.Time
	many     bool // many-updaters mode
	next     int  // round-robin position in many-updaters mode
}

// versionGen draws values of one version of a kind.
type versionGen struct {
	g        *gen.Generator
	pt       *typed.ParseableType
	universe map[string]any
}

// NewGenerator starts the sequence of a seed: the seed picks the kind, the managers, the
// pool of field values the managers draw from, and every op.
func NewGenerator(srv *oracle.Server, seed int64) (*Generator, error) {
	rnd := rand.New(rand.NewSource(seed))
	// The custom kind has the most varied schema: it gets a double share.
	ki := rnd.Intn(len(Kinds) + 1)
	if ki == len(Kinds) {
		ki = len(Kinds) - 1
	}
	k := &Kinds[ki]
	g, pt, err := newGenerator(srv, k, rnd)
	if err != nil {
		return nil, err
	}
	g.PartialKeys = k.GVK.Group == "example.com"
	// Numbers with a fraction only where a server stores them: the custom kind's. A
	// built-in kind, the HorizontalPodAutoscaler too, holds Go integers and times in its
	// time fields, as every object a server returns does (what its decoding refuses is
	// the engine's unit tests': internal/conversion TestDecodeErrorsAreTheServers).
	g.Fractions = k.GVK.Group == "example.com"
	// Strings and numbers written otherwise by 1.38's structured-merge-diff (v7), where no
	// rule refuses them.
	g.Texts = k.GVK.Group == "example.com"
	s := &Generator{Kind: k, Seed: seed, g: g, pt: pt, rnd: rnd, memory: map[string]map[string]any{}, version: k.GVK.Version}
	s.universe, _ = g.Value(pt.TypeRef, "", 20+rnd.Intn(40)).(map[string]any)
	s.stamp(s.universe)
	n := 2 + rnd.Intn(5)
	if rnd.Intn(4) == 0 {
		s.many = true
		n = 12 + rnd.Intn(4)
	}
	perm := rnd.Perm(len(managerPool))
	for _, i := range perm[:n] {
		s.managers = append(s.managers, managerPool[i])
	}
	s.now = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rnd.Intn(1000)) * time.Hour)
	if len(k.Versions) > 0 {
		if err := s.addVersions(srv); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// addVersions readies the other versions of a kind served at several: their generators,
// universes (the main one read at that version, plus values of its own) and each
// manager's usual version.
func (s *Generator) addVersions(srv *oracle.Server) error {
	s.version = s.Kind.GVK.Version
	s.versions = map[string]*versionGen{s.version: {g: s.g, pt: s.pt, universe: s.universe}}
	for _, v := range s.Kind.Versions[1:] {
		ok, found := srv.Kind(s.Kind.At(v))
		if !found {
			return fmt.Errorf("kind %s not served", s.Kind.At(v))
		}
		pt, err := ok.Type()
		if err != nil {
			return err
		}
		hints := append([]string(nil), s.Kind.VersionHints[v]...)
		sort.Strings(hints)
		g := gen.New(pt.Schema, s.rnd, hints...)
		g.PartialKeys, g.Fractions, g.Texts = s.g.PartialKeys, s.g.Fractions, s.g.Texts
		u, _ := g.Value(pt.TypeRef, "", 10+s.rnd.Intn(20)).(map[string]any)
		if read, err := oracle.ReadAs(legacyscheme.Scheme, s.universe, s.Kind.At(v).GroupVersion()); err == nil {
			u, _ = g.Merge(pt.TypeRef, read, u).(map[string]any)
		}
		s.versions[v] = &versionGen{g: g, pt: pt, universe: u}
		s.stampAt(u, v)
	}
	return nil
}

// useVersion makes the next op's bodies at version v.
func (s *Generator) useVersion(v string) {
	vg := s.versions[v]
	s.version, s.g, s.pt, s.universe = v, vg.g, vg.pt, vg.universe
}

// readAt is the live object read at the version of the op being made.
func (s *Generator) readAt(live map[string]any) map[string]any {
	if live == nil || s.versions == nil {
		return live
	}
	if av, _ := live["apiVersion"].(string); av == s.Kind.At(s.version).GroupVersion().String() {
		return live
	}
	read, err := oracle.ReadAs(legacyscheme.Scheme, live, s.Kind.At(s.version).GroupVersion())
	if err != nil {
		return live
	}
	return read
}

// hpaAnnotations are values of the annotations in which autoscaling/v1 keeps what it
// cannot express: valid, invalid and empty ones.
var hpaAnnotations = map[string][]string{
	"autoscaling.alpha.kubernetes.io/metrics": {
		`[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]`,
		`[{"type":"External","external":{"metricName":"queue","targetValue":"5"}},{"type":"Resource","resource":{"name":"memory","targetAverageValue":"1Gi"}}]`,
		`[{"type":"Resource","resource":{"name":"cpu","targetAverageUtilization":50}},{"type":"Object","object":{"target":{"kind":"Service","name":"web"},"metricName":"rps","targetValue":"0","averageValue":"2"}}]`,
		`[]`, `not json`,
	},
	"autoscaling.alpha.kubernetes.io/behavior": {
		`{"ScaleUp":{"StabilizationWindowSeconds":30,"SelectPolicy":"Min","Policies":[{"Type":"Pods","Value":2,"PeriodSeconds":60}],"Tolerance":null},"ScaleDown":null}`,
		`{"scaleDown":{"selectPolicy":"Disabled"}}`, `{}`, `{"ScaleUp":`,
	},
	"autoscaling.alpha.kubernetes.io/current-metrics": {
		`[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"100m"}}]`, `[]`,
	},
	"autoscaling.alpha.kubernetes.io/conditions": {
		`[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-01-01T00:00:00Z","reason":"r"}]`, `x`,
	},
	"autoscaling.alpha.kubernetes.io/scale-up-tolerance": {`0.1`},
}

// convertedAnnotations sometimes sets one of the annotations of hpaAnnotations on a body
// of the HorizontalPodAutoscaler.
func (s *Generator) convertedAnnotations(obj map[string]any) {
	if s.Kind.GVK.Kind != "HorizontalPodAutoscaler" || s.rnd.Intn(4) != 0 {
		return
	}
	keys := make([]string, 0, len(hpaAnnotations))
	for k := range hpaAnnotations {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	k := keys[s.rnd.Intn(len(keys))]
	md := metadataOf(obj, true)
	ann, _ := md["annotations"].(map[string]any)
	if ann == nil {
		ann = map[string]any{}
		md["annotations"] = ann
	}
	ann[k] = hpaAnnotations[k][s.rnd.Intn(len(hpaAnnotations[k]))]
}

// stamp sets what every body carries: apiVersion (the op's version), kind, name and
// namespace.
func (s *Generator) stamp(obj map[string]any) {
	s.stampAt(obj, s.version)
}

func (s *Generator) stampAt(obj map[string]any, version string) {
	obj["apiVersion"] = s.Kind.At(version).GroupVersion().String()
	obj["kind"] = s.Kind.GVK.Kind
	md := metadataOf(obj, true)
	md["name"] = "obj"
	if s.Kind.Namespaced {
		md["namespace"] = "default"
	} else {
		delete(md, "namespace")
	}
}

func (s *Generator) tick() time.Time {
	s.now = s.now.Add(time.Duration([]int{0, 0, 1, 1, 1, 2, 30, 3600}[s.rnd.Intn(8)]) * time.Second)
	return s.now
}

func (s *Generator) manager() string {
	if s.many {
		m := s.managers[s.next%len(s.managers)]
		s.next++
		return m
	}
	return s.managers[s.rnd.Intn(len(s.managers))]
}

// Next makes the next op against the live object (nil: it does not exist yet).
func (s *Generator) Next(live map[string]any) Op {
	if s.versions == nil {
		return s.makeOp(live)
	}
	// A kind served at several versions: the op goes to any of them, its body made from
	// the live object read at that version, and the live object it meets was read back at
	// any version (the server converts it).
	s.useVersion(s.Kind.Versions[s.rnd.Intn(len(s.Kind.Versions))])
	op := s.makeOp(s.readAt(live))
	op.Version = s.version
	if op.Object != nil && op.Subresource != "scale" {
		s.convertedAnnotations(op.Object)
	}
	if live != nil && s.rnd.Intn(2) == 0 {
		op.ReadAs = s.Kind.Versions[s.rnd.Intn(len(s.Kind.Versions))]
	}
	return op
}

func (s *Generator) makeOp(live map[string]any) Op {
	now := s.tick()
	if live == nil {
		if s.rnd.Intn(100) < 55 {
			op := s.apply("", s.manager())
			op.Now = now
			return op
		}
		body := s.fresh(0.7)
		op := Op{Verb: VerbUpdate, Manager: s.manager(), Now: now, Object: body, MF: MFOmit}
		if s.rnd.Intn(8) == 0 {
			op.MF, op.ManagedFields = MFLiteral, s.literalEntries(body)
		}
		return op
	}
	type choice struct {
		w int
		f func() Op
	}
	choices := []choice{
		{30, func() Op { return s.apply("", s.manager()) }},
		{25, func() Op { return s.update(live, "", s.pickMF()) }},
		{5, func() Op { return s.reapply() }},
		{3, func() Op { return s.update(live, "", MFLive).noop(s, live) }},
		{4, func() Op {
			op := s.update(live, "", MFLiteral)
			op.ManagedFields = s.literalEntries(op.Object)
			return op
		}},
		{3, func() Op { return s.csaUpdate(live) }},
		{4, func() Op { return s.apply("", "kubectl") }},
		{3, func() Op { return s.badApply() }},
	}
	if s.Kind.GVK.Group == "example.com" {
		choices = append(choices, choice{1, func() Op { return s.drift(live) }})
	}
	if replicas, hasReplicas := gen.Get(live, []any{"spec", "replicas"}); s.Kind.Scale && hasReplicas && wholeNumber(replicas) {
		// (The server defaults spec.replicas; a live object without it is not real. Nor is
		// one whose replica count is a fraction, which the generator's numbers may give and
		// neither side refuses without Go decoding: the server's int32 refuses it on
		// decoding, and the registry reads the /scale it makes from that int32.)
		choices = append(choices, choice{6, func() Op { return s.scale(live) }})
	}
	if s.Kind.Status {
		choices = append(choices,
			choice{8, func() Op { return s.apply("status", s.manager()) }},
			choice{10, func() Op { return s.update(live, "status", s.pickMF()) }})
	}
	if s.many {
		// More updaters than the cap keeps: most ops are changing updates by the
		// managers in turn.
		choices = append(choices, choice{250, func() Op { return s.update(live, "", MFLive) }})
	}
	total := 0
	for _, c := range choices {
		total += c.w
	}
	r := s.rnd.Intn(total)
	var op Op
	for _, c := range choices {
		if r < c.w {
			op = c.f()
			break
		}
		r -= c.w
	}
	op.Now = now
	return op
}

func (s *Generator) pickMF() string {
	switch r := s.rnd.Intn(100); {
	case r < 70:
		return MFLive
	case r < 80:
		return MFOmit
	case r < 84:
		return MFEmpty
	case r < 88:
		return MFEmptyIt
	case r < 95:
		return MFRename
	case r < 98:
		return MFDrop
	default:
		return MFInvalid
	}
}

// fresh is a random part of the universe, slightly changed.
func (s *Generator) fresh(keep float64) map[string]any {
	v, _ := s.g.Subset(s.pt.TypeRef, s.universe, keep).(map[string]any)
	v, _ = s.g.Mutate(s.pt.TypeRef, v, 0.05, "").(map[string]any)
	s.stamp(v)
	return v
}

// apply makes an apply configuration for manager m: usually its previous one changed a
// little (controllers re-apply what they own), else a fresh part of the universe.
func (s *Generator) apply(sub, m string) Op {
	key := m + "/" + sub + "/" + s.version
	var cfg map[string]any
	if prev := s.memory[key]; prev != nil && s.rnd.Intn(10) < 6 {
		cfg, _ = s.g.Mutate(s.pt.TypeRef, prev, 0.12, "").(map[string]any)
		if s.rnd.Intn(4) == 0 {
			cfg, _ = s.g.Merge(s.pt.TypeRef, cfg, s.fresh(0.3)).(map[string]any)
		}
	} else {
		cfg = s.fresh(0.5)
	}
	if sub == "status" {
		if s.rnd.Intn(10) != 0 {
			for k := range cfg {
				if k != "status" && k != "apiVersion" && k != "kind" && k != "metadata" {
					delete(cfg, k)
				}
			}
		}
	} else if s.rnd.Intn(10) < 7 {
		delete(cfg, "status")
	}
	if s.rnd.Intn(30) == 0 {
		// A custom resource keeps a null only where the schema allows it (elsewhere
		// validation refuses the merged object, which neither side models).
		s.null(cfg, s.Kind.GVK.Group == "example.com")
	}
	s.stamp(cfg)
	s.memory[key] = cfg
	return Op{Verb: VerbApply, Subresource: sub, Manager: m, Force: s.rnd.Intn(5) == 0, Object: gen.DeepCopy(cfg).(map[string]any)}
}

// reapply sends a manager's last configuration again (a no-op or nearly).
func (s *Generator) reapply() Op {
	for _, m := range s.managers {
		if cfg := s.memory[m+"//"+s.version]; cfg != nil && s.rnd.Intn(2) == 0 {
			return Op{Verb: VerbApply, Manager: m, Object: gen.DeepCopy(cfg).(map[string]any)}
		}
	}
	return s.apply("", s.manager())
}

// null sets a random place of obj (not its identity, not a list-map key) to null; with
// nullable, only a place whose schema allows null.
func (s *Generator) null(obj map[string]any, nullable bool) {
	var spots []gen.Spot
	for _, sp := range s.g.Spots(s.pt.TypeRef, obj) {
		if nullable && !sp.Type.Nullable {
			continue
		}
		if k, ok := sp.Path[len(sp.Path)-1].(string); ok && len(sp.Path) > 1 && k != "name" && k != "namespace" && !sp.Key {
			spots = append(spots, sp)
		}
	}
	if len(spots) > 0 {
		gen.Set(obj, spots[s.rnd.Intn(len(spots))].Path, nil)
	}
}

// base is the live object as a client edits it: without the fields Request fills in.
func base(live map[string]any) map[string]any {
	b, _ := gen.DeepCopy(live).(map[string]any)
	md := metadataOf(b, true)
	for _, f := range []string{"managedFields", "uid", "resourceVersion", "creationTimestamp"} {
		delete(md, f)
	}
	return b
}

// update makes a PUT body: the live object with parts of the universe merged in and
// random edits (sometimes a duplicate list item, sometimes a null).
func (s *Generator) update(live map[string]any, sub, mf string) Op {
	body := base(live)
	if s.rnd.Intn(10) < 4 {
		body, _ = s.g.Merge(s.pt.TypeRef, body, s.fresh(0.3)).(map[string]any)
	}
	before := canonical(body)
	body, _ = s.g.Mutate(s.pt.TypeRef, body, 0.08, "").(map[string]any)
	for try := 0; try < 3 && canonical(body) == before && s.rnd.Intn(10) != 0; try++ {
		body, _ = s.g.Mutate(s.pt.TypeRef, body, 0.2, "").(map[string]any)
	}
	if s.rnd.Intn(12) == 0 {
		s.g.Duplicate(s.pt.TypeRef, body)
	}
	if s.rnd.Intn(40) == 0 {
		s.null(body, false)
	}
	s.stamp(body)
	m := s.manager()
	if s.rnd.Intn(30) == 0 {
		m = ""
	}
	if s.many && sub == "" && s.rnd.Intn(10) != 0 {
		// Controllers that each keep an annotation of their own: more updaters than the
		// cap keeps.
		md := metadataOf(body, true)
		ann, _ := md["annotations"].(map[string]any)
		if ann == nil {
			ann = map[string]any{}
			md["annotations"] = ann
		}
		ann["example.com/"+strings.TrimPrefix(m, "kubectl-")] = fmt.Sprint(s.rnd.Intn(1000))
	}
	op := Op{Verb: VerbUpdate, Subresource: sub, Manager: m, Object: body, MF: mf}
	if mf == MFRename || mf == MFDrop {
		entries, _ := oracle.ManagedFields(live)
		if len(entries) > 0 {
			e := entries[s.rnd.Intn(len(entries))]
			op.Rename = []string{e.Manager, managerPool[s.rnd.Intn(len(managerPool))]}
		} else {
			op.MF = MFLive
		}
	}
	return op
}

func (o Op) noop(s *Generator, live map[string]any) Op {
	o.Object = base(live)
	s.stamp(o.Object)
	return o
}

// csaUpdate is kubectl's client-side apply: an update that records the applied
// configuration in the last-applied annotation.
func (s *Generator) csaUpdate(live map[string]any) Op {
	op := s.update(live, "", MFLive)
	op.Manager = "kubectl-client-side-apply"
	cfg, _ := s.g.Subset(s.pt.TypeRef, op.Object, 0.6).(map[string]any)
	s.stamp(cfg)
	md := metadataOf(cfg, true)
	delete(md, "annotations")
	b, _ := json.Marshal(cfg)
	ann, _ := metadataOf(op.Object, true)["annotations"].(map[string]any)
	if ann == nil {
		ann = map[string]any{}
		metadataOf(op.Object, true)["annotations"] = ann
	}
	ann["kubectl.kubernetes.io/last-applied-configuration"] = string(b) + "\n"
	return op
}

// wholeNumber reports whether v is a number without a fraction (a replica count a real
// object can hold).
func wholeNumber(v any) bool {
	switch n := v.(type) {
	case int64, int, int32:
		return true
	case float64:
		return n == math.Trunc(n)
	}
	return false
}

// scale is a PUT through /scale, as `kubectl scale` or an autoscaler sends it: the
// Scale read from the object with a new replica count.
func (s *Generator) scale(live map[string]any) Op {
	md := metadataOf(live, false)
	body := map[string]any{
		"apiVersion": oracle.ScaleGVK.GroupVersion().String(), "kind": oracle.ScaleGVK.Kind,
		"metadata": map[string]any{"name": md["name"], "namespace": md["namespace"]},
		"spec":     map[string]any{"replicas": int64(s.rnd.Intn(4))},
	}
	if s.rnd.Intn(3) == 0 {
		body["status"] = map[string]any{"replicas": int64(s.rnd.Intn(4))}
	}
	m := s.manager()
	if s.rnd.Intn(3) == 0 {
		m = []string{"kubectl", "kube-controller-manager", "hpa"}[s.rnd.Intn(3)]
	}
	return Op{Verb: VerbUpdate, Subresource: "scale", Manager: m, Object: body, MF: MFOmit}
}

// drift is an update whose body gives a field a value of the wrong type, as an object
// stored before its CRD's schema changed holds one: the field manager cannot type the
// object and keeps the live entries (the API server's validation would refuse such a
// write; the object can only come from storage).
func (s *Generator) drift(live map[string]any) Op {
	op := s.update(live, "", MFLive)
	spec, _ := op.Object["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
		op.Object["spec"] = spec
	}
	switch s.rnd.Intn(3) {
	case 0:
		spec["replicas"] = "three"
	case 1:
		spec["tags"] = "not-a-list"
	default:
		spec["ports"] = []any{map[string]any{"port": "http"}}
	}
	return op
}

// badApply is an apply the server refuses before or while merging.
func (s *Generator) badApply() Op {
	op := s.apply("", s.manager())
	cfg := op.Object
	switch s.rnd.Intn(7) {
	case 0:
		if !s.g.Duplicate(s.pt.TypeRef, cfg) {
			cfg["bogus"] = "x"
		}
	case 5:
		cfg["kind"] = s.Kind.GVK.Kind + "List"
	case 6:
		metadataOf(cfg, true)["managedFields"] = nil // accepted: only a list is refused
	case 1:
		metadataOf(cfg, true)["managedFields"] = []any{}
	case 2:
		gv := s.Kind.At(s.version).GroupVersion()
		gv.Version = "v0"
		cfg["apiVersion"] = gv.String()
	case 3:
		cfg["bogus"] = map[string]any{"x": int64(1)}
	default:
		metadataOf(cfg, true)["labels"] = "not-a-map"
	}
	return op
}

// literalEntries are random but valid managedFields entries over parts of obj.
func (s *Generator) literalEntries(obj map[string]any) []any {
	n := 1 + s.rnd.Intn(3)
	var out []any
	for i := 0; i < n; i++ {
		from := obj
		if s.rnd.Intn(4) == 0 {
			from = s.universe // fields the object may not have
		}
		part, _ := s.g.Subset(s.pt.TypeRef, from, 0.5).(map[string]any)
		delete(part, "apiVersion")
		delete(part, "kind")
		if md := metadataOf(part, false); md != nil {
			delete(md, "name")
			delete(md, "namespace")
			delete(md, "managedFields")
		}
		tv, err := s.pt.FromUnstructured(part, typed.AllowDuplicates)
		if err != nil {
			continue
		}
		set, err := tv.ToFieldSet()
		if err != nil || set.Empty() {
			continue
		}
		js, err := set.ToJSON()
		if err != nil {
			continue
		}
		var fields map[string]any
		if json.Unmarshal(js, &fields) != nil {
			continue
		}
		op := []string{"Apply", "Update"}[s.rnd.Intn(2)]
		gv := s.Kind.At(s.version).GroupVersion()
		if s.rnd.Intn(10) == 0 {
			// A version the server does not serve: its entries are dropped.
			gv.Version = "v1beta2"
		}
		e := map[string]any{
			"manager": s.managers[s.rnd.Intn(len(s.managers))], "operation": op,
			"apiVersion": gv.String(), "fieldsType": "FieldsV1", "fieldsV1": fields,
		}
		if op == "Update" || s.rnd.Intn(2) == 0 {
			e["time"] = s.now.Add(-time.Duration(s.rnd.Intn(5)) * time.Hour).UTC().Format(time.RFC3339)
		}
		if s.Kind.Status && s.rnd.Intn(5) == 0 {
			e["subresource"] = "status"
		}
		out = append(out, e)
	}
	return out
}

// Sequence makes a whole sequence of n ops, running each on the oracle to learn the
// live object the next op starts from.
func (s *Generator) Sequence(srv Predictor, n int) (Sequence, error) {
	seq := Sequence{Kind: s.Kind.Name, Seed: s.Seed}
	var live map[string]any
	for i := 0; i < n; i++ {
		op := s.Next(live)
		r, err := Do(srv, op.Verb, Request(s.Kind, live, op))
		if err != nil {
			return seq, fmt.Errorf("seed %d op %d: %w", s.Seed, i, err)
		}
		seq.Ops = append(seq.Ops, op)
		live = advance(s.Kind, live, r, i, op.Now)
	}
	return seq, nil
}
