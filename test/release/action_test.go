package release

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fakeGitHub is GitHub's REST API as the action uses it: the latest release's tag, and one
// pull request's comments (listed 100 a page, created, updated), for the token job-token.
type fakeGitHub struct {
	*httptest.Server
	mu       sync.Mutex
	comments []map[string]any // #7's
	next     int
	calls    []string
}

func newFakeGitHub(t *testing.T, others int) *fakeGitHub {
	g := &fakeGitHub{next: 1000}
	for i := 0; i < others; i++ {
		g.add(fmt.Sprintf("a reviewer's comment %d", i))
	}
	g.Server = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.Close)
	return g
}

func (g *fakeGitHub) add(body string) map[string]any {
	g.next++
	c := map[string]any{"id": g.next, "body": body, "html_url": fmt.Sprintf("https://github.com/shop/gitops/pull/7#issuecomment-%d", g.next)}
	g.comments = append(g.comments, c)
	return c
}

var commentPath = regexp.MustCompile(`^/repos/shop/gitops/issues/comments/(\d+)$`)

func (g *fakeGitHub) serve(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, r.Method+" "+r.URL.RequestURI())
	if r.Header.Get("Authorization") != "Bearer job-token" {
		http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
		return
	}
	reply := func(v any) { json.NewEncoder(w).Encode(v) }
	body := func() string {
		var b struct{ Body string }
		json.NewDecoder(r.Body).Decode(&b)
		return b.Body
	}
	switch {
	case r.Method == "GET" && r.URL.Path == "/repos/ssa-diff/ssa-diff/releases/latest":
		reply(map[string]string{"tag_name": testTag})
	case r.Method == "GET" && r.URL.Path == "/repos/shop/gitops/issues/7/comments":
		per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if per <= 0 {
			per = 30
		}
		if page <= 0 {
			page = 1
		}
		from, to := min((page-1)*per, len(g.comments)), min(page*per, len(g.comments))
		reply(g.comments[from:to])
	case r.Method == "POST" && r.URL.Path == "/repos/shop/gitops/issues/7/comments":
		w.WriteHeader(http.StatusCreated)
		reply(g.add(body()))
	case r.Method == "PATCH" && commentPath.MatchString(r.URL.Path):
		id, _ := strconv.Atoi(commentPath.FindStringSubmatch(r.URL.Path)[1])
		for _, c := range g.comments {
			if c["id"] == id {
				c["body"] = body()
				reply(c)
				return
			}
		}
		http.NotFound(w, r)
	default:
		http.NotFound(w, r)
	}
}

// ours are the comments that carry the action's marker.
func (g *fakeGitHub) ours() []map[string]any {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []map[string]any
	for _, c := range g.comments {
		if strings.HasPrefix(c["body"].(string), "<!-- ssa-diff-comment: ssa-diff -->\n") {
			out = append(out, c)
		}
	}
	return out
}

// gitopsRepo is a workspace: the example's manifest and live dump, and the event of pull
// request #7.
func gitopsRepo(t *testing.T) (work, event string) {
	work = t.TempDir()
	ex := filepath.Join(repoRoot(t), "testdata", "examples", "hpa-owns-replicas")
	for _, f := range []string{"manifest.yaml", "live.json"} {
		data, err := os.ReadFile(filepath.Join(ex, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(work, f), data, 0o644)
	}
	event = filepath.Join(t.TempDir(), "event.json")
	os.WriteFile(event, []byte(`{"action":"synchronize","number":7,"pull_request":{"number":7}}`), 0o644)
	return work, event
}

// noGo is a directory whose `go` fails: a step that builds when it was not asked to fails.
func noGo(t *testing.T) string {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go"), []byte("#!/bin/sh\necho 'go was run: the action builds from source unasked' >&2\nexit 99\n"), 0o755)
	return dir
}

// TestActionEndToEnd: the action in a simulated Linux runner installs the snapshot's release
// (served on 127.0.0.1) checked against its checksums, without Go; one prediction gives the
// annotations, the job summary, the JSON and HTML reports and the outputs; the comment on
// the pull request is posted once and then updated in place (found past 100 other
// comments); the step passes on exit 1 and fails on exit 3, the comment and the upload
// still made.
func TestActionEndToEnd(t *testing.T) {
	rel := snapshot(t)
	if runtime.GOOS != "linux" {
		t.Skip("the simulated runner is a Linux one")
	}
	srv := serveRelease(t, rel, "")
	api := newFakeGitHub(t, 100)
	action := readAction(t)
	work, event := gitopsRepo(t)
	env := map[string]string{"GITHUB_API_URL": api.URL, "GITHUB_EVENT_PATH": event, "GITHUB_ACTION_REF": "main"}
	inputs := func(args string) map[string]string {
		return map[string]string{"manifests": "manifest.yaml", "live": "live.json", "args": args, "comment": "true",
			"download-url": srv.URL + "/ssa-diff/ssa-diff/releases/download"}
	}

	var urls []string
	for i, c := range []struct {
		args     string
		status   string
		fails    bool
		verdict  string
		annotate string
	}{
		{"--now 2026-12-02T12:00:00Z --fail-on none", "1", false, "## ✅ ssa-diff: passes, with changes (exit 1)", "::warning file=manifest.yaml,line="},
		{"--now 2026-12-02T12:00:00Z", "3", true, "## ❌ ssa-diff: fails: the server would reject 1 apply (exit 3)", "::error file=manifest.yaml,line="},
	} {
		r := newRunner(t, work, inputs(c.args), env)
		r.path = []string{noGo(t)}
		r.run(action)
		log := r.log.String()
		if r.failed != c.fails || !r.outcome["Install ssa-diff"] {
			t.Errorf("run %d: failed %v, steps %v\n%s", i, r.failed, r.outcome, log)
		}
		if len(r.used) != 1 || !strings.HasPrefix(r.used[0], "actions/upload-artifact@") {
			t.Errorf("run %d: uses %v (setup-go only with build-from-source)", i, r.used)
		}
		// The release installed: the latest (the action used at a branch), checked.
		if !strings.Contains(log, "ssa-diff "+testTag+" (ssa-diff_"+testTag+"_linux_") || !strings.Contains(log, "as checksums.txt says") ||
			!strings.Contains(log, "ssa-diff "+testTag+"-snapshot\n") {
			t.Errorf("run %d: not the release's binary:\n%s", i, log)
		}
		if !strings.Contains(log, c.annotate) || !strings.Contains(log, "\nssa-diff: 1 object") {
			t.Errorf("run %d: annotations:\n%s", i, log)
		}
		out := r.outputs
		if out["exit-code"] != c.status || out["report"] == "" || out["markdown"] == "" || out["json"] == "" || out["comment-url"] == "" {
			t.Errorf("run %d: outputs %v", i, out)
		}
		md, _ := os.ReadFile(out["markdown"])
		summary, _ := os.ReadFile(filepath.Join(r.dir, "step_summary.md"))
		if !strings.HasPrefix(string(md), c.verdict) || string(summary) != string(md) ||
			!strings.Contains(string(md), "(<https://github.com/shop/gitops/actions/runs/42>)") {
			t.Errorf("run %d: the job summary is not the markdown report linking the run:\n%s", i, summary)
		}
		var rep struct {
			Kind    string
			Summary struct{ ExitCode int }
		}
		if data, err := os.ReadFile(out["json"]); err != nil || json.Unmarshal(data, &rep) != nil || rep.Kind != "Report" || strconv.Itoa(rep.Summary.ExitCode) != c.status {
			t.Errorf("run %d: the JSON report: %v %+v", i, err, rep)
		}
		if page, err := os.ReadFile(out["report"]); err != nil || !strings.HasPrefix(string(page), "<!DOCTYPE html>") || len(r.uploads["ssa-diff-report"]) != 1 {
			t.Errorf("run %d: the HTML report %v, uploads %v", i, err, r.uploads)
		}
		ours := api.ours()
		if len(ours) != 1 || ours[0]["body"] != "<!-- ssa-diff-comment: ssa-diff -->\n"+string(md) {
			t.Errorf("run %d: %d comments of ours", i, len(ours))
		}
		urls = append(urls, out["comment-url"])
	}
	if urls[0] != urls[1] {
		t.Errorf("the second run posted another comment (%s, %s), not the first updated", urls[0], urls[1])
	}
	if got := strings.Join(api.calls, "\n"); strings.Count(got, "POST ") != 1 || strings.Count(got, "PATCH ") != 1 || !strings.Contains(got, "page=2") {
		t.Errorf("API calls:\n%s", got)
	}
}

// TestActionRefusesATamperedArchive: an archive whose SHA-256 is not the one the release's
// checksums.txt gives it is refused: nothing installed, the gate not run, the action fails.
func TestActionRefusesATamperedArchive(t *testing.T) {
	rel := snapshot(t)
	var host string
	for _, a := range rel.archives() {
		if a.Goos == runtime.GOOS && a.Goarch == runtime.GOARCH {
			host = a.Name
		}
	}
	srv := serveRelease(t, rel, host)
	work, event := gitopsRepo(t)
	r := newRunner(t, work, map[string]string{"manifests": "manifest.yaml", "live": "live.json",
		"download-url": srv.URL + "/ssa-diff/ssa-diff/releases/download"}, map[string]string{"GITHUB_EVENT_PATH": event})
	r.run(readAction(t))
	log := r.log.String()
	if !r.failed || r.outcome["Install ssa-diff"] || strings.Contains(log, "##[step] Run the gate") {
		t.Errorf("steps %v\n%s", r.outcome, log)
	}
	if !regexp.MustCompile(`::error title=ssa-diff install::` + regexp.QuoteMeta(host) + ` refused: its SHA-256 is [0-9a-f]{64}, the release's checksums.txt says [0-9a-f]{64}`).MatchString(log) {
		t.Errorf("no refusal:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "ssa-diff", "bin", "ssa-diff")); !os.IsNotExist(err) {
		t.Errorf("a binary is installed: %v", err)
	}
}

// TestActionInstallRefusals: a runner without a release (RUNNER_ARCH ARM), a release the
// server does not have.
func TestActionInstallRefusals(t *testing.T) {
	rel := snapshot(t)
	srv := serveRelease(t, rel, "")
	work, event := gitopsRepo(t)
	for _, c := range []struct {
		inputs, env map[string]string
		want        string
	}{
		{map[string]string{}, map[string]string{"RUNNER_ARCH": "ARM"}, "no release for RUNNER_ARCH 'ARM' (X64, ARM64): set build-from-source: true"},
		{map[string]string{"version": "v0.0.1"}, nil, "could not download " + srv.URL + "/ssa-diff/ssa-diff/releases/download/v0.0.1/ssa-diff_v0.0.1_linux_"},
	} {
		c.inputs["manifests"], c.inputs["download-url"] = "manifest.yaml", srv.URL+"/ssa-diff/ssa-diff/releases/download"
		env := map[string]string{"GITHUB_EVENT_PATH": event}
		for k, v := range c.env {
			env[k] = v
		}
		r := newRunner(t, work, c.inputs, env)
		r.run(readAction(t))
		if log := r.log.String(); !r.failed || !strings.Contains(log, c.want) || strings.Contains(log, "##[step] Run the gate") {
			t.Errorf("%v %v: %q not said:\n%s", c.inputs, c.env, c.want, log)
		}
	}
}

// TestActionExitStatuses: the gate step passes on ssa-diff's 0 and 1 and fails with its
// status on 2, 3, 4 and others, saying which; exit-code is the status either way (a
// stand-in ssa-diff exits with the status asked, after writing its files).
func TestActionExitStatuses(t *testing.T) {
	action := readAction(t)
	var gate actionStep
	for _, s := range action.Runs.Steps {
		if s.ID == "gate" {
			gate = s
		}
	}
	work, _ := gitopsRepo(t)
	bin := t.TempDir()
	fake := `#!/bin/sh
# ssa-diff's stand-in: writes each --output-file FORMAT=PATH and --report-html, exits $STATUS.
while [ $# -gt 0 ]; do
	case "$1" in
	--output-file) echo "report" >"${2#*=}"; shift ;;
	--report-html) echo "<!DOCTYPE html>" >"$2"; shift ;;
	esac
	shift
done
exit "$STATUS"
`
	os.WriteFile(filepath.Join(bin, "ssa-diff"), []byte(fake), 0o755)
	for status, want := range map[int]string{0: "", 1: "", 2: "::error title=ssa-diff::exit 2: ssa-diff could not predict",
		3: "::error title=ssa-diff::exit 3: the server would reject", 4: "::error title=ssa-diff::exit 4: a --fail-on or --protect policy fails", 130: "::error title=ssa-diff::exit 130"} {
		r := newRunner(t, work, map[string]string{"manifests": "manifest.yaml"}, map[string]string{"STATUS": strconv.Itoa(status)})
		for name, in := range action.Inputs {
			if _, ok := r.inputs[name]; !ok && in.Default != nil {
				r.inputs[name] = r.interpolate(*in.Default)
			}
		}
		r.path = []string{bin}
		ok := r.runStep(gate)
		log := r.log.String()
		if ok != (want == "") || (want != "" && !strings.Contains(log, want)) || r.steps["gate"]["exit-code"] != strconv.Itoa(status) {
			t.Errorf("status %d: the step passes %v, outputs %v\n%s", status, ok, r.steps["gate"], log)
		}
	}
}

// TestActionDeclaresWhatItUses: every input the steps read is declared and every declared
// one is read; each has a description, an optional one a default; every script a step
// runs exists.
func TestActionDeclaresWhatItUses(t *testing.T) {
	a := readAction(t)
	if a.Runs.Using != "composite" || !a.Inputs["manifests"].Required {
		t.Errorf("action.yml: %+v", a)
	}
	steps, err := json.Marshal(a.Runs.Steps)
	if err != nil {
		t.Fatal(err)
	}
	outputs, _ := json.Marshal(a.Outputs)
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`\binputs\.([A-Za-z0-9_-]+)`).FindAllStringSubmatch(string(steps)+string(outputs), -1) {
		used[m[1]] = true
		if _, ok := a.Inputs[m[1]]; !ok {
			t.Errorf("the steps read inputs.%s, which action.yml does not declare", m[1])
		}
	}
	for name, in := range a.Inputs {
		if !used[name] {
			t.Errorf("the input %q is declared but no step reads it", name)
		}
		if in.Description == "" || (!in.Required && in.Default == nil) {
			t.Errorf("the input %q: %+v", name, in)
		}
	}
	for _, m := range regexp.MustCompile(`\$GITHUB_ACTION_PATH/(action/[a-z]+\.sh)`).FindAllStringSubmatch(string(steps), -1) {
		if fi, err := os.Stat(filepath.Join(repoRoot(t), m[1])); err != nil || fi.Mode()&0o111 == 0 {
			t.Errorf("%s: %v (executable?)", m[1], err)
		}
	}
}
