package differential

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// TestSequencesRepeatAcrossProcesses runs the first seeds' sequences (ops and the oracle's
// answers) in two processes of this test binary and wants the same digest: a divergence
// found by CI must be found again by a developer with its seed, so nothing a sequence
// draws may depend on per-process state such as map order (a custom resource's schema
// lists its fields in the order its properties map was walked). With DIFF_REPEAT_CHILD=dump
// a child prints every op and answer: diff two such runs to find what varies.
func TestSequencesRepeatAcrossProcesses(t *testing.T) {
	if os.Getenv("DIFF_REPEAT_CHILD") != "" {
		srv, err := NewOracle()
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for seed := int64(1); seed <= 24; seed++ {
			g, err := NewGenerator(srv, seed)
			if err != nil {
				t.Fatal(err)
			}
			var live map[string]any
			for i := 0; i < 25; i++ {
				op := g.Next(live)
				want, err := Do(srv, op.Verb, Request(g.Kind, live, op))
				if err != nil {
					t.Fatal(err)
				}
				// The order of a conflict's causes across managers is the server's map
				// order (rules.md conflict.cause-order): compared as a multiset.
				answer := []any{want.Object}
				if want.Error != nil {
					answer = append(answer, want.Error.Code, want.Error.Reason, want.Error.Message, causeKeys(want.Error.Causes))
				}
				for _, v := range []any{op, answer} {
					b, err := json.Marshal(v)
					if err != nil {
						t.Fatal(err)
					}
					h.Write(b)
					if os.Getenv("DIFF_REPEAT_CHILD") == "dump" {
						fmt.Printf("seed %d step %d %s\n", seed, i, b)
					}
				}
				live = advance(g.Kind, live, want, i, op.Now)
			}
		}
		if os.Getenv("DIFF_REPEAT_CHILD") == "dump" {
			return
		}
		fmt.Printf("digest %x\n", h.Sum(nil))
		return
	}
	if testing.Short() {
		t.Skip("runs two processes")
	}
	var digests []string
	for range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSequencesRepeatAcrossProcesses$", "-test.count=1")
		cmd.Env = append(os.Environ(), "DIFF_REPEAT_CHILD=1")
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
		t.Errorf("the same seeds made different sequences in two processes: %s and %s", digests[0], digests[1])
	}
}
