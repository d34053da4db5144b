package conformance

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/kube"
	"sigs.k8s.io/yaml"
)

// TestLiveFromClusterPicksMinor runs ssa-diff --live-from-cluster, without --kube-version,
// against a real kube-apiserver of the release $SSA_DIFF_KUBE_BIN holds (make e2e
// KUBE_VERSION=v1.36.3): ssa-diff must read the server's minor from /version, say so in its
// JSON report, and predict as that minor does — each case, chosen where the minors answer
// differently (testdata/minors), must be the server's own answer to the same apply sent
// with dryRun=All: the object and its managedFields, or the refusal, code and message.
func TestLiveFromClusterPicksMinor(t *testing.T) {
	if os.Getenv("SSA_DIFF_E2E") == "" {
		t.Skip("needs a real kube-apiserver and etcd: run make e2e KUBE_VERSION=v1.36.3 (SSA_DIFF_E2E=1; binaries from $SSA_DIFF_KUBE_BIN)")
	}
	bin := buildSSADiff(t)
	srv := clustertest.StartAPIServer(t, clustertest.BinDir())
	k := &e2eServer{t: t, url: srv.URL, token: srv.AdminToken, client: httpsClient(t, srv.CA)}
	var info struct{ GitVersion, Major, Minor string }
	if code, body := k.do("GET", "/version", "", nil); code != 200 || json.Unmarshal(body, &info) != nil {
		t.Fatalf("/version: %d %s", code, body)
	}
	minor, err := kube.ParseMinor(info.GitVersion)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("kube-apiserver %s (Kubernetes %s)", info.GitVersion, minor)
	if minor == kube.Default() {
		t.Logf("the server is the latest minor, which ssa-diff predicts without being told anyway: run it against an older one (make e2e KUBE_VERSION=v1.36.3)")
	}

	// The live state, written for real.
	k.create("/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"e2e"}}`)
	k.apply("deployer", statefulSet("db", "db"))
	k.apply("team-a", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"e2e"},"data":{"a":"1"}}`)
	k.apply("platform", hpa(2, 8))
	kubeconfig := srv.Kubeconfig(t, "admin", srv.AdminToken, "e2e")

	cases := []struct{ name, manager, manifest string }{
		// 1.37 defaults rollingUpdate.maxUnavailable; 1.34-1.36 do not.
		{"statefulset-create-defaults", "deployer", statefulSet("cache", "cache")},
		// 1.34-1.36: one Forbidden on spec; 1.37: spec.serviceName is immutable.
		{"statefulset-service-name-change", "deployer", statefulSet("db", "db-headless")},
		// 1.37 counts an HPA's generation; 1.34-1.36 leave it out.
		{"hpa-spec-change-generation", "platform", hpa(2, 10)},
		// 1.34-1.36: metadata.ownerReferences.kind Invalid; 1.37: [0].kind Required.
		{"owner-reference-empty-kind", "team-a", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"owned","namespace":"e2e",
			"ownerReferences":[{"apiVersion":"v1","kind":"","name":"o","uid":"6b9d2f0e-1c1a-4d0e-9a57-3c6f8f3f7a11"}]},"data":{"a":"1"}}`},
		// 1.34-1.35 accept a leading zero (with a warning), 1.36+ refuse it.
		{"pod-host-alias-leading-zero", "deployer", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"app","namespace":"e2e"},
			"spec":{"hostAliases":[{"ip":"010.1.2.3","hostnames":["legacy.internal"]}],"containers":[{"name":"app","image":"nginx:1.27"}]}}`},
		// Unknown to 1.34-1.35 (500), dropped by 1.36, kept by 1.37.
		{"csidriver-prevent-pod-scheduling", "csi-installer", `{"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"prevent.csi.example.com"},
			"spec":{"preventPodSchedulingIfMissing":true}}`},
		// 404 on 1.34-1.35, created with the v1 defaults from 1.36.
		{"mutatingadmissionpolicy-v1", "policy-admin", `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicy","metadata":{"name":"e2e-label"},
			"spec":{"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}]},
			"mutations":[{"patchType":"ApplyConfiguration","applyConfiguration":{"expression":"Object{metadata: Object.metadata{labels: {\"a\": \"b\"}}}"}}],
			"reinvocationPolicy":"Never"}}`},
		// The same in every minor: a conflict.
		{"conflict", "team-b", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"e2e"},"data":{"a":"2"}}`},
	}
	e2eNextSecond()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			manifest := filepath.Join(dir, "manifest.json")
			if err := os.WriteFile(manifest, []byte(c.manifest), 0o644); err != nil {
				t.Fatal(err)
			}
			saved := filepath.Join(dir, "live.json")
			now := time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
			cmd := exec.Command(bin, "--live-from-cluster", "--kubeconfig", kubeconfig, "--save-live", saved, "--applier", "api",
				"--field-manager", c.manager, "-o", "json", "--now", now, manifest)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				t.Fatal(err)
			}
			var report map[string]any
			if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
				t.Fatalf("the report is not JSON (%v): %s\n%s", err, stdout.String(), stderr.String())
			}
			if got, ok := statedMinor(report); !ok {
				t.Errorf("the report does not state the Kubernetes minor it predicted (a kubernetesVersion field)")
			} else if v, err := kube.ParseMinor(got); err != nil || v != minor {
				t.Errorf("the report says it predicted Kubernetes %q; the server is %s", got, info.GitVersion)
			}
			results, _ := report["results"].([]any)
			if len(results) != 1 {
				t.Fatalf("%d results\n%s\n%s", len(results), stdout.String(), stderr.String())
			}
			got, _ := results[0].(map[string]any)
			live := savedLive(t, saved)
			want, status := k.dryRunApply(c.manager, c.manifest)
			if status != nil {
				gerr, _ := got["error"].(map[string]any)
				if gerr == nil || fmt.Sprint(gerr["code"]) != fmt.Sprint(status["code"]) || gerr["message"] != status["message"] {
					t.Errorf("Kubernetes %s answers %v %q;\nssa-diff predicts %s", minor, status["code"], status["message"], compact(got))
				}
				return
			}
			obj, _ := got["object"].(map[string]any)
			if obj == nil {
				t.Fatalf("Kubernetes %s accepts the apply; ssa-diff predicts %s", minor, compact(got))
			}
			want = generic(want)
			if assigned, _ := got["assigned"].([]any); len(assigned) > 0 {
				for _, p := range assigned { // values the server assigns: left out of the prediction
					if s, _ := p.(string); s != ".metadata.resourceVersion" {
						removeAt(want, s)
					}
				}
			}
			if w, g := e2eNormal(want, live), e2eNormal(obj, live); !reflect.DeepEqual(w, g) {
				t.Errorf("Kubernetes %s stores another object than ssa-diff predicts:\n%s", minor, testkit.Diff(w, g))
			}
		})
	}
}

// statedMinor is the Kubernetes minor a report says it predicted: the string of its
// kubernetesVersion field (at the top, or among its options).
func statedMinor(report map[string]any) (string, bool) {
	for _, m := range []map[string]any{report, asMap(report["options"])} {
		for k, v := range m {
			if s, ok := v.(string); ok && strings.EqualFold(k, "kubernetesVersion") {
				return s, true
			}
		}
	}
	return "", false
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func statefulSet(name, serviceName string) string {
	return `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"` + name + `","namespace":"e2e"},"spec":{"serviceName":"` + serviceName +
		`","selector":{"matchLabels":{"app":"` + name + `"}},"template":{"metadata":{"labels":{"app":"` + name +
		`"}},"spec":{"containers":[{"name":"app","image":"postgres:17"}]}}}}`
}

func hpa(minReplicas, maxReplicas int) string {
	return fmt.Sprintf(`{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"web","namespace":"e2e"},
		"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"minReplicas":%d,"maxReplicas":%d,
		"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}}]}}`, minReplicas, maxReplicas)
}

// buildSSADiff builds the command into the test's folder.
func buildSSADiff(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ssa-diff")
	cmd := exec.Command("go", "build", "-tags", "kustomize_disable_go_plugin_support", "-o", bin, ".")
	cmd.Dir = testkit.RepoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func httpsClient(t *testing.T, ca []byte) *http.Client {
	t.Helper()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		t.Fatal("the server's CA does not parse")
	}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
}

// e2eServer writes to the server as its administrator.
type e2eServer struct {
	t      *testing.T
	url    string
	token  string
	client *http.Client
}

func (k *e2eServer) do(method, path, ctype string, body []byte) (int, []byte) {
	k.t.Helper()
	req, err := http.NewRequest(method, k.url+path, bytes.NewReader(body))
	if err != nil {
		k.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+k.token)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := k.client.Do(req)
	if err != nil {
		k.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		k.t.Fatal(err)
	}
	return resp.StatusCode, out
}

func (k *e2eServer) create(collection, doc string) {
	k.t.Helper()
	if code, out := k.do("POST", collection, "application/json", []byte(doc)); code >= 300 {
		k.t.Fatalf("POST %s: %d %s", collection, code, out)
	}
}

// objectPath is the URL of the object a manifest names.
func (k *e2eServer) objectPath(doc string) string {
	k.t.Helper()
	var obj struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct{ Name, Namespace string }
	}
	if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
		k.t.Fatal(err)
	}
	p := "/apis/" + obj.APIVersion
	if !strings.Contains(obj.APIVersion, "/") {
		p = "/api/" + obj.APIVersion
	}
	if obj.Metadata.Namespace != "" {
		p += "/namespaces/" + obj.Metadata.Namespace
	}
	res := strings.ToLower(obj.Kind)
	switch {
	case strings.HasSuffix(res, "y"):
		res = res[:len(res)-1] + "ies"
	case strings.HasSuffix(res, "s"):
		res += "es"
	default:
		res += "s"
	}
	return p + "/" + res + "/" + obj.Metadata.Name
}

// apply sends a server-side apply as manager, which must succeed.
func (k *e2eServer) apply(manager, doc string) {
	k.t.Helper()
	if code, out := k.do("PATCH", k.objectPath(doc)+"?fieldManager="+manager, "application/apply-patch+yaml", []byte(doc)); code >= 300 {
		k.t.Fatalf("apply as %s: %d %s", manager, code, out)
	}
}

// dryRunApply is the server's answer to the apply with dryRun=All: the object, or the
// refusal (a Status; the mux's plain-text 404 as a Status with that message).
func (k *e2eServer) dryRunApply(manager, doc string) (obj, status map[string]any) {
	k.t.Helper()
	code, out := k.do("PATCH", k.objectPath(doc)+"?dryRun=All&fieldManager="+manager, "application/apply-patch+yaml", []byte(doc))
	var body map[string]any
	if err := json.Unmarshal(out, &body); err != nil {
		return nil, map[string]any{"code": code, "message": strings.TrimSuffix(string(out), "\n")}
	}
	if code >= 300 {
		return nil, body
	}
	return body, nil
}

// savedLive is the live object of ssa-diff's saved read (not the read's record), or nil.
func savedLive(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range splitYAML(data) {
		var obj map[string]any
		if err := yaml.Unmarshal(doc, &obj); err != nil {
			t.Fatal(err)
		}
		if kind, _ := obj["kind"].(string); obj != nil && kind != "LiveStateRead" && kind != "CustomResourceDefinition" {
			return obj
		}
	}
	return nil
}

// e2eNormal prepares an object for comparison as the recorded cases are compared: never
// the resourceVersion, not uid and creationTimestamp on creates, managedFields times
// stamped by this write as NOW.
func e2eNormal(obj, live map[string]any) map[string]any {
	o := generic(obj)
	md, _ := o["metadata"].(map[string]any)
	delete(md, "resourceVersion")
	liveTimes := map[string]bool{}
	if live == nil {
		delete(md, "uid")
		delete(md, "creationTimestamp")
	}
	for _, e := range entriesOf(generic(live)) {
		if tm, ok := e["time"].(string); ok {
			liveTimes[tm] = true
		}
	}
	mf, _ := md["managedFields"].([]any)
	for _, e := range mf {
		if em, ok := e.(map[string]any); ok {
			if tm, ok := em["time"].(string); ok && !liveTimes[tm] {
				em["time"] = "NOW"
			}
		}
	}
	return o
}

// e2eNextSecond waits for the clock's next second: the predictions stamp --now, the server
// its clock, both later than every time of the live state.
func e2eNextSecond() {
	now := time.Now()
	time.Sleep(now.Truncate(time.Second).Add(time.Second).Sub(now) + 10*time.Millisecond)
}
