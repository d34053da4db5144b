package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/report"
)

// TestMergeRefusals: merge says which report is wrong and why, exits 2 and prints nothing
// on standard output, for reports that are not all the shards of one run. The messages
// are pinned by cli/testdata/golden/merge-refusals.txt (-update rewrites it).
func TestMergeRefusals(t *testing.T) {
	root := repoRoot(t)
	ex := filepath.Join(root, "testdata", "examples", "hpa-owns-replicas")
	dir := t.TempDir()
	shardOf := func(name string, extra ...string) string {
		t.Helper()
		args := append([]string{"-o", "json", "--now", shardNow}, extra...)
		args = append(args, filepath.Join(ex, "manifest.yaml"), filepath.Join(ex, "live.json"))
		out, errs, code := run(t, "", args...)
		if code == report.ExitError {
			t.Fatalf("%v: %s", args, errs)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s1 := shardOf("1-of-2.json", "--shard", "1/2")
	s2 := shardOf("2-of-2.json", "--shard", "2/2")
	s1of3 := shardOf("1-of-3.json", "--shard", "1/3")
	whole := shardOf("whole.json")
	forced := shardOf("forced-2-of-2.json", "--shard", "2/2", "--force-conflicts")
	later := shardOf("later-2-of-2.json", "--shard", "2/2", "--now", "2026-12-02T00:00:00Z")
	other := filepath.Join(dir, "other-2-of-2.json")
	{
		out, errs, code := run(t, "", "-o", "json", "--now", shardNow, "--shard", "2/2", filepath.Join(root, "testdata", "examples", "field-deleted", "manifest.yaml"), filepath.Join(root, "testdata", "examples", "field-deleted", "live.json"))
		if code == report.ExitError {
			t.Fatal(errs)
		}
		os.WriteFile(other, []byte(out), 0o644)
	}
	notJSON := filepath.Join(dir, "text.json")
	os.WriteFile(notJSON, []byte("Summary: 1 object\n"), 0o644)
	trailing := filepath.Join(dir, "trailing.json")
	b, _ := os.ReadFile(s1)
	os.WriteFile(trailing, append(b, "{}"...), 0o644)

	cases := []struct {
		name string
		args []string
	}{
		{"no reports", nil},
		{"a prediction flag", []string{"--force-conflicts", s1, s2}},
		{"a missing shard", []string{s1}},
		{"a shard twice", []string{s1, s1, s2}},
		{"other shard counts", []string{s1of3, s2}},
		{"not a shard's report", []string{whole, s2}},
		{"other options", []string{s1, forced}},
		{"another --now", []string{s1, later}},
		{"another run", []string{s1, other}},
		{"not JSON", []string{notJSON}},
		{"data after the report", []string{trailing, s2}},
		{"no such file", []string{filepath.Join(dir, "absent.json")}},
	}
	var got strings.Builder
	tmp := regexp.MustCompile(regexp.QuoteMeta(dir))
	// A run's identity hashes its inputs' paths, which are this checkout's: the two runs'
	// identities must differ, their values depend on where the repository is.
	runs := regexp.MustCompile(`run ([0-9a-f]{16}), ([0-9a-f]{16})`)
	for _, c := range cases {
		out, errs, code := run(t, "", append([]string{"merge"}, c.args...)...)
		if code != report.ExitError || out != "" {
			t.Errorf("%s: exit %d, stdout %q; want 2 and nothing", c.name, code, out)
		}
		if m := runs.FindStringSubmatch(errs); m != nil && m[1] == m[2] {
			t.Errorf("%s: both runs are %s", c.name, m[1])
		}
		errs = runs.ReplaceAllString(errs, "run RUN-1, RUN-2")
		got.WriteString("# " + c.name + "\n" + tmp.ReplaceAllString(errs, "DIR"))
	}
	golden(t, "merge-refusals.txt", []byte(got.String()))
}

// TestShardFlagRefusals: --shard takes I/N with 1 ≤ I ≤ N.
func TestShardFlagRefusals(t *testing.T) {
	for _, bad := range []string{"0/3", "4/3", "3", "1/0", "-1/3", "1/3/5", " 1/3", "01/3", "1/1001", "a/b"} {
		_, errs, code := run(t, "", "--shard", bad, "m.yaml")
		if code != report.ExitError || !strings.Contains(errs, "shard") {
			t.Errorf("--shard %q: exit %d: %s", bad, code, errs)
		}
	}
}

// TestShardSummary: a shard's text output and --summary say which shard it is.
func TestShardSummary(t *testing.T) {
	ex := filepath.Join("..", "testdata", "examples", "hpa-owns-replicas") // relative: the golden names it
	text, _, _ := run(t, "", "--now", shardNow, "--shard", "1/1", filepath.Join(ex, "manifest.yaml"), filepath.Join(ex, "live.json"))
	summary, _, _ := run(t, "", "--now", shardNow, "--shard", "1/1", "--summary", filepath.Join(ex, "manifest.yaml"), filepath.Join(ex, "live.json"))
	golden(t, "shard-summary.txt", []byte("# -o text\n"+text+"# --summary\n"+summary))
}

// TestMergeHelp: merge --help lists merge's flags only (golden merge-help.txt).
func TestMergeHelp(t *testing.T) {
	out, _, code := run(t, "", "merge", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden(t, "merge-help.txt", []byte(out))
}

// TestShardReportFollowsTheSchema: a shard's -o json report, its shard field included, is
// what docs/report.schema.json describes.
func TestShardReportFollowsTheSchema(t *testing.T) {
	ex := filepath.Join("..", "testdata", "examples", "hpa-owns-replicas")
	out, errs, code := run(t, "", "-o", "json", "--now", shardNow, "--shard", "1/1", filepath.Join(ex, "manifest.yaml"), filepath.Join(ex, "live.json"))
	if code == report.ExitError || !strings.Contains(out, `"shard": {`) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	validateReport(t, []byte(out))
}
