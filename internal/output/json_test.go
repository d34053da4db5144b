package output

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/report"
)

func TestJSONRoundTrip(t *testing.T) {
	out, _ := writeAll(t, "json", sampleReport(), Options{})
	var rep struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Results    []struct {
			Kind      string `json:"kind"`
			Action    string `json:"action"`
			Conflicts []struct {
				Path    string `json:"path"`
				Manager string `json:"manager"`
				Live    any    `json:"live"`
			} `json:"conflicts"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
			Object map[string]any `json:"object"`
		} `json:"results"`
		Summary report.Summary `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.APIVersion != "ssa-diff/v1" || rep.Kind != "Report" {
		t.Errorf("type = %s %s", rep.APIVersion, rep.Kind)
	}
	var kinds []string
	for _, r := range rep.Results {
		kinds = append(kinds, r.Kind)
	}
	if got := len(kinds); got != 6 || kinds[0] != "Deployment" || kinds[5] != "" {
		t.Errorf("results out of order: %q", kinds)
	}
	r0 := rep.Results[0]
	if r0.Error == nil || r0.Error.Code != 409 || len(r0.Conflicts) != 2 || r0.Conflicts[0].Manager != "hpa-controller" || r0.Conflicts[0].Live != 10.0 {
		t.Errorf("rejected result = %+v", r0)
	}
	// Machine output is never masked: tools compare it with what the server stores.
	if rep.Results[2].Object["data"].(map[string]any)["password"] != "czNjcjN0" {
		t.Error("Secret value masked in JSON")
	}
	if rep.Summary.ExitCode != report.ExitError || rep.Summary.Conflicts != 2 {
		t.Errorf("summary = %+v", rep.Summary)
	}
}

// TestJSONStreamedIsWhole: the report printed from results encoded one by one is, byte for
// byte, the whole report encoded at once.
func TestJSONStreamedIsWhole(t *testing.T) {
	rep := sampleReport()
	out, _ := writeAll(t, "json", rep, Options{})
	whole, err := encodeJSON(rep, "  ")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(whole) {
		t.Errorf("streamed:\n%s\nwhole:\n%s", out, whole)
	}
	empty := report.New(rep.Options)
	out, _ = writeAll(t, "json", empty, Options{})
	if whole, _ := encodeJSON(empty, "  "); out != string(whole) {
		t.Errorf("empty report: %s, want %s", out, whole)
	}
}

// TestJSONStartedIsWhole: started with the report's head (output.Start, as the command
// does), the writer prints each result as it is written, and the bytes are those of the
// whole report encoded at once; with no result, the report's own.
func TestJSONStartedIsWhole(t *testing.T) {
	rep := sampleReport()
	whole, err := encodeJSON(rep, "  ")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w, err := New("json", &out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	Start(Multi(w), rep)
	// Enough results that the buffer is flushed before Close.
	var all []*report.Result
	for len(all) < 2000 {
		all = append(all, rep.Results...)
	}
	for _, r := range all {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if out.Len() == 0 || !bytes.HasPrefix(whole, out.Bytes()[:bytes.Index(out.Bytes(), []byte(`"results"`))]) {
		t.Fatalf("nothing, or not the report's head, printed before Close: %.200s", out.Bytes())
	}
	many := *rep
	many.Results = all
	wantMany, err := encodeJSON(&many, "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(rep); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), wantMany) {
		t.Errorf("started: %d bytes, whole: %d bytes, not the same", out.Len(), len(wantMany))
	}

	empty := report.New(rep.Options)
	out.Reset()
	w, _ = New("json", &out, Options{})
	Start(w, empty)
	if err := w.Close(empty); err != nil {
		t.Fatal(err)
	}
	if want, _ := encodeJSON(empty, "  "); !bytes.Equal(out.Bytes(), want) {
		t.Errorf("empty report: %s, want %s", out.Bytes(), want)
	}

	// A head changed after results were printed is an error, never another report's bytes.
	changed := *rep
	out.Reset()
	w, _ = New("json", &out, Options{})
	Start(w, &changed)
	if err := w.Write(rep.Results[0]); err != nil {
		t.Fatal(err)
	}
	changed.Options.FieldManager = "someone-else"
	if err := w.Close(&changed); err == nil {
		t.Error("Close with another head: no error")
	}
}

// encodeResult writes the bytes encoding/json writes of a result: objects with fieldsV1 text,
// HTML characters, non-ASCII and control characters, a forced twin with an object of its
// own, an empty object (omitted), and results holding the text of the markers an earlier
// writer put in place of the objects.
func TestEncodeResultIsEncodingJSON(t *testing.T) {
	obj := func(name string) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "annotations": map[string]any{"a<b>&c": "<é\u2028\x01>"},
				"managedFields": []any{map[string]any{"manager": "kubectl", "fieldsType": "FieldsV1",
					"fieldsV1": json.RawMessage(`{"f:data":{".":{},"f:<k>":{}}}`)}}},
			"data": map[string]any{"n": int64(3), "f": 2.5, "b": true, "z": nil, "l": []any{"x", int64(-1)}}}
	}
	force := &report.Result{APIVersion: "v1", Kind: "ConfigMap", Name: "cm", Object: obj("forced")}
	for _, res := range []*report.Result{
		{APIVersion: "v1", Kind: "ConfigMap", Name: "cm", Object: obj("cm")},
		{APIVersion: "v1", Kind: "ConfigMap", Name: "cm", Object: obj("cm"), WithForce: force},
		{APIVersion: "v1", Kind: "ConfigMap", Name: "cm", WithForce: force},
		{APIVersion: "v1", Kind: "ConfigMap", Name: "cm", Object: map[string]any{}},
		{APIVersion: "v1", Kind: "ConfigMap", Name: "\x00ssa-diff-object-0", Object: obj("cm")},
		{APIVersion: "v1", Kind: "ConfigMap", Name: "cm", Object: obj("cm"),
			Drift: []report.DriftField{{Path: ".data.x", Live: map[string]any{"\x00ssa-diff-object-0": nil}}}},
		{APIVersion: "v1", Kind: "ConfigMap", Name: "cm", Object: map[string]any{"\x00ssa-diff-object-0": nil}},
		{APIVersion: "v1", Kind: "ConfigMap", Name: "cm", Object: obj("cm"), WithForce: force,
			Drift: []report.DriftField{{Path: ".data.x", Live: map[string]any{"\x00ssa-diff-object-0": nil, "a": int64(1)}},
				{Path: ".data.y", Live: []any{map[string]any{"\x00ssa-diff-object-1": nil, "": []any{}}}}}},
	} {
		want, err := encodeJSON(res, "")
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeResult([]byte("reused"), res)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("encodeResult = %s, %v;\nencoding/json writes %s", got, err, want)
		}
		// Indented as the report's results are, and otherwise.
		for _, layout := range [][2]string{{resultPrefix, resultIndent}, {"", "\t"}} {
			var wantIndented bytes.Buffer
			if err := json.Indent(&wantIndented, want, layout[0], layout[1]); err != nil {
				t.Fatal(err)
			}
			got, err = encodeResultIndented([]byte("reused"), res, layout[0], layout[1])
			if err != nil || !bytes.Equal(got, wantIndented.Bytes()) {
				t.Errorf("encodeResultIndented(%q, %q) = %s, %v;\nencoding/json writes %s", layout[0], layout[1], got, err, wantIndented.Bytes())
			}
		}
	}
}
