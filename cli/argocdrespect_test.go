package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// An Application synced with RespectIgnoreDifferences=true and ignoreDifferences
// /spec/replicas applies the live replicas, as Argo CD does: the autoscaler's value is
// shared, not fought over (cli/testdata/argocd-respect, recorded by its record.sh from
// kube-apiserver 1.37.2). Without the option the same sync is refused with a conflict.
func TestArgoCDRespectIgnoreDifferencesIsTheServersAnswer(t *testing.T) {
	t.Chdir(repoRoot(t))
	dir := filepath.Join("cli", "testdata", "argocd-respect")
	// After the recording (the entries are ordered by time).
	args := []string{"--now", "2026-12-06T00:00:00Z", "--argocd-application", filepath.Join(dir, "application.yaml"),
		filepath.Join(dir, "manifest.yaml"), filepath.Join(dir, "live.json")}
	js, stderr, code := run(t, "", append([]string{"-o", "json"}, args...)...)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	validateReport(t, []byte(js))
	var rep struct {
		Results []struct {
			Action string         `json:"action"`
			Object map[string]any `json:"object"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil || len(rep.Results) != 1 {
		t.Fatalf("%v: %s", err, js)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "server-dry-run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var server map[string]any
	if err := json.Unmarshal(raw, &server); err != nil {
		t.Fatal(err)
	}
	strip := func(obj map[string]any) map[string]any {
		md := obj["metadata"].(map[string]any)
		delete(md, "resourceVersion")
		for _, e := range md["managedFields"].([]any) {
			delete(e.(map[string]any), "time")
		}
		return obj
	}
	if got := strip(rep.Results[0].Object); rep.Results[0].Action != "update" || !reflect.DeepEqual(got, strip(server)) {
		t.Errorf("%s; the predicted object is not the server's:\n got %v\nwant %v", rep.Results[0].Action, got, server)
	}
	text, _, _ := run(t, "", append([]string{"--color", "never"}, args...)...)
	golden(t, "argocd-respect.txt", []byte(text))

	// Without the option Argo CD applies the manifest's replicas, forced (as it always
	// applies): the autoscaler's value is taken.
	app, err := os.ReadFile(filepath.Join(dir, "application.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(t.TempDir(), "application.yaml")
	if err := os.WriteFile(plain, []byte(strings.Replace(string(app), "    - RespectIgnoreDifferences=true\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	args[3] = plain
	if out, stderr, code := run(t, "", append([]string{"--color", "never"}, args...)...); code != 1 || !strings.Contains(out, "taken by force (1):\n    .spec.replicas  5 → 2") {
		t.Errorf("without RespectIgnoreDifferences: exit %d, want 1 and replicas taken by force: %s%s", code, out, stderr)
	}
}
