package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
	"github.com/ssa-diff/ssa-diff/internal/input"
)

func cm(ns, name string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": name, "namespace": ns, "uid": "u-" + name,
			"managedFields": []any{map[string]any{"manager": "kubectl", "operation": "Apply", "apiVersion": "v1",
				"fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:data": map[string]any{"f:a": map[string]any{}}}}}},
		"data": map[string]any{"a": "1"}}
}

func connect(t *testing.T, s *clustertest.Server, opts Options) *Client {
	t.Helper()
	if opts.Kubeconfig == "" {
		opts.Kubeconfig = s.Kubeconfig(t, t.TempDir(), "shop")
	}
	c, err := Connect(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func read(t *testing.T, c *Client, opts ReadOptions, refs ...Ref) *Result {
	t.Helper()
	res, err := c.Read(context.Background(), refs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func countRequests(s *clustertest.Server, prefix string) int {
	n := 0
	for _, r := range s.Requests() {
		if strings.HasPrefix(r, prefix) {
			n++
		}
	}
	return n
}

func TestGetFoundAndNotFound(t *testing.T) {
	s := clustertest.New(t)
	s.Add(cm("shop", "web"), cm("other", "web"))
	c := connect(t, s, Options{})
	if c.Namespace != "shop" || c.Context != "test" {
		t.Fatalf("namespace %q, context %q: want the context's", c.Namespace, c.Context)
	}
	res := read(t, c, ReadOptions{},
		Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "web"},                     // the context's namespace
		Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "gone"}, // NotFound: a create
		Ref{APIVersion: "v1", Kind: "Namespace", Name: "shop", Namespace: "x"},    // cluster-scoped: no namespace
		Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "web"},  // the same object again
	)
	o := res.Outcomes
	if o[0].Status != Found || o[0].ID != (input.Identity{Kind: "ConfigMap", Namespace: "shop", Name: "web"}) {
		t.Errorf("outcome 0 = %+v", o[0])
	}
	md, _ := decoded(t, o[0].Object)["metadata"].(map[string]any)
	if _, ok := md["managedFields"]; !ok || decoded(t, o[0].Object)["apiVersion"] != "v1" {
		t.Errorf("the object read lacks managedFields or apiVersion: %v", o[0].Object)
	}
	if o[1].Status != NotFound || o[1].Err != nil {
		t.Errorf("outcome 1 = %+v, want NotFound", o[1])
	}
	if o[2].Status != NotFound || o[2].ID.Namespace != "" {
		t.Errorf("outcome 2 = %+v, want a cluster-scoped NotFound", o[2])
	}
	if o[3].Status != Found {
		t.Errorf("outcome 3 = %+v", o[3])
	}
	if n := countRequests(s, "GET /api/v1/namespaces/shop/configmaps/web"); n != 1 {
		t.Errorf("the object was read %d times, want once", n)
	}
	if got := len(res.Objects()); got != 1 {
		t.Errorf("%d objects, want 1", got)
	}
	if res.Gets != 3 || res.Lists != 0 {
		t.Errorf("%d GET, %d LIST; want 3 and 0", res.Gets, res.Lists)
	}
	// Discovery: the core group version only, once.
	if n := countRequests(s, "GET /api/v1?"); n+countRequests(s, "GET /api/v1\x00") > 1 {
		t.Errorf("discovery of v1 read %d times", n)
	}
}

// Many objects of one kind in one namespace: one LIST, paged with limit and continue, and
// only the objects asked for kept.
func TestListPaged(t *testing.T) {
	s := clustertest.New(t)
	var refs []Ref
	for i := 0; i < 1200; i++ {
		name := "cm-" + strings.Repeat("0", 4-len(itoa(i))) + itoa(i)
		s.Add(cm("shop", name))
		if i%100 == 7 {
			refs = append(refs, Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: name})
		}
	}
	refs = append(refs, Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "missing"})
	res := read(t, connect(t, s, Options{}), ReadOptions{ListThreshold: 5}, refs...)
	for i, o := range res.Outcomes {
		want := Found
		if i == len(refs)-1 {
			want = NotFound
		}
		if o.Status != want {
			t.Errorf("%s: status %d, want %d (%v)", o.ID, o.Status, want, o.Err)
		}
		if want == Found && (decoded(t, o.Object)["kind"] != "ConfigMap" || decoded(t, o.Object)["apiVersion"] != "v1") {
			t.Errorf("a listed item lacks its apiVersion and kind: %v", o.Object)
		}
	}
	if res.Lists != 1 || res.Pages != 3 || res.Gets != 0 {
		t.Errorf("%d LIST in %d pages and %d GET; want 1 in 3 (limit 500) and 0", res.Lists, res.Pages, res.Gets)
	}
	if n := countRequests(s, "GET /api/v1/namespaces/shop/configmaps?continue=1000&limit=500"); n != 1 {
		t.Errorf("requests: %q", s.Requests())
	}
}

// RBAC that allows get but not list: the LIST becomes GETs.
func TestListForbiddenBecomesGets(t *testing.T) {
	s := clustertest.New(t)
	s.Add(cm("shop", "a"), cm("shop", "b"))
	s.Forbid = func(verb, group, resource, ns, name string) bool { return verb == "list" }
	res := read(t, connect(t, s, Options{}), ReadOptions{ListThreshold: 2},
		Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "a"}, Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "b"},
		Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "c"})
	for i, want := range []Status{Found, Found, NotFound} {
		if res.Outcomes[i].Status != want {
			t.Errorf("outcome %d = %+v", i, res.Outcomes[i])
		}
	}
	if res.Lists != 1 || res.Gets != 3 {
		t.Errorf("%d LIST, %d GET; want 1 and 3", res.Lists, res.Gets)
	}
}

// A refusal is the object's error, with the server's words and what ssa-diff needs; never
// a create.
func TestForbiddenIsAnError(t *testing.T) {
	s := clustertest.New(t)
	s.Add(cm("shop", "a"))
	s.Forbid = func(verb, group, resource, ns, name string) bool { return resource == "secrets" }
	res := read(t, connect(t, s, Options{}), ReadOptions{},
		Ref{APIVersion: "v1", Kind: "Secret", Name: "token"}, Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "a"})
	o := res.Outcomes[0]
	if o.Status != Failed || o.Err == nil {
		t.Fatalf("outcome = %+v, want Failed", o)
	}
	for _, want := range []string{`secrets "token" is forbidden: User "ci" cannot get resource "secrets" in API group "" in the namespace "shop"`, "needs get and list"} {
		if !strings.Contains(o.Err.Error(), want) {
			t.Errorf("error %q lacks %q", o.Err, want)
		}
	}
	if res.Outcomes[1].Status != Found {
		t.Errorf("the other object: %+v", res.Outcomes[1])
	}
	rec := res.Record("test", "v1.37.2", "shop")
	if len(rec.Errors) != 1 || len(rec.NotFound) != 0 || !strings.Contains(rec.Errors[0].Message, "forbidden") {
		t.Errorf("record = %+v", rec)
	}
}

func TestTimeoutIsAnError(t *testing.T) {
	s := clustertest.New(t)
	s.Add(cm("shop", "slow"), cm("shop", "fast"))
	s.Delay = func(r *http.Request) time.Duration {
		if strings.HasSuffix(r.URL.Path, "/slow") {
			return 5 * time.Second
		}
		return 0
	}
	start := time.Now()
	res := read(t, connect(t, s, Options{RequestTimeout: "1s"}), ReadOptions{},
		Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "slow"}, Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "fast"})
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("the read took %v: the request timeout was not applied", d)
	}
	o := res.Outcomes[0]
	if o.Status != Failed || !strings.Contains(o.Err.Error(), "--request-timeout 1s") {
		t.Errorf("outcome = %+v, want a timeout naming --request-timeout", o)
	}
	if res.Outcomes[1].Status != Found {
		t.Errorf("the other object: %+v", res.Outcomes[1])
	}
}

func TestUnreachable(t *testing.T) {
	s := clustertest.New(t)
	c := connect(t, s, Options{RequestTimeout: "2s"})
	s.Close()
	_, err := c.ServerVersion(context.Background())
	if err == nil || !strings.Contains(err.Error(), "cannot reach the cluster at "+s.URL) {
		t.Errorf("error = %v", err)
	}
}

func TestServerVersion(t *testing.T) {
	s := clustertest.New(t)
	s.GitVersion = "v1.36.4"
	info, err := connect(t, s, Options{}).ServerVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if major, minor, ok := MinorVersion(info); !ok || major != 1 || minor != 36 {
		t.Errorf("MinorVersion(%+v) = %d, %d, %v", info, major, minor, ok)
	}
}

// A version the cluster does not serve: the object is read at the group's preferred version
// that has the kind; a kind served nowhere is an error, unless its definition is among the
// inputs (then nothing of it can exist yet).
func TestVersionsAndKindsNotServed(t *testing.T) {
	s := clustertest.New(t)
	s.Add(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "shop"}})
	res := read(t, connect(t, s, Options{}), ReadOptions{DefinedHere: func(g, k string) bool { return k == "Backup" }},
		Ref{APIVersion: "apps/v1beta2", Kind: "Deployment", Name: "web"},
		Ref{APIVersion: "example.com/v1", Kind: "Widget", Name: "w"},
		Ref{APIVersion: "example.com/v1", Kind: "Backup", Name: "b"})
	if o := res.Outcomes[0]; o.Status != Found || decoded(t, o.Object)["apiVersion"] != "apps/v1" {
		t.Errorf("outcome 0 = %+v", o)
	}
	if o := res.Outcomes[1]; o.Status != Failed || !strings.Contains(o.Err.Error(), `no matches for kind "Widget" in version "example.com/v1"`) {
		t.Errorf("outcome 1 = %+v", o)
	}
	if o := res.Outcomes[2]; o.Status != NotFound || !strings.Contains(o.Note, "does not serve Backup.example.com yet") {
		t.Errorf("outcome 2 = %+v", o)
	}
	if o := res.Outcomes[1]; o.ID.Namespace != "shop" {
		t.Errorf("a kind nobody knows is taken as namespaced: %+v", o.ID)
	}
}

// The CustomResourceDefinition of a custom kind without a schema is read with it, once;
// one that cannot be read makes the kind's objects errors.
func TestCRDsOfCustomKinds(t *testing.T) {
	s := clustertest.New(t)
	s.Serve(clustertest.Resource{APIVersion: "stable.example.com/v1", Kind: "Backup", Name: "backups", Namespaced: true, Custom: true})
	s.Serve(clustertest.Resource{APIVersion: "metrics.example.com/v1", Kind: "Usage", Name: "usages", Namespaced: true, Custom: true})
	s.Serve(clustertest.Resource{APIVersion: "secret.example.com/v1", Kind: "Vault", Name: "vaults", Namespaced: true, Custom: true})
	crd := map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "backups.stable.example.com"}, "spec": map[string]any{"group": "stable.example.com"}}
	s.Add(crd, map[string]any{"apiVersion": "stable.example.com/v1", "kind": "Backup", "metadata": map[string]any{"name": "nightly", "namespace": "shop"}})
	s.Forbid = func(verb, group, resource, ns, name string) bool { return name == "vaults.secret.example.com" }
	hasSchema := func(g, v, k string) bool { return g == "" || g == "apps" }
	res := read(t, connect(t, s, Options{}), ReadOptions{HasSchema: hasSchema},
		Ref{APIVersion: "stable.example.com/v1", Kind: "Backup", Name: "nightly"},
		Ref{APIVersion: "stable.example.com/v1", Kind: "Backup", Name: "weekly"},
		Ref{APIVersion: "metrics.example.com/v1", Kind: "Usage", Name: "u"}, // an aggregated API: no CRD
		Ref{APIVersion: "secret.example.com/v1", Kind: "Vault", Name: "v"},
		Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "c"})
	if len(res.CRDs) != 1 || decoded(t, res.CRDs[0])["metadata"].(map[string]any)["name"] != "backups.stable.example.com" {
		t.Errorf("CRDs read = %v", res.CRDs)
	}
	if n := countRequests(s, "GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/"); n != 3 {
		t.Errorf("%d CRD requests, want 3 (one per custom kind)", n)
	}
	for i, want := range []Status{Found, NotFound, NotFound, Failed, NotFound} {
		if res.Outcomes[i].Status != want {
			t.Errorf("outcome %d = %+v, want %d", i, res.Outcomes[i], want)
		}
	}
	if err := res.Outcomes[3].Err; err == nil || !strings.Contains(err.Error(), "cannot predict: forbidden to get the CustomResourceDefinition vaults.secret.example.com (the schema of Vault.secret.example.com): ") {
		t.Errorf("error = %v", err)
	}
	objs := res.Objects()
	if len(objs) != 2 || decoded(t, objs[0])["kind"] != "CustomResourceDefinition" {
		t.Errorf("objects = %v", objs)
	}
}

// Credentials from an exec plugin, the kubeconfig from KUBECONFIG, a context chosen.
func TestKubeconfigConventions(t *testing.T) {
	s := clustertest.New(t)
	s.Token = "from-the-plugin"
	s.Add(cm("team", "a"))
	dir := t.TempDir()
	plugin := filepath.Join(dir, "plugin.sh")
	if err := os.WriteFile(plugin, []byte(`#!/bin/sh
echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-the-plugin"}}'
`), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := `apiVersion: v1
kind: Config
clusters:
- {name: dead, cluster: {server: "http://127.0.0.1:1"}}
- {name: live, cluster: {server: "` + s.URL + `", certificate-authority-data: ` + s.CAData() + `}}
users:
- name: exec
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: "` + plugin + `", interactiveMode: Never}
contexts:
- {name: dead, context: {cluster: dead, user: exec}}
- {name: team, context: {cluster: live, user: exec, namespace: team}}
current-context: dead
`
	path := filepath.Join(dir, "config")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", path)
	c, err := Connect(Options{Context: "team"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Host != s.URL || c.Namespace != "team" || c.Context != "team" {
		t.Errorf("client = %+v", c)
	}
	res := read(t, c, ReadOptions{}, Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "a"})
	if res.Outcomes[0].Status != Found {
		t.Errorf("outcome = %+v", res.Outcomes[0])
	}
	// -n wins over the context's namespace.
	if c, err := Connect(Options{Context: "team", Namespace: "other"}); err != nil || c.Namespace != "other" {
		t.Errorf("Connect with a namespace: %+v, %v", c, err)
	}
	if _, err := Connect(Options{Context: "nowhere"}); err == nil || !strings.Contains(err.Error(), "nowhere") {
		t.Errorf("an unknown context: %v", err)
	}
	if _, err := Connect(Options{Context: "team", RequestTimeout: "soon"}); err == nil || !strings.Contains(err.Error(), "--request-timeout") {
		t.Errorf("a bad timeout: %v", err)
	}
}

func TestNoConfiguration(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("KUBECONFIG", "")
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	_, err := Connect(Options{})
	if err == nil || !strings.Contains(err.Error(), "no cluster configured") {
		t.Errorf("error = %v", err)
	}
	_, err = Connect(Options{Kubeconfig: filepath.Join(home, "missing")})
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("error = %v", err)
	}
}

// The record and objects written as a List come back as they were.
func TestListJSONRoundTrip(t *testing.T) {
	s := clustertest.New(t)
	s.Add(cm("shop", "a"))
	s.Forbid = func(verb, group, resource, ns, name string) bool { return name == "b" }
	res := read(t, connect(t, s, Options{}), ReadOptions{},
		Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "a"}, Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "b"},
		Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "c"})
	rec := res.Record("test", "v1.37.2", "shop")
	data, err := ListJSON(rec, res.Objects())
	if err != nil {
		t.Fatal(err)
	}
	objs, errs := input.Split(input.Parse("live.json", data))
	if len(errs) > 0 || len(objs) != 2 {
		t.Fatalf("%d objects, errors %v", len(objs), errs)
	}
	back, err := DecodeRecord(objs[0].Object)
	if err != nil {
		t.Fatal(err)
	}
	if back.Namespace != "shop" || len(back.NotFound) != 1 || back.NotFound[0].Identity() != (input.Identity{Kind: "ConfigMap", Namespace: "shop", Name: "c"}) ||
		len(back.Errors) != 1 || len(back.Resources) != 1 || back.Resources[0] != (Resource{APIVersion: "v1", Kind: "ConfigMap", Name: "configmaps", Namespaced: true}) {
		t.Errorf("record = %+v", back)
	}
	if _, err := DecodeRecord(map[string]any{"apiVersion": RecordAPIVersion, "kind": RecordKind, "surprise": 1}); err == nil {
		t.Error("a record with an unknown field was accepted")
	}
}

func TestContextEnds(t *testing.T) {
	s := clustertest.New(t)
	c := connect(t, s, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Read(ctx, []Ref{{APIVersion: "v1", Kind: "ConfigMap", Name: "a"}}, ReadOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v", err)
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

func TestUnauthorized(t *testing.T) {
	s := clustertest.New(t)
	kc := s.Kubeconfig(t, t.TempDir(), "shop") // no token
	s.Token = "right"
	c, err := Connect(Options{Kubeconfig: kc})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ServerVersion(context.Background()); err == nil || !strings.Contains(err.Error(), "does not accept the kubeconfig's credentials") {
		t.Errorf("error = %v", err)
	}
}

func decoded(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	return m
}
