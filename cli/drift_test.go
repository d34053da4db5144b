package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// driftIgnore hides, in the drift example, the annotation kubectl annotate added and the
// fields of kubectl set env.
var driftIgnore = []string{"--ignore-path", "apps/Deployment:/metadata/annotations/oncall", "--ignore-manager", "kubectl-set"}

// The drift example's prediction is the server's answer (server-dry-run.json, recorded by
// its record.sh from kube-apiserver 1.37.2): the object stored, managedFields included, but
// for the times and resourceVersion the server stamps.
func TestDriftExampleIsTheServersAnswer(t *testing.T) {
	t.Chdir(repoRoot(t))
	out, stderr, code := run(t, "", append([]string{"--now", exampleNow, "-o", "json"}, examples(t)["drift"]...)...)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Results []struct {
			Object map[string]any `json:"object"`
			Drift  []struct {
				Path, Fate string
			} `json:"drift"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Results) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "examples", "drift", "server-dry-run.json"))
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
	if got := strip(rep.Results[0].Object); !reflect.DeepEqual(got, strip(server)) {
		t.Errorf("the predicted object is not the server's:\n got %v\nwant %v", got, server)
	}
	// Each fate as the server's object shows it: the annotation only kubectl's apply owned
	// is gone, what kubectl annotate, set env and edit wrote stays.
	smd := server["metadata"].(map[string]any)
	ann := smd["annotations"].(map[string]any)
	if _, ok := ann["team"]; ok || ann["oncall"] != "alice" {
		t.Fatalf("the recorded answer changed: %v", ann)
	}
	want := map[string]string{
		".metadata.annotations.oncall": "kept", ".metadata.annotations.team": "removed",
		".spec.template.spec.terminationGracePeriodSeconds":                  "kept",
		`.spec.template.spec.containers[name="web"].env[name="DEBUG"].name`:  "kept",
		`.spec.template.spec.containers[name="web"].env[name="DEBUG"].value`: "kept",
	}
	got := map[string]string{}
	for _, d := range rep.Results[0].Drift {
		got[d.Path] = d.Fate
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("drift %v, want %v", got, want)
	}
}

// Ignore rules in the text and the JSON report: hidden from the diff and the drift, and
// recorded in the report's policy.
func TestDriftWithIgnoreRulesGolden(t *testing.T) {
	t.Chdir(repoRoot(t))
	args := append(append([]string{"--now", exampleNow, "--color", "never"}, driftIgnore...), examples(t)["drift"]...)
	out, stderr, code := run(t, "", args...)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "drift-ignore.txt", []byte(out))
	js, _, _ := run(t, "", append(args, "-o", "json")...)
	validateReport(t, []byte(js))
	golden(t, "drift-ignore.json", []byte(js))
	var rep struct {
		Options struct {
			Policy struct {
				Ignore []map[string]any `json:"ignore"`
			} `json:"policy"`
		} `json:"options"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil || len(rep.Options.Policy.Ignore) != 2 {
		t.Errorf("the report's ignore rules: %v (%v)", rep.Options.Policy.Ignore, err)
	}
}

// ssa-diff merge keeps the shards' ignore rules: in the merged report, and in what it
// prints.
func TestMergeKeepsIgnoreRules(t *testing.T) {
	t.Chdir(repoRoot(t))
	dir := t.TempDir()
	args := append(append([]string{"--now", exampleNow, "--color", "never"}, driftIgnore...), examples(t)["drift"]...)
	var shards []string
	for _, s := range []string{"1/2", "2/2"} {
		js, stderr, code := run(t, "", append(args, "--shard", s, "-o", "json")...)
		if code == 2 {
			t.Fatalf("shard %s: %s", s, stderr)
		}
		f := filepath.Join(dir, "shard"+s[:1]+".json")
		if err := os.WriteFile(f, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, f)
	}
	text, stderr, code := run(t, "", append([]string{"merge", "--color", "never"}, shards...)...)
	if code != 1 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	unsharded, _, _ := run(t, "", args...)
	if text != unsharded {
		t.Errorf("merge prints\n%s\nthe run printed\n%s", text, unsharded)
	}
	js, _, _ := run(t, "", append([]string{"merge", "-o", "json"}, shards...)...)
	whole, _, _ := run(t, "", append(args, "-o", "json")...)
	var a, b struct {
		Options map[string]any `json:"options"`
	}
	if err := json.Unmarshal([]byte(js), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(whole), &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Options["policy"], b.Options["policy"]) {
		t.Errorf("merged policy %v, the run's %v", a.Options["policy"], b.Options["policy"])
	}
}
