package output

import (
	"crypto/sha256"
	"encoding/base64"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/blame"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/judge/advice"
	"github.com/ssa-diff/ssa-diff/merge"
)

func TestHTMLGolden(t *testing.T) {
	out, _ := writeAll(t, "html", gateReport(gatePolicy), Options{})
	golden(t, "html.golden", testkit.WithoutPageAssets([]byte(out)))
	for _, want := range []string{
		"<title>ssa-diff: 1 object could not be predicted (exit 2)</title>",
		`<details class="obj" id="o1" data-a="update" data-k="Deployment" data-n="shop" data-f="1" open>`,
		// The conflict taken by force, with both values and the manifest's line.
		`<code title="/spec/replicas">.spec.replicas</code><br><small>deploy/api.yaml:6</small>`,
		`<code class="vd">7</code></td><td><code class="va">3</code>`,
		// The refusal with what force would take, and the entry it removes.
		"The server refuses: 409 Conflict",
		"(its managedFields entry would be removed)",
		// The ownership map, with its legend.
		`<div class="map"><h3>Ownership of the stored object</h3>`,
		`<span class="own m5">helm (Apply, v1)</span> <small>2026-12-02T12:00:00Z (this apply)</small>`,
		// A Secret, masked.
		"password: &#39;*** (before)&#39;",
		// Findings, advice, the request sequence.
		"protected", "The applier sends 2 requests", "client-side apply migration patch",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if again, _ := writeAll(t, "html", gateReport(gatePolicy), Options{}); again != out {
		t.Error("the same report prints another page")
	}
}

// TestHTMLSelfContained: the page loads nothing, and its Content-Security-Policy allows
// its own script and nothing else.
func TestHTMLSelfContained(t *testing.T) {
	out, _ := writeAll(t, "html", sampleReport(), Options{})
	for _, bad := range []string{"http://", "https://", "src=", "@import", "url(", "<link rel=\"stylesheet\""} {
		if strings.Contains(out, bad) && !strings.Contains(out, "https://pay.internal") {
			t.Errorf("the page refers to something outside it: %q", bad)
		}
	}
	if n := strings.Count(strings.ToLower(out), "<script"); n != 1 {
		t.Errorf("%d script elements", n)
	}
	_, js, err := htmlStyleAndScript()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(js))
	want := "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(out)
	if m == nil || html.UnescapeString(m[1]) != want || !strings.Contains(out, "<script>"+js+"</script>") {
		t.Errorf("the policy does not allow exactly the page's script: %q", m)
	}
	css, err := htmlAssets.ReadFile("html/page.css")
	if err != nil || !strings.Contains(out, "<style>"+string(css)+"</style>") {
		t.Errorf("the page does not hold its style sheet (%v)", err)
	}
}

func TestHTMLSecretsMasked(t *testing.T) {
	for _, opts := range []Options{{}, {ShowManagedFields: true}} {
		out, _ := writeAll(t, "html", sampleReport(), opts)
		for _, secret := range []string{"aHVudGVyMg==", "czNjcjN0", "dG9rZW4=", "YWRtaW4="} {
			if strings.Contains(out, secret) {
				t.Errorf("the page shows the Secret's value %s", secret)
			}
		}
		if !strings.Contains(out, "*** (after)") {
			t.Error("the Secret's changed value is not marked")
		}
	}
	out, _ := writeAll(t, "html", sampleReport(), Options{ShowSecrets: true})
	if !strings.Contains(out, "czNjcjN0") {
		t.Error("--show-secrets does not show them")
	}
}

// hostile values, each of which would run, load or break out of its context if it were
// not escaped for where it stands.
var hostile = []string{
	`<script>window.__pwned=1</script>`,
	`"><img src=x onerror="window.__pwned=2">`,
	`'><svg onload=window.__pwned=3>`,
	`</style><script>window.__pwned=4</script>`,
	`</textarea></pre></details><script>window.__pwned=5</script>`,
	`javascript:window.__pwned=6`,
	`{{.}} ${x} <!-- -->`,
	"\u2028<b>\u2029",
}

// hostileReport is a report whose every string comes from hostile.
func hostileReport() *report.Report {
	h := func(i int) string { return hostile[i%len(hostile)] }
	rep := report.New(report.Options{FieldManager: h(0), Applier: h(1), Subresource: h(2), Now: now,
		Policy: &report.Policy{FailOn: []string{h(3)}, AllowTakeoverFrom: []string{h(4)}, Protect: []string{h(5)}}})
	mgr := report.Manager{Manager: h(1), Operation: "Update", APIVersion: h(2), Subresource: h(3), Time: &hpaAt}
	obj := func(v string) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": h(0),
			"metadata": map[string]any{"name": h(1), "namespace": h(2), "annotations": map[string]any{h(3): v},
				"managedFields": []any{map[string]any{"manager": h(4), "operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV1", "time": "2026-12-01T00:00:00Z",
					"fieldsV1": map[string]any{"f:data": map[string]any{"f:" + h(5): map[string]any{}}, "f:metadata": map[string]any{"f:annotations": map[string]any{"f:" + h(3): map[string]any{}}}}}}},
			"data": map[string]any{h(5): v, h(6): h(7)}}
	}
	item := 3
	rejected := &report.Result{APIVersion: h(1), Kind: h(0), Namespace: h(2), Name: h(3),
		Source: input.Source{File: h(4), Line: 2, Via: h(5)}, LiveSource: &input.Source{File: h(6), Item: &item, Line: 9},
		Action: report.ActionRejected, Live: obj(h(0)),
		Conflicts: []report.Conflict{{Manager: mgr, Owner: h(6), Path: h(7), Pointer: h(0), Live: h(1), Applied: map[string]any{h(2): h(3)}}},
		Ownership: []report.Ownership{}, Deleted: []string{}, Warnings: []string{h(4)},
		Error: &report.Error{Code: 422, Reason: h(5), Message: h(6) + "\n" + h(7), Causes: []merge.StatusCause{{Reason: h(0), Message: h(1), Field: h(2)}},
			Status: []byte(`{"kind":"Status","message":"</pre><script>window.__pwned=7</script>"}`), Fields: []report.ErrorField{{Path: h(3), DidYouMean: h(4)}}},
		Findings:       []report.Finding{{Category: report.CategoryWarning, Level: report.LevelWarning, Manager: h(5), Paths: []string{h(6)}, Message: h(7), File: h(0), Line: 3}},
		Advice:         []advice.Advice{{ID: h(1), Severity: "warning", Message: h(2), Fix: h(3), Paths: []string{h(4)}, Managers: []string{h(5)}}},
		Approximations: []report.Approximation{{Reason: h(6), Message: h(7)}},
		Steps:          []report.Step{{Description: h(0), Manager: h(1), Code: 409}},
		State:          &advice.State{Counters: []advice.Counter{{Name: h(2), Path: h(3), Have: 1, Want: 2}}, Conditions: []advice.Condition{{Type: h(4), Status: h(5), Reason: h(6), Message: h(7), Since: &hpaAt}}},
	}
	rejected.WithForce = &report.Result{Action: report.ActionUpdate, Live: obj(h(0)), Object: obj(h(1)),
		Ownership: []report.Ownership{{Manager: mgr, Taken: []string{h(2)}, Removed: true, MovedFrom: h(3)}}, Deleted: []string{h(4)}, Warnings: []string{h(5)}}
	updated := &report.Result{APIVersion: "v1", Kind: h(0), Namespace: h(1), Name: h(2), Source: input.Source{File: h(3), Line: 1},
		Action: report.ActionUpdate, Changed: true, Live: obj(h(4)), Object: obj(h(5)),
		Ownership: []report.Ownership{{Manager: mgr, Gained: []string{h(6)}, Released: []string{h(7)}, Deleted: []string{h(7)}, MovedFrom: h(0)}},
		Deleted:   []string{h(7)}, Assigned: []string{h(1)}, Prune: &report.Prune{Applier: h(2), Message: h(3)}}
	rep.Add(rejected)
	rep.Add(updated)
	rep.Add(report.FromError(input.Source{File: h(4), Line: 1}, errString(h(5))))
	rep.Summarize()
	return rep
}

func TestHTMLEscaping(t *testing.T) {
	out, _ := writeAll(t, "html", hostileReport(), Options{})
	lower := strings.ToLower(out)
	if n := strings.Count(lower, "<script"); n != 1 {
		t.Errorf("%d script elements: a value is not escaped", n)
	}
	for _, bad := range []string{"<img", "<svg", "</textarea", "<b>\u2029", `href="javascript`, "<!-- -->"} {
		if strings.Contains(lower, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	// Each value is in the page, escaped.
	for _, want := range []string{"&lt;script&gt;window.__pwned=1&lt;/script&gt;", "&#34;&gt;&lt;img src=x onerror=&#34;window.__pwned=2&#34;&gt;",
		"&lt;/style&gt;&lt;script&gt;window.__pwned=4&lt;/script&gt;", "&lt;/pre&gt;&lt;script&gt;window.__pwned=7&lt;/script&gt;", "{{.}} ${x} &lt;!-- --&gt;"} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// Values in attributes stay inside them.
	for _, m := range regexp.MustCompile(`data-[akn]="([^"]*)"`).FindAllStringSubmatch(out, -1) {
		if strings.ContainsAny(m[1], "<>'") {
			t.Errorf("an attribute holds %q", m[1])
		}
	}
}

func TestOwnerChange(t *testing.T) {
	ref := func(name string) fieldpath.ManagerRef {
		return fieldpath.ManagerRef{Manager: name, Operation: fieldpath.OperationApply}
	}
	refs := func(names ...string) []fieldpath.ManagerRef {
		var out []fieldpath.ManagerRef
		for _, n := range names {
			out = append(out, ref(n))
		}
		return out
	}
	update := fieldpath.ManagerRef{Manager: "a", Operation: fieldpath.OperationUpdate}
	t1 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	later := ref("a")
	later.Time, later.APIVersion = &t1, "v2"
	for _, c := range []struct {
		was, now []fieldpath.ManagerRef
		mark     string
	}{
		{refs("a"), refs("a"), ""},
		{refs("a"), []fieldpath.ManagerRef{later}, ""}, // a new time or apiVersion is the same owner
		{refs("a"), refs("b"), "⇄ was a"},
		{refs("a"), []fieldpath.ManagerRef{update}, "⇄ was a"}, // another operation is another entry
		{refs("a"), nil, "✕ loses its owner (was a)"},
		{refs("a"), refs("a", "b"), "+ b co-owns it"},
		{refs("a", "b"), refs("b"), "− a lets it go"},
		{refs("a", "b"), refs("b", "c"), "⇄ was a, b"},
		{nil, refs("a"), "⇄ was unowned"},
	} {
		if mark, _ := ownerChange(c.was, c.now); mark != c.mark {
			t.Errorf("%v → %v: %q, want %q", c.was, c.now, mark, c.mark)
		}
	}
}

func TestIntraline(t *testing.T) {
	show := func(segs []htmlSeg) string {
		var b strings.Builder
		for _, s := range segs {
			if s.Hi {
				b.WriteString("[" + s.Text + "]")
			} else {
				b.WriteString(s.Text)
			}
		}
		return b.String()
	}
	for _, c := range []struct{ a, b, wantA, wantB string }{
		{"  image: shop/web:1.0", "  image: shop/web:2.0", "  image: shop/web:[1].0", "  image: shop/web:[2].0"},
		{"  replicas: 5", "  replicas: 12", "  replicas: [5]", "  replicas: [12]"},
		// Different lines, not a changed value: nothing highlighted.
		{"  name: web", "  terminationGracePeriodSeconds: 30", "  name: web", "  terminationGracePeriodSeconds: 30"},
	} {
		a, b := intraline(c.a, c.b)
		if show(a) != c.wantA || show(b) != c.wantB {
			t.Errorf("%q, %q: %q, %q", c.a, c.b, show(a), show(b))
		}
	}
}

// TestYAMLScalarIsBlames: the ownership map prints keys and values as blame does, faster.
func TestYAMLScalarIsBlames(t *testing.T) {
	h := newHTML(nil, Options{}).(*htmlWriter)
	n := 0
	for name, obj := range testkit.StoredObjects(t) {
		want, err := blame.Annotate(obj)
		if err != nil {
			t.Fatal(err)
		}
		got, err := blame.AnnotateWith(obj, h.yamlScalar)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d lines, blame %d", name, len(got), len(want))
			continue
		}
		for i := range got {
			n++
			if got[i].Text != want[i].Text && !folded(want[i].Text) {
				t.Errorf("%s: %q, blame %q", name, got[i].Text, want[i].Text)
			}
		}
	}
	if n < 1000 {
		t.Errorf("only %d lines compared", n)
	}
	for _, v := range []any{"", "a\nb", "yes", "1e3", "- x", "x: y", int64(7), 1.5, true, nil, map[string]any{}, []any{}, "ünï", strings.Repeat("long words ", 20)} {
		want, _ := blame.Scalar(v)
		got, _ := h.yamlScalar(v)
		if strings.Join(got, "\n") != strings.Join(want, "\n") && !folded(strings.Join(want, "\n")) {
			t.Errorf("%#v: %q, blame %q", v, got, want)
		}
	}
}

// folded reports whether a line is long enough for the YAML library to fold it, where
// the two printers fold at other columns.
func folded(s string) bool { return len(s) > 70 }

func TestHTMLPrune(t *testing.T) {
	rep := report.New(report.Options{FieldManager: "argocd-controller", Applier: "argocd", Now: now, Policy: &report.Policy{FailOn: []string{"prune"}}})
	live := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "old", "namespace": "shop"}, "data": map[string]any{"a": "1"}}
	msg := `Argo CD prunes it: the Application "shop" tracks it and the manifests no longer name it`
	res := &report.Result{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "old", Source: input.Source{File: "live.json", Line: 40},
		Action: report.ActionPrune, Changed: true, Live: live, Prune: &report.Prune{Applier: "argocd", Message: msg},
		Conflicts: []report.Conflict{}, Ownership: []report.Ownership{}, Deleted: []string{}, Warnings: []string{}}
	res.Findings = report.Evaluate(*rep.Options.Policy, res, "argocd-controller", nil)
	rep.Add(res)
	rep.Summarize()
	out, _ := writeAll(t, "html", rep, Options{})
	for _, want := range []string{
		`<div class="card prune"><b>1</b>to prune</div>`,
		"live <code>live.json, document 0, line 40</code>: no manifest names it",
		`Pruned by argocd <span class="chip bad">fails the run</span>`,
		"predicted (none: the object is pruned)", `<div class="d">  a: &#34;1&#34;</div>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// Once in the object (its finding is the box), once among the failing objects.
	if obj := out[strings.Index(out, "<main"):]; strings.Count(obj, "the manifests no longer name it") != 1 || strings.Count(out, "the manifests no longer name it") != 2 {
		t.Error("the prune's message is not said once in the object's part")
	}
}
