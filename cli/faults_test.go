package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

// The cluster misbehaves; the command says what failed, exits 2, and never predicts a
// create for an object it could not read.

// A server that accepts connections and never answers: --request-timeout, then exit 2
// naming the server, with nothing predicted.
func TestClusterNeverAnswers(t *testing.T) {
	addr, _ := clustertest.Silent(t)
	kc := clustertest.KubeconfigFile(t, t.TempDir(), "https://"+addr, "insecure-skip-tls-verify: true", "token: t", "")
	dir := writeFiles(t, map[string]string{"web.yaml": cmYAML("web", "", `"1"`, "")})
	out, stderr, code := run(t, "", "--live-from-cluster", "--kubeconfig", kc, "--request-timeout", "300ms", nowFlag, dir)
	if code != 2 || out != "" || !strings.Contains(stderr, "cannot reach the cluster at https://"+addr) || !strings.Contains(stderr, "no answer within --request-timeout 300ms") {
		t.Errorf("exit %d\n%s\n%s", code, out, stderr)
	}
	// No limit is not an option.
	if _, stderr, code := run(t, "", "--live-from-cluster", "--kubeconfig", kc, "--request-timeout", "0", dir); code != 2 || !strings.Contains(stderr, "more than 0") {
		t.Errorf("--request-timeout 0: exit %d, %s", code, stderr)
	}
}

// The cluster stops answering in the middle of the read: what was read is predicted, the
// objects not read are errors (exit 2), none a create.
func TestClusterStopsMidRead(t *testing.T) {
	s, kc := testCluster(t)
	files := map[string]string{"web.yaml": cmYAML("web", "", `"2"`, "")}
	for i := 0; i < 12; i++ {
		files[fmt.Sprintf("svc-%02d.yaml", i)] = fmt.Sprintf("apiVersion: v1\nkind: Service\nmetadata:\n  name: svc-%02d\nspec:\n  ports: [{port: 80}]\n", i)
	}
	dir := writeFiles(t, files)
	// The ConfigMap is answered; every Service hangs.
	s.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		if strings.Contains(r.URL.Path, "/services") {
			<-r.Context().Done()
			return true
		}
		return false
	}
	out, stderr, code := run(t, "", "--live-from-cluster", "--kubeconfig", kc, "--request-timeout", "300ms", "-o", "json", nowFlag, dir)
	if code != 2 {
		t.Errorf("exit %d, want 2\n%s", code, stderr)
	}
	rep := decodeReport(t, out)
	if len(rep.Results) != 13 {
		t.Fatalf("%d results, want 13\n%s", len(rep.Results), stderr)
	}
	for _, r := range rep.Results {
		switch {
		case r.Name == "web":
			if r.Action != "rejected" {
				t.Errorf("web: %+v, want predicted (a conflict)", r)
			}
		case r.Action != "error" || !strings.Contains(r.Error.Message, "from the cluster: "):
			t.Errorf("%s: %s %+v, want an error (not read)", r.Name, r.Action, r.Error)
		}
	}
	if !strings.Contains(stderr, "1 object read, 0 not found, 12 not readable") {
		t.Errorf("stderr = %s", stderr)
	}
}

// A credential plugin that fails: its own message, then the error; exit 2.
func TestCredentialPluginFails(t *testing.T) {
	bin := buildBinary(t)
	s := clustertest.New(t)
	dir := t.TempDir()
	plugin := filepath.Join(dir, "sso-login")
	if err := os.WriteFile(plugin, []byte("#!/bin/sh\necho 'sso-login: the session expired: run sso-login --renew' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	kc := clustertest.KubeconfigFile(t, dir, s.URL, "certificate-authority-data: "+s.CAData(),
		fmt.Sprintf("exec: {apiVersion: client.authentication.k8s.io/v1, command: %q, interactiveMode: Never}", plugin), "")
	manifests := writeFiles(t, map[string]string{"web.yaml": cmYAML("web", "", `"1"`, "")})
	out, stderr, code := runBinary(t, bin, dir, "--live-from-cluster", "--kubeconfig", kc, manifests)
	for _, want := range []string{"sso-login: the session expired: run sso-login --renew",
		"error: --live-from-cluster: cannot reach the cluster at " + s.URL + ": the kubeconfig's credential plugin failed",
		"exec: executable " + plugin + " failed with exit code 1"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if code != 2 || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
}

// started is the command running; exited receives its exit status (-1: killed).
type started struct {
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	exited chan int
}

// startBinary starts the command.
func startBinary(t *testing.T, bin string, args ...string) *started {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	p := &started{cmd: cmd, stderr: &bytes.Buffer{}, exited: make(chan int, 1)}
	cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		p.exited <- code
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return p
}

// wait is the exit status, once the command has ended.
func (p *started) wait(t *testing.T) int {
	t.Helper()
	select {
	case code := <-p.exited:
		return code
	case <-time.After(time.Minute):
		t.Fatalf("the command still runs after a minute\n%s", p.stderr)
		return 0
	}
}

// waitFor waits for ch, failing the test if it does not come in a minute (the limit only
// catches a test that is broken; nothing is measured).
func waitFor(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		t.Fatalf("no %s after a minute", what)
	}
}

// SIGINT and SIGTERM in the middle of a read from a cluster (a request hangs): the run
// stops at once with 130 or 143 — not at the request timeout — and writes nothing: the
// previous --save-live and --output-file are left.
func TestInterruptedRead(t *testing.T) {
	bin := buildBinary(t)
	for _, c := range []struct {
		sig  syscall.Signal
		code int
		says string
	}{{syscall.SIGINT, 130, "interrupted (SIGINT)"}, {syscall.SIGTERM, 143, "terminated (SIGTERM)"}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			s, kc := testCluster(t)
			asked := make(chan struct{}, 100)
			s.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
				if strings.Contains(r.URL.Path, "/configmaps/") {
					asked <- struct{}{}
					<-r.Context().Done()
					return true
				}
				return false
			}
			dir := testManifests(t)
			files := writeFiles(t, map[string]string{"live.json": "previous live\n", "report.txt": "previous report\n"})
			saved, report := filepath.Join(files, "live.json"), filepath.Join(files, "report.txt")
			p := startBinary(t, bin, "--live-from-cluster", "--kubeconfig", kc, "--save-live", saved, "--output-file", report, dir)
			waitFor(t, asked, "request for a ConfigMap")
			if err := p.cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			if code := p.wait(t); code != c.code {
				t.Errorf("exit %d, want %d\n%s", code, c.code, p.stderr)
			}
			if stderr := p.stderr.String(); !strings.Contains(stderr, "ssa-diff: "+c.says+": stopped") || strings.Contains(stderr, "error:") {
				t.Errorf("stderr = %s", stderr)
			}
			for path, want := range map[string]string{saved: "previous live\n", report: "previous report\n"} {
				if data, _ := os.ReadFile(path); string(data) != want {
					t.Errorf("%s = %q, want it as it was", path, data)
				}
			}
			if names := testkit.DirNames(t, files); len(names) != 2 {
				t.Errorf("left in the folder: %q", names)
			}
		})
	}
}

// The process killed, or interrupted, in the middle of writing --output-file: the file is
// the previous one, whole — never a part of the new report.
func TestKilledMidWrite(t *testing.T) {
	bin := buildBinary(t)
	var b strings.Builder
	for i := 0; i < 6000; i++ {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-%05d\n  namespace: shop\ndata:\n  a: %q\n", i, strings.Repeat("x", 200))
	}
	manifests := writeFiles(t, map[string]string{"all.yaml": b.String()})
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGKILL, -1}, {syscall.SIGINT, 130}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			files := writeFiles(t, map[string]string{"report.txt": "previous report\n"})
			report := filepath.Join(files, "report.txt")
			p := startBinary(t, bin, "--jobs", "1", "--output-file", report, nowFlag, filepath.Join(manifests, "all.yaml"))
			// Wait until the new report is being written: its temporary file has grown.
			for writing := false; !writing; {
				if tmp, _ := filepath.Glob(filepath.Join(files, ".report.txt.tmp-*")); len(tmp) == 1 {
					info, err := os.Stat(tmp[0])
					writing = err == nil && info.Size() > 64<<10
				}
				select {
				case code := <-p.exited:
					t.Fatalf("the run ended (exit %d) before the report was seen being written\n%s", code, p.stderr)
				case <-time.After(time.Millisecond):
				}
			}
			if err := p.cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			if code := p.wait(t); code != c.code {
				t.Fatalf("exit %d, want %d\n%s", code, c.code, p.stderr)
			}
			if data, _ := os.ReadFile(report); string(data) != "previous report\n" {
				t.Errorf("the report after the run was stopped: %d bytes, want the previous one", len(data))
			}
			left := testkit.DirNames(t, files)
			switch {
			case c.sig == syscall.SIGKILL && len(left) != 2: // the temporary file stays: nothing could remove it
				t.Errorf("left in the folder: %q", left)
			case c.sig == syscall.SIGINT && len(left) != 1:
				t.Errorf("left in the folder: %q", left)
			}
		})
	}
	// Not stopped: the whole report replaces the previous one.
	files := writeFiles(t, map[string]string{"report.txt": "previous report\n"})
	report := filepath.Join(files, "report.txt")
	stdout, stderr, code := runBinary(t, bin, files, "--output-file", report, nowFlag, filepath.Join(manifests, "all.yaml"))
	data, _ := os.ReadFile(report)
	if code != 1 || stdout != "" || !bytes.HasSuffix(data, []byte("Summary: 6000 objects: 6000 to create, 0 to update, 0 unchanged, 0 rejected, 0 not predicted.\n")) {
		t.Errorf("exit %d, stdout %q, report ends %q\n%s", code, stdout, data[max(0, len(data)-200):], stderr)
	}
}

// interrupting is a predictor that ends the run's context at its third prediction, and
// counts them.
type interrupting struct {
	fakeEngine
	cancel func()
	n      atomic.Int32
}

func (p *interrupting) Predict(a appliers.Applier, req merge.Request) (*merge.Result, error) {
	if p.n.Add(1) == 3 {
		p.cancel()
	}
	return p.fakeEngine.Predict(a, req)
}

// Once the run's context ends (SIGINT), no worker starts another prediction and the run
// stops with nothing more written: of 50 objects, the third prediction interrupts, and at
// most one more (a worker already taking it) is made.
func TestInterruptStopsWorkers(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 50; i++ {
		files[fmt.Sprintf("cm-%02d.yaml", i)] = cmYAML(fmt.Sprintf("cm-%02d", i), "shop", `"1"`, "")
	}
	dir := writeFiles(t, files)
	report := filepath.Join(t.TempDir(), "report.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &interrupting{fakeEngine: *newFake(), cancel: cancel}
	var out, errb bytes.Buffer
	cfg, code := parseFlags("ssa-diff", []string{"--jobs", "1", "-o", "json", "--output-file", report, dir}, &out, &errb)
	if cfg == nil {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	code = newInvocation(cfg, strings.NewReader(""), &out, &errb, nil).execute(ctx, func(*schema.Registry) predictor { return p })
	if n := p.n.Load(); code != 2 || n < 3 || n > 4 {
		t.Errorf("exit %d after %d predictions, want 2 after 3 or 4\n%s", code, n, errb.String())
	}
	if _, err := os.Stat(report); !os.IsNotExist(err) || out.Len() != 0 {
		t.Errorf("something was written: %v, stdout %q", err, out.String())
	}
}
