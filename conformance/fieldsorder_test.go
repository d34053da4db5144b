package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ssa-diff/ssa-diff/merge"
)

// TestFieldsOrderCases replays the cases of testdata/fieldsorder, recorded from
// kube-apiserver 1.37.2 with record.sh (rules.md encode.key-order): the keys of every
// fieldsV1 come in the order of the server's answer — element order for the Service and
// the ConfigMap, byte order for the custom resource — with and without compact
// managedFields.
func TestFieldsOrderCases(t *testing.T) {
	cases, err := LoadCases(filepath.Join("testdata", "fieldsorder"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 3 {
		t.Fatalf("%d cases, want 3", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			for _, opts := range [][]merge.Option{nil, {merge.WithCompactManagedFields()}} {
				res, err := ReplayWith(c, nil, opts...)
				if err != nil {
					t.Fatalf("replay: %v", err)
				}
				for _, p := range CompareAssigned(c, res, true) {
					t.Errorf("compact %v: %s", len(opts) > 0, p)
				}
				if len(res.ManagedFields) != 2 {
					t.Errorf("compact %v: %d entries, want 2", len(opts) > 0, len(res.ManagedFields))
				}
			}
		})
	}
}

// TestFieldsOrderFromKubectlView: a live object dumped by kubectl's -o json holds a
// built-in kind's fieldsV1 in byte order; applying the same manifest again changes
// nothing, and the answer is the object as the server stores it — fieldsV1 in element
// order, as views/CASE/apply.json recorded the server's answer to that apply — not the
// text read.
func TestFieldsOrderFromKubectlView(t *testing.T) {
	dir := filepath.Join("testdata", "fieldsorder")
	cases, err := LoadCases(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			views := filepath.Join(dir, "views", c.Name)
			noop := *c
			if noop.Live, err = readObject(filepath.Join(views, "kubectl-get.json"), false); err != nil {
				t.Fatal(err)
			}
			answer, err := os.ReadFile(filepath.Join(views, "apply.json"))
			if err != nil {
				t.Fatal(err)
			}
			for _, opts := range [][]merge.Option{nil, {merge.WithCompactManagedFields()}} {
				res, err := ReplayWith(&noop, nil, opts...)
				if err != nil {
					t.Fatalf("replay: %v", err)
				}
				if res.Action != merge.ActionUnchanged {
					t.Fatalf("compact %v: %s, want unchanged", len(opts) > 0, res.Action)
				}
				got := make([]json.RawMessage, len(res.ManagedFields))
				for i, e := range res.ManagedFields {
					got[i] = e.FieldsV1
				}
				for _, p := range compareFieldsV1Order("apply.json", answer, got) {
					t.Errorf("compact %v: %s", len(opts) > 0, p)
				}
				if len(opts) > 0 {
					// The object holds the same text.
					b, err := json.Marshal(res.Object)
					if err != nil {
						t.Fatal(err)
					}
					held, _ := managedFieldsText(b)
					for _, p := range compareFieldsV1Order("apply.json", answer, held) {
						t.Errorf("the object: %s", p)
					}
				}
			}
		})
	}
}
