package output

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/report"
)

func TestJUnitGolden(t *testing.T) {
	out, _ := writeAll(t, "junit", gateReport(gatePolicy), Options{})
	golden(t, "junit.golden", []byte(out))

	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				File    string `xml:"file,attr"`
				Line    int    `xml:"line,attr"`
				Failure *struct {
					Type string `xml:"type,attr"`
				} `xml:"failure"`
				Error *struct{} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	// api (protected takeover), web (rejected), settings (deletion) fail; broken is an error.
	if doc.Tests != 7 || doc.Failures != 3 || doc.Errors != 1 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 7 {
		t.Fatalf("tests %d failures %d errors %d", doc.Tests, doc.Failures, doc.Errors)
	}
	wantFail := map[string]string{"apps/v1 Deployment shop/api": report.CategoryProtected, "apps/v1 Deployment shop/web": report.CategoryRejected,
		"v1 ConfigMap shop/settings": report.CategoryDeletion}
	for _, c := range doc.Suites[0].Cases {
		got := ""
		if c.Failure != nil {
			got = c.Failure.Type
		}
		if got != wantFail[c.Name] {
			t.Errorf("%s: failure %q, want %q", c.Name, got, wantFail[c.Name])
		}
		if c.File == "" || c.Line == 0 {
			t.Errorf("%s: no file and line", c.Name)
		}
	}
}

func TestJUnitInvalidCharacters(t *testing.T) {
	rep := gateReport(report.DefaultPolicy())
	r := rep.Results[1]
	r.Error.Message += "\x00\x1b[31m ]]> \uFFFF"
	r.Findings = report.Evaluate(report.DefaultPolicy(), r, "kubectl", nil)
	out, _ := writeAll(t, "junit", rep, Options{})
	if err := xml.Unmarshal([]byte(out), new(struct{})); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	dec := xml.NewDecoder(strings.NewReader(out))
	for {
		if _, err := dec.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not XML: %v", err)
			}
			break
		}
	}
}
