package merge

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/schema"
)

// TestGolden predicts the realistic requests in testdata/golden/*.request.json and compares
// the whole Result (object, managedFields, conflicts, ownership, deletions, warnings) with
// the golden file beside it. Run with -update after a deliberate change.
func TestGolden(t *testing.T) {
	e := New(schema.NewRegistry())
	reqs, _ := filepath.Glob("testdata/golden/*.request.json")
	if len(reqs) == 0 {
		t.Fatal("no golden requests")
	}
	for _, p := range reqs {
		name := filepath.Base(p[:len(p)-len(".request.json")])
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var in struct {
				Applier string  `json:"applier"`
				Request Request `json:"request"`
			}
			if err := json.Unmarshal(b, &in); err != nil {
				t.Fatal(err)
			}
			var res *Result
			switch in.Applier {
			case "kubectl":
				res, err = e.KubectlApply(in.Request)
			case "update":
				res, err = e.Update(in.Request)
			default:
				res, err = e.Apply(in.Request)
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.MarshalIndent(res, "", "  ")
			got = append(got, '\n')
			testkit.Golden(t, filepath.Join("testdata", "golden", name+".result.json"), got)
		})
	}
}
