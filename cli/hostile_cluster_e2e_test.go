package cli

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
)

// The binary against a cluster that answers badly or maliciously: each of the hostile
// answers ends cleanly — the exit status said, within a time bound and a memory bound (the
// process's peak resident memory under 1 GiB, less where the bounds allow), the request
// named, no log line of client-go, the request timeout said once a line, and no partial
// --save-live (the file is complete or absent, nothing else left beside it).

// hostileCluster is the cluster of these runs: Deployment chat and twelve ConfigMaps cm-00
// … cm-11 (one LIST) in namespace shop, ConfigMap web in namespace front (a GET), with
// managedFields.
func hostileCluster(t *testing.T) *clustertest.Server {
	s := clustertest.New(t)
	s.Add(clustertest.Object("apps/v1", "Deployment", "shop", "chat", map[string]any{"spec": chatSpec()}))
	s.Add(clusterCM("front", "web", "1"))
	for i := 0; i < 12; i++ {
		s.Add(clusterCM("shop", fmt.Sprintf("cm-%02d", i), "1"))
	}
	return s
}

// hostileManifests are the manifests of the objects of hostileCluster, unchanged.
func hostileManifests(t *testing.T) string {
	files := map[string]string{
		"chat.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: chat\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: chat}\n" +
			"  template:\n    metadata:\n      labels: {app: chat}\n    spec:\n      containers:\n      - {name: chat, image: chat:1}\n",
		"web.yaml": cmYAML("web", "front", `"1"`, ""),
	}
	for i := 0; i < 12; i++ {
		files[fmt.Sprintf("cm-%02d.yaml", i)] = cmYAML(fmt.Sprintf("cm-%02d", i), "", `"1"`, "")
	}
	return writeFiles(t, files)
}

func chatSpec() map[string]any {
	return map[string]any{"replicas": 1, "selector": map[string]any{"matchLabels": map[string]any{"app": "chat"}},
		"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "chat"}},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "chat", "image": "chat:1"}}}}}
}

type hostileRun struct {
	name string
	// serve breaks the cluster (its Intercept), or returns the kubeconfig of another
	// server ("" for the cluster's).
	serve func(t *testing.T, s *clustertest.Server) string
	args  []string
	code  int // -1: the code of the healthy cluster
	// says are in what the run printed (the request named, the bound to raise).
	says []string
	// within bounds the run's time; maxRSS its peak resident memory (0: 1 GiB).
	within time.Duration
	maxRSS int64
	// check looks further, at the report and the servers.
	check func(t *testing.T, out string)
}

const gib = 1 << 30

// klogLine is a line client-go's logging would print.
var klogLine = regexp.MustCompile(`(?m)^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ `)

func (h hostileRun) run(t *testing.T, bin, manifests string, healthy int) {
	s := hostileCluster(t)
	kc := ""
	if h.serve != nil {
		kc = h.serve(t, s)
	}
	if kc == "" {
		kc = s.Kubeconfig(t, t.TempDir(), "shop")
	}
	saveDir := t.TempDir()
	saved := filepath.Join(saveDir, "live.json")
	args := append([]string{"--live-from-cluster", "--kubeconfig", kc, "--save-live", saved, "--request-timeout", "20s", "-o", "json", nowFlag}, h.args...)
	args = append(args, manifests)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	peak := watchPeak(cmd.Process.Pid)
	err := cmd.Wait()
	took := time.Since(start)
	rss := peak()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	printed := out.String() + errb.String()
	var rep jsonReport
	if json.Unmarshal(out.Bytes(), &rep) == nil {
		for _, r := range rep.Results {
			if r.Error != nil {
				printed += "\n" + r.Error.Message
			}
		}
	}
	t.Logf("exit %d in %v, peak memory %d MiB", code, took.Round(time.Millisecond), rss>>20)
	want := h.code
	if want < 0 {
		want = healthy
	}
	if code != want {
		t.Errorf("exit %d, want %d\n%s", code, want, tail(printed))
	}
	within := h.within
	if within == 0 {
		within = 30 * time.Second
	}
	if took > within {
		t.Errorf("the run took %v, more than %v", took, within)
	}
	maxRSS := h.maxRSS
	if maxRSS == 0 {
		maxRSS = gib
	}
	if rss > maxRSS {
		t.Errorf("peak memory %d MiB, more than %d MiB", rss>>20, maxRSS>>20)
	}
	for _, w := range h.says {
		if !strings.Contains(printed, w) {
			t.Errorf("the run does not say %q:\n%s", w, tail(printed))
		}
	}
	for _, bad := range []string{"fatal error", "panic:", "goroutine "} {
		if strings.Contains(errb.String(), bad) {
			t.Errorf("stderr has %q:\n%s", bad, tail(errb.String()))
		}
	}
	if klogLine.MatchString(errb.String()) {
		t.Errorf("a log line of client-go on stderr:\n%s", errb.String())
	}
	for _, line := range strings.Split(printed, "\n") {
		if strings.Count(line, "(no answer within --request-timeout") > 1 || strings.Count(line, "no answer within --request-timeout") > 1 {
			t.Errorf("the request timeout said twice: %s", line)
		}
	}
	// Nothing partial: the saved live state is complete (a List that parses) or absent,
	// and nothing else is left beside it.
	entries, _ := os.ReadDir(saveDir)
	for _, e := range entries {
		if e.Name() != "live.json" {
			t.Errorf("%s left beside --save-live", e.Name())
			continue
		}
		data, err := os.ReadFile(saved)
		var list struct{ Kind string }
		if err != nil || json.Unmarshal(data, &list) != nil || list.Kind != "List" {
			t.Errorf("--save-live wrote %d bytes that are not a whole List (%v)", len(data), err)
		}
	}
	if h.check != nil {
		h.check(t, out.String())
	}
}

// watchPeak follows the peak resident memory of a process (VmHWM, sampled every 20 ms
// until it ends); the function returned stops and gives the last peak seen. (The rusage
// of a child counts the memory of the test process it was forked from.)
func watchPeak(pid int) func() int64 {
	var mu sync.Mutex
	var peak int64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
				for _, line := range strings.Split(string(data), "\n") {
					var kb int64
					if n, _ := fmt.Sscanf(line, "VmHWM: %d kB", &kb); n == 1 {
						mu.Lock()
						peak = max(peak, kb<<10)
						mu.Unlock()
					}
				}
			}
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() int64 {
		close(done)
		<-stopped
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

// resultOf is the result for one object in a JSON report.
func resultOf(t *testing.T, out, name string) (action, errMsg string) {
	t.Helper()
	rep := decodeReport(t, out)
	for _, r := range rep.Results {
		if r.Name == name {
			if r.Error != nil {
				return r.Action, r.Error.Message
			}
			return r.Action, ""
		}
	}
	t.Fatalf("no result for %s in\n%s", name, out)
	return "", ""
}

// notCreated checks that an object is an error in the report, not a create.
func notCreated(name, says string) func(t *testing.T, out string) {
	return func(t *testing.T, out string) {
		action, msg := resultOf(t, out, name)
		if msg == "" || action == "create" || !strings.Contains(msg, says) {
			t.Errorf("%s: %s, error %q; want an error saying %q", name, action, msg, says)
		}
	}
}

func TestHostileClusterE2E(t *testing.T) {
	bin := buildBinary(t)
	manifests := hostileManifests(t)
	// The healthy cluster: what every object predicts when the cluster answers well.
	var healthy int
	t.Run("healthy", func(t *testing.T) {
		s := hostileCluster(t)
		_, stderr, code := runBinary(t, bin, t.TempDir(), "--live-from-cluster", "--kubeconfig", s.Kubeconfig(t, t.TempDir(), "shop"), "-o", "json", nowFlag, manifests)
		if code != 0 && code != 1 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		healthy = code
	})
	at := func(path string, h http.HandlerFunc) func(t *testing.T, s *clustertest.Server) string {
		return func(t *testing.T, s *clustertest.Server) string {
			s.Intercept = clustertest.Answer(clustertest.PathIs(path), h)
			return ""
		}
	}
	const (
		chat = "/apis/apps/v1/namespaces/shop/deployments/chat"
		web  = "/api/v1/namespaces/front/configmaps/web"
		cms  = "/api/v1/namespaces/shop/configmaps"
	)
	objPrefix := `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"web","namespace":"front"},"data":{"a":"`
	listPrefix := `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"100"},"items":[{"metadata":{"name":"cm-00","namespace":"shop"},"data":{"a":"`
	other := newRecorder(t, true)
	plain := newRecorder(t, false)
	for _, h := range []hostileRun{
		{name: "refused", serve: func(t *testing.T, s *clustertest.Server) string {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := l.Addr().String()
			l.Close()
			return clustertest.KubeconfigFile(t, t.TempDir(), "https://"+addr, "certificate-authority-data: "+s.CAData(), "token: t", "shop")
		}, code: 2, says: []string{"error: --live-from-cluster: cannot reach the cluster at https://127.0.0.1:", "GET /version: dial tcp", "connection refused"}, within: 10 * time.Second},
		{name: "TLS refused", serve: func(t *testing.T, s *clustertest.Server) string {
			hs := httptest.NewServer(http.NotFoundHandler())
			t.Cleanup(hs.Close)
			return clustertest.KubeconfigFile(t, t.TempDir(), strings.Replace(hs.URL, "http://", "https://", 1), "certificate-authority-data: "+s.CAData(), "token: t", "shop")
		}, code: 2, says: []string{"GET /version: http: server gave HTTP response to HTTPS client"}, within: 10 * time.Second},
		{name: "an expired certificate", serve: func(t *testing.T, s *clustertest.Server) string {
			url, ca := expiredServer(t)
			return clustertest.KubeconfigFile(t, t.TempDir(), url, "certificate-authority-data: "+ca, "token: t", "shop")
		}, code: 2, says: []string{"GET /version: tls: failed to verify certificate: x509: certificate has expired or is not yet valid"}, within: 10 * time.Second},
		{name: "never answers", args: []string{"--request-timeout", "3s"}, serve: func(t *testing.T, s *clustertest.Server) string {
			addr, _ := clustertest.Silent(t)
			return clustertest.KubeconfigFile(t, t.TempDir(), "https://"+addr, "insecure-skip-tls-verify: true", "token: t", "shop")
		}, code: 2, says: []string{"GET /version: no answer within --request-timeout 3s"}, within: 10 * time.Second},
		{name: "a slow drip of /version", args: []string{"--request-timeout", "3s"}, serve: at("/version", clustertest.Drip(`{"major":"1","minor":"37","gitVersion":"v1.37.2"}`, 200*time.Millisecond)),
			code: 2, says: []string{"GET /version: the answer did not end within --request-timeout 3s ("}, within: 10 * time.Second},
		{name: "a slow drip of an object", args: []string{"--request-timeout", "3s"}, serve: at(web, clustertest.Drip(clustertest.Marshal(clusterCM("front", "web", "1")), 200*time.Millisecond)),
			code: 2, says: []string{"GET " + web + ": the answer did not end within --request-timeout 3s ("}, within: 15 * time.Second},
		{name: "an HTML login page", serve: at("/version", clustertest.Typed(200, "text/html; charset=utf-8", clustertest.LoginPage)),
			code: 2, says: []string{"GET /version: answered 200 OK with HTML (text/html), not the JSON asked for"}},
		{name: "an HTML error page, always", serve: at(web, clustertest.Typed(503, "text/html", "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>")),
			code: 2, says: []string{"GET " + web + ": answered 503 Service Unavailable with HTML (text/html), not the API server's Status: the server is currently unable to handle the request (the same answer after 5 retries)"},
			within: 25 * time.Second, check: notCreated("web", "503")},
		{name: "an HTML error page within a short timeout", args: []string{"--request-timeout", "3s"}, serve: at(web, clustertest.Typed(503, "text/html", "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>")),
			code: 2, says: []string{"GET " + web + ": no answer within --request-timeout 3s but the last answer was 503 Service Unavailable"}, within: 10 * time.Second},
		{name: "protobuf", serve: at(chat, clustertest.Typed(200, "application/vnd.kubernetes.protobuf", clustertest.ProtobufBody)),
			code: 2, says: []string{"GET " + chat + ": answered 200 OK with protobuf (application/vnd.kubernetes.protobuf), not the JSON asked for"}, check: notCreated("chat", "protobuf")},
		{name: "a version out of range", serve: func(t *testing.T, s *clustertest.Server) string { s.GitVersion = "v1.99.0"; return "" },
			code: 2, says: []string{"1.99"}},
		{name: "not a version", serve: at("/version", clustertest.JSON(`{"kind":"ConfigMap"}`)),
			code: 2, says: []string{"GET /version: the answer is not a version"}},
		{name: "a gzip bomb, 10 MiB to 10 GiB", serve: at(web, clustertest.Repeat(objPrefix, "0", 10<<30, `"}}`, true)),
			code: 2, says: []string{"GET " + web + ": the answer is larger than 32Mi (raise the limit with --max-document-bytes)"}, maxRSS: 400 << 20, check: notCreated("web", "max-document-bytes")},
		{name: "a LIST's gzip bomb", serve: at(cms, clustertest.Repeat(listPrefix, "0", 10<<30, `"}}]}`, true)),
			code: 2, says: []string{"GET " + cms + "?limit=500: the cluster's answers, with the files read before them, are larger than 128Mi (raise the limit with --max-input-bytes)"}, maxRSS: 400 << 20,
			check: notCreated("cm-05", "max-input-bytes")},
		{name: "2 GiB", serve: at(web, clustertest.Repeat(objPrefix, "0", 2<<30, `"}}`, false)),
			code: 2, says: []string{"GET " + web + ": the answer is larger than 32Mi (raise the limit with --max-document-bytes)"}, maxRSS: 400 << 20},
		{name: "a LIST of 2 GiB", serve: at(cms, func(w http.ResponseWriter, r *http.Request) {
			item := clustertest.Marshal(clustertest.BareItem(clustertest.Object("v1", "ConfigMap", "shop", "filler", map[string]any{"data": map[string]any{"a": strings.Repeat("x", 4000)}})))
			clustertest.Repeat(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"100"},"items":[`+item, ","+item, 2<<30, "]}", false)(w, r)
		}), code: 2, says: []string{"GET " + cms + "?limit=500: the cluster's answers, with the files read before them, are larger than 128Mi"}, maxRSS: 400 << 20},
		{name: "50 MiB of managedFields", serve: at(web, clustertest.JSON(bigManagedFields(50<<20))),
			code: 2, says: []string{"GET " + web + ": the answer is larger than 32Mi (raise the limit with --max-document-bytes)"}, maxRSS: 400 << 20, check: notCreated("web", "max-document-bytes")},
		{name: "managedFields within the bounds", serve: at(web, clustertest.JSON(bigManagedFields(1<<20))), code: 1, check: func(t *testing.T, out string) {
			if _, msg := resultOf(t, out, "web"); msg != "" {
				t.Errorf("web: %s", msg)
			}
		}},
		{name: "nested to the bound", code: 3, serve: at(web, clustertest.JSON(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"front"},"data":{"a":"1"},"x":`+
			strings.Repeat("[", 997)+strings.Repeat("]", 997)+`}`)), check: func(t *testing.T, out string) {
			// Read, and predicted: the engine refuses the field x, which no ConfigMap has.
			if _, msg := resultOf(t, out, "web"); !strings.Contains(msg, ".x: field not declared in schema") {
				t.Errorf("web: %s", msg)
			}
		}},
		{name: "nested past the bound", code: 2, serve: at(web, clustertest.JSON(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"front"},"data":{"a":"1"},"x":`+
			strings.Repeat("[", 998)+strings.Repeat("]", 998)+`}`)), says: []string{"GET " + web + ": the object's maps and lists, in the List of the live state, nest deeper than 1000 levels (raise the limit with --max-depth)"}},
		{name: "a continue token that never ends", serve: at(cms, clustertest.EndlessList("v1", "ConfigMap", false)),
			code: 2, says: []string{"GET " + cms + "?continue=page-200&limit=500: the LIST did not end after 200 pages"}, check: notCreated("cm-03", "200 pages")},
		{name: "a repeated continue token", serve: at(cms, clustertest.EndlessList("v1", "ConfigMap", true)),
			code: 2, says: []string{"GET " + cms + "?continue=again&limit=500: the LIST loops"}, check: notCreated("cm-03", "loops")},
		{name: "10,000 versions in a group", serve: func(t *testing.T, s *clustertest.Server) string {
			s.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
				switch r.URL.Path {
				case "/apis/apps/v1":
					clustertest.Typed(404, "text/plain; charset=utf-8", "404 page not found\n")(w, r)
				case "/apis/apps":
					clustertest.ManyVersions("apps", 10000)(w, r)
				default:
					return false
				}
				return true
			}
			return ""
		}, code: 2, says: []string{"discovery /apis/apps: GET /apis/apps: the group lists 10000 versions, more than 64"}, check: notCreated("chat", "10000 versions")},
		{name: "another object", serve: at(chat, clustertest.JSON(clustertest.Marshal(clustertest.Object("apps/v1", "Deployment", "shop", "evil", nil)))),
			code: 2, says: []string{"GET " + chat + `: the answer is apps/v1 Deployment "evil" in namespace "shop", not the object asked for`}, check: notCreated("chat", `"evil"`)},
		{name: "another kind", serve: at(chat, clustertest.JSON(clustertest.Marshal(clusterCM("shop", "chat", "1")))),
			code: 2, says: []string{"GET " + chat + `: the answer is v1 ConfigMap "chat" in namespace "shop", not the object asked for`}, check: notCreated("chat", "ConfigMap")},
		{name: "a LIST item of another kind", serve: at(cms, func(w http.ResponseWriter, r *http.Request) {
			var items []any
			for i := 0; i < 12; i++ {
				items = append(items, clustertest.BareItem(clusterCM("shop", fmt.Sprintf("cm-%02d", i), "1")))
			}
			items[5] = clustertest.Object("v1", "Secret", "shop", "cm-05", nil)
			clustertest.JSON(clustertest.List("v1", "ConfigMap", "", items...))(w, r)
		}), code: 2, says: []string{`GET ` + cms + `?limit=500: the list's item "cm-05" is v1 Secret "cm-05"`}, check: func(t *testing.T, out string) {
			notCreated("cm-05", "Secret")(t, out)
			if _, msg := resultOf(t, out, "cm-04"); msg != "" {
				t.Errorf("cm-04 failed with cm-05: %s", msg)
			}
		}},
		{name: "a bad LIST item", serve: at(cms, func(w http.ResponseWriter, r *http.Request) {
			items := []any{"garbage"}
			for i := 0; i < 12; i++ {
				items = append(items, clustertest.BareItem(clusterCM("shop", fmt.Sprintf("cm-%02d", i), "1")))
			}
			clustertest.JSON(clustertest.List("v1", "ConfigMap", "", items...))(w, r)
		}), code: -1},
		{name: "a redirect to another host", serve: at(chat, clustertest.Redirect(302, func(r *http.Request) string { return other.URL + r.URL.Path })),
			code: 2, says: []string{"GET " + chat + " was answered 302 Found, a redirect to " + other.URL + chat + ", which is not followed"},
			check: func(t *testing.T, out string) { notCreated("chat", "redirect")(t, out); other.untouched(t) }},
		{name: "a redirect to http://", serve: at("/version", clustertest.Redirect(307, func(r *http.Request) string { return plain.URL + r.URL.Path })),
			code: 2, says: []string{"GET /version was answered 307 Temporary Redirect, a redirect to " + plain.URL + "/version, which is not followed"},
			check: func(t *testing.T, out string) { plain.untouched(t) }},
		{name: "a 404 page", serve: at(chat, clustertest.Typed(404, "text/html", "<html>not here</html>")),
			code: 2, says: []string{"GET " + chat + ": answered 404 Not Found with HTML (text/html), not the API server's Status"}, check: notCreated("chat", "404")},
		{name: "save-live refuses what cannot be read back", args: []string{"--max-objects", "20"},
			code: 2, says: []string{"error: --save-live ", "not written: what was read from the cluster cannot be read back", "more objects than 20 objects", "--max-objects"}},
	} {
		t.Run(h.name, func(t *testing.T) { h.run(t, bin, manifests, healthy) })
	}

	t.Run("SIGINT", func(t *testing.T) {
		s := hostileCluster(t)
		asked := make(chan struct{}, 100)
		s.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
			if strings.HasPrefix(r.URL.Path, "/api/v1/namespaces/shop/configmaps") {
				asked <- struct{}{}
				<-r.Context().Done()
				return true
			}
			return false
		}
		dir := t.TempDir()
		saved := filepath.Join(dir, "live.json")
		start := time.Now()
		p := startBinary(t, bin, "--live-from-cluster", "--kubeconfig", s.Kubeconfig(t, t.TempDir(), "shop"), "--save-live", saved, manifests)
		waitFor(t, asked, "request for a ConfigMap")
		if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		if code := p.wait(t); code != 130 {
			t.Errorf("exit %d, want 130\n%s", code, p.stderr)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("the run took %v after SIGINT", d)
		}
		if klogLine.MatchString(p.stderr.String()) {
			t.Errorf("a log line of client-go on stderr:\n%s", p.stderr)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%d files written", len(entries))
		}
	})
}

// bigManagedFields is a ConfigMap web whose managedFields take size bytes.
func bigManagedFields(size int) string {
	var b strings.Builder
	b.WriteString(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"front","managedFields":[`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"manager":"manager-%07d","operation":"Update","apiVersion":"v1","time":"2026-12-01T10:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}}`, i)
	}
	b.WriteString(`]},"data":{"a":"1"}}`)
	return b.String()
}

// recorder is the host a redirect points to: it records every connection and request.
type recorder struct {
	*httptest.Server
	mu       sync.Mutex
	conns    int
	requests []string
}

func newRecorder(t *testing.T, useTLS bool) *recorder {
	rec := &recorder{}
	rec.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.requests = append(rec.requests, r.URL.Path+" Authorization="+r.Header.Get("Authorization"))
		rec.mu.Unlock()
		clustertest.JSON(clustertest.Marshal(clustertest.Object("apps/v1", "Deployment", "shop", "chat", map[string]any{"spec": map[string]any{"replicas": 9}})))(w, r)
	}))
	rec.Config.ErrorLog = log.New(io.Discard, "", 0)
	rec.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			rec.mu.Lock()
			rec.conns++
			rec.mu.Unlock()
		}
	}
	if useTLS {
		rec.TLS = &tls.Config{ClientAuth: tls.RequestClientCert}
		rec.StartTLS()
	} else {
		rec.Start()
	}
	t.Cleanup(rec.Close)
	return rec
}

func (rec *recorder) untouched(t *testing.T) {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.conns != 0 || len(rec.requests) != 0 {
		t.Errorf("the host the redirect pointed to got %d connections and these requests: %q", rec.conns, rec.requests)
	}
}

// expiredServer is a TLS server whose certificate, signed by the CA returned
// (certificate-authority-data), expired yesterday.
func expiredServer(t *testing.T) (url, caData string) {
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test-ca"}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign, NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(48 * time.Hour)}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	leafTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-24 * time.Hour)}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(http.NotFoundHandler())
	hs.Config.ErrorLog = log.New(io.Discard, "", 0)
	hs.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{leafDER}, PrivateKey: key}}}
	hs.StartTLS()
	t.Cleanup(hs.Close)
	return hs.URL, base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}))
}
