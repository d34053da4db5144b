package differential

import (
	"sort"

	"github.com/ssa-diff/ssa-diff/conformance/differential/gen"
	"github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// Shrinker reduces a diverging sequence to a minimal case: fewer ops, fewer fields, then
// a single request against a smaller live object, as long as the divergence keeps its
// category.
type Shrinker struct {
	Kind   *KindSpec
	Oracle Predictor
	Engine Predictor
	// Budget bounds the replays (each a run of both predictors); 0 means 1500.
	Budget int

	runs int
	gen  *gen.Generator
	srv  *oracle.Server
}

// NewShrinker returns a shrinker for kind k.
func NewShrinker(srv *oracle.Server, eng Predictor, k *KindSpec) (*Shrinker, error) {
	g, _, err := newGenerator(srv, k, nil)
	if err != nil {
		return nil, err
	}
	return &Shrinker{Kind: k, Oracle: srv, Engine: eng, gen: g, srv: srv}, nil
}

func (s *Shrinker) spent() bool {
	b := s.Budget
	if b == 0 {
		b = 1500
	}
	return s.runs >= b
}

// sequenceFails replays ops and reports the divergence if it has the category.
func (s *Shrinker) sequenceFails(ops []Op, category string) *Divergence {
	s.runs++
	_, d, err := Replay(s.Kind, s.Oracle, s.Engine, ops)
	if err != nil || d == nil || d.Category != category {
		return nil
	}
	return d
}

// Case is a minimal diverging request: the live object, the request and the answers.
type Case struct {
	Kind     string
	Live     map[string]interface{}
	Request  Op
	Category string
	Diff     string
	Oracle   oracle.Response
	Engine   oracle.Response
	// Ops is the shrunk sequence that led to it (the last op is Request before resolving).
	Ops []Op
}

// Shrink reduces the sequence ops, which diverges as d.
func (s *Shrinker) Shrink(ops []Op, d *Divergence) *Case {
	cat := d.Category
	ops = append([]Op(nil), ops[:d.Step+1]...)
	ops = s.dropOps(ops, cat)
	ops = s.simplifyOps(ops, cat)
	last := s.sequenceFails(ops, cat)
	if last == nil { // cannot happen: every accepted change kept the divergence
		last = d
	}
	// The single request against the live object it met.
	req := Request(s.Kind, last.Live, last.Request)
	op := last.Request
	op.Object, op.MF, op.ManagedFields, op.Rename = req.Object, MFAsIs, nil, nil
	// The live object as the request met it (read at op.ReadAs).
	live := req.Live
	op.ReadAs = ""
	live, op = s.shrinkStep(live, op, cat)
	want, got := s.step(live, op)
	_, diff := Compare(want, got)
	return &Case{Kind: s.Kind.Name, Live: live, Request: op, Category: cat, Diff: diff, Oracle: want, Engine: got, Ops: ops}
}

func (s *Shrinker) step(live map[string]interface{}, op Op) (oracle.Response, oracle.Response) {
	want, _ := Do(s.Oracle, op.Verb, Request(s.Kind, live, op))
	got, _ := Do(s.Engine, op.Verb, Request(s.Kind, live, op))
	return want, got
}

func (s *Shrinker) stepFails(live map[string]interface{}, op Op, category string) bool {
	s.runs++
	_, d, err := Step(s.Kind, s.Oracle, s.Engine, live, op)
	return err == nil && d != nil && d.Category == category
}

// dropOps removes ops, in chunks then one by one (delta debugging).
func (s *Shrinker) dropOps(ops []Op, cat string) []Op {
	for chunk := len(ops) / 2; chunk >= 1; chunk /= 2 {
		for i := 0; i+chunk <= len(ops) && !s.spent(); {
			try := append(append([]Op(nil), ops[:i]...), ops[i+chunk:]...)
			if len(try) > 0 && s.sequenceFails(try, cat) != nil {
				ops = try
				continue
			}
			i += chunk
		}
	}
	return ops
}

// simplifyOps removes fields from op bodies and flags from ops.
func (s *Shrinker) simplifyOps(ops []Op, cat string) []Op {
	for i := len(ops) - 1; i >= 0 && !s.spent(); i-- {
		if ops[i].Force {
			try := cloneOps(ops)
			try[i].Force = false
			if s.sequenceFails(try, cat) != nil {
				ops = try
			}
		}
		ops[i].Object = s.dropFields(ops[i].Object, func(obj map[string]interface{}) bool {
			try := cloneOps(ops)
			try[i].Object = obj
			return s.sequenceFails(try, cat) != nil
		})
	}
	return ops
}

func cloneOps(ops []Op) []Op {
	out := make([]Op, len(ops))
	copy(out, ops)
	return out
}

// protected are the places a shrink never removes: what identifies the object.
func protected(path []interface{}) bool {
	if len(path) == 1 {
		k, _ := path[0].(string)
		return k == "apiVersion" || k == "kind" || k == "metadata"
	}
	if len(path) == 2 && path[0] == "metadata" {
		k, _ := path[1].(string)
		return k == "name" || k == "namespace" || k == "uid" || k == "managedFields"
	}
	return len(path) > 2 && path[0] == "metadata" && path[1] == "managedFields"
}

// dropFields removes every place of obj it can while still fails holds, biggest first.
func (s *Shrinker) dropFields(obj map[string]interface{}, fails func(map[string]interface{}) bool) map[string]interface{} {
	if obj == nil {
		return nil
	}
	for changed := true; changed && !s.spent(); {
		changed = false
		spots := s.gen.Spots(s.typeRef(), obj)
		for _, sp := range spots {
			if protected(sp.Path) {
				continue
			}
			try, _ := gen.DeepCopy(obj).(map[string]interface{})
			if !gen.Delete(try, sp.Path) {
				continue
			}
			if fails(try) {
				obj, changed = try, true
				break
			}
			if s.spent() {
				break
			}
		}
	}
	return obj
}

func (s *Shrinker) typeRef() smdschema.TypeRef {
	pt, _ := typeOf(s.srv, s.Kind)
	return pt.TypeRef
}

// shrinkStep makes the single request smaller: fields of the body, fields of the live
// object, managedFields entries and the fields they own.
func (s *Shrinker) shrinkStep(live map[string]interface{}, op Op, cat string) (map[string]interface{}, Op) {
	op.Object = s.dropFields(op.Object, func(obj map[string]interface{}) bool {
		o := op
		o.Object = obj
		return s.stepFails(live, o, cat)
	})
	if live == nil {
		return live, op
	}
	// managedFields entries, one at a time.
	for changed := true; changed && !s.spent(); {
		changed = false
		mf, _ := metadataOf(live, false)["managedFields"].([]interface{})
		for i := range mf {
			try, _ := gen.DeepCopy(live).(map[string]interface{})
			nm := append(append([]interface{}{}, mf[:i]...), mf[i+1:]...)
			if len(nm) == 0 {
				delete(metadataOf(try, false), "managedFields")
			} else {
				metadataOf(try, false)["managedFields"] = nm
			}
			if s.stepFails(try, op, cat) {
				live, changed = try, true
				break
			}
		}
	}
	// the fields each entry owns.
	mf, _ := metadataOf(live, false)["managedFields"].([]interface{})
	for i := range mf {
		for changed := true; changed && !s.spent(); {
			changed = false
			cur, _ := metadataOf(live, false)["managedFields"].([]interface{})
			e, _ := cur[i].(map[string]interface{})
			fields, _ := e["fieldsV1"].(map[string]interface{})
			for _, p := range leafPaths(fields, nil) {
				try, _ := gen.DeepCopy(live).(map[string]interface{})
				te := metadataOf(try, false)["managedFields"].([]interface{})[i].(map[string]interface{})
				tf, _ := te["fieldsV1"].(map[string]interface{})
				if !gen.Delete(tf, p) {
					continue
				}
				if s.stepFails(try, op, cat) {
					live, changed = try, true
					break
				}
			}
		}
	}
	live = s.dropFields(live, func(obj map[string]interface{}) bool {
		if _, ok := gen.Get(obj, []interface{}{"spec", "replicas"}); op.Subresource == "scale" && !ok {
			return false // the server defaults spec.replicas: keep the live object real
		}
		return s.stepFails(obj, op, cat)
	})
	return live, op
}

// leafPaths lists the leaves of a fieldsV1 tree, deepest first.
func leafPaths(m map[string]interface{}, at []interface{}) [][]interface{} {
	var out [][]interface{}
	for _, k := range sortedKeys(m) {
		p := append(append([]interface{}{}, at...), k)
		if sub, ok := m[k].(map[string]interface{}); ok && len(sub) > 0 {
			out = append(out, leafPaths(sub, p)...)
		} else {
			out = append(out, p)
		}
	}
	return out
}

func sortedKeys(m map[string]interface{}) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
