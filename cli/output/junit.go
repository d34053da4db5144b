package output

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/cli/input"
	"github.com/ssa-diff/ssa-diff/cli/report"
)

// junitWriter prints a JUnit XML report, as CI systems (GitLab, Jenkins, Azure DevOps, the
// test-reporter actions of GitHub) read it: one test suite, one test case per manifest
// object. A case fails when the object has findings that fail the run (a refusal, and
// whatever --fail-on and --protect add); an object ssa-diff could not predict is an error.
// The other findings and what the apply does are the case's output.
type junitWriter struct {
	w     io.Writer
	cases []junitCase
}

func newJUnit(w io.Writer, _ Options) Writer { return &junitWriter{w: w} }

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
	SystemOut *junitText    `xml:"system-out"`
}

type junitText struct {
	Text string `xml:",cdata"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

func (j *junitWriter) Write(res *report.Result) error {
	c := junitCase{Name: xmlText(title(res)), Classname: ciFile(res.Source), File: ciFile(res.Source), Line: res.Source.Line, Time: "0"}
	if c.Classname == "" {
		c.Classname = res.Source.FileName()
	}
	var failing, other []string
	var first *report.Finding
	for i, f := range res.Findings {
		line := fmt.Sprintf("%s: %s", f.Category, f.Message)
		if file := ciFile(input.Source{File: f.File}); f.Line > 0 && file != "" {
			line = fmt.Sprintf("%s:%d: %s", file, f.Line, line)
		} else if f.Line > 0 && c.File != "" {
			line = fmt.Sprintf("%s:%d: %s", c.File, f.Line, line)
		}
		if f.Fails() {
			failing = append(failing, line)
			if first == nil {
				first = &res.Findings[i]
			}
		} else {
			other = append(other, f.Level+": "+line)
		}
	}
	if first != nil {
		p := &junitProblem{Message: xmlText(firstLine(first.Message)), Type: first.Category, Text: xmlText(strings.Join(failing, "\n") + "\n")}
		if first.Category == report.CategoryError {
			c.Error = p
		} else {
			c.Failure = p
		}
	}
	out := []string{"action: " + string(res.Action) + changedNote(res)}
	out = append(out, ownershipLines(res)...)
	if l := assignedLine(res); l != "" {
		out = append(out, l)
	}
	out = append(out, other...)
	c.SystemOut = &junitText{xmlText(strings.Join(out, "\n") + "\n")}
	j.cases = append(j.cases, c)
	return nil
}

func changedNote(res *report.Result) string {
	if res.Action == report.ActionUpdate && !res.Changed {
		return " (only managedFields times change)"
	}
	return ""
}

// ownershipLines says in a few lines who gains and loses which fields.
func ownershipLines(res *report.Result) []string {
	var out []string
	for _, o := range res.Ownership {
		var parts []string
		if n := len(o.Gained); n > 0 {
			parts = append(parts, fmt.Sprintf("gains %d field%s", n, plural(n)))
		}
		if n := len(o.Taken); n > 0 {
			parts = append(parts, fmt.Sprintf("loses %d field%s to the applier", n, plural(n)))
		}
		if n := len(o.Released); n > 0 {
			parts = append(parts, fmt.Sprintf("releases %d field%s", n, plural(n)))
		}
		if o.Removed {
			parts = append(parts, "its entry is removed")
		}
		if len(parts) > 0 {
			out = append(out, "ownership: "+describeManager(o.Manager)+" "+strings.Join(parts, ", "))
		}
	}
	return out
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

func (j *junitWriter) Close(rep *report.Report) error {
	s := junitSuite{Name: "ssa-diff", Time: "0", Timestamp: rep.Options.Now.UTC().Format(time.RFC3339), Cases: j.cases}
	if s.Cases == nil {
		s.Cases = []junitCase{}
	}
	for _, c := range j.cases {
		s.Tests++
		if c.Failure != nil {
			s.Failures++
		}
		if c.Error != nil {
			s.Errors++
		}
	}
	o := rep.Options
	s.Properties = []junitProperty{{"applier", o.Applier}, {"fieldManager", o.FieldManager}, {"force", fmt.Sprint(o.Force)}}
	if p := o.Policy; p != nil {
		s.Properties = append(s.Properties, junitProperty{"failOn", strings.Join(p.FailOn, ",")})
		if len(p.AllowTakeoverFrom) > 0 {
			s.Properties = append(s.Properties, junitProperty{"allowTakeoverFrom", strings.Join(p.AllowTakeoverFrom, ",")})
		}
		if len(p.Protect) > 0 {
			s.Properties = append(s.Properties, junitProperty{"protect", strings.Join(p.Protect, ",")})
		}
	}
	s.Properties = append(s.Properties, junitProperty{"exitCode", fmt.Sprint(rep.Summary.ExitCode)})
	doc := junitSuites{Name: "ssa-diff", Tests: s.Tests, Failures: s.Failures, Errors: s.Errors, Time: "0", Suites: []junitSuite{s}}
	if _, err := io.WriteString(j.w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(j.w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(j.w, "\n")
	return err
}

// xmlText replaces what XML 1.0 cannot hold (most control characters, lone surrogates,
// U+FFFE and U+FFFF) with U+FFFD: CDATA sections are written as they are.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
			return '\uFFFD'
		}
		return r
	}, s)
}
