package differential

import (
	"os"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestProbe runs the case file named by DIFF_PROBE and prints both answers, at the minor
// of -diff.minor (DIFF_MINOR).
func TestProbe(t *testing.T) {
	path := os.Getenv("DIFF_PROBE")
	if path == "" {
		t.Skip("DIFF_PROBE not set")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := &CaseFile{}
	if err := yaml.Unmarshal(b, c); err != nil {
		t.Fatal(err)
	}
	c.Live = normalizeJSON(c.Live)
	k, _ := KindByName(c.Kind)
	op, err := c.Op()
	if err != nil {
		t.Fatal(err)
	}
	start, minor := oracles(t)
	srv, stop, err := start()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	eng, err := NewEngine(minor)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Do(srv, op.Verb, Request(k, c.Live, op))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Do(eng, op.Verb, Request(k, c.Live, op))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("server:\n%s\nengine:\n%s", Pretty(want), Pretty(got))
	cat, diff := Compare(want, got)
	t.Logf("%s %s", cat, diff)
}
