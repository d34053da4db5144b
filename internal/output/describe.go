package output

// This file holds how the formats describe a result in words: values compacted to a line,
// an object's title and the renderer it came from, a refusal as kubectl prints it, the
// values the server assigns, and the warnings written to the error stream.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/judge/gate"
)

// compactValues prints two values in one line of JSON each, cut to max runes, but never
// the same for values that differ: when both would be cut to the same text, each shows
// where they differ.
func compactValues(a, b any, max int) (string, string) { return compactPair(json.Marshal, a, b, max) }

// compactWith prints a value in one line of JSON (marshal prints it), cut to max runes.
func compactWith(marshal func(any) ([]byte, error), v any, max int) string {
	if v == nil {
		return "(absent)"
	}
	b, err := marshal(v)
	if err != nil {
		return "?"
	}
	return gate.Cut(string(b), max)
}

// compactPair is compactValues with marshal printing the JSON.
func compactPair(marshal func(any) ([]byte, error), a, b any, max int) (string, string) {
	sa, sb := compactWith(marshal, a, max), compactWith(marshal, b, max)
	if sa != sb || a == nil || b == nil {
		return sa, sb
	}
	ja, err1 := marshal(a)
	jb, err2 := marshal(b)
	if err1 != nil || err2 != nil || bytes.Equal(ja, jb) {
		return sa, sb
	}
	return gate.CutApart(string(ja), string(jb), max)
}

// where is a file and line as editors link them: the finding's file when it has one (a
// patch), else the result's.
func findingWhere(res *report.Result, f report.Finding) (file string, line int) {
	if f.File != "" {
		return f.File, f.Line
	}
	return res.Source.File, f.Line
}

// via says which renderer made an object, for its heading: "" for objects read as written.
func via(src input.Source) string {
	if src.Via == "" {
		return ""
	}
	return " via " + src.Via
}

// title names a result's object: apiVersion Kind namespace/name.
func title(res *report.Result) string {
	if res.Kind == "" && res.DisplayName() == "" {
		return res.Source.FileName() + ", document " + itoa(res.Source.Document)
	}
	var b strings.Builder
	if res.APIVersion != "" {
		b.WriteString(res.APIVersion + " ")
	}
	b.WriteString(res.Kind + " ")
	if res.Namespace != "" {
		b.WriteString(res.Namespace + "/")
	}
	b.WriteString(res.DisplayName())
	return b.String()
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// reasonOf is the Status reason of an error, or the HTTP status text when it has none.
func reasonOf(e *report.Error) string {
	if e.Reason != "" {
		return e.Reason
	}
	return strings.ReplaceAll(http.StatusText(e.Code), " ", "")
}

// serverError prints a refusal as kubectl does on its error stream.
func serverError(res *report.Result) string {
	e := res.Error
	if e.Code == 0 {
		return "error: " + e.Message + "\n"
	}
	if e.Reason == "" {
		return "Error from server: " + e.Message + "\n"
	}
	return "Error from server (" + e.Reason + "): " + e.Message + "\n"
}

// describeManager prints a manager for people: name (operation, subresource, apiVersion).
func describeManager(m report.Manager) string { return m.Describe() }

// assignedShown lists the values of a result the server assigns that the human formats
// name: those a reader of the diff would miss, so not the metadata every write assigns
// (uid, creationTimestamp, resourceVersion).
func assignedShown(res *report.Result) []string {
	var shown []string
	for _, p := range res.Assigned {
		switch p {
		case ".metadata.uid", ".metadata.creationTimestamp", ".metadata.resourceVersion":
			continue
		}
		shown = append(shown, p)
	}
	return shown
}

// assignedLine is the human formats' line about them ("assigned by the server:
// .spec.clusterIP, .spec.clusterIPs"), "" when there are none.
func assignedLine(res *report.Result) string {
	shown := assignedShown(res)
	if len(shown) == 0 {
		return ""
	}
	return assignedLead + strings.Join(shown, ", ")
}

const assignedLead = "assigned by the server: "

// warnStderr prints a result's warnings on the error stream, as kubectl prints the server's.
func warnStderr(opts Options, res *report.Result) error {
	for _, w := range res.Warnings {
		if _, err := io.WriteString(opts.Stderr, "Warning: "+title(res)+": "+w+"\n"); err != nil {
			return err
		}
	}
	return nil
}
