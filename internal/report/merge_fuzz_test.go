package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// shardReport is a small shard's report for the fuzz seeds and the tests.
func shardReport(index, count int, positions ...int) *Report {
	r := New(Options{FieldManager: "kubectl", Applier: "kubectl", KubernetesVersion: "1.37", Now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)})
	r.Shard = &Shard{Index: index, Count: count, Run: "0123456789abcdef", Total: 3, Results: []ShardResult{}}
	for _, p := range positions {
		res := &Result{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: string(rune('a' + p)), Action: ActionCreate, Changed: true,
			Object:    map[string]any{"data": map[string]any{"n": json.Number("1.50")}},
			Conflicts: []Conflict{}, Ownership: []Ownership{}, Deleted: []string{}, Warnings: []string{}}
		r.Add(res)
		r.Shard.Results = append(r.Shard.Results, ShardResult{Position: p, Manifest: map[string]any{"kind": "ConfigMap"}})
	}
	r.Summarize()
	return r
}

// FuzzReadMerge: Read never panics on any input and refuses what is not a report; a report
// it reads merges (alone, as a shard of one) or is refused with ErrNotMergeable, and a
// merged report's results are every position of the run once.
func FuzzReadMerge(f *testing.F) {
	for _, r := range []*Report{shardReport(1, 1, 0, 1, 2), shardReport(1, 2, 2, 0), New(Options{})} {
		b, _ := json.Marshal(r)
		f.Add(b)
	}
	f.Add([]byte(`{"apiVersion":"ssa-diff/v1","kind":"Report","results":[null]}`))
	f.Add([]byte(`{"apiVersion":"ssa-diff/v1","kind":"Report","shard":{"index":1,"count":1,"total":-1,"results":[{"position":-5}]}}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := Read(bytes.NewReader(data), "in.json")
		if err != nil {
			if !errors.Is(err, ErrNotReport) || !strings.HasPrefix(err.Error(), "in.json: ") {
				t.Fatalf("Read: %v", err)
			}
			return
		}
		merged, err := Merge([]string{"in.json"}, []*Report{rep})
		if err != nil {
			if !errors.Is(err, ErrNotMergeable) {
				t.Fatalf("Merge: %v", err)
			}
			return
		}
		if len(merged.Results) != rep.Shard.Total || len(rep.Results) != rep.Shard.Total {
			t.Fatalf("merged %d results of a run of %d", len(merged.Results), rep.Shard.Total)
		}
	})
}
