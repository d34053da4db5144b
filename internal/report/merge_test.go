package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeOrdersByPosition: the shards' results go back to their places in the run, with
// their inputs, and the summary is counted again; numbers read stay as they were written.
func TestMergeOrdersByPosition(t *testing.T) {
	var reps []*Report
	for _, r := range []*Report{shardReport(2, 2, 1), shardReport(1, 2, 0, 2)} {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Read(bytes.NewReader(b), "r.json")
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, got)
	}
	m, err := Merge([]string{"2.json", "1.json"}, reps)
	if err != nil {
		t.Fatal(err)
	}
	if m.Shard != nil || len(m.Results) != 3 || m.Summary.Objects != 3 || m.Summary.Created != 3 {
		t.Fatalf("merged: %+v", m)
	}
	for i, res := range m.Results {
		if res.Name != string(rune('a'+i)) || res.Manifest["kind"] != "ConfigMap" {
			t.Errorf("result %d: %s %v", i, res.Name, res.Manifest)
		}
	}
	b, _ := json.Marshal(m.Results[0].Object)
	if string(b) != `{"data":{"n":1.50}}` {
		t.Errorf("object printed again as %s", b)
	}
}

// TestMergeRefusesOverlaps: two shards claiming one position, or a position nobody has.
func TestMergeRefusesOverlaps(t *testing.T) {
	for name, reps := range map[string][]*Report{
		"overlap": {shardReport(1, 2, 0, 1), shardReport(2, 2, 1, 2)},
		"gap":     {shardReport(1, 2, 0), shardReport(2, 2, 2)},
	} {
		if _, err := Merge(nil, reps); !errors.Is(err, ErrNotMergeable) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestMergeFiles: the shards' reports read from files and stdin, in any order; a file that
// cannot be read or is no report is the error.
func TestMergeFiles(t *testing.T) {
	dir := t.TempDir()
	b, err := json.Marshal(shardReport(2, 2, 1))
	if err != nil {
		t.Fatal(err)
	}
	second := filepath.Join(dir, "2.json")
	if err := os.WriteFile(second, b, 0o644); err != nil {
		t.Fatal(err)
	}
	first, err := json.Marshal(shardReport(1, 2, 0, 2))
	if err != nil {
		t.Fatal(err)
	}
	m, err := MergeFiles([]string{second, "-"}, bytes.NewReader(first))
	if err != nil || len(m.Results) != 3 || m.Summary.Objects != 3 {
		t.Fatalf("merged %+v, %v", m, err)
	}
	if _, err := MergeFiles([]string{filepath.Join(dir, "absent.json")}, nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an absent file: %v", err)
	}
	if _, err := MergeFiles([]string{"-"}, strings.NewReader(`{"kind":"Pod"}`)); !errors.Is(err, ErrNotReport) {
		t.Errorf("not a report: %v", err)
	}
}
