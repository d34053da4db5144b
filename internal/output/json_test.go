package output

import (
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
