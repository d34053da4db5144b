package output

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/jsontext"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/judge/advice"
	"github.com/ssa-diff/ssa-diff/merge"
)

// reportEncoder writes the report and the types under it as an encoding/json.Encoder with
// SetEscapeHTML(false) writes them — compact when indent is "", else indented as
// SetIndent(prefix, indent) indents them, the first line without prefix — but without
// encoding/json's reflection: one writer per type, fields in the order, with the options
// (omitempty) of their tags. Decoded JSON values (objects, the `any` fields) are written by
// fieldsjson, which leaves what it does not know to encoding/json; a Marshaler's text is
// compacted and indented as encoding/json does. reportFields lists the fields each writer
// writes; TestReportWriterKnowsEveryField holds it to the types.
type reportEncoder struct {
	b              []byte
	prefix, indent string
	depth          int
	err            error
	levels         []string // prefix+indent×depth, by depth, as made
}

// appendReportJSON appends rep as encoding/json writes it (see reportEncoder).
func appendReportJSON(dst []byte, rep *report.Report, prefix, indent string) ([]byte, error) {
	e := reportEncoder{b: dst, prefix: prefix, indent: indent}
	e.report(rep)
	return e.b, e.err
}

// appendResultJSON appends res as encoding/json writes it (see reportEncoder).
func appendResultJSON(dst []byte, res *report.Result, prefix, indent string) ([]byte, error) {
	e := reportEncoder{b: dst, prefix: prefix, indent: indent}
	e.result(res)
	return e.b, e.err
}

// encodeReport is encodeJSON(rep, indent), written by appendReportJSON.
func encodeReport(rep *report.Report, indent string) ([]byte, error) {
	b, err := appendReportJSON(nil, rep, "", indent)
	if err != nil {
		return nil, err
	}
	if indent != "" {
		b = append(b, '\n')
	}
	return b, nil
}

// level is the text that starts a line at the current depth.
func (e *reportEncoder) level() string {
	for len(e.levels) <= e.depth {
		e.levels = append(e.levels, e.prefix+strings.Repeat(e.indent, len(e.levels)))
	}
	return e.levels[e.depth]
}

func (e *reportEncoder) newline() {
	if e.indent != "" {
		e.b = append(e.b, '\n')
		e.b = append(e.b, e.level()...)
	}
}

// open starts an object or an array.
func (e *reportEncoder) open(c byte) {
	e.b = append(e.b, c)
	e.depth++
}

// close ends an object or an array of n members.
func (e *reportEncoder) close(n int, c byte) {
	e.depth--
	if n > 0 {
		e.newline()
	}
	e.b = append(e.b, c)
}

// key starts the member k (a name that needs no escaping) of the object being written,
// counted in n.
func (e *reportEncoder) key(n *int, k string) {
	if *n > 0 {
		e.b = append(e.b, ',')
	}
	*n++
	e.newline()
	e.b = append(e.b, '"')
	e.b = append(e.b, k...)
	e.b = append(e.b, '"', ':')
	if e.indent != "" {
		e.b = append(e.b, ' ')
	}
}

// elem starts an element of the array being written, counted in n.
func (e *reportEncoder) elem(n *int) {
	if *n > 0 {
		e.b = append(e.b, ',')
	}
	*n++
	e.newline()
}

func (e *reportEncoder) str(s string) {
	var err error
	if e.b, err = fieldsjson.AppendStringUnescaped(e.b, s); err != nil && e.err == nil {
		e.err = err
	}
}

func (e *reportEncoder) int(i int64) { e.b = strconv.AppendInt(e.b, i, 10) }

func (e *reportEncoder) bool(v bool) { e.b = strconv.AppendBool(e.b, v) }

func (e *reportEncoder) null() { e.b = append(e.b, "null"...) }

// value writes a decoded JSON value (or anything else, by encoding/json).
func (e *reportEncoder) value(v any) {
	var err error
	if e.indent == "" {
		e.b, err = fieldsjson.AppendJSONUnescaped(e.b, v)
	} else {
		e.b, err = fieldsjson.AppendJSONUnescapedIndent(e.b, v, e.level(), e.indent)
	}
	if err != nil && e.err == nil {
		e.err = err
	}
}

// marshaled writes the text of a Marshaler of type t as encoding/json does: compacted, then
// indented; its error as encoding/json reports it.
func (e *reportEncoder) marshaled(t reflect.Type, b []byte, err error) {
	if err == nil {
		var buf bytes.Buffer
		if err = json.Compact(&buf, b); err == nil {
			if e.indent == "" {
				e.b = append(e.b, buf.Bytes()...)
				return
			}
			out := bytes.NewBuffer(e.b)
			if err = jsontext.Indent(out, buf.Bytes(), e.level(), e.indent); err == nil {
				e.b = out.Bytes()
				return
			}
		}
	}
	if e.err == nil {
		e.err = &json.MarshalerError{Type: t, Err: err}
	}
}

func (e *reportEncoder) time(t time.Time) {
	b, err := t.MarshalJSON()
	e.marshaled(reflect.TypeFor[time.Time](), b, err)
}

// timePtr writes a *time.Time field that is not nil (encoding/json names the pointer's type
// in its error).
func (e *reportEncoder) timePtr(t *time.Time) {
	b, err := t.MarshalJSON()
	e.marshaled(reflect.TypeFor[*time.Time](), b, err)
}

// raw writes a json.RawMessage (nil as null), as encoding/json does.
func (e *reportEncoder) raw(m json.RawMessage) {
	if m == nil {
		e.null()
		return
	}
	e.marshaled(reflect.TypeFor[json.RawMessage](), m, nil)
}

func (e *reportEncoder) strings(s []string) {
	if s == nil {
		e.null()
		return
	}
	e.open('[')
	n := 0
	for _, x := range s {
		e.elem(&n)
		e.str(x)
	}
	e.close(n, ']')
}

// list writes s with write for each element (nil as null).
func list[T any](e *reportEncoder, s []T, write func(*T)) {
	if s == nil {
		e.null()
		return
	}
	e.open('[')
	n := 0
	for i := range s {
		e.elem(&n)
		write(&s[i])
	}
	e.close(n, ']')
}

// reportFields lists, per type (by its Go name, package-qualified), the Go fields the
// writers below write, in order; "-" ones are the fields encoding/json leaves out.
func reportFields() map[string][]string {
	return map[string][]string{
		"report.Report":      {"APIVersion", "Kind", "Options", "Results", "Summary", "Shard"},
		"report.Options":     {"FieldManager", "Force", "Applier", "Subresource", "KubernetesVersion", "Now", "Policy"},
		"gate.Policy":        {"FailOn", "AllowTakeoverFrom", "Protect", "Ignore"},
		"report.Summary":     {"Objects", "Created", "Updated", "Unchanged", "Rejected", "Errors", "Changed", "Conflicts", "Takeovers", "Deletions", "Pruned", "Approximate", "Failures", "ExitCode"},
		"report.Shard":       {"Index", "Count", "Run", "Total", "Results"},
		"report.ShardResult": {"Position", "Live", "Manifest"},
		"report.Result": {"APIVersion", "Kind", "Namespace", "Name", "GenerateName", "Source", "LiveSource", "Action", "Changed",
			"Object", "Conflicts", "Ownership", "Deleted", "Assigned", "Steps", "Error", "Warnings", "Approximations", "Prune",
			"Drift", "SyncStatus", "Findings", "Advice", "State", "WithForce", "-Live", "-Manifest"},
		"input.Source":        {"File", "Document", "Item", "Line", "Via"},
		"report.Manager":      {"Manager", "Operation", "APIVersion", "Subresource", "Time"},
		"report.Conflict":     {"Manager", "Owner", "Path", "Pointer", "Live", "Applied"},
		"report.Ownership":    {"Manager", "Taken", "Released", "Deleted", "Gained", "Removed", "MovedFrom"},
		"report.Step":         {"Description", "Manager", "Code"},
		"report.Error":        {"Code", "Reason", "Message", "Causes", "Status", "Path", "Line", "Admission", "Fields"},
		"merge.StatusCause":   {"Reason", "Message", "Field"},
		"judge.ErrorField":    {"Path", "DidYouMean"},
		"judge.Approximation": {"Reason", "Message"},
		"report.Prune":        {"Applier", "Message"},
		"judge.DriftField":    {"Path", "Pointer", "Live", "Owners", "Fate", "Predicted", "Default", "WithForce"},
		"judge.DriftOwner":    {"Manager", "Operation", "APIVersion", "Subresource"},
		"judge.DriftForced":   {"Fate", "Predicted"},
		"judge.SyncStatus":    {"Tool", "Status", "NormalizedLive", "PredictedLive", "Error"},
		"gate.Finding":        {"Category", "Level", "Manager", "Reason", "Paths", "Message", "File", "Line"},
		"advice.Advice":       {"ID", "Severity", "Message", "Fix", "Paths", "Managers"},
		"advice.State": {"Generation", "ObservedGeneration", "HasObservedGeneration", "Observed", "Counters", "Converged",
			"Conditions", "Healthy", "Advice"},
		"advice.Counter":   {"Name", "Path", "Have", "Want"},
		"advice.Condition": {"Type", "Status", "Reason", "Message", "Since", "For", "Bad", "Reported"},
	}
}

func (e *reportEncoder) report(r *report.Report) {
	if r == nil {
		e.null()
		return
	}
	n := 0
	e.open('{')
	e.key(&n, "apiVersion")
	e.str(r.APIVersion)
	e.key(&n, "kind")
	e.str(r.Kind)
	e.key(&n, "options")
	e.options(&r.Options)
	e.key(&n, "results")
	if r.Results == nil {
		e.null()
	} else {
		e.open('[')
		m := 0
		for _, res := range r.Results {
			e.elem(&m)
			e.result(res)
		}
		e.close(m, ']')
	}
	e.key(&n, "summary")
	e.summary(&r.Summary)
	if r.Shard != nil {
		e.key(&n, "shard")
		e.shard(r.Shard)
	}
	e.close(n, '}')
}

func (e *reportEncoder) options(o *report.Options) {
	n := 0
	e.open('{')
	e.key(&n, "fieldManager")
	e.str(o.FieldManager)
	e.key(&n, "force")
	e.bool(o.Force)
	e.key(&n, "applier")
	e.str(o.Applier)
	if o.Subresource != "" {
		e.key(&n, "subresource")
		e.str(o.Subresource)
	}
	e.key(&n, "kubernetesVersion")
	e.str(o.KubernetesVersion)
	e.key(&n, "now")
	e.time(o.Now)
	if o.Policy != nil {
		e.key(&n, "policy")
		e.policy(o.Policy)
	}
	e.close(n, '}')
}

func (e *reportEncoder) policy(p *report.Policy) {
	n := 0
	e.open('{')
	e.key(&n, "failOn")
	e.strings(p.FailOn)
	if len(p.AllowTakeoverFrom) > 0 {
		e.key(&n, "allowTakeoverFrom")
		e.strings(p.AllowTakeoverFrom)
	}
	if len(p.Protect) > 0 {
		e.key(&n, "protect")
		e.strings(p.Protect)
	}
	if p.Ignore != nil {
		e.key(&n, "ignore")
		e.ignore(p.Ignore)
	}
	e.close(n, '}')
}

func (e *reportEncoder) ignore(ig *judge.Ignore) {
	b, err := ig.MarshalJSON()
	e.marshaled(reflect.TypeFor[*judge.Ignore](), b, err)
}

func (e *reportEncoder) summary(s *report.Summary) {
	n := 0
	e.open('{')
	for _, c := range [...]struct {
		key       string
		v         int
		omitEmpty bool
	}{
		{"objects", s.Objects, false}, {"created", s.Created, false}, {"updated", s.Updated, false},
		{"unchanged", s.Unchanged, false}, {"rejected", s.Rejected, false}, {"errors", s.Errors, false},
		{"changed", s.Changed, false}, {"conflicts", s.Conflicts, false}, {"takeovers", s.Takeovers, false},
		{"deletions", s.Deletions, false}, {"pruned", s.Pruned, true}, {"approximate", s.Approximate, true},
		{"failures", s.Failures, false}, {"exitCode", s.ExitCode, false},
	} {
		if c.omitEmpty && c.v == 0 {
			continue
		}
		e.key(&n, c.key)
		e.int(int64(c.v))
	}
	e.close(n, '}')
}

func (e *reportEncoder) shard(s *report.Shard) {
	n := 0
	e.open('{')
	e.key(&n, "index")
	e.int(int64(s.Index))
	e.key(&n, "count")
	e.int(int64(s.Count))
	e.key(&n, "run")
	e.str(s.Run)
	e.key(&n, "total")
	e.int(int64(s.Total))
	e.key(&n, "results")
	list(e, s.Results, func(r *report.ShardResult) {
		m := 0
		e.open('{')
		e.key(&m, "position")
		e.int(int64(r.Position))
		if len(r.Live) > 0 {
			e.key(&m, "live")
			e.value(r.Live)
		}
		if len(r.Manifest) > 0 {
			e.key(&m, "manifest")
			e.value(r.Manifest)
		}
		e.close(m, '}')
	})
	e.close(n, '}')
}

func (e *reportEncoder) result(r *report.Result) {
	if r == nil {
		e.null()
		return
	}
	n := 0
	e.open('{')
	e.key(&n, "apiVersion")
	e.str(r.APIVersion)
	e.key(&n, "kind")
	e.str(r.Kind)
	if r.Namespace != "" {
		e.key(&n, "namespace")
		e.str(r.Namespace)
	}
	e.key(&n, "name")
	e.str(r.Name)
	if r.GenerateName != "" {
		e.key(&n, "generateName")
		e.str(r.GenerateName)
	}
	e.key(&n, "source")
	e.source(&r.Source)
	if r.LiveSource != nil {
		e.key(&n, "liveSource")
		e.source(r.LiveSource)
	}
	e.key(&n, "action")
	e.str(string(r.Action))
	e.key(&n, "changed")
	e.bool(r.Changed)
	if len(r.Object) > 0 {
		e.key(&n, "object")
		e.value(r.Object)
	}
	e.key(&n, "conflicts")
	list(e, r.Conflicts, e.conflict)
	e.key(&n, "ownership")
	list(e, r.Ownership, e.ownership)
	e.key(&n, "deleted")
	e.strings(r.Deleted)
	if len(r.Assigned) > 0 {
		e.key(&n, "assigned")
		e.strings(r.Assigned)
	}
	if len(r.Steps) > 0 {
		e.key(&n, "steps")
		list(e, r.Steps, e.step)
	}
	if r.Error != nil {
		e.key(&n, "error")
		e.error(r.Error)
	}
	e.key(&n, "warnings")
	e.strings(r.Warnings)
	if len(r.Approximations) > 0 {
		e.key(&n, "approximations")
		list(e, r.Approximations, e.approximation)
	}
	if r.Prune != nil {
		e.key(&n, "prune")
		e.prune(r.Prune)
	}
	if len(r.Drift) > 0 {
		e.key(&n, "drift")
		list(e, r.Drift, e.driftField)
	}
	if r.SyncStatus != nil {
		e.key(&n, "syncStatus")
		e.syncStatus(r.SyncStatus)
	}
	if len(r.Findings) > 0 {
		e.key(&n, "findings")
		list(e, r.Findings, e.finding)
	}
	if len(r.Advice) > 0 {
		e.key(&n, "advice")
		list(e, r.Advice, e.advice)
	}
	if r.State != nil {
		e.key(&n, "state")
		e.state(r.State)
	}
	if r.WithForce != nil {
		e.key(&n, "withForce")
		e.result(r.WithForce)
	}
	e.close(n, '}')
}

func (e *reportEncoder) source(s *input.Source) {
	n := 0
	e.open('{')
	e.key(&n, "file")
	e.str(s.File)
	e.key(&n, "document")
	e.int(int64(s.Document))
	if s.Item != nil {
		e.key(&n, "item")
		e.int(int64(*s.Item))
	}
	if s.Line != 0 {
		e.key(&n, "line")
		e.int(int64(s.Line))
	}
	if s.Via != "" {
		e.key(&n, "via")
		e.str(s.Via)
	}
	e.close(n, '}')
}

// manager writes the members of an embedded report.Manager.
func (e *reportEncoder) manager(n *int, m *report.Manager) {
	e.key(n, "manager")
	e.str(m.Manager)
	e.key(n, "operation")
	e.str(m.Operation)
	if m.APIVersion != "" {
		e.key(n, "apiVersion")
		e.str(m.APIVersion)
	}
	if m.Subresource != "" {
		e.key(n, "subresource")
		e.str(m.Subresource)
	}
	if m.Time != nil {
		e.key(n, "time")
		e.timePtr(m.Time)
	}
}

func (e *reportEncoder) conflict(c *report.Conflict) {
	n := 0
	e.open('{')
	e.manager(&n, &c.Manager)
	e.key(&n, "owner")
	e.str(c.Owner)
	e.key(&n, "path")
	e.str(c.Path)
	if c.Pointer != "" {
		e.key(&n, "pointer")
		e.str(c.Pointer)
	}
	e.key(&n, "live")
	e.value(c.Live)
	e.key(&n, "applied")
	e.value(c.Applied)
	e.close(n, '}')
}

func (e *reportEncoder) ownership(o *report.Ownership) {
	n := 0
	e.open('{')
	e.manager(&n, &o.Manager)
	for _, f := range [...]struct {
		key   string
		paths []string
	}{{"taken", o.Taken}, {"released", o.Released}, {"deleted", o.Deleted}, {"gained", o.Gained}} {
		if len(f.paths) > 0 {
			e.key(&n, f.key)
			e.strings(f.paths)
		}
	}
	if o.Removed {
		e.key(&n, "removed")
		e.bool(true)
	}
	if o.MovedFrom != "" {
		e.key(&n, "movedFrom")
		e.str(o.MovedFrom)
	}
	e.close(n, '}')
}

func (e *reportEncoder) step(s *report.Step) {
	n := 0
	e.open('{')
	e.key(&n, "description")
	e.str(s.Description)
	e.key(&n, "manager")
	e.str(s.Manager)
	e.key(&n, "code")
	e.int(int64(s.Code))
	e.close(n, '}')
}

func (e *reportEncoder) error(r *report.Error) {
	n := 0
	e.open('{')
	e.key(&n, "code")
	e.int(int64(r.Code))
	if r.Reason != "" {
		e.key(&n, "reason")
		e.str(r.Reason)
	}
	e.key(&n, "message")
	e.str(r.Message)
	if len(r.Causes) > 0 {
		e.key(&n, "causes")
		list(e, r.Causes, e.statusCause)
	}
	if len(r.Status) > 0 {
		e.key(&n, "status")
		e.raw(r.Status)
	}
	if r.Path != "" {
		e.key(&n, "path")
		e.str(r.Path)
	}
	if r.Line != 0 {
		e.key(&n, "line")
		e.int(int64(r.Line))
	}
	if r.Admission != "" {
		e.key(&n, "admission")
		e.str(r.Admission)
	}
	if len(r.Fields) > 0 {
		e.key(&n, "fields")
		list(e, r.Fields, e.errorField)
	}
	e.close(n, '}')
}

func (e *reportEncoder) statusCause(c *merge.StatusCause) {
	n := 0
	e.open('{')
	if c.Reason != "" {
		e.key(&n, "reason")
		e.str(c.Reason)
	}
	if c.Message != "" {
		e.key(&n, "message")
		e.str(c.Message)
	}
	if c.Field != "" {
		e.key(&n, "field")
		e.str(c.Field)
	}
	e.close(n, '}')
}

func (e *reportEncoder) errorField(f *report.ErrorField) {
	n := 0
	e.open('{')
	e.key(&n, "path")
	e.str(f.Path)
	if f.DidYouMean != "" {
		e.key(&n, "didYouMean")
		e.str(f.DidYouMean)
	}
	e.close(n, '}')
}

func (e *reportEncoder) approximation(a *report.Approximation) {
	n := 0
	e.open('{')
	e.key(&n, "reason")
	e.str(a.Reason)
	e.key(&n, "message")
	e.str(a.Message)
	e.close(n, '}')
}

func (e *reportEncoder) prune(p *report.Prune) {
	n := 0
	e.open('{')
	e.key(&n, "applier")
	e.str(p.Applier)
	e.key(&n, "message")
	e.str(p.Message)
	e.close(n, '}')
}

func (e *reportEncoder) driftField(d *report.DriftField) {
	n := 0
	e.open('{')
	e.key(&n, "path")
	e.str(d.Path)
	if d.Pointer != "" {
		e.key(&n, "pointer")
		e.str(d.Pointer)
	}
	e.key(&n, "live")
	e.value(d.Live)
	e.key(&n, "owners")
	list(e, d.Owners, e.driftOwner)
	e.key(&n, "fate")
	e.str(d.Fate)
	if d.Predicted != nil {
		e.key(&n, "predicted")
		e.value(d.Predicted)
	}
	if d.Default {
		e.key(&n, "default")
		e.bool(true)
	}
	if d.WithForce != nil {
		e.key(&n, "withForce")
		m := 0
		e.open('{')
		e.key(&m, "fate")
		e.str(d.WithForce.Fate)
		if d.WithForce.Predicted != nil {
			e.key(&m, "predicted")
			e.value(d.WithForce.Predicted)
		}
		e.close(m, '}')
	}
	e.close(n, '}')
}

func (e *reportEncoder) driftOwner(o *judge.DriftOwner) {
	n := 0
	e.open('{')
	e.key(&n, "manager")
	e.str(o.Manager)
	e.key(&n, "operation")
	e.str(o.Operation)
	if o.APIVersion != "" {
		e.key(&n, "apiVersion")
		e.str(o.APIVersion)
	}
	if o.Subresource != "" {
		e.key(&n, "subresource")
		e.str(o.Subresource)
	}
	e.close(n, '}')
}

func (e *reportEncoder) syncStatus(s *judge.SyncStatus) {
	n := 0
	e.open('{')
	e.key(&n, "tool")
	e.str(s.Tool)
	e.key(&n, "status")
	e.str(s.Status)
	if len(s.NormalizedLive) > 0 {
		e.key(&n, "normalizedLive")
		e.value(s.NormalizedLive)
	}
	if len(s.PredictedLive) > 0 {
		e.key(&n, "predictedLive")
		e.value(s.PredictedLive)
	}
	if s.Error != "" {
		e.key(&n, "error")
		e.str(s.Error)
	}
	e.close(n, '}')
}

func (e *reportEncoder) finding(f *report.Finding) {
	n := 0
	e.open('{')
	e.key(&n, "category")
	e.str(f.Category)
	e.key(&n, "level")
	e.str(f.Level)
	if f.Manager != "" {
		e.key(&n, "manager")
		e.str(f.Manager)
	}
	if f.Reason != "" {
		e.key(&n, "reason")
		e.str(f.Reason)
	}
	if len(f.Paths) > 0 {
		e.key(&n, "paths")
		e.strings(f.Paths)
	}
	e.key(&n, "message")
	e.str(f.Message)
	if f.File != "" {
		e.key(&n, "file")
		e.str(f.File)
	}
	if f.Line != 0 {
		e.key(&n, "line")
		e.int(int64(f.Line))
	}
	e.close(n, '}')
}

func (e *reportEncoder) advice(a *advice.Advice) {
	n := 0
	e.open('{')
	e.key(&n, "id")
	e.str(a.ID)
	e.key(&n, "severity")
	e.str(string(a.Severity))
	e.key(&n, "message")
	e.str(a.Message)
	e.key(&n, "fix")
	e.str(a.Fix)
	if len(a.Paths) > 0 {
		e.key(&n, "paths")
		e.strings(a.Paths)
	}
	if len(a.Managers) > 0 {
		e.key(&n, "managers")
		e.strings(a.Managers)
	}
	e.close(n, '}')
}

func (e *reportEncoder) state(s *advice.State) {
	n := 0
	e.open('{')
	if s.Generation != 0 {
		e.key(&n, "generation")
		e.int(s.Generation)
	}
	if s.ObservedGeneration != 0 {
		e.key(&n, "observedGeneration")
		e.int(s.ObservedGeneration)
	}
	if s.HasObservedGeneration {
		e.key(&n, "hasObservedGeneration")
		e.bool(true)
	}
	e.key(&n, "observed")
	e.bool(s.Observed)
	if len(s.Counters) > 0 {
		e.key(&n, "counters")
		list(e, s.Counters, func(c *advice.Counter) {
			m := 0
			e.open('{')
			e.key(&m, "name")
			e.str(c.Name)
			e.key(&m, "path")
			e.str(c.Path)
			e.key(&m, "have")
			e.int(c.Have)
			e.key(&m, "want")
			e.int(c.Want)
			e.close(m, '}')
		})
	}
	e.key(&n, "converged")
	e.bool(s.Converged)
	if len(s.Conditions) > 0 {
		e.key(&n, "conditions")
		list(e, s.Conditions, e.condition)
	}
	e.key(&n, "healthy")
	e.bool(s.Healthy)
	if len(s.Advice) > 0 {
		e.key(&n, "advice")
		list(e, s.Advice, e.advice)
	}
	e.close(n, '}')
}

func (e *reportEncoder) condition(c *advice.Condition) {
	n := 0
	e.open('{')
	e.key(&n, "type")
	e.str(c.Type)
	e.key(&n, "status")
	e.str(c.Status)
	if c.Reason != "" {
		e.key(&n, "reason")
		e.str(c.Reason)
	}
	if c.Message != "" {
		e.key(&n, "message")
		e.str(c.Message)
	}
	if c.Since != nil {
		e.key(&n, "since")
		e.timePtr(c.Since)
	}
	if c.For != 0 {
		e.key(&n, "for")
		e.int(int64(c.For))
	}
	if c.Bad {
		e.key(&n, "bad")
		e.bool(true)
	}
	if c.Reported {
		e.key(&n, "reported")
		e.bool(true)
	}
	e.close(n, '}')
}
