package output

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/blame"
	"github.com/ssa-diff/ssa-diff/internal/jsontext"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/judge/advice"
	"github.com/ssa-diff/ssa-diff/judge/gate"
)

// The page's style and script (html/page.*), embedded: the page loads nothing.
//
//go:embed html/page.css html/page.js
var htmlAssets embed.FS

// The bounds of one object's part of the page: past them, its diff and ownership map say
// how many lines they leave out (-o text and -o yaml print everything).
const (
	htmlMaxDiffLines = 800
	htmlMaxMapLines  = 1500
	// htmlMaxLine is how many runes of one line of a diff or map are shown.
	htmlMaxLine = 400
	// htmlMaxValue is how many runes of a conflicting value are shown.
	htmlMaxValue = 300
	// htmlOpenFailing is how many failing objects are open when the page loads (all are
	// listed; the others open with a click).
	htmlOpenFailing = 20
	// htmlOpenFirst: the first objects are open when they change or have findings.
	htmlOpenFirst = 5
	// htmlAttentionListed is how many failing objects the page's head lists.
	htmlAttentionListed = 50
	// htmlColors is the number of manager colours of the style sheet (m0 … m11).
	htmlColors = 12
)

// htmlWriter prints the report as one self-contained HTML page, for a person in a browser
// or a CI artifact: the summary and the policy's verdict, filters (JavaScript; without it
// every object shows), then per object its action, source, refusal, findings, conflicts,
// what --force-conflicts would take, ownership moves, advice, the diff, and the ownership
// map — the stored object's fields coloured by their managers.
//
// Each object's part is rendered (htmlpage.go: every value escaped for where it stands)
// as its result is written, and only those bytes are kept; the page's head, which
// needs the summary, is printed at Close. Managers get their colours in the order they
// are first seen, so the page is the same bytes for the same report.
type htmlWriter struct {
	opts Options
	w    io.Writer
	// css and js are the page's style sheet and script; csp its Content-Security-Policy.
	css, js, csp string

	objects  []byte // the rendered objects, in input order
	n        int
	failing  int
	opened   int
	colors   map[string]int // manager name → colour, in the order first seen
	managers []*htmlManager
	kinds    map[string]int
	spaces   map[string]int
	attn     []htmlAttention
	takers   map[string]*takeCount
	order    []string
	// scalars are short strings printed as YAML (see yamlScalar).
	scalars map[string][]string
}

type htmlManager struct {
	Name    string
	Class   string
	Objects int
}

type htmlAttention struct {
	ID       string
	Title    string
	Where    string
	Category string
	Message  string
}

func newHTML(w io.Writer, opts Options) Writer {
	css, js, err := htmlStyleAndScript()
	if err != nil {
		return errorWriter{err}
	}
	h := &htmlWriter{opts: opts, w: w, css: css, js: js, colors: map[string]int{}, kinds: map[string]int{}, spaces: map[string]int{}, takers: map[string]*takeCount{}, scalars: map[string][]string{}}
	sum := sha256.Sum256([]byte(js))
	h.csp = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	return h
}

// htmlStyleAndScript reads the page's style sheet and script; the page's
// Content-Security-Policy allows the script by its hash.
func htmlStyleAndScript() (css, js string, err error) {
	c, err := htmlAssets.ReadFile("html/page.css")
	if err != nil {
		return "", "", err
	}
	j, err := htmlAssets.ReadFile("html/page.js")
	if err != nil {
		return "", "", err
	}
	return string(c), string(j), nil
}

// errorWriter fails every call with err.
type errorWriter struct{ err error }

func (e errorWriter) Write(*report.Result) error { return e.err }
func (e errorWriter) Close(*report.Report) error { return e.err }

// managerClass is the colour class of a manager ("m3"), given its colour the first time.
func (h *htmlWriter) managerClass(name string) string {
	i, ok := h.colors[name]
	if !ok {
		i = len(h.managers)
		h.colors[name] = i
		h.managers = append(h.managers, &htmlManager{Name: name, Class: fmt.Sprintf("m%d", i%htmlColors)})
	}
	return h.managers[i].Class
}

func (h *htmlWriter) Write(res *report.Result) error {
	h.n++
	v, err := h.object(res)
	if err != nil {
		return err
	}
	p := page{b: h.objects}
	p.object(v)
	h.objects = p.b
	return nil
}

// htmlObject is one object's part of the page.
type htmlObject struct {
	ID, Action, ActionLabel, Kind, Namespace, NamespaceKey, Name, APIVersion, Title string
	Open, Failing                                                                   bool
	Chips                                                                           []htmlChip
	Source, SourceLong, LiveSource, LiveSourceLong                                  string
	Error                                                                           *htmlError
	Findings                                                                        []htmlFinding
	Conflicts                                                                       []htmlConflict
	ConflictsHeading                                                                string
	Force                                                                           *htmlForce
	Ownership                                                                       []htmlOwnership
	// Cols says which columns of the ownership moves hold something.
	Cols                             struct{ Gained, Taken, Released bool }
	Deleted, Assigned, AssignedEvery htmlList
	// Drift are the fields the cluster has that the manifest does not set;
	// DriftDefaults counts those at the server's defaults, DriftDefaultFields.
	Drift, DriftDefaultFields []htmlDrift
	DriftDefaults             string
	// Sync is what the GitOps controller shows of the object before its sync.
	Sync  *htmlSync
	Steps []report.Step
	Prune *report.Prune
	// PruneLevel is the policy's level of the prune's finding ("": none).
	PruneLevel     string
	Approximations []report.Approximation
	Warnings       []string
	Advice         []advice.Advice
	State          *htmlState
	Diff           *htmlDiff
	Map            *htmlMap
}

type htmlChip struct{ Class, Text string }

type htmlError struct {
	Server          bool
	Code            int
	Reason, Message string
	Causes          []htmlCause
	Fields          []report.ErrorField
	Status          string
	Path            string
	Line            int
	// Judged: the policy judged the refusal, and Fails says whether it fails the run.
	Judged, Fails bool
}

type htmlCause struct{ Reason, Message, Field string }

type htmlFinding struct {
	Level, Category, Reason, Manager, Message, Where string
	Paths                                            htmlList
}

type htmlConflict struct {
	Path, Pointer, Owner, Describe, Class, Since, Live, Applied, Where string
}

type htmlForce struct {
	Takes    []htmlTake
	Refused  *htmlError
	Deleted  htmlList
	Warnings []string
	// Action, Gains (the applier's), Assigned and Steps are the forced prediction's; Stores
	// says the diff and the ownership map show the object it stores.
	Stores   bool
	Action   string
	Gains    []htmlTake
	Assigned htmlList
	Steps    []report.Step
}

type htmlTake struct {
	Manager, Class string
	Fields         htmlList
	Removed        bool
}

type htmlOwnership struct {
	Manager, Class, MovedFrom    string
	Gained, Taken, Deleted, Kept htmlList
	Removed, Create              bool
	GainedCount                  int
}

// htmlList is a list of fields, of which the page shows Items and counts the More others.
type htmlList struct {
	Items []string
	More  int
}

// htmlMovesListed is how many fields of one manager's ownership moves the page lists: the
// ownership map marks each field that changes hands, and -o json lists them all.
const htmlMovesListed = 50

func fieldList(paths []string, max int) htmlList {
	if max > 0 && len(paths) > max {
		return htmlList{Items: paths[:max], More: len(paths) - max}
	}
	return htmlList{Items: paths}
}

type htmlState struct {
	Line       string
	Counters   []advice.Counter
	Conditions []htmlCondition
	Advice     []advice.Advice
}

type htmlCondition struct {
	Type, Status, Reason, Message, Since, For string
	Bad, Reported                             bool
}

func (h *htmlWriter) object(res *report.Result) (*htmlObject, error) {
	v := &htmlObject{
		ID: fmt.Sprintf("o%d", h.n), Action: string(res.Action), Kind: res.Kind, Namespace: res.Namespace,
		Name: res.DisplayName(), APIVersion: res.APIVersion, Title: title(res),
		Source: res.Source.Short() + via(res.Source), SourceLong: res.Source.String(),
	}
	v.NamespaceKey = res.Namespace
	if v.NamespaceKey == "" {
		v.NamespaceKey = "(none)"
	}
	h.kinds[res.Kind]++
	h.spaces[v.NamespaceKey]++
	if res.LiveSource != nil {
		v.LiveSource, v.LiveSourceLong = res.LiveSource.Short(), res.LiveSource.String()
	}
	v.ActionLabel = string(res.Action)
	switch {
	case res.Action == report.ActionRejected && res.Error != nil:
		v.ActionLabel = fmt.Sprintf("rejected (%d %s)", res.Error.Code, reasonOf(res.Error))
	case res.Action == report.ActionError:
		v.ActionLabel = "not predicted"
	case res.Action == report.ActionUpdate && !res.Changed:
		v.ActionLabel = "update (only managedFields times)"
	}
	if res.Error != nil {
		v.Error = htmlErrorOf(res.Error)
	}
	notable := false
	conflictAt := map[string]string{}
	var firstFail *report.Finding
	for i, f := range res.Findings {
		if f.Fails() {
			v.Failing = true
			if firstFail == nil {
				firstFail = &res.Findings[i]
			}
		}
		notable = notable || f.Level != report.LevelNotice
		where := ""
		if file, line := findingWhere(res, f); line > 0 {
			where = fmt.Sprintf("%s:%d", file, line)
		}
		switch {
		case f.Category == report.CategoryRejected && v.Error != nil:
			// The refusal's box says it, and whether it fails the run.
			v.Error.Fails, v.Error.Judged = f.Fails(), true
			continue
		case f.Category == report.CategoryPrune && res.Prune != nil && f.Message == res.Prune.Message:
			// The prune's box says it, and how the policy judges it.
			v.PruneLevel = f.Level
			continue
		case f.Category == report.CategoryConflict && !f.Fails():
			// The conflicts' table says it, at the manifest's line.
			for _, p := range f.Paths {
				conflictAt[p] = where
			}
			continue
		}
		// The paths the message does not name already (it names three at most).
		var paths []string
		for _, p := range f.Paths {
			if !strings.Contains(f.Message, p) {
				paths = append(paths, p)
			}
		}
		v.Findings = append(v.Findings, htmlFinding{Level: f.Level, Category: f.Category, Reason: f.Reason, Manager: f.Manager, Message: f.Message, Where: where, Paths: fieldList(paths, 0)})
	}
	if res.Action == report.ActionError {
		v.Failing = true
	}
	if v.Failing {
		h.failing++
		if len(h.attn) < htmlAttentionListed {
			a := htmlAttention{ID: v.ID, Title: shortTitle(res), Where: res.Source.Short()}
			if firstFail != nil {
				a.Category, a.Message = firstFail.Category, firstLine(firstFail.Message)
				if firstFail.Category == report.CategoryRejected && res.Error != nil {
					a.Message = fmt.Sprintf("%d %s: %s", res.Error.Code, reasonOf(res.Error), firstLine(res.Error.Message))
				}
				if file, line := findingWhere(res, *firstFail); line > 0 {
					a.Where = fmt.Sprintf("%s:%d", file, line)
				}
			} else if res.Error != nil {
				a.Category, a.Message = "error", firstLine(res.Error.Message)
			}
			h.attn = append(h.attn, a)
		}
	}
	switch {
	case v.Failing && h.opened < htmlOpenFailing:
		v.Open = true
		h.opened++
	case h.n <= htmlOpenFirst && (res.Changed || notable || res.Error != nil):
		v.Open = true
	}
	h.order = countTakers(h.takers, h.order, res)

	// Conflicts, with both values (a Secret's hidden).
	v.ConflictsHeading = "Conflicts"
	if res.Action != report.ActionRejected {
		v.ConflictsHeading = "Taken by force"
	}
	for _, c := range res.Conflicts {
		// As JSON with its characters as they are (the page escapes them).
		live, applied := compactPair(func(v any) ([]byte, error) { return encodeJSON(v, "") }, c.Live, c.Applied, htmlMaxValue)
		live, applied = h.opts.maskConflict(res, c.Path, live, applied)
		hc := htmlConflict{Path: c.Path, Pointer: c.Pointer, Owner: c.Owner, Describe: c.Describe(), Class: h.managerClass(c.Manager.Manager), Live: live, Applied: applied, Where: conflictAt[c.Path]}
		if c.Time != nil {
			hc.Since = when(*c.Time, h.opts.Now)
		}
		v.Conflicts = append(v.Conflicts, hc)
	}
	v.Force = h.force(res)

	shown := map[string]bool{}
	for _, o := range res.Ownership {
		ho := htmlOwnership{Manager: o.Describe(), Class: h.managerClass(o.Manager.Manager), MovedFrom: o.MovedFrom,
			Gained: fieldList(o.Gained, htmlMovesListed), Taken: fieldList(o.Taken, htmlMovesListed), Deleted: fieldList(o.Deleted, htmlMovesListed),
			Removed: o.Removed, GainedCount: len(o.Gained)}
		ho.Create = res.Action == report.ActionCreate && o.MovedFrom == ""
		del := map[string]bool{}
		for _, d := range o.Deleted {
			del[d], shown[d] = true, true
		}
		var kept []string
		for _, r := range o.Released {
			if !del[r] {
				kept = append(kept, r)
			}
		}
		ho.Kept = fieldList(kept, htmlMovesListed)
		v.Cols.Gained = v.Cols.Gained || len(o.Gained) > 0
		v.Cols.Taken = v.Cols.Taken || len(o.Taken) > 0
		v.Cols.Released = v.Cols.Released || len(o.Released) > 0
		v.Ownership = append(v.Ownership, ho)
	}
	var deleted, assigned, every []string
	for _, d := range res.Deleted {
		if !shown[d] {
			deleted = append(deleted, d)
		}
	}
	named := map[string]bool{}
	for _, p := range assignedShown(res) {
		named[p] = true
		assigned = append(assigned, p)
	}
	for _, p := range res.Assigned {
		if !named[p] {
			every = append(every, p)
		}
	}
	v.Deleted, v.Assigned, v.AssignedEvery = fieldList(deleted, 0), fieldList(assigned, 0), fieldList(every, 0)
	v.Steps = res.Steps
	v.Prune = res.Prune
	v.Approximations = res.Approximations
	approx := map[string]bool{}
	for _, a := range res.Approximations {
		approx[a.Message] = true
	}
	for _, w := range res.Warnings {
		if !approx[w] {
			v.Warnings = append(v.Warnings, w)
		}
	}
	v.Advice = res.Advice
	if s := res.State; s != nil {
		v.State = htmlStateOf(s, h.opts.Now)
	}

	// Chips: what the object's line says before it is opened.
	if n := len(res.Conflicts); n > 0 && res.Action == report.ActionRejected {
		v.Chips = append(v.Chips, htmlChip{"bad", fmt.Sprintf("%d conflict%s", n, plural(n))})
	}
	taken := 0
	for _, o := range res.Ownership {
		taken += len(o.Taken)
	}
	if taken > 0 {
		v.Chips = append(v.Chips, htmlChip{"warn", fmt.Sprintf("%d field%s taken", taken, plural(taken))})
	}
	if n := len(res.Deleted); n > 0 {
		v.Chips = append(v.Chips, htmlChip{"warn", fmt.Sprintf("%d deleted", n)})
	}
	if len(res.Approximations) > 0 {
		v.Chips = append(v.Chips, htmlChip{"info", "approximate"})
	}
	if n := len(res.Advice); n > 0 {
		v.Chips = append(v.Chips, htmlChip{"info", fmt.Sprintf("%d advice", n)})
	}
	if v.Failing {
		v.Chips = append(v.Chips, htmlChip{"bad", "fails"})
	}

	// The diff and the ownership map: of the stored object, or for a refusal with
	// conflicts, of what --force-conflicts would store.
	stored, storedLive, forced := res.Object, res.Live, false
	if stored == nil && res.WithForce != nil && res.WithForce.Object != nil {
		stored, forced = res.WithForce.Object, true
	}
	var err error
	if res.Action != report.ActionCreate || forced {
		if v.Diff, err = h.diff(res, storedLive, stored, forced); err != nil {
			return nil, err
		}
	}
	switch {
	case stored != nil:
		v.Map, err = h.ownershipMap(res, storedLive, stored, forced)
	case res.Live != nil && res.Action != report.ActionPrune:
		v.Map, err = h.ownershipMap(res, nil, res.Live, false)
	}
	if err != nil {
		return nil, err
	}
	h.countManagers(res, stored)
	// Last: the colours of the managers the rest names are given in the order it names them.
	v.Drift, v.DriftDefaults, v.DriftDefaultFields = h.drift(res)
	if v.Sync, err = h.syncStatus(res); err != nil {
		return nil, err
	}
	return v, nil
}

// countManagers counts the object for each manager of its live or stored object, its
// conflicts and its ownership moves.
func (h *htmlWriter) countManagers(res *report.Result, stored map[string]any) {
	names := append(liveManagers(res.Live), liveManagers(stored)...)
	for _, c := range res.Conflicts {
		names = append(names, c.Manager.Manager)
	}
	for _, o := range res.Ownership {
		names = append(names, o.Manager.Manager)
	}
	seen := map[string]bool{}
	for _, m := range names {
		if !seen[m] {
			seen[m] = true
			h.managerClass(m)
			h.managers[h.colors[m]].Objects++
		}
	}
}

// liveManagers lists the managers of an object's managedFields, in their order.
func liveManagers(obj map[string]any) []string {
	md, _ := obj["metadata"].(map[string]any)
	mf, _ := md["managedFields"].([]any)
	var out []string
	for _, e := range mf {
		if m, ok := e.(map[string]any); ok {
			if name, ok := m["manager"].(string); ok {
				out = append(out, name)
			}
		}
	}
	return out
}

func htmlErrorOf(e *report.Error) *htmlError {
	he := &htmlError{Server: e.Code != 0, Code: e.Code, Reason: reasonOf(e), Message: e.Message, Fields: e.Fields, Path: e.Path, Line: e.Line}
	for _, c := range e.Causes {
		he.Causes = append(he.Causes, htmlCause{Reason: c.Reason, Message: c.Message, Field: c.Field})
	}
	if len(e.Status) > 0 {
		var b bytes.Buffer
		if err := jsontext.Indent(&b, e.Status, "", "  "); err == nil {
			he.Status = b.String()
		} else {
			he.Status = string(e.Status)
		}
	}
	return he
}

// force is what --force-conflicts would take from whom, for a refusal with conflicts.
func (h *htmlWriter) force(res *report.Result) *htmlForce {
	if res.Action != report.ActionRejected || len(res.Conflicts) == 0 {
		return nil
	}
	f := &htmlForce{}
	wf := res.WithForce
	if wf == nil || wf.Action == report.ActionRejected || wf.Action == report.ActionError {
		// Without a forced prediction, the conflicts say what force would take.
		index := map[string]int{}
		for _, c := range res.Conflicts {
			i, ok := index[c.Owner]
			if !ok {
				i = len(f.Takes)
				index[c.Owner] = i
				f.Takes = append(f.Takes, htmlTake{Manager: c.Describe(), Class: h.managerClass(c.Manager.Manager)})
			}
			f.Takes[i].Fields.Items = append(f.Takes[i].Fields.Items, c.Path)
		}
		if wf != nil && wf.Error != nil {
			f.Refused = htmlErrorOf(wf.Error)
		}
		return f
	}
	for _, o := range wf.Ownership {
		if len(o.Taken) > 0 {
			f.Takes = append(f.Takes, htmlTake{Manager: o.Describe(), Class: h.managerClass(o.Manager.Manager), Fields: fieldList(o.Taken, 0), Removed: o.Removed})
		}
		if len(o.Gained) > 0 {
			f.Gains = append(f.Gains, htmlTake{Manager: o.Describe(), Class: h.managerClass(o.Manager.Manager), Fields: fieldList(o.Gained, 0)})
		}
	}
	f.Deleted = fieldList(wf.Deleted, 0)
	f.Warnings = wf.Warnings
	f.Action, f.Assigned, f.Steps, f.Stores = string(wf.Action), fieldList(wf.Assigned, 0), wf.Steps, wf.Object != nil
	return f
}

func htmlStateOf(s *advice.State, now time.Time) *htmlState {
	st := &htmlState{Line: s.String(), Counters: s.Counters, Advice: s.Advice}
	for _, c := range s.Conditions {
		hc := htmlCondition{Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message, Bad: c.Bad, Reported: c.Reported}
		if c.Since != nil {
			hc.Since = when(*c.Since, now)
			hc.For = c.For.String()
		}
		st.Conditions = append(st.Conditions, hc)
	}
	return st
}

// htmlDiff is the unified diff of an object, in hunks of context and change blocks (a
// change block shows side by side on a wide screen).
type htmlDiff struct {
	From, To       string
	Added, Removed int
	Hunks          []htmlHunk
	More           int
	Forced         bool
}

type htmlHunk struct {
	Header string
	// A and B are the line numbers before the hunk's first (the CSS counters' start).
	A, B   int
	Blocks []htmlBlock
}

type htmlBlock struct {
	Change bool
	Lines  []htmlLine
}

type htmlLine struct {
	Op   string // "d", "a", "c"
	Segs []htmlSeg
}

type htmlSeg struct {
	Text string
	Hi   bool
}

func (h *htmlWriter) diff(res *report.Result, live, stored map[string]any, forced bool) (*htmlDiff, error) {
	if stored == nil && res.Action != report.ActionPrune {
		return nil, nil
	}
	a, b, same, err := displayTexts(res, live, stored, h.opts, false)
	if err != nil || same {
		return nil, err
	}
	d := &htmlDiff{From: "live", To: "predicted", Forced: forced}
	switch {
	case live == nil:
		d.From = "live (none: the object is created)"
	case res.Action == report.ActionPrune:
		d.To = "predicted (none: the object is pruned)"
	case forced:
		d.To = "stored with --force-conflicts"
	}
	return textsDiff(a, b, d), nil
}

// textsDiff fills d with the hunks of the diff of a and b.
func textsDiff(a, b string, d *htmlDiff) *htmlDiff {
	budget := htmlMaxDiffLines
	for _, hk := range hunks(gnuLineDiff(a, b, DefaultContext), DefaultContext) {
		if budget <= 0 {
			d.More += len(hk.lines)
			continue
		}
		hv := htmlHunk{Header: hk.header(), A: hk.aStart - 1, B: hk.bStart - 1}
		lines := hk.lines
		if len(lines) > budget {
			d.More += len(lines) - budget
			lines = lines[:budget]
		}
		budget -= len(lines)
		for i := 0; i < len(lines); {
			if lines[i].op == ' ' {
				hv.Blocks = append(hv.Blocks, htmlBlock{Lines: []htmlLine{{Op: "c", Segs: []htmlSeg{{Text: cutLine(lines[i].text)}}}}})
				i++
				continue
			}
			j := i
			for j < len(lines) && lines[j].op != ' ' {
				j++
			}
			hv.Blocks = append(hv.Blocks, changeBlock(lines[i:j]))
			for _, l := range lines[i:j] {
				if l.op == '-' {
					d.Removed++
				} else {
					d.Added++
				}
			}
			i = j
		}
		// Consecutive context lines make one block.
		merged := hv.Blocks[:0]
		for _, bl := range hv.Blocks {
			if n := len(merged); n > 0 && !bl.Change && !merged[n-1].Change {
				merged[n-1].Lines = append(merged[n-1].Lines, bl.Lines...)
				continue
			}
			merged = append(merged, bl)
		}
		hv.Blocks = merged
		d.Hunks = append(d.Hunks, hv)
	}
	return d
}

// changeBlock is a run of removed and added lines; when they pair up, the runes that
// differ are highlighted.
func changeBlock(ops []lineOp) htmlBlock {
	var del, add []string
	for _, o := range ops {
		if o.op == '-' {
			del = append(del, o.text)
		} else {
			add = append(add, o.text)
		}
	}
	bl := htmlBlock{Change: true}
	pair := len(del) == len(add)
	for i, t := range del {
		if pair {
			ds, _ := intraline(t, add[i])
			bl.Lines = append(bl.Lines, htmlLine{Op: "d", Segs: ds})
			continue
		}
		bl.Lines = append(bl.Lines, htmlLine{Op: "d", Segs: []htmlSeg{{Text: cutLine(t)}}})
	}
	for i, t := range add {
		if pair {
			_, as := intraline(del[i], t)
			bl.Lines = append(bl.Lines, htmlLine{Op: "a", Segs: as})
			continue
		}
		bl.Lines = append(bl.Lines, htmlLine{Op: "a", Segs: []htmlSeg{{Text: cutLine(t)}}})
	}
	return bl
}

// intralineTimeout bounds the time spent on the character diff of one pair of lines:
// past it the runs found so far are highlighted.
const intralineTimeout = 2 * time.Second

// intraline splits a removed and an added line into the runs of runes they share and
// those that differ (a character diff, cleaned up to words), for the changed ones to be
// highlighted; lines that share little are left whole: they are different lines, not a
// changed value.
func intraline(a, b string) ([]htmlSeg, []htmlSeg) {
	a, b = cutLine(a), cutLine(b)
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = intralineTimeout
	diffs := dmp.DiffCleanupSemantic(dmp.DiffMain(a, b, false))
	var da, db []htmlSeg
	same, indent := 0, len(a)-len(strings.TrimLeft(a, " "))
	for _, d := range diffs {
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			da, db = append(da, htmlSeg{Text: d.Text}), append(db, htmlSeg{Text: d.Text})
			same += len(d.Text)
		case diffmatchpatch.DiffDelete:
			da = append(da, htmlSeg{Text: d.Text, Hi: true})
		case diffmatchpatch.DiffInsert:
			db = append(db, htmlSeg{Text: d.Text, Hi: true})
		}
	}
	if longest := max(len(a), len(b)) - indent; longest <= 0 || (same-indent)*3 < longest {
		return []htmlSeg{{Text: a}}, []htmlSeg{{Text: b}}
	}
	return da, db
}

func cutLine(s string) string { return gate.Cut(s, htmlMaxLine) }

// htmlMap is the ownership map: the stored object's fields, each line coloured by the
// managers owning it, the lines whose owners change marked. Lines is in blocks: the lines
// of the same owners after one another, each marked line on its own.
type htmlMap struct {
	Title   string
	Lines   []htmlMapLine
	More    int
	Legend  []htmlEntry
	Removed []htmlEntry
	Deleted []htmlDeleted
}

type htmlMapLine struct {
	Class, Label, Text, Mark, MarkClass string
	// Long: the label is longer than its column shows (its title shows it whole).
	Long bool
}

// htmlLabelWidth is how many runes of the owners' label the map's column shows (21ch).
const htmlLabelWidth = 21

type htmlEntry struct {
	Class, Manager, Describe, Time, FieldsType string
}

type htmlDeleted struct {
	Path, Was, Class string
}

// ownerKey identifies a manager across the live and the stored object: its name,
// operation and subresource (an entry's apiVersion and time may change).
func ownerKey(r fieldpath.ManagerRef) string {
	return r.Manager + "\x00" + string(r.Operation) + "\x00" + r.Subresource
}

func ownerNames(refs []fieldpath.ManagerRef) string {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Manager
		if r.Subresource != "" {
			names[i] += "/" + r.Subresource
		}
	}
	return strings.Join(names, ", ")
}

func (h *htmlWriter) ownershipMap(res *report.Result, live, stored map[string]any, forced bool) (*htmlMap, error) {
	shown := stored
	if !h.opts.ShowSecrets && isSecret(stored) {
		_, shown = maskSecret(live, stored)
	}
	lines, err := blame.AnnotateWith(shown, h.yamlScalar)
	if err != nil {
		return nil, fmt.Errorf("the ownership map of %s: %w", title(res), err)
	}
	m := &htmlMap{Title: "Ownership of the stored object"}
	switch {
	case forced:
		m.Title = "Ownership with --force-conflicts"
	case res.Action == report.ActionRejected || res.Action == report.ActionError:
		m.Title = "Ownership of the live object (the apply stores nothing)"
	case res.Action == report.ActionUnchanged:
		m.Title = "Ownership (unchanged)"
	}
	// Who owned each field before: the live object's owners, by path (when some manager's
	// fields change: else every field keeps its owners).
	moves, deletedNow := res.Ownership, res.Deleted
	if forced {
		moves, deletedNow = res.WithForce.Ownership, res.WithForce.Deleted
	}
	var before map[string][]fieldpath.ManagerRef
	if live != nil && (len(moves) > 0 || len(deletedNow) > 0) {
		before = map[string][]fieldpath.ManagerRef{}
		if ll, err := blame.AnnotateWith(live, h.yamlScalar); err == nil {
			for _, l := range ll {
				if l.Path != "" {
					before[l.Path] = l.Owners
				}
			}
		}
	}
	// A refusal's fields, on the live object: the conflicts, or what the server refuses.
	refused := map[string]string{}
	if !forced && res.Action == report.ActionRejected {
		if res.Error != nil {
			for _, f := range res.Error.Fields {
				refused[f.Path] = fmt.Sprintf("✖ refused (%d %s)", res.Error.Code, reasonOf(res.Error))
			}
		}
		for _, c := range res.Conflicts {
			refused[c.Path] = "✖ conflict: " + c.Manager.Manager + " owns it"
		}
	}
	prev := "\x01"
	for i, l := range lines {
		if i == htmlMaxMapLines {
			m.More = len(lines) - i
			break
		}
		ml := htmlMapLine{Text: cutLine(l.Text)}
		var classes []string
		if len(l.Owners) > 0 {
			classes = append(classes, h.managerClass(l.Owners[0].Manager))
		}
		if len(l.Owners) > 1 {
			classes = append(classes, "n"+strings.TrimPrefix(h.managerClass(l.Owners[1].Manager), "m"))
		}
		if len(l.Owners) > 2 {
			classes = append(classes, "more")
		}
		ml.Class = strings.Join(classes, " ")
		if names := ownerNames(l.Owners); names != prev {
			ml.Label, prev = names, names // "" for the lines nobody owns: dim, no colour
			ml.Long = utf8.RuneCountInString(names) > htmlLabelWidth
		}
		if mark, ok := refused[l.Path]; ok && l.Path != "" {
			ml.Mark, ml.MarkClass = mark, "bad"
		} else if before != nil && l.Path != "" && !strings.HasSuffix(l.Text, ":") {
			// A field's line (not a map's or list's, whose own entry "." says little).
			if was, known := before[l.Path]; known {
				ml.Mark, ml.MarkClass = ownerChange(was, l.Owners)
			}
		}
		// Lines of the same owners make one block, until a marked line.
		if n := len(m.Lines); n > 0 && ml.Label == "" && ml.Mark == "" && m.Lines[n-1].Mark == "" && m.Lines[n-1].Class == ml.Class {
			m.Lines[n-1].Text += "\n" + ml.Text
			continue
		}
		m.Lines = append(m.Lines, ml)
	}
	if m.Lines == nil {
		return nil, nil
	}
	entries := managedEntries(stored)
	kept := map[string]bool{}
	for _, e := range entries {
		kept[ownerKey(e.Ref())] = true
		m.Legend = append(m.Legend, h.entry(e))
	}
	if live != nil {
		for _, e := range managedEntries(live) {
			if !kept[ownerKey(e.Ref())] {
				m.Removed = append(m.Removed, h.entry(e))
			}
		}
	}
	var deleted []string
	if forced {
		deleted = res.WithForce.Deleted
	} else if stored != nil {
		deleted = res.Deleted
	}
	for _, d := range deleted {
		hd := htmlDeleted{Path: d}
		if was := before[d]; len(was) > 0 {
			hd.Was, hd.Class = ownerNames(was), h.managerClass(was[0].Manager)
		}
		m.Deleted = append(m.Deleted, hd)
	}
	return m, nil
}

// yamlScalar prints a key or a scalar value as blame.Scalar does, with emitYAML, which
// writes what the YAML library writes without its cost (a block scalar's lines as the
// value of a key: folded a little earlier); what emitYAML does not reproduce takes
// blame.Scalar. Short strings, keys mostly, are printed once per page.
func (h *htmlWriter) yamlScalar(v any) ([]string, error) {
	str, isString := v.(string)
	if isString && len(str) <= 64 {
		if lines, ok := h.scalars[str]; ok {
			return lines, nil
		}
	}
	s, ok := emitYAMLSized(map[string]any{"k": v}, 64)
	if !ok {
		return blame.Scalar(v)
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	lines[0] = strings.TrimPrefix(lines[0], "k: ")
	if isString && len(str) <= 64 && len(h.scalars) < 1<<16 {
		h.scalars[str] = lines
	}
	return lines, nil
}

func (h *htmlWriter) entry(e fieldpath.Entry) htmlEntry {
	r := e.Ref()
	he := htmlEntry{Class: h.managerClass(e.Manager), Manager: e.Manager, Describe: report.ManagerOf(r).Describe(), FieldsType: e.FieldsType}
	if r.Operation == fieldpath.OperationApply && e.APIVersion != "" {
		he.Describe = strings.TrimSuffix(he.Describe, ")") + ", " + e.APIVersion + ")"
	}
	if r.Time != nil {
		he.Time = when(*r.Time, h.opts.Now)
	}
	return he
}

// ownerChange marks a field whose owners change, and how: it changes hands (⇄), loses
// its only owners (✕), gets a co-owner (+) or loses some (−); "" when they stay.
func ownerChange(was, now []fieldpath.ManagerRef) (mark, class string) {
	before, after := map[string]bool{}, map[string]bool{}
	for _, r := range was {
		before[ownerKey(r)] = true
	}
	for _, r := range now {
		after[ownerKey(r)] = true
	}
	var joined, left []fieldpath.ManagerRef
	for _, r := range now {
		if !before[ownerKey(r)] {
			joined = append(joined, r)
		}
	}
	for _, r := range was {
		if !after[ownerKey(r)] {
			left = append(left, r)
		}
	}
	switch {
	case len(joined) == 0 && len(left) == 0:
		return "", ""
	case len(now) == 0:
		return "✕ loses its owner (was " + ownerNames(was) + ")", "bad"
	case len(was) == 0:
		return "⇄ was unowned", "hand"
	case len(left) == 0:
		return "+ " + ownerNames(joined) + " co-owns it", "co"
	case len(joined) == 0:
		return "− " + ownerNames(left) + " lets it go", "co"
	}
	return "⇄ was " + ownerNames(was), "hand"
}

// managedEntries reads an object's managedFields entries (an unreadable list gives none:
// the ownership map then shows no owners, as blame.Annotate refuses it).
func managedEntries(obj map[string]any) []fieldpath.Entry {
	entries, _, err := fieldpath.EntriesOf(obj)
	if err != nil {
		return nil
	}
	return entries
}

// htmlHead is what the page's head shows: the verdict, the counts, the policy, the
// filters' values, the managers and what they lose, the objects needing attention.
type htmlHead struct {
	Title, Verdict, ExitMeaning, CSP string
	Bad                              bool
	Report                           *report.Report
	Now                              string
	FailOn, Allow, Protect           string
	Counts                           []htmlCount
	Kinds, Namespaces                []htmlCount
	Managers                         []*htmlManager
	Takers                           []htmlTaker
	Attention                        []htmlAttention
	AttentionMore                    int
	Failing                          int
}

type htmlCount struct {
	Value, Label, Class string
	N                   int
}

type htmlTaker struct {
	Manager         string
	Fields, Objects int
}

var exitMeanings = map[int]string{
	report.ExitUnchanged: "nothing would change, and no policy fails",
	report.ExitChanged:   "something would change: the object, or who owns which fields",
	report.ExitError:     "ssa-diff could not predict some objects",
	report.ExitRejected:  "the server would reject at least one apply",
	report.ExitPolicy:    "a policy fails",
}

func (h *htmlWriter) Close(rep *report.Report) error {
	head := h.pageHead(rep)
	var p page
	p.head(head, h.css)
	if _, err := h.w.Write(p.b); err != nil {
		return err
	}
	if _, err := h.w.Write(h.objects); err != nil {
		return err
	}
	h.objects = nil
	p.b = p.b[:0]
	p.tail(head, h.js)
	_, err := h.w.Write(p.b)
	return err
}

// pageHead is the page's head of the report, with what the objects written counted.
func (h *htmlWriter) pageHead(rep *report.Report) *htmlHead {
	s := rep.Summary
	head := &htmlHead{Title: "ssa-diff: " + verdict(s), Verdict: verdict(s), ExitMeaning: exitMeanings[s.ExitCode], CSP: h.csp,
		Bad: s.ExitCode >= report.ExitError, Report: rep, Now: rep.Options.Now.UTC().Format(time.RFC3339),
		Managers: h.managers, Attention: h.attn, AttentionMore: h.failing - len(h.attn), Failing: h.failing}
	if p := rep.Options.Policy; p != nil {
		head.FailOn = "nothing"
		if len(p.FailOn) > 0 {
			head.FailOn = strings.Join(p.FailOn, ", ")
		}
		head.Allow, head.Protect = strings.Join(p.AllowTakeoverFrom, ", "), strings.Join(p.Protect, ", ")
	}
	for _, c := range []htmlCount{
		{string(report.ActionCreate), "to create", "create", s.Created},
		{string(report.ActionUpdate), "to update", "update", s.Updated},
		{string(report.ActionUnchanged), "unchanged", "unchanged", s.Unchanged},
		{string(report.ActionRejected), "rejected", "rejected", s.Rejected},
		{string(report.ActionError), "not predicted", "error", s.Errors},
		{string(report.ActionPrune), "to prune", "prune", s.Pruned},
	} {
		if c.N > 0 || c.Value != string(report.ActionPrune) {
			head.Counts = append(head.Counts, c)
		}
	}
	head.Kinds = sortedCounts(h.kinds)
	head.Namespaces = sortedCounts(h.spaces)
	names := append([]string(nil), h.order...)
	sort.SliceStable(names, func(i, j int) bool { return h.takers[names[i]].fields > h.takers[names[j]].fields })
	for _, n := range names {
		head.Takers = append(head.Takers, htmlTaker{Manager: n, Fields: h.takers[n].fields, Objects: h.takers[n].objects})
	}
	return head
}

// when prints a time and its age: "2026-12-02T09:36:20Z (2h23m ago)"; the time of this
// apply (--now) as such.
func when(t, now time.Time) string {
	age := Ago(t, now)
	if t.Equal(now) {
		age = "this apply"
	}
	return t.UTC().Format(time.RFC3339) + " (" + age + ")"
}

func sortedCounts(m map[string]int) []htmlCount {
	out := make([]htmlCount, 0, len(m))
	for k, n := range m {
		out = append(out, htmlCount{Value: k, Label: k, N: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Value < out[j].Value })
	return out
}
