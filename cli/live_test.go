package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
)

// clusterCM is a live ConfigMap whose data.a the manager "team" applied (with managedFields).
func clusterCM(ns, name, a string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": name, "namespace": ns, "uid": "uid-" + name, "resourceVersion": "7",
			"creationTimestamp": "2026-12-01T10:00:00Z",
			"managedFields": []any{map[string]any{"manager": "team", "operation": "Apply", "apiVersion": "v1",
				"time": "2026-12-01T10:00:00Z", "fieldsType": "FieldsV1",
				"fieldsV1": map[string]any{"f:data": map[string]any{"f:a": map[string]any{}}}}}},
		"data": map[string]any{"a": a}}
}

const nowFlag = "--now=2026-12-02T10:00:00Z"

// A cluster with web (data.a owned by "team"), where secrets may not be read.
func testCluster(t *testing.T) (*clustertest.Server, string) {
	s := clustertest.New(t)
	s.Add(clusterCM("shop", "web", "1"))
	s.Forbid = func(verb, group, resource, ns, name string) bool { return resource == "secrets" }
	return s, s.Kubeconfig(t, t.TempDir(), "shop")
}

// The manifests: web changed (a conflict with "team"), a new ConfigMap, a Secret nobody may
// read; none names a namespace: the context's is used.
func testManifests(t *testing.T) string {
	return writeFiles(t, map[string]string{
		"web.yaml":    cmYAML("web", "", `"2"`, ""),
		"fresh.yaml":  cmYAML("fresh", "", `"1"`, ""),
		"secret.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: token\nstringData:\n  t: x\n",
	})
}

func TestLiveFromCluster(t *testing.T) {
	s, kc := testCluster(t)
	dir := testManifests(t)
	out, stderr, code := run(t, "", "--live-from-cluster", "--kubeconfig", kc, "-o", "json", nowFlag, dir)
	if code != 2 {
		t.Errorf("exit %d, want 2 (the Secret could not be read)\n%s", code, stderr)
	}
	rep := decodeReport(t, out)
	byName := map[string]int{}
	for i, r := range rep.Results {
		byName[r.Name] = i
		if r.Namespace != "shop" {
			t.Errorf("%s: namespace %q, want the context's", r.Name, r.Namespace)
		}
		for _, w := range r.Warnings {
			if strings.Contains(w, "without evidence") || strings.Contains(w, "names no namespace") {
				t.Errorf("%s: a warning about a dump: %s", r.Name, w)
			}
		}
	}
	if r := rep.Results[byName["web"]]; r.Action != "rejected" || r.Error == nil || r.Error.Code != 409 ||
		!strings.Contains(r.Error.Message, `conflict with "team"`) || r.LiveSource == nil || r.LiveSource.File != "cluster:test" {
		t.Errorf("web = %+v", r)
	}
	if r := rep.Results[byName["fresh"]]; r.Action != "create" {
		t.Errorf("fresh = %+v", r)
	}
	if r := rep.Results[byName["token"]]; r.Action != "error" || !strings.Contains(r.Error.Message, `secrets "token" is forbidden`) {
		t.Errorf("token = %+v, want an error naming the refusal", r)
	}
	if !strings.Contains(stderr, "live state: "+s.URL+", context test, Kubernetes v1.37.2: 1 object read, 1 not found, 1 not readable") {
		t.Errorf("stderr = %q", stderr)
	}
	if strings.Contains(stderr, "warning") {
		t.Errorf("stderr has warnings: %q", stderr)
	}
}

// --save-live writes what was read; given as LIVE, it predicts the same, byte for byte, in
// every format.
func TestSaveLiveReplays(t *testing.T) {
	_, kc := testCluster(t)
	dir := testManifests(t)
	saved := filepath.Join(t.TempDir(), "live.json")
	for _, format := range []string{"json", "text", "yaml"} {
		out, _, code := run(t, "", "--live-from-cluster", "--kubeconfig", kc, "--save-live", saved, "-o", format, nowFlag, dir)
		again, stderr, code2 := run(t, "", "-o", format, nowFlag, dir, saved)
		if out != again || code != code2 {
			t.Errorf("-o %s: the replay differs (exit %d, then %d)\n--- from the cluster\n%s\n--- replayed\n%s\n%s", format, code, code2, out, again, stderr)
		}
		if strings.Contains(stderr, "warning") {
			t.Errorf("-o %s: the replay warns: %s", format, stderr)
		}
	}
	info, err := os.Stat(saved)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the saved state: %v, %v (it may hold Secrets: 0600)", info, err)
	}
	data, _ := os.ReadFile(saved)
	for _, want := range []string{`"kind": "List"`, `"kind": "LiveStateRead"`, `"namespace": "shop"`, `"managedFields"`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("the saved state lacks %s:\n%s", want, data)
		}
	}
	// Given -n, the replay puts the objects elsewhere: nothing is known of them there.
	out, _, _ := run(t, "", "-o", "json", "-n", "elsewhere", nowFlag, dir, saved)
	for _, r := range decodeReport(t, out).Results {
		if r.Action != "create" || !strings.Contains(strings.Join(r.Warnings, "\n"), "without evidence") {
			t.Errorf("%s in elsewhere: %+v", r.Name, r)
		}
	}
}

// As the kubectl plugin, with no LIVE, the cluster is read: KUBECONFIG's.
func TestPluginReadsTheCluster(t *testing.T) {
	_, kc := testCluster(t)
	t.Setenv("KUBECONFIG", kc)
	dir := writeFiles(t, map[string]string{"web.yaml": cmYAML("web", "", `"1"`, "")})
	var out, errb bytes.Buffer
	code := RunAs("kubectl ssa-diff", []string{"-f", dir, nowFlag}, nil, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "live state: ") || !strings.Contains(out.String(), "ConfigMap shop/web: update") {
		t.Errorf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	// The ssa-diff command asks for it: without, a warning that everything is a create.
	out.Reset()
	errb.Reset()
	code = RunAs("ssa-diff", []string{"-f", dir, nowFlag}, nil, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "no live state given") || !strings.Contains(out.String(), "create") {
		t.Errorf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
}

func TestClusterErrors(t *testing.T) {
	s, kc := testCluster(t)
	dir := testManifests(t)
	// The minor predicted is the cluster's (its /version), unless --kube-version says
	// otherwise; a cluster outside the supported minors is exit 2, with no report, unless the
	// nearest is asked. (Every run that reads exits 2: the test cluster has an object it
	// cannot read.)
	for _, c := range []struct {
		server string
		args   []string
		code   int
		minor  string // the report's kubernetesVersion; "" when no report
		stderr string
	}{
		{"v1.35.0", nil, 2, "1.35", ""},
		{"v1.36.3-gke.1200", nil, 2, "1.36", ""},
		{"v1.35.0", []string{"--kube-version", "v1.36"}, 2, "1.36", "warning: the cluster (" /* host, context */},
		{"v1.31.4", nil, 2, "", "runs Kubernetes v1.31.4, which ssa-diff does not predict (it predicts 1.32, 1.33, 1.34, 1.35, 1.36, 1.37 or 1.38): give --kube-version 1.32 to predict the nearest supported minor, or --kube-version nearest"},
		{"v1.31.4", []string{"--kube-version", "nearest"}, 2, "1.32", "which ssa-diff does not predict: predicting 1.32, the nearest supported minor"},
		{"v1.39.0", []string{"--kube-version", "1.34"}, 2, "1.34", "runs Kubernetes v1.39.0; predicting 1.34 as --kube-version says"},
	} {
		s.GitVersion = c.server
		args := append([]string{"--live-from-cluster", "--kubeconfig", kc, nowFlag, "-o", "json"}, c.args...)
		out, stderr, code := run(t, "", append(args, dir)...)
		var rep struct {
			Options struct {
				KubernetesVersion string `json:"kubernetesVersion"`
			} `json:"options"`
		}
		_ = json.Unmarshal([]byte(out), &rep)
		if code != c.code || rep.Options.KubernetesVersion != c.minor || !strings.Contains(stderr, c.stderr) {
			t.Errorf("server %s %q: exit %d, kubernetesVersion %q, want %d, %q, stderr with %q\nstderr: %s", c.server, c.args, code, rep.Options.KubernetesVersion, c.code, c.minor, c.stderr, stderr)
		}
	}
	s.Close()
	out, stderr, code := run(t, "", "--live-from-cluster", "--kubeconfig", kc, "--request-timeout", "2s", nowFlag, dir)
	if code != 2 || out != "" || !strings.Contains(stderr, "cannot reach the cluster at "+s.URL) {
		t.Errorf("unreachable: exit %d\n%s\n%s", code, out, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--live-from-cluster", dir, "live.json"}, "--live-from-cluster and a LIVE file (live.json) exclude each other"},
		{[]string{"--kubeconfig", kc, dir}, "--kubeconfig reads the cluster: it needs --live-from-cluster"},
		{[]string{"--save-live", "x.json", dir, "live.json"}, "--save-live reads the cluster"},
		{[]string{"--live-from-cluster", "--kubeconfig", kc, "--request-timeout", "soon", dir}, "--request-timeout \"soon\""},
		{[]string{"--live-from-cluster", "--kubeconfig", kc, "--prune", "--all", dir}, "--prune needs a LIVE dump"},
	} {
		if _, stderr, code := run(t, "", c.args...); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %s", c.args, code, stderr)
		}
	}
}

// A dump is trusted only as far as it goes.
func TestDumpTrust(t *testing.T) {
	list := func(items ...string) string {
		return `{"apiVersion":"v1","kind":"List","items":[` + strings.Join(items, ",") + `]}`
	}
	withMF := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"shop","managedFields":[{"manager":"team","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}}]},"data":{"a":"1"}}`
	noMF := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"nomf","namespace":"shop"}}`
	noMF2 := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"shop"},"data":{"a":"1"}}`
	manifests := cmYAML("a", "shop", `"1"`, "") + "---\n" + cmYAML("b", "shop", `"1"`, "") + "---\n" +
		cmYAML("c", "other", `"1"`, "") + "---\n" + cmYAML("nomf", "shop", `"1"`, "") + "---\n" + cmYAML("x", "", `"1"`, "")
	dir := writeFiles(t, map[string]string{"m.yaml": manifests, "live.json": list(withMF, noMF), "bare.json": list(noMF2, noMF)})
	warnings := func(out string) map[string]string {
		m := map[string]string{}
		for _, r := range decodeReport(t, out).Results {
			m[r.Name] = strings.Join(r.Warnings, "\n")
			if r.Error != nil {
				m[r.Name] += "ERROR " + r.Error.Message
			}
		}
		return m
	}
	out, stderr, _ := run(t, "", "-o", "json", nowFlag, filepath.Join(dir, "m.yaml"), filepath.Join(dir, "live.json"))
	w := warnings(out)
	// b: other ConfigMaps of shop are there, so it is not: no warning. c and x: nothing of
	// their kind in their namespace.
	if w["a"] != "" || w["b"] != "" {
		t.Errorf("a: %q; b: %q", w["a"], w["b"])
	}
	for _, name := range []string{"c", "x"} {
		if !strings.Contains(w[name], "predicted as a create without evidence: the live input holds no ConfigMap at all in namespace") {
			t.Errorf("%s: %q", name, w[name])
		}
	}
	// x names no namespace: the one assumed is named.
	if !strings.Contains(w["x"], `the manifest names no namespace: predicted in namespace "default"`) {
		t.Errorf("x: %q", w["x"])
	}
	// nomf has no managedFields among objects that have them: nobody owns its fields; no
	// warning (issue 20).
	if w["nomf"] != "" || strings.Contains(stderr, "managedFields") {
		t.Errorf("nomf: %q; stderr %q", w["nomf"], stderr)
	}
	out, _, _ = run(t, "", "-o", "json", "-n", "shop", nowFlag, filepath.Join(dir, "m.yaml"), filepath.Join(dir, "live.json"))
	if w := warnings(out); w["x"] != "" {
		t.Errorf("x with -n shop: %q", w["x"])
	}

	// A dump without managedFields at all cannot predict ownership.
	out, stderr, code := run(t, "", "-o", "json", nowFlag, filepath.Join(dir, "m.yaml"), filepath.Join(dir, "bare.json"))
	w = warnings(out)
	if code != 2 || !strings.Contains(w["a"], "ERROR ") || !strings.Contains(w["a"], "cannot predict ownership") ||
		!strings.Contains(w["a"], "kubectl get configmaps a -n shop -o json --show-managed-fields") || !strings.Contains(stderr, "--allow-missing-managed-fields") {
		t.Errorf("exit %d; a: %q; stderr %q", code, w["a"], stderr)
	}
	if strings.Contains(w["b"], "ERROR") {
		t.Errorf("b (a create) is predicted: %q", w["b"])
	}
	out, stderr, code = run(t, "", "-o", "json", "--allow-missing-managed-fields", nowFlag, filepath.Join(dir, "m.yaml"), filepath.Join(dir, "bare.json"))
	if w := warnings(out); code == 2 || !strings.Contains(w["a"], "has no metadata.managedFields") || !strings.Contains(stderr, "2 live objects without metadata.managedFields") {
		t.Errorf("allowed: exit %d; a: %q; stderr %q", code, w["a"], stderr)
	}
}

// A cluster read whose kinds come from a CustomResourceDefinition of the cluster: the CRD is
// read, saved, and its schema used (a list-map merges by key).
func TestClusterCRD(t *testing.T) {
	s := clustertest.New(t)
	s.Serve(clustertest.Resource{APIVersion: "stable.example.com/v1", Kind: "Backup", Name: "backups", Namespaced: true, Custom: true})
	crd := decodeJSON(t, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"backups.stable.example.com"},
		"spec":{"group":"stable.example.com","scope":"Namespaced","names":{"plural":"backups","singular":"backup","kind":"Backup","listKind":"BackupList"},
		"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{
		"targets":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"path":{"type":"string"}}}}}}}}}}]}}`)
	live := decodeJSON(t, `{"apiVersion":"stable.example.com/v1","kind":"Backup","metadata":{"name":"nightly","namespace":"shop","uid":"u1","resourceVersion":"3","creationTimestamp":"2026-12-01T10:00:00Z",
		"managedFields":[{"manager":"ops","operation":"Apply","apiVersion":"stable.example.com/v1","time":"2026-12-01T10:00:00Z","fieldsType":"FieldsV1",
		"fieldsV1":{"f:spec":{"f:targets":{"k:{\"name\":\"db\"}":{".":{},"f:name":{},"f:path":{}}}}}}]},"spec":{"targets":[{"name":"db","path":"/db"}]}}`)
	s.Add(crd, live)
	kc := s.Kubeconfig(t, t.TempDir(), "shop")
	dir := writeFiles(t, map[string]string{"b.yaml": "apiVersion: stable.example.com/v1\nkind: Backup\nmetadata:\n  name: nightly\nspec:\n  targets:\n  - name: logs\n    path: /logs\n"})
	saved := filepath.Join(t.TempDir(), "live.json")
	out, stderr, code := run(t, "", "--live-from-cluster", "--kubeconfig", kc, "--save-live", saved, "--field-manager", "backup-bot", "-o", "yaml", nowFlag, dir)
	if code != 1 || strings.Contains(stderr, "warning") {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	// Merged by key: both targets stay (an atomic list would keep only the manifest's).
	if !strings.Contains(out, "name: db") || !strings.Contains(out, "name: logs") {
		t.Errorf("the prediction did not merge the list by key:\n%s", out)
	}
	data, _ := os.ReadFile(saved)
	if !bytes.Contains(data, []byte(`"name":"backups.stable.example.com"`)) { // as the server wrote it
		t.Errorf("the CRD was not saved:\n%s", data)
	}
}

func decodeJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A custom kind the cluster does not serve yet, defined by a CRD given with --crd: its
// objects cannot exist, so they are creates, with a note; without the CRD, an error.
func TestClusterKindNotServedYet(t *testing.T) {
	_, kc := testCluster(t)
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: backups.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: backups, singular: backup, kind: Backup, listKind: BackupList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`
	dir := writeFiles(t, map[string]string{"crd/crd.yaml": crd,
		"m/b.yaml": "apiVersion: stable.example.com/v1\nkind: Backup\nmetadata:\n  name: nightly\nspec:\n  schedule: daily\n"})
	out, stderr, code := run(t, "", "--live-from-cluster", "--kubeconfig", kc, "--crd", filepath.Join(dir, "crd"), "-o", "json", nowFlag, filepath.Join(dir, "m"))
	if out == "" {
		t.Fatal(stderr)
	}
	r := decodeReport(t, out).Results[0]
	if code != 1 || r.Action != "create" || !strings.Contains(strings.Join(r.Warnings, "\n"), "the cluster does not serve Backup.stable.example.com yet") {
		t.Errorf("with --crd: exit %d, %+v\n%s", code, r, stderr)
	}
	out, stderr, code = run(t, "", "--live-from-cluster", "--kubeconfig", kc, "-o", "json", nowFlag, filepath.Join(dir, "m"))
	if out == "" {
		t.Fatal(stderr)
	}
	r = decodeReport(t, out).Results[0]
	if code != 2 || r.Action != "error" || !strings.Contains(r.Error.Message, `no matches for kind "Backup" in version "stable.example.com/v1"`) {
		t.Errorf("without: exit %d, %+v", code, r)
	}
	// The CRD among the manifests does the same.
	out, _, code = run(t, "", "--live-from-cluster", "--kubeconfig", kc, "-o", "json", nowFlag, "-f", filepath.Join(dir, "m"), "-f", filepath.Join(dir, "crd"))
	for _, r := range decodeReport(t, out).Results {
		if r.Action != "create" {
			t.Errorf("with the CRD among the manifests: exit %d, %+v", code, r)
		}
	}
}
