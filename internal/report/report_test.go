package report

import (
	"errors"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/merge"
)

func cm(data map[string]any, entryTime string) map[string]any {
	return map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "a", "namespace": "x", "resourceVersion": "7",
			"managedFields": []any{map[string]any{"manager": "kubectl", "operation": "Apply", "apiVersion": "v1", "time": entryTime,
				"fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:data": map[string]any{"f:k": map[string]any{}}}}}},
		"data": data,
	}
}

func TestSameIgnoringTimes(t *testing.T) {
	a := cm(map[string]any{"k": "v", "n": int64(1)}, "2026-01-01T00:00:00Z")
	b := cm(map[string]any{"k": "v", "n": 1.0}, "2026-12-02T09:00:00Z")
	b["metadata"].(map[string]any)["resourceVersion"] = "8"
	if !SameIgnoringTimes(a, b) {
		t.Error("objects differing in times, resourceVersion and number type count as different")
	}
	c := cm(map[string]any{"k": "w", "n": int64(1)}, "2026-01-01T00:00:00Z")
	if SameIgnoringTimes(a, c) {
		t.Error("a changed value is not seen")
	}
	for _, d := range []map[string]any{
		{"k": "v", "n": int64(2)},
		{"k": "v", "n": "1"},
		{"k": "v", "n": int64(1), "extra": nil},
		{"k": []any{"v"}, "n": int64(1)},
		{"k": true, "n": int64(1)},
	} {
		if SameIgnoringTimes(a, cm(d, "2026-01-01T00:00:00Z")) {
			t.Errorf("%v counts as %v", d, a["data"])
		}
	}
	if !SameIgnoringTimes(cm(map[string]any{"l": []any{int64(1), map[string]any{"x": 2.0}}}, "a"),
		cm(map[string]any{"l": []any{1.0, map[string]any{"x": int64(2)}}}, "b")) {
		t.Error("nested numbers compare by type")
	}
	// The inputs are left alone.
	if a["metadata"].(map[string]any)["resourceVersion"] != "7" {
		t.Error("input modified")
	}
}

func TestFromPrediction(t *testing.T) {
	ts := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	live := cm(map[string]any{"k": "v", "old": "x"}, "2026-01-01T00:00:00Z")
	pred := cm(map[string]any{"k": "w"}, "2026-12-02T09:00:00Z")
	applier := fieldpath.ManagerRef{Manager: "kubectl", Operation: fieldpath.OperationApply, APIVersion: "v1"}
	other := fieldpath.ManagerRef{Manager: "editor", Operation: fieldpath.OperationUpdate, APIVersion: "v1", Time: &ts}
	p := &merge.Result{Action: merge.ActionUpdate, Object: pred,
		Conflicts: []merge.Conflict{{Manager: other, Path: ".data.k", Live: "v", Applied: "w"}},
		Ownership: []merge.OwnershipChange{
			{Manager: applier, Released: []string{".data.old", ".data.kept"}},
			{Manager: other, Taken: []string{".data.k"}, Removed: true},
		},
		Deleted:  []string{".data.old"},
		Warnings: []string{"w1"},
		Steps:    []merge.Step{{Description: "apply", Manager: "kubectl", Code: 200}},
	}
	res := FromPrediction(input.Source{File: "m.yaml"}, live, live, "kubectl", p)
	if res.Action != ActionUpdate || !res.Changed || res.Error != nil {
		t.Fatalf("result = %+v", res)
	}
	if c := res.Conflicts[0]; c.Owner != `"editor" using v1` || c.Manager.Manager != "editor" || c.Time == nil || c.Path != ".data.k" {
		t.Errorf("conflict = %+v", c)
	}
	if o := res.Ownership[0]; len(o.Deleted) != 1 || o.Deleted[0] != ".data.old" {
		t.Errorf("the applier's deleted fields = %q, want [.data.old]", o.Deleted)
	}
	if !res.Ownership[1].Removed || len(res.Ownership[1].Deleted) != 0 {
		t.Errorf("other manager = %+v", res.Ownership[1])
	}
	if res.Steps != nil {
		t.Errorf("a single step is listed: %+v", res.Steps)
	}

	// Only new times: an update the server writes, but nothing a person sees changes.
	p2 := &merge.Result{Action: merge.ActionUpdate, Object: cm(map[string]any{"k": "v", "old": "x"}, "2026-12-02T09:00:00Z")}
	if res := FromPrediction(input.Source{}, live, live, "kubectl", p2); res.Changed {
		t.Error("a new timestamp alone counts as a change")
	}

	rej := &merge.Result{Action: merge.ActionRejected, Object: live, Rejection: &merge.StatusError{Code: 409, Reason: "Conflict", Message: "Apply failed with 1 conflict: conflict with \"editor\" using v1: .data.k",
		Details: &merge.StatusDetails{Causes: []merge.StatusCause{{Reason: "FieldManagerConflict", Message: "conflict with \"editor\" using v1", Field: ".data.k"}}}}}
	res = FromPrediction(input.Source{}, live, live, "kubectl", rej)
	if res.Action != ActionRejected || res.Object != nil || res.Changed || res.Error.Code != 409 || len(res.Error.Causes) != 1 || len(res.Error.Status) == 0 {
		t.Errorf("rejection = %+v", res)
	}
}

func TestSummarizeExitCodes(t *testing.T) {
	r := func(a Action, changed bool) *Result { return &Result{Action: a, Changed: changed} }
	for _, c := range []struct {
		results []*Result
		want    int
	}{
		{nil, ExitUnchanged},
		{[]*Result{r(ActionUnchanged, false), r(ActionUpdate, false)}, ExitUnchanged},
		{[]*Result{r(ActionUnchanged, false), r(ActionUpdate, true)}, ExitChanged},
		{[]*Result{r(ActionCreate, true), r(ActionRejected, false)}, ExitRejected},
		{[]*Result{r(ActionRejected, false), FromError(input.Source{}, errors.New("bad"))}, ExitError},
	} {
		rep := New(Options{})
		for _, res := range c.results {
			rep.Add(res)
		}
		if got := rep.Summarize().ExitCode; got != c.want {
			t.Errorf("%d results: exit %d, want %d", len(c.results), got, c.want)
		}
	}
}

func TestFromErrorLocatesInput(t *testing.T) {
	err := &input.Error{Source: input.Source{File: "a.yaml", Document: 2, Line: 10}, Line: 12, Path: ".spec.replicas", Err: errors.New("must be a number")}
	res := FromError(err.Source, err)
	if res.Action != ActionError || res.Error.Code != 0 || res.Error.Line != 12 || res.Error.Path != ".spec.replicas" ||
		res.Error.Message != "a.yaml, document 2, line 12: .spec.replicas: must be a number" {
		t.Errorf("error = %+v", res.Error)
	}
}
