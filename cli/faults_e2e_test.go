package cli

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// TestClusterStoppedMidReadE2E reads from a real kube-apiserver 1.37.2 that dies (SIGKILL)
// or hangs (SIGSTOP) in the middle of the read (make e2e; skipped without SSA_DIFF_E2E).
// The objects read before are predicted; the others are errors, never creates; exit 2; the
// run ends (a hung server costs one --request-timeout, not one per object).
//
// The read is long enough to be stopped in its middle without a race: 400 ConfigMaps in 80
// namespaces (five each: a GET each), of which client-side rating (bursts of 300, then 50
// per second) sends the last 100 over two seconds at least. The server is stopped once its
// metrics count the first GET of a ConfigMap.
func TestClusterStoppedMidReadE2E(t *testing.T) {
	if os.Getenv("SSA_DIFF_E2E") == "" {
		t.Skip("needs a real kube-apiserver 1.37.2 and etcd: run make e2e (SSA_DIFF_E2E=1; binaries from $SSA_DIFF_KUBE_BIN or ~/.cache/kube-apiserver-1.37.2/bin)")
	}
	for _, c := range []struct {
		name string
		sig  syscall.Signal
	}{{"killed", syscall.SIGKILL}, {"hung", syscall.SIGSTOP}} {
		t.Run(c.name, func(t *testing.T) {
			srv := clustertest.StartAPIServer(t, clustertest.BinDir())
			cfg := &rest.Config{Host: srv.URL, BearerToken: srv.AdminToken, TLSClientConfig: rest.TLSClientConfig{CAData: srv.CA}, QPS: 1000, Burst: 1000}
			docs := createSpread(t, cfg, 80, 5)
			dir := writeFiles(t, map[string]string{"m.json": strings.Join(docs, "\n")})
			kc := srv.Kubeconfig(t, "admin", srv.AdminToken, "default")

			type result struct {
				out, stderr string
				code        int
			}
			done := make(chan result, 1)
			go func() {
				var r result
				r.out, r.stderr, r.code = run(t, "", "--live-from-cluster", "--kubeconfig", kc, "--request-timeout", "3s",
					"--applier", "api", "--field-manager", "team", "-o", "json", filepath.Join(dir, "m.json"))
				done <- r
			}()
			// Stop the server at the first GET of a ConfigMap it counts.
			for n := 0; n == 0; {
				select {
				case r := <-done:
					t.Fatalf("the read ended (exit %d) before the server was stopped\n%s", r.code, r.stderr)
				case <-time.After(20 * time.Millisecond):
				}
				n = configMapGets(t, srv)
			}
			if err := srv.Signal("kube-apiserver", c.sig); err != nil {
				t.Fatal(err)
			}
			stoppedAt := time.Now()
			var r result
			select {
			case r = <-done:
			case <-time.After(2 * time.Minute):
				t.Fatal("the read still runs two minutes after the server was stopped")
			}
			if r.code != 2 {
				t.Errorf("exit %d, want 2\n%s", r.code, r.stderr)
			}
			var rep struct{ Results []e2eResult }
			if err := json.Unmarshal([]byte(r.out), &rep); err != nil || len(rep.Results) != len(docs) {
				t.Fatalf("%v: %d results\n%s", err, len(rep.Results), r.stderr)
			}
			ended := time.Since(stoppedAt)
			read, failed := 0, 0
			var errs []string
			for _, res := range rep.Results {
				switch {
				case res.Action == "unchanged":
					read++
				case res.Action == "error" && strings.Contains(res.Error.Message, "from the cluster: "):
					failed++
					if len(errs) < 2 || !strings.Contains(errs[len(errs)-1], "not asked") && strings.Contains(res.Error.Message, "not asked") {
						errs = append(errs, res.Error.Message)
					}
				default:
					t.Errorf("%s: %s %+v, want unchanged (read) or an error (not read)", res.Name, res.Action, res.Error)
				}
			}
			if read == 0 || failed == 0 {
				t.Errorf("%d read and predicted, %d not read: want some of each (stopped in the middle)", read, failed)
			}
			want := fmt.Sprintf("%d objects read, 0 not found, %d not readable", read, failed)
			if !strings.Contains(r.stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
			}
			t.Logf("%s: %d objects read and predicted, %d not read; the run ended %v after the signal; errors such as:\n%s",
				c.sig, read, failed, ended.Round(10*time.Millisecond), strings.Join(errs, "\n"))
		})
	}
}

// createSpread applies per ConfigMaps in each of namespaces namespaces as manager "team",
// and returns their manifests.
func createSpread(t *testing.T, cfg *rest.Config, namespaces, per int) []string {
	t.Helper()
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	apply := func(res schema.GroupVersionResource, ns, name, doc string) error {
		r := dyn.Resource(res)
		force := true
		opts := metav1.PatchOptions{FieldManager: "team", Force: &force}
		if ns != "" {
			_, err := r.Namespace(ns).Patch(context.Background(), name, types.ApplyPatchType, []byte(doc), opts)
			return err
		}
		_, err := r.Patch(context.Background(), name, types.ApplyPatchType, []byte(doc), opts)
		return err
	}
	nsRes := schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	cmRes := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	var docs []string
	for i := 0; i < namespaces; i++ {
		for j := 0; j < per; j++ {
			docs = append(docs, fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-%d","namespace":"ns-%02d"},"data":{"a":"1"}}`, j, i))
		}
	}
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				ns := fmt.Sprintf("ns-%02d", i)
				err := apply(nsRes, "", ns, fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, ns))
				for j := 0; j < per && err == nil; j++ {
					err = apply(cmRes, ns, fmt.Sprintf("cm-%d", j), docs[i*per+j])
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < namespaces; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		t.Fatal(firstErr)
	}
	return docs
}

// configMapGets is how many GETs of one ConfigMap the server has answered, from its metrics
// (apiserver_request_total).
func configMapGets(t *testing.T, srv *clustertest.APIServer) int {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(srv.CA)
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+srv.AdminToken)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("metrics: %v", err)
	}
	defer resp.Body.Close()
	n := 0
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "apiserver_request_total{") && strings.Contains(line, `resource="configmaps"`) &&
			strings.Contains(line, `scope="resource"`) && strings.Contains(line, `verb="GET"`) {
			if v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64); err == nil {
				n += int(v)
			}
		}
	}
	return n
}
