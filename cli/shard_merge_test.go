package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/output"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/internal/shard"
	"github.com/ssa-diff/ssa-diff/testdata/benchcorpus"
)

const shardNow = "2026-12-01T12:00:00Z"

// shardCases are the runs split into shards: every example of testdata/examples, and a
// generated corpus (with and without pruning).
func shardCases(t *testing.T) map[string][]string {
	t.Helper()
	root := repoRoot(t)
	cases := map[string][]string{}
	dirs, err := filepath.Glob(filepath.Join(root, "testdata", "examples", "*", "command"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, cmd := range dirs {
		text, err := os.ReadFile(cmd)
		if err != nil {
			t.Fatal(err)
		}
		args := strings.Fields(string(text))[1:] // without "ssa-diff"
		for i, a := range args {
			if strings.HasPrefix(a, "testdata/") {
				args[i] = filepath.Join(root, a)
			}
		}
		cases["example "+filepath.Base(filepath.Dir(cmd))] = args
	}
	c, err := benchcorpus.Generate(benchcorpus.Options{Objects: 30, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range c.Repo {
		p := filepath.Join(dir, "repo", filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	live := filepath.Join(dir, "live.json")
	if err := os.WriteFile(live, c.Live, 0o644); err != nil {
		t.Fatal(err)
	}
	cases["corpus"] = []string{"-f", filepath.Join(dir, "repo"), live}
	cases["corpus pruned"] = []string{"--prune", "--all", "-f", filepath.Join(dir, "repo"), live}
	return cases
}

// TestShardsUnionIsTheWholeRun: for N = 1…7, every result of the whole run is in exactly
// one shard's report — the shard its identity hashes to — and merge of the shards' reports
// prints, in every format, byte for byte what the whole run prints, with its exit status.
func TestShardsUnionIsTheWholeRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every case 9 + 28 times")
	}
	testShardsUnion(t, shardCases(t))
}

// TestShardsUnionShort is the same proof on the corpus alone, for -short.
func TestShardsUnionShort(t *testing.T) {
	cases := shardCases(t)
	testShardsUnion(t, map[string][]string{"corpus": cases["corpus"], "example crd-backup": cases["example crd-backup"]})
}

func testShardsUnion(t *testing.T, cases map[string][]string) {
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			base := append([]string{"--now", shardNow, "--jobs", "2"}, args...)
			whole := map[string]string{}
			var wholeCode int
			for _, f := range output.Formats() {
				out, errs, code := run(t, "", append([]string{"-o", f}, base...)...)
				if code == report.ExitError {
					t.Fatalf("-o %s: exit %d: %s", f, code, errs)
				}
				whole[f], wholeCode = out, code
			}
			wholeRep, err := report.Read(strings.NewReader(whole["json"]), "whole")
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for n := 1; n <= 7; n++ {
				var files []string
				seen := make([]int, len(wholeRep.Results))
				for i := 1; i <= n; i++ {
					spec := shard.Spec{Index: i, Count: n}.String()
					out, errs, code := run(t, "", append([]string{"-o", "json", "--shard", spec}, base...)...)
					if code == report.ExitError {
						t.Fatalf("--shard %s: exit %d: %s", spec, code, errs)
					}
					rep, err := report.Read(strings.NewReader(out), spec)
					if err != nil {
						t.Fatal(err)
					}
					if rep.Shard == nil || rep.Shard.Index != i || rep.Shard.Count != n || rep.Shard.Total != len(wholeRep.Results) {
						t.Fatalf("--shard %s: shard record %+v", spec, rep.Shard)
					}
					for k, sr := range rep.Shard.Results {
						seen[sr.Position]++
						res := rep.Results[k]
						if w := wholeRep.Results[sr.Position]; w.Kind != res.Kind || w.Name != res.Name || w.Source != res.Source {
							t.Errorf("--shard %s: result %d is %s %s, the whole run's %s %s", spec, sr.Position, res.Kind, res.Name, w.Kind, w.Name)
						}
						if res.Name != "" && res.Action != report.ActionError {
							group, _, ok := strings.Cut(res.APIVersion, "/")
							if !ok {
								group = ""
							}
							if got := shard.Of(n, group, res.Kind, res.Namespace, res.Name); got != i {
								t.Errorf("--shard %s: %s %s/%s hashes to shard %d", spec, res.Kind, res.Namespace, res.Name, got)
							}
						}
					}
					file := filepath.Join(dir, strings.ReplaceAll(spec, "/", "-of-")+".json")
					if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
						t.Fatal(err)
					}
					files = append(files, file)
				}
				for p, k := range seen {
					if k != 1 {
						t.Fatalf("N=%d: result %d of the whole run is in %d shards", n, p, k)
					}
				}
				// The shards in another order than their indices: merge does not mind.
				files = append(files[n/2:], files[:n/2]...)
				for _, f := range output.Formats() {
					out, errs, code := run(t, "", append([]string{"merge", "-o", f}, files...)...)
					if code != wholeCode {
						t.Errorf("N=%d merge -o %s: exit %d, the whole run %d: %s", n, f, code, wholeCode, errs)
					}
					if out != whole[f] {
						t.Errorf("N=%d merge -o %s differs from the whole run's output\n%s", n, f, firstDifference(out, whole[f]))
					}
				}
			}
		})
	}
}

// firstDifference shows where two outputs part.
func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-200)
	return "merged: …" + a[from:min(len(a), i+200)] + "\nwhole:  …" + b[from:min(len(b), i+200)]
}

// TestShardsFromOtherDirectoriesMerge: a run's identity names its inputs relative to their
// root, so shards run from other working directories, or in other checkouts of the same
// inputs, merge into the whole run (its results and exit status).
func TestShardsFromOtherDirectoriesMerge(t *testing.T) {
	corpus := shardCases(t)["corpus"] // -f DIR/repo DIR/live.json
	dirA := filepath.Dir(corpus[2])
	dirB := t.TempDir()
	if err := os.CopyFS(dirB, os.DirFS(dirA)); err != nil {
		t.Fatal(err)
	}
	base := []string{"-o", "json", "--now", shardNow, "--jobs", "2"}
	whole, errs, wholeCode := run(t, "", append(base, corpus...)...)
	if wholeCode == report.ExitError {
		t.Fatal(errs)
	}
	wholeRep, err := report.Read(strings.NewReader(whole), "whole")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	// Shard 1 from inside the first copy, its inputs relative; shard 2 from elsewhere,
	// the second copy's inputs absolute.
	t.Chdir(dirA)
	s1, errs, code := run(t, "", append(base, "--shard", "1/2", "-f", "repo", "live.json")...)
	if code == report.ExitError {
		t.Fatal(errs)
	}
	t.Chdir(out)
	s2, errs, code := run(t, "", append(base, "--shard", "2/2", "-f", filepath.Join(dirB, "repo"), filepath.Join(dirB, "live.json"))...)
	if code == report.ExitError {
		t.Fatal(errs)
	}
	os.WriteFile(filepath.Join(out, "1.json"), []byte(s1), 0o644)
	os.WriteFile(filepath.Join(out, "2.json"), []byte(s2), 0o644)
	merged, errs, code := run(t, "", "merge", "-o", "json", filepath.Join(out, "1.json"), filepath.Join(out, "2.json"))
	if code != wholeCode {
		t.Fatalf("merge: exit %d, the whole run %d: %s", code, wholeCode, errs)
	}
	rep, err := report.Read(strings.NewReader(merged), "merged")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != len(wholeRep.Results) {
		t.Fatalf("merged %d results, the whole run %d", len(rep.Results), len(wholeRep.Results))
	}
	for i, r := range rep.Results {
		if w := wholeRep.Results[i]; r.Kind != w.Kind || r.Namespace != w.Namespace || r.Name != w.Name || r.Action != w.Action {
			t.Errorf("result %d: %s %s/%s %s, the whole run's %s %s/%s %s", i, r.Kind, r.Namespace, r.Name, r.Action, w.Kind, w.Namespace, w.Name, w.Action)
		}
	}
}
