package validation

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"sort"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestWritesRepeatAcrossProcesses makes the first writes of every kind of
// TestValidationMatchesServer (seeds, mutations, random objects) in two processes of this
// test binary and wants the same digest: a divergence CI finds must be found again by its
// kind and write, so nothing a run draws may depend on per-process state such as map order
// (as the differential harness's TestSequencesRepeatAcrossProcesses checks for its
// sequences). With VALIDATION_REPEAT_CHILD=dump a child prints every write: diff two such
// runs to find what varies.
func TestWritesRepeatAcrossProcesses(t *testing.T) {
	if child := os.Getenv("VALIDATION_REPEAT_CHILD"); child != "" {
		server := NewServer()
		table := strategies()
		var gvks []schema.GroupVersionKind
		for gvk := range table {
			gvks = append(gvks, gvk)
		}
		sort.Slice(gvks, func(i, j int) bool { return gvks[i].String() < gvks[j].String() })
		h := sha256.New()
		for ki, gvk := range gvks {
			seeds, err := Seeds(gvk, fixtures())
			if err != nil {
				t.Fatal(err)
			}
			pool := NewPool(seeds)
			r := rand.New(rand.NewPCG(uint64(ki)+1, 7))
			f := Filler(int64(ki) + 1)
			for i := 0; i < 12; i++ {
				w, desc := nextWrite(t, server, gvk, table[gvk], seeds, pool, r, f, i)
				if w == nil {
					continue
				}
				b, err := json.Marshal([]any{gvk.String(), desc, string(w.Obj), string(w.Old), w.Status, w.Namespace})
				if err != nil {
					t.Fatal(err)
				}
				h.Write(b)
				if child == "dump" {
					fmt.Printf("%s\n", b)
				}
			}
		}
		if child != "dump" {
			fmt.Printf("digest %x\n", h.Sum(nil))
		}
		return
	}
	// Not skipped with -short (make differential runs this module so): ~25 s.
	var digests []string
	for range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWritesRepeatAcrossProcesses$", "-test.count=1")
		cmd.Env = append(os.Environ(), "VALIDATION_REPEAT_CHILD=1")
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
		t.Errorf("the same runs made different writes in two processes: %s and %s", digests[0], digests[1])
	}
}
