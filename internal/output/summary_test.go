package output

import (
	"bytes"
	"strings"
	"testing"
)

func TestSummaryGolden(t *testing.T) {
	rep := gateReport(gatePolicy)
	var out bytes.Buffer
	w := NewSummary(&out, Options{Now: now})
	for _, r := range rep.Results {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(rep); err != nil {
		t.Fatal(err)
	}
	golden(t, "summary.golden", out.Bytes())
	if n := strings.Count(out.String(), "\n"); n > 24 {
		t.Errorf("%d lines: more than a screen", n)
	}
	for _, want := range []string{"fails on takeover,deletion,rejected", "kube-controller-manager (Update, subresource scale, apps/v1)", "Failing (4):", "Result: 1 object could not be predicted (exit 2)."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q", want)
		}
	}
}
