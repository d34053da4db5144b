package crdvalidation

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// TestSeedsRepeatAcrossProcesses draws the first seeds' CRDs and writes in two processes of
// this test binary and wants the same digest: a divergence CI finds must be found again
// with its seed, so nothing a seed draws may depend on per-process state such as map order
// (as the differential harness's TestSequencesRepeatAcrossProcesses checks for its
// sequences). With CRDVAL_REPEAT_CHILD=dump a child prints every draw: diff two such runs
// to find what varies.
func TestSeedsRepeatAcrossProcesses(t *testing.T) {
	if child := os.Getenv("CRDVAL_REPEAT_CHILD"); child != "" {
		h := sha256.New()
		add := func(seed int64, v any) {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			h.Write(b)
			if child == "dump" {
				fmt.Printf("seed %d %s\n", seed, b)
			}
		}
		for seed := int64(1); seed <= 24; seed++ {
			g := NewGen(seed)
			c := g.CRD()
			add(seed, c.CRD)
			draws(g, c, 40, func(verb, sub string, obj, old map[string]any) {
				add(seed, []any{verb, sub, obj, old})
			})
		}
		if child != "dump" {
			fmt.Printf("digest %x\n", h.Sum(nil))
		}
		return
	}
	if testing.Short() {
		t.Skip("runs two processes")
	}
	var digests []string
	for range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSeedsRepeatAcrossProcesses$", "-test.count=1")
		cmd.Env = append(os.Environ(), "CRDVAL_REPEAT_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		var d string
		if _, err := fmt.Sscanf(string(out), "digest %s", &d); err != nil {
			t.Fatalf("no digest in:\n%s", out)
		}
		digests = append(digests, d)
	}
	if digests[0] != digests[1] {
		t.Errorf("the same seeds drew different CRDs or writes in two processes: %s and %s", digests[0], digests[1])
	}
}
