package conformance

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/admission/library"
	"github.com/ssa-diff/ssa-diff/kube"
)

// TestAdmissionCases replays testdata/admission: the cases of its cases.yaml, recorded with
// testdata/record.py --admission (testdata/admission/record.sh) from servers running their
// whole default admission chain, each with admission.json, what the chain read. Each is
// predicted from that state, the admission policies and PodSecurity through the
// Kubernetes libraries in this process (the binary asks its helper program), and compared
// strictly, the server's warnings included.
//
// testdata/admission/gated holds the MutatingAdmissionPolicy cases at v1beta1, recorded from
// servers before 1.36 with the MutatingAdmissionPolicy gate on (off by default there): the
// cluster's policies, stored at v1beta1, run as the plugin runs them at v1.
func TestAdmissionCases(t *testing.T) {
	library.SilenceLogs()
	root := filepath.Join("testdata", "admission")
	if n := replayAdmissionCases(t, root); n == 0 {
		t.Fatal("no minor's admission cases are recorded")
	}
	t.Run("gated", func(t *testing.T) {
		if n := replayAdmissionCases(t, filepath.Join(root, "gated")); n == 0 {
			t.Fatal("no minor's gated admission cases are recorded")
		}
	})
}

// replayAdmissionCases replays the cases of root/<minor> for each minor recorded, and
// says how many minors are.
func replayAdmissionCases(t *testing.T, root string) int {
	recorded := 0
	for _, v := range kube.Minors() {
		dir := filepath.Join(root, v.String())
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		cases, err := LoadCases(dir)
		if err != nil {
			t.Fatal(err)
		}
		recorded++
		names := caseNamesAt(t, root, int(v))
		t.Run(v.String(), func(t *testing.T) {
			if len(cases) != len(names) {
				t.Errorf("%d cases recorded, %d in cases.yaml (record.sh records them all)", len(cases), len(names))
			}
			for _, c := range cases {
				t.Run(c.Name, func(t *testing.T) {
					if c.Admission == nil {
						t.Fatal("no admission.json: record with record.py --admission")
					}
					res, err := ReplayWith(c, library.New)
					if err != nil {
						t.Fatalf("replay: %v", err)
					}
					for _, p := range append(CompareAssigned(c, res, true), CompareWarnings(c, res)...) {
						t.Error(p)
					}
				})
			}
		})
	}
	return recorded
}
