package conformance

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"sigs.k8s.io/yaml"
)

// TestMinorCases replays testdata/minors: the cases of its cases.yaml, recorded with
// testdata/record.py (testdata/minors/record.sh) from kube-apiserver 1.34.4, 1.35.4, 1.36.3
// and 1.37.2 into one folder per minor. Each case is predicted with the model and the
// schemas of the minor its case.yaml names (server.minor) and compared strictly, as the
// fidelity cases are (CompareAssigned), the server's warnings included.
func TestMinorCases(t *testing.T) {
	root := filepath.Join("testdata", "minors")
	names := minorCaseNames(t, root)
	for _, v := range kube.Minors() {
		minor := v.String()
		cases, err := LoadCases(filepath.Join(root, minor))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range cases {
			got = append(got, c.Name)
		}
		if !slices.Equal(got, names) {
			t.Errorf("%s: the cases recorded are not those of cases.yaml (record.sh records them all):\n  recorded %v\n  cases.yaml %v", minor, got, names)
		}
		if len(cases) < 25 {
			t.Errorf("%s: %d cases, want at least 25", minor, len(cases))
		}
		t.Run(minor, func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.Name, func(t *testing.T) {
					if c.Server.Minor != minor || !strings.HasPrefix(c.Server.GitVersion, "v"+minor+".") {
						t.Fatalf("case.yaml says it was recorded from %q (%s), not from a %s server", c.Server.Minor, c.Server.GitVersion, minor)
					}
					problems, err := replayMinorCase(c)
					if err != nil {
						t.Fatalf("replay: %v", err)
					}
					for _, p := range problems {
						t.Error(p)
					}
				})
			}
		})
	}
}

// replayMinorCase replays a case at its minor and lists how the prediction differs from
// the recording.
func replayMinorCase(c *Case) ([]string, error) {
	res, err := Replay(c)
	if err != nil {
		return nil, err
	}
	return append(CompareAssigned(c, res, true), CompareWarnings(c, res)...), nil
}

// minorCaseNames are the names of the cases of root/cases.yaml, sorted.
func minorCaseNames(t *testing.T, root string) []string {
	t.Helper()
	return caseNamesAt(t, root, 0)
}

// caseNamesAt are the names of the cases of root/cases.yaml that record.py records from a
// server of the minor (1.minor; 0 for every case): those whose minMinor, if any, is at most
// it. Sorted.
func caseNamesAt(t *testing.T, root string, minor int) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "cases.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name     string `json:"name"`
		MinMinor int    `json:"minMinor"`
	}
	if err := yaml.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cases {
		if minor == 0 || c.MinMinor <= minor {
			names = append(names, c.Name)
		}
	}
	sort.Strings(names)
	return names
}
