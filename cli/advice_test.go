package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The JSON report carries each advice with its stable id; --disable-advice silences one,
// and an unknown id is a usage error.
func TestAdviceInReport(t *testing.T) {
	ex := "../testdata/examples/hpa-owns-replicas/"
	ids := func(args ...string) []string {
		var out, errb bytes.Buffer
		code := Run(append([]string{"-o", "json", "--now", "2026-12-02T10:00:00Z"}, append(args, ex+"manifest.yaml", ex+"live.json")...), nil, &out, &errb)
		if code != 3 {
			t.Fatalf("exit %d, want 3 (stderr %s)", code, errb.String())
		}
		var rep struct {
			Results []struct {
				Advice []struct{ ID, Fix string } `json:"advice"`
				State  *struct{ Converged bool }  `json:"state"`
			} `json:"results"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range rep.Results[0].Advice {
			if a.Fix == "" {
				t.Errorf("advice %s without a fix", a.ID)
			}
			got = append(got, a.ID)
		}
		if rep.Results[0].State == nil {
			t.Error("no state for the live object")
		}
		return got
	}
	if got := ids(); !contains(got, "fights-controller") {
		t.Errorf("advice %v, want fights-controller (an HPA owns spec.replicas)", got)
	}
	if got := ids("--disable-advice", "fights-controller"); contains(got, "fights-controller") {
		t.Errorf("advice %v after --disable-advice fights-controller", got)
	}
	var out, errb bytes.Buffer
	if code := Run([]string{"--disable-advice", "no-such-advice", ex + "manifest.yaml"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "unknown advice") {
		t.Errorf("exit %d, stderr %q: want 2 and the unknown id named", code, errb.String())
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
