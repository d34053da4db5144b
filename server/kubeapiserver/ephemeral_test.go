package kubeapiserver_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/admission/wire"
	"github.com/ssa-diff/ssa-diff/internal/api/gocmp"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// TestEphemeralDiffThroughTheHelper: at 1.32 and 1.33 the refusal of a changed ephemeral
// container carries go-cmp's diff as the helper program prints it from the request the
// model sends (printed here in this process by what the helper runs) — the message
// 1.32.13 and 1.33.13 answered, exactly (conformance/testdata/verbs/1.3x/
// ephemeral-patch-change); without the helper the refusal is the same but for the diff,
// and the write says why (rules.md sub.ephemeralcontainers); 1.34 prints its own diff and
// asks nothing.
func TestEphemeralDiffThroughTheHelper(t *testing.T) {
	print := func(d wire.Diff) (string, error) { return gocmp.Print(d.Minor, d.Type, d.Old, d.New) }
	missing := func(wire.Diff) (string, error) { return "", errors.New("ssa-diff-admission was not found") }
	asked := func(wire.Diff) (string, error) { t.Error("1.34 asked the helper"); return "", nil }
	const first = "existing ephemeral containers \"debugger\" may not be changed\n"
	for _, tc := range []struct {
		minor             kube.Minor
		diff              func(wire.Diff) (string, error)
		recorded          bool   // the detail is the recorded one
		detail, predicted string // else the detail and what is not predicted
	}{
		{32, print, true, "", ""},
		{33, print, true, "", ""},
		{33, missing, false, first, "the difference kube-apiserver 1.33 prints in refusing a changed ephemeral container (go-cmp's cmp.Diff) is not predicted, the message is without it: ssa-diff-admission was not found"},
		{32, nil, false, first, "the difference kube-apiserver 1.32 prints in refusing a changed ephemeral container (go-cmp's cmp.Diff) is not predicted, the message is without it: no ssa-diff-admission program is configured"},
		{34, asked, false, first + "@@ -1,6 +1,6 @@\n {\n  \"Name\": \"debugger\",\n- \"Image\": \"busybox:1.36\",\n+ \"Image\": \"busybox:1.37\",\n  \"Command\": null,\n  \"Args\": null,\n  \"WorkingDir\": \"\",\n", ""},
	} {
		dir := filepath.Join("..", "..", "conformance", "testdata", "verbs", tc.minor.String(), "ephemeral-patch-change")
		var live map[string]any
		readJSON(t, filepath.Join(dir, "live.json"), &live)
		old := unstructured.CopyAsDecoded(live)
		obj := unstructured.DeepCopyObject(old)
		ecs := unstructured.NestedObject(obj, "spec")["ephemeralContainers"].([]any)
		ecs[0].(map[string]any)["image"] = "busybox:1.37"
		m, err := kubeapiserver.New(kubeapiserver.Config{Minor: tc.minor, Diff: tc.diff})
		if err != nil {
			t.Fatal(err)
		}
		reg, err := schema.NewRegistry(tc.minor)
		if err != nil {
			t.Fatal(err)
		}
		typ, _ := reg.Lookup(schema.GVK{Version: "v1", Kind: "Pod"})
		v := m.Validate(typ, "ephemeralcontainers", obj, old)
		if len(v.Errors) != 1 || v.Errors[0].Field != "spec.ephemeralContainers" {
			t.Fatalf("1.%d: errors %v", tc.minor, v.Errors)
		}
		want := tc.detail
		if tc.recorded {
			want = recordedDetail(t, filepath.Join(dir, "want.json"))
		}
		if got := v.Errors[0].Detail; !strings.HasPrefix(got, want) || (tc.recorded && got != want) {
			t.Errorf("%s: detail\n%q\nwant\n%q", tc.minor, got, want)
		}
		if v.NotPredicted != tc.predicted {
			t.Errorf("%s: not predicted %q, want %q", tc.minor, v.NotPredicted, tc.predicted)
		}
		_ = m.Close()
	}
}

// recordedDetail is the detail of the recorded refusal's cause, its go-cmp lines marked by
// spaces.
func recordedDetail(t *testing.T, path string) string {
	var st struct {
		Details struct {
			Causes []struct{ Message string } `json:"causes"`
		} `json:"details"`
	}
	readJSON(t, path, &st)
	if len(st.Details.Causes) != 1 {
		t.Fatalf("%s: %d causes", path, len(st.Details.Causes))
	}
	return gocmp.Deterministic(strings.TrimPrefix(st.Details.Causes[0].Message, "Forbidden: "))
}
