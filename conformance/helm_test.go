package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelmScenarios replays every Helm 4 command of the recorded scenarios
// (testdata/helm/recorded, recorded with Helm 4.3.2 and 3.21.4 against kube-apiserver
// 1.37.2) through the Helm applier: whether Helm fails and its message, the writes it
// sends for each object, each object as the server left it, what it deletes, and the
// revision it records.
func TestHelmScenarios(t *testing.T) {
	cases, err := LoadHelmCases(filepath.Join("testdata", "helm", "recorded"))
	if err != nil {
		t.Fatal(err)
	}
	scenarios := map[string]bool{}
	for _, c := range cases {
		scenarios[filepath.Base(filepath.Dir(c.Dir))] = true
		t.Run(c.Name, func(t *testing.T) {
			out, err := ReplayHelm(c)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			for _, p := range CompareHelm(c, out) {
				t.Error(p)
			}
		})
	}
	if len(cases) < 50 {
		t.Errorf("%d cases, want at least 50", len(cases))
	}
	if len(scenarios) < 20 {
		t.Errorf("%d scenarios, want at least 20", len(scenarios))
	}
}

// TestHelmScenariosCiteRules holds the rules the Helm scenarios cite to docs/rules.md.
func TestHelmScenariosCiteRules(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := LoadHelmCases(filepath.Join("testdata", "helm", "recorded"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if len(c.Rules) == 0 {
			t.Errorf("%s cites no rule", c.Name)
		}
		for _, r := range c.Rules {
			if !strings.Contains(string(doc), "### `"+r+"`") {
				t.Errorf("%s cites %s, which docs/rules.md does not state", c.Name, r)
			}
		}
	}
}
