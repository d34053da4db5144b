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

// jsonWriter prints the report as indented JSON. Started (Start) with the report's
// head, it prints each result as it is written — the head first, with the first result —
// and at Close what follows the results (the summary, a shard's record): a long run holds
// no result once written. Not started, it keeps each result's encoded bytes and prints the
// whole report at Close. Either way the bytes are those of the whole report encoded at once.
type jsonWriter struct {
	w       io.Writer
	results [][]byte
	// started is the report whose head the results are printed under, once Start gave
	// it; head is that head as printed, once the first result was.
	started *report.Report
	head    []byte
	out     *bufio.Writer
	item    bytes.Buffer
	scratch []byte
}

func newJSON(w io.Writer, _ Options) Writer { return &jsonWriter{w: w} }

// resultsMarker is how the report's results field reads, encoded as nil.
const resultsMarker = "\n  \"results\": null,\n"

// splitReport encodes rep without its results: the JSON before the results field and
// the JSON after it.
func splitReport(rep *report.Report) (before, after []byte, err error) {
	head := *rep
	head.Results = nil
	b, err := encodeReport(&head, "  ")
	if err != nil {
		return nil, nil, err
	}
	i := bytes.Index(b, []byte(resultsMarker))
	if i < 0 {
		return nil, nil, fmt.Errorf("printing the report as JSON: no results field")
	}
	return b[:i], b[i+len(resultsMarker):], nil
}

func (j *jsonWriter) start(rep *report.Report) { j.started = rep }

func (j *jsonWriter) Write(res *report.Result) error {
	if j.started == nil {
		b, err := encodeResult(nil, res)
		if err != nil {
			return err
		}
		j.results = append(j.results, b)
		return nil
	}
	// Printed at once: the result's encoding is written into the same buffer each time,
	// indented as it is written.
	b, err := encodeResultIndented(j.scratch[:0], res, resultPrefix, resultIndent)
	if err != nil {
		return err
	}
	j.scratch = b
	if j.out == nil {
		before, _, err := splitReport(j.started)
		if err != nil {
			return err
		}
		j.head = before
		j.out = bufio.NewWriterSize(j.w, 64<<10)
		j.out.Write(before)
		j.out.WriteString("\n  \"results\": [")
	} else {
		j.out.WriteByte(',')
	}
	j.out.WriteString("\n" + resultPrefix)
	_, err = j.out.Write(b)
	return err
}

// The layout of a result in the report: an element of the results list, indented by
// encodeJSON(rep, "  ").
const (
	resultPrefix = "    "
	resultIndent = "  "
)

// writeResult prints one result's compact encoding, indented as encoding the whole report
// would indent it.
func (j *jsonWriter) writeResult(b []byte) error {
	j.out.WriteString("\n" + resultPrefix)
	j.item.Reset()
	if err := jsontext.Indent(&j.item, b, resultPrefix, resultIndent); err != nil {
		return err
	}
	_, err := j.out.Write(j.item.Bytes())
	return err
}

// Close prints the report with the results written; when none were, with the report's own.
func (j *jsonWriter) Close(rep *report.Report) error {
	if j.out == nil && len(j.results) == 0 {
		b, err := encodeReport(rep, "  ")
		if err != nil {
			return err
		}
		_, err = j.w.Write(b)
		return err
	}
	before, after, err := splitReport(rep)
	if err != nil {
		return err
	}
	if j.out != nil {
		// Started: the head is printed already, and must be the report's.
		if !bytes.Equal(before, j.head) {
			return fmt.Errorf("printing the report as JSON: the report's head changed after its results were printed")
		}
	} else {
		// Written through a buffer, each result let go once written: the report is not
		// held whole a second time.
		j.out = bufio.NewWriterSize(j.w, 64<<10)
		j.out.Write(before)
		j.out.WriteString("\n  \"results\": [")
		for k, r := range j.results {
			if k > 0 {
				j.out.WriteByte(',')
			}
			if err := j.writeResult(r); err != nil {
				return err
			}
			j.results[k] = nil
		}
	}
	j.out.WriteString("\n  ],\n")
	j.out.Write(after)
	return j.out.Flush()
}

// encodeJSON writes v by encoding/json as the report is written: HTML characters as they
// are, indented by indent ("" for compact), with a final newline when indented. It is the
// reference the report's own writer (reportEncoder) is held to, and writes what that
// writer leaves to encoding/json.
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

// encodeResult is encodeJSON(res, ""), written over dst (whose space it may reuse) by
// appendResultJSON: without encoding/json's reflection, the objects of res and of its
// forced twin — most of a report's bytes — by fieldsjson.AppendJSONUnescaped.
func encodeResult(dst []byte, res *report.Result) ([]byte, error) {
	return appendResultJSON(dst[:0], res, "", "")
}

// encodeResultIndented is encodeResult's bytes indented as jsontext.Indent(prefix, indent)
// indents them, written over dst in one pass by appendResultJSON (the objects by
// fieldsjson.AppendJSONUnescapedIndent): nothing is read back to be indented.
func encodeResultIndented(dst []byte, res *report.Result, prefix, indent string) ([]byte, error) {
	return appendResultJSON(dst[:0], res, prefix, indent)
}
