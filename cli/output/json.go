package output

import (
	"encoding/json"
	"io"

	"github.com/ssa-diff/ssa-diff/cli/report"
)

// jsonWriter prints the whole report as indented JSON when it is complete.
type jsonWriter struct{ w io.Writer }

func newJSON(w io.Writer, _ Options) Writer { return jsonWriter{w} }

func (jsonWriter) Write(*report.Result) error { return nil }

func (j jsonWriter) Close(rep *report.Report) error {
	enc := json.NewEncoder(j.w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(rep)
}
