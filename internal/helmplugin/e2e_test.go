package helmplugin

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
)

// TestHelmE2E predicts Helm 4 upgrades of a release a real Helm installed into a real
// kube-apiserver (make e2e: SSA_DIFF_E2E=1, the server's binaries in $SSA_DIFF_KUBE_BIN,
// Helm in $SSA_DIFF_HELM). `helm ssa-diff upgrade` reads the release's records and the
// live objects from the cluster (--live-from-cluster --applier helm, get and list only),
// then the real `helm upgrade` runs: an upgrade that changes values stores what was
// predicted (each object and its managedFields, times aside), and after another applier
// took a field with force, the upgrade Helm fails with the 409 predicted, word for word.
func TestHelmE2E(t *testing.T) {
	if os.Getenv("SSA_DIFF_E2E") == "" {
		t.Skip("needs a real kube-apiserver and etcd, and Helm 4: run make e2e (SSA_DIFF_E2E=1, SSA_DIFF_HELM)")
	}
	helm := os.Getenv("SSA_DIFF_HELM")
	if helm == "" {
		t.Skip("needs a real Helm 4 in $SSA_DIFF_HELM: make e2e builds it from tools/helm")
	}
	srv := clustertest.StartAPIServer(t, clustertest.BinDir())
	const ns = "shop"
	kubeconfig := srv.Kubeconfig(t, "admin", srv.AdminToken, ns)
	home := t.TempDir()
	env := map[string]string{"KUBECONFIG": kubeconfig, "HELM_NAMESPACE": ns, "HELM_DRIVER": "secret",
		"HELM_CACHE_HOME": filepath.Join(home, "cache"), "HELM_CONFIG_HOME": filepath.Join(home, "config"), "HELM_DATA_HOME": filepath.Join(home, "data")}
	for k, v := range env {
		t.Setenv(k, v)
	}
	chart, err := filepath.Abs(filepath.Join("..", "..", "conformance", "testdata", "helm", "charts", "web"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(srv.CA)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	send := func(method, path, contentType, body string) (int, map[string]any) {
		t.Helper()
		req, err := http.NewRequestWithContext(context.Background(), method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+srv.AdminToken)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		var obj map[string]any
		_ = json.Unmarshal(data, &obj)
		return resp.StatusCode, obj
	}
	runHelm := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(helm, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if x, ok := err.(*exec.ExitError); ok {
			return out.String(), x.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return out.String(), 0
	}
	predict := func(args ...string) (results []result, stderr string, code int) {
		t.Helper()
		var out, errb bytes.Buffer
		code = Main(append(args, "-o", "json"), strings.NewReader(""), &out, &errb, os.Getenv)
		var rep struct{ Results []result }
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("exit %d, the report: %v\n%s\n%s", code, err, out.String(), errb.String())
		}
		if !strings.Contains(errb.String(), "live state: ") && !strings.Contains(errb.String(), "from the cluster") {
			t.Logf("stderr: %s", errb.String())
		}
		return rep.Results, errb.String(), code
	}

	if code, st := send(http.MethodPost, "/api/v1/namespaces", "application/json", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+ns+`"}}`); code != http.StatusCreated {
		t.Fatalf("the namespace: %d %v", code, st)
	}
	if out, code := runHelm("install", "web", chart, "-n", ns, "--set", "env.MODE=prod"); code != 0 {
		t.Fatalf("helm install: exit %d\n%s", code, out)
	}

	t.Run("upgrade-stores-what-was-predicted", func(t *testing.T) {
		args := []string{"upgrade", "web", chart, "-n", ns, "--set", "color=green", "--set", "image=nginx:1.28"}
		results, stderr, code := predict(args...)
		if code != 1 {
			t.Fatalf("helm ssa-diff upgrade: exit %d, want 1 (changes)\n%s", code, stderr)
		}
		if out, code := runHelm(args...); code != 0 {
			t.Fatalf("helm upgrade: exit %d\n%s", code, out)
		}
		checked := 0
		for _, r := range results {
			if r.Object == nil {
				continue
			}
			status, stored := send(http.MethodGet, r.path(), "", "")
			if status != http.StatusOK {
				t.Errorf("%s %s: the server answers %d", r.Kind, r.Name, status)
				continue
			}
			want, got := timeless(stored), timeless(r.Object)
			if !reflect.DeepEqual(want, got) {
				t.Errorf("%s %s: the server stored (-) and ssa-diff predicted (+):\n%s", r.Kind, r.Name, testkit.Diff(want, got))
			}
			checked++
		}
		if checked < 2 {
			t.Errorf("%d objects compared, want the ConfigMap and the Deployment\n%s", checked, stderr)
		}
	})

	t.Run("conflict-with-another-applier", func(t *testing.T) {
		if code, st := send(http.MethodPatch, "/api/v1/namespaces/"+ns+"/configmaps/web-config?fieldManager=ops&force=true", "application/apply-patch+yaml",
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web-config","namespace":"`+ns+`"},"data":{"size":"large"}}`); code != http.StatusOK {
			t.Fatalf("the other applier: %d %v", code, st)
		}
		args := []string{"upgrade", "web", chart, "-n", ns, "--set", "color=green", "--set", "image=nginx:1.28"}
		_, stderr, code := predict(args...)
		if code != 3 {
			t.Fatalf("helm ssa-diff upgrade: exit %d, want 3 (helm fails)\n%s", code, stderr)
		}
		out, hcode := runHelm(args...)
		if hcode == 0 {
			t.Fatalf("helm upgrade succeeded:\n%s", out)
		}
		i := strings.LastIndex(out, "Error: ")
		if i < 0 {
			t.Fatalf("helm upgrade: exit %d, no error:\n%s", hcode, out)
		}
		helmErr := strings.TrimSpace(out[i:])
		if !strings.Contains(helmErr, `conflict with "ops"`) || !strings.Contains(stderr, "helm would fail: "+helmErr+"\n") {
			t.Errorf("helm printed %q\nssa-diff predicted:\n%s", helmErr, stderr)
		}
	})
}

// result is an object of the plugin's JSON report.
type result struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
	Object     map[string]any
}

// path is where the server serves the object (the kinds of the chart: plural by an s).
func (r result) path() string {
	prefix := "/apis/" + r.APIVersion
	if !strings.Contains(r.APIVersion, "/") {
		prefix = "/api/" + r.APIVersion
	}
	return fmt.Sprintf("%s/namespaces/%s/%ss/%s", prefix, r.Namespace, strings.ToLower(r.Kind), r.Name)
}

// timeless is obj without what a prediction made before the write cannot hold: the
// managedFields' times and the resourceVersion.
func timeless(obj map[string]any) map[string]any {
	data, _ := json.Marshal(obj)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	md, _ := out["metadata"].(map[string]any)
	delete(md, "resourceVersion")
	mf, _ := md["managedFields"].([]any)
	for _, e := range mf {
		if m, ok := e.(map[string]any); ok {
			delete(m, "time")
		}
	}
	return out
}
