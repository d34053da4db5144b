package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/ssa-diff/ssa-diff/internal/jsontext"
	"github.com/ssa-diff/ssa-diff/internal/report"
)

// jsonWriter prints the report as indented JSON when it is complete. Each result is
// encoded as it is written, so a long run holds the results' bytes, not the results and
// the objects they carry.
type jsonWriter struct {
	w       io.Writer
	results [][]byte
}

func newJSON(w io.Writer, _ Options) Writer { return &jsonWriter{w: w} }

func (j *jsonWriter) Write(res *report.Result) error {
	b, err := encodeJSON(res, "")
	if err != nil {
		return err
	}
	j.results = append(j.results, b)
	return nil
}

// Close prints the report with the results written; when none were, with the report's own.
func (j *jsonWriter) Close(rep *report.Report) error {
	if len(j.results) == 0 {
		b, err := encodeJSON(rep, "  ")
		if err != nil {
			return err
		}
		_, err = j.w.Write(b)
		return err
	}
	// The report without its results, then the results, indented as encoding the whole
	// report would indent them.
	head := *rep
	head.Results = nil
	b, err := encodeJSON(&head, "  ")
	if err != nil {
		return err
	}
	const marker = "\n  \"results\": null,\n"
	i := bytes.Index(b, []byte(marker))
	if i < 0 {
		return fmt.Errorf("printing the report as JSON: no results field")
	}
	// Written through a buffer, each result let go once written: the report is not held
	// whole a second time.
	out := bufio.NewWriterSize(j.w, 64<<10)
	out.Write(b[:i])
	out.WriteString("\n  \"results\": [")
	var item bytes.Buffer
	for k, r := range j.results {
		if k > 0 {
			out.WriteByte(',')
		}
		out.WriteString("\n    ")
		item.Reset()
		if err := jsontext.Indent(&item, r, "    ", "  "); err != nil {
			return err
		}
		out.Write(item.Bytes())
		j.results[k] = nil
	}
	out.WriteString("\n  ],\n")
	out.Write(b[i+len(marker):])
	return out.Flush()
}

// encodeJSON writes v as the report is written: HTML characters as they are, indented by
// indent ("" for compact), with a final newline when indented.
func encodeJSON(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if indent == "" {
		b = bytes.TrimSuffix(b, []byte("\n"))
	}
	return b, nil
}
