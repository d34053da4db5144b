package merge

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/ssa-diff/ssa-diff/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

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
			golden := filepath.Join("testdata", "golden", name+".result.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("result differs from %s (run with -update after a deliberate change):\n%s", golden, got)
			}
		})
	}
}
