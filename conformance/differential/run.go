package differential

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/conformance/differential/gen"
	"github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
)

// Verbs of an Op.
const (
	VerbApply  = "apply"
	VerbUpdate = "update"
)

// Managed-fields modes of an update body: what the client sends in metadata.managedFields.
const (
	MFLive    = ""       // the live entries, as a client that read the object sends them back
	MFOmit    = "omit"   // no managedFields (falls back to the live entries)
	MFEmpty   = "[]"     // reset
	MFEmptyIt = "[{}]"   // reset
	MFRename  = "rename" // the live entries with one manager renamed (Rename[0] → Rename[1])
	MFDrop    = "drop"   // the live entries without those of manager Rename[0]
	MFInvalid = "invalid"
	MFLiteral = "literal" // ManagedFields as given
	MFAsIs    = "as-is"   // the body is sent exactly as it is (a resolved request)
)

// Op is one request of a sequence. Update bodies are whole objects; their system metadata
// (uid, resourceVersion, creationTimestamp) and managedFields are filled in from the live
// object when the op runs, as a client that read the object first would send them.
type Op struct {
	Verb        string         `json:"verb"`
	Subresource string         `json:"subresource,omitempty"`
	Manager     string         `json:"manager"`
	Force       bool           `json:"force,omitempty"`
	Now         time.Time      `json:"now"`
	Object      map[string]any `json:"object"`
	// Version is the version the request is sent at, for a kind served at several
	// ("" is the kind's GVK's); ReadAs the version the live object was read at before.
	Version string `json:"version,omitempty"`
	ReadAs  string `json:"readAs,omitempty"`
	// MF is the managedFields mode of an update body (see the MF constants).
	MF            string   `json:"managedFieldsMode,omitempty"`
	Rename        []string `json:"rename,omitempty"`
	ManagedFields []any    `json:"managedFields,omitempty"`
}

// Sequence is a seeded run of requests against one object.
type Sequence struct {
	Kind string `json:"kind"`
	Seed int64  `json:"seed"`
	Ops  []Op   `json:"ops"`
}

// Predictor answers requests: the oracle does, and so does the engine under test.
type Predictor interface {
	Apply(oracle.Request) (oracle.Response, error)
	Update(oracle.Request) (oracle.Response, error)
}

// Divergence is a step on which the engine's answer differs from the oracle's.
type Divergence struct {
	Kind     string          `json:"kind"`
	Step     int             `json:"step"`
	Live     map[string]any  `json:"live"`
	Request  Op              `json:"request"`
	Oracle   oracle.Response `json:"-"`
	Engine   oracle.Response `json:"-"`
	Category string          `json:"category"`
	Diff     string          `json:"diff"`
}

// Request resolves op against the live object into the request the server receives.
func Request(k *KindSpec, live map[string]any, op Op) oracle.Request {
	obj, _ := gen.DeepCopy(op.Object).(map[string]any)
	if obj == nil {
		obj = map[string]any{}
	}
	if op.MF == MFAsIs {
		// sent as it is
	} else if op.Verb == VerbUpdate && live != nil {
		md := metadataOf(obj, true)
		lmd := metadataOf(live, false)
		for _, f := range []string{"uid", "resourceVersion", "creationTimestamp"} {
			if op.Subresource == "scale" {
				break
			}
			if v, ok := lmd[f]; ok {
				md[f] = gen.DeepCopy(v)
			}
		}
		mf, _ := lmd["managedFields"].([]any)
		switch op.MF {
		case MFLive:
			if mf != nil {
				md["managedFields"] = gen.DeepCopy(mf)
			}
		case MFOmit:
			delete(md, "managedFields")
		case MFEmpty:
			md["managedFields"] = []any{}
		case MFEmptyIt:
			md["managedFields"] = []any{map[string]any{}}
		case MFRename, MFDrop:
			var out []any
			for _, e := range mf {
				em, _ := gen.DeepCopy(e).(map[string]any)
				if len(op.Rename) > 0 && em["manager"] == op.Rename[0] {
					if op.MF == MFDrop {
						continue
					}
					if len(op.Rename) > 1 {
						em["manager"] = op.Rename[1]
					}
				}
				out = append(out, em)
			}
			if out == nil {
				out = []any{}
			}
			md["managedFields"] = out
		case MFInvalid:
			md["managedFields"] = []any{map[string]any{"manager": "broken", "operation": "Sideways", "apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": map[string]any{}}}
		case MFLiteral:
			md["managedFields"] = gen.DeepCopy(op.ManagedFields)
		}
	} else if op.Verb == VerbUpdate && op.MF == MFLiteral {
		metadataOf(obj, true)["managedFields"] = gen.DeepCopy(op.ManagedFields)
	}
	var l map[string]any
	if live != nil {
		l, _ = gen.DeepCopy(live).(map[string]any)
		if op.ReadAs != "" && len(k.Versions) > 0 {
			// The client read the object at another version (the server converts it).
			if c, err := oracle.ReadAs(legacyscheme.Scheme, l, k.At(op.ReadAs).GroupVersion()); err == nil {
				l = c
			}
		}
	}
	return oracle.Request{GVK: k.At(op.Version), Subresource: op.Subresource, Live: l, Object: obj, Manager: op.Manager, Force: op.Force, Now: op.Now}
}

func metadataOf(obj map[string]any, create bool) map[string]any {
	md, ok := obj["metadata"].(map[string]any)
	if !ok && create {
		md = map[string]any{}
		obj["metadata"] = md
	}
	return md
}

// Do sends a request to a predictor.
func Do(p Predictor, verb string, req oracle.Request) (oracle.Response, error) {
	if verb == VerbApply {
		return p.Apply(req)
	}
	return p.Update(req)
}

// Store is what the registry store adds to a created object (the field manager never
// sees these fields change): a uid and a creation time.
func Store(created bool, obj map[string]any, step int, now time.Time) map[string]any {
	if obj == nil || !created {
		return obj
	}
	md := metadataOf(obj, true)
	md["uid"] = fmt.Sprintf("00000000-0000-0000-0000-%012d", step+1)
	md["creationTimestamp"] = now.UTC().Format(time.RFC3339)
	return obj
}

// Step runs one op on both predictors and compares their answers. It returns the
// oracle's answer and a divergence, or nil when they agree.
func Step(k *KindSpec, srv, eng Predictor, live map[string]any, op Op) (oracle.Response, *Divergence, error) {
	want, err := Do(srv, op.Verb, Request(k, live, op))
	if err != nil {
		return oracle.Response{}, nil, fmt.Errorf("oracle: %w", err)
	}
	got, err := Do(eng, op.Verb, Request(k, live, op))
	if err != nil {
		return want, &Divergence{Kind: k.Name, Live: live, Request: op, Oracle: want, Category: "engine-error", Diff: "the engine failed: " + err.Error()}, nil
	}
	if cat, diff := Compare(want, got); cat != "" {
		if cat == "status-message" && mapOrderDependent(want.Error.Message) {
			if again, ok := serverAlsoGives(srv, k, live, op, got); ok {
				return again, nil, nil
			}
		}
		return want, &Divergence{Kind: k.Name, Live: live, Request: op, Oracle: want, Engine: got, Category: cat, Diff: diff}, nil
	}
	return want, nil, nil
}

// mapOrderDependent: a typing error whose list of errors depends on Go's map order.
// structured-merge-diff stops walking a map at its first field the schema does not declare
// (typed/validate.go visitMapItems), so which of an object's other errors are listed varies
// from request to request on the server itself: an apply with an unknown top-level field
// and an unknown field deeper in spec is answered with one error or both. The engine walks
// keys in order (merge parseSorted), one of the orders the server may take.
func mapOrderDependent(msg string) bool {
	return strings.Contains(msg, "field not declared in schema")
}

// mapOrderTries is how many times serverAlsoGives asks: an order the engine's answer
// needs comes, for two competing fields, with probability 1/2 a try.
const mapOrderTries = 24

// serverAlsoGives asks the server the same request again, up to mapOrderTries times, and
// returns its answer when it is the engine's got: the engine's answer is one the server
// gives. A failed typing changes nothing, so asking again is safe.
func serverAlsoGives(srv Predictor, k *KindSpec, live map[string]any, op Op, got oracle.Response) (oracle.Response, bool) {
	for range mapOrderTries {
		again, err := Do(srv, op.Verb, Request(k, live, op))
		if err != nil {
			return oracle.Response{}, false
		}
		if cat, _ := Compare(again, got); cat == "" {
			return again, true
		}
	}
	return oracle.Response{}, false
}

// Replay runs a sequence on both predictors, the oracle's answers becoming the live
// object. It stops at the first divergence. steps counts the ops run.
func Replay(k *KindSpec, srv, eng Predictor, seq []Op) (steps int, d *Divergence, err error) {
	var live map[string]any
	for i, op := range seq {
		want, d, err := Step(k, srv, eng, live, op)
		if err != nil {
			return i, nil, err
		}
		if d != nil {
			d.Step = i
			return i + 1, d, nil
		}
		live = advance(k, live, want, i, op.Now)
	}
	return len(seq), nil, nil
}

// advance is the stored object after an answer: the oracle's object, with what the store
// adds on create. For built-in kinds, nulls are dropped as decoding into the Go types
// drops them (the oracle, like the engine here, runs no Go decoding; without this, live
// objects would hold nulls no API server ever stores).
func advance(k *KindSpec, live map[string]any, r oracle.Response, step int, now time.Time) map[string]any {
	if r.Error != nil || r.Object == nil {
		return live
	}
	obj, _ := gen.DeepCopy(r.Object).(map[string]any)
	if k.GVK.Group != "example.com" && len(k.Versions) == 0 {
		// (The oracle's answers for kinds served with the server's scheme are already
		// what the Go types encode.)
		dropNulls(obj)
	}
	return Store(live == nil, obj, step, now)
}

func dropNulls(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if x == nil {
				delete(t, k)
				continue
			}
			dropNulls(x)
		}
	case []any:
		for _, x := range t {
			dropNulls(x)
		}
	}
}

// Compare compares two answers. It returns "" when they agree, else a category and a
// description of the first difference. Objects are compared as canonical JSON, so
// managedFields (times included: both sides stamp the same second) are compared byte
// for byte; conflicts by code, reason and message byte for byte, causes as a multiset.
func Compare(want, got oracle.Response) (category, diff string) {
	switch {
	case want.Error != nil && got.Error == nil:
		return "accepted", fmt.Sprintf("the server refuses with %d %q, the engine accepts", want.Error.Code, want.Error.Message)
	case want.Error == nil && got.Error != nil:
		return "refused", fmt.Sprintf("the server accepts, the engine refuses with %d %q", got.Error.Code, got.Error.Message)
	case want.Error != nil:
		w, g := want.Error, got.Error
		if w.Code != g.Code {
			return "status-code", fmt.Sprintf("code: server %d, engine %d (server message %q)", w.Code, g.Code, w.Message)
		}
		if errorLines(w.Message) != errorLines(g.Message) {
			return "status-message", fmt.Sprintf("message:\n  server: %q\n  engine: %q", w.Message, g.Message)
		}
		if w.Reason != g.Reason {
			return "status-reason", fmt.Sprintf("reason: server %q, engine %q", w.Reason, g.Reason)
		}
		if a, b := causeKeys(w.Causes), causeKeys(g.Causes); !reflect.DeepEqual(a, b) {
			return "status-causes", fmt.Sprintf("causes:\n  server: %v\n  engine: %v", a, b)
		}
		return "", ""
	}
	wmf, gmf := managedFieldsJSON(want.Object), managedFieldsJSON(got.Object)
	if wmf != gmf {
		return "managedFields", fmt.Sprintf("managedFields:\n  server: %s\n  engine: %s", wmf, gmf)
	}
	wo, go_ := canonical(withoutMF(want.Object)), canonical(withoutMF(got.Object))
	if wo != go_ {
		return "object", "object: " + firstDifference(withoutMF(want.Object), withoutMF(got.Object), "")
	}
	return "", ""
}

// errorLines puts the lines of a multi-error message ("…: errors:\n  a\n  b") in order:
// structured-merge-diff lists the errors of a map in Go map order, which varies from run
// to run on the server too.
func errorLines(msg string) string {
	i := strings.Index(msg, "errors:\n")
	if i < 0 {
		return msg
	}
	lines := strings.Split(msg[i+len("errors:\n"):], "\n")
	sort.Strings(lines)
	return msg[:i] + "errors:\n" + strings.Join(lines, "\n")
}

func causeKeys(cs []oracle.Cause) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.Reason+"\x00"+c.Message+"\x00"+c.Field)
	}
	sort.Strings(out)
	return out
}

func withoutMF(obj map[string]any) map[string]any {
	c, _ := gen.DeepCopy(obj).(map[string]any)
	if md := metadataOf(c, false); md != nil {
		delete(md, "managedFields")
	}
	return c
}

func managedFieldsJSON(obj map[string]any) string {
	md := metadataOf(obj, false)
	mf, ok := md["managedFields"]
	if !ok {
		return "<none>"
	}
	return canonical(mf)
}

// canonical is the JSON of v with sorted keys and numbers as the server writes them.
func canonical(v any) string {
	b, err := json.Marshal(normalizeNumbers(v))
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}

// normalizeNumbers turns every number into its JSON text, so that int64(1) and
// float64(1) compare equal (they are the same JSON).
func normalizeNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(t))
		for k, x := range t {
			c[k] = normalizeNumbers(x)
		}
		return c
	case []any:
		c := make([]any, len(t))
		for i, x := range t {
			c[i] = normalizeNumbers(x)
		}
		return c
	case int, int32, int64, float32, float64, json.Number:
		b, _ := json.Marshal(t)
		return json.RawMessage(b)
	default:
		return v
	}
}

func firstDifference(a, b any, at string) string {
	ca, cb := canonical(a), canonical(b)
	if ca == cb {
		return ""
	}
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		var sorted []string
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			av, ain := am[k]
			bv, bin := bm[k]
			switch {
			case ain && !bin:
				return fmt.Sprintf("%s.%s: server %s, engine has nothing", at, k, clip(canonical(av)))
			case !ain && bin:
				return fmt.Sprintf("%s.%s: server has nothing, engine %s", at, k, clip(canonical(bv)))
			}
			if d := firstDifference(av, bv, at+"."+k); d != "" {
				return d
			}
		}
	}
	al, alok := a.([]any)
	bl, blok := b.([]any)
	if alok && blok && len(al) == len(bl) {
		for i := range al {
			if d := firstDifference(al[i], bl[i], fmt.Sprintf("%s[%d]", at, i)); d != "" {
				return d
			}
		}
	}
	return fmt.Sprintf("%s: server %s, engine %s", at, clip(ca), clip(cb))
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// Pretty is indented JSON, for messages.
func Pretty(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(normalizeNumbers(v)); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(buf.String())
}
