package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
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
	b, err := encodeJSON(&head, "  ")
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
	b, err := encodeResultIndented(j.scratch[:0], &j.item, res, resultPrefix, resultIndent)
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
		b, err := encodeJSON(rep, "  ")
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

// encodeResult is encodeJSON(res, ""), written over dst (whose space it may reuse), with
// the objects of res and of its forced twin — most of a report's bytes — written by
// fieldsjson.AppendJSONUnescaped rather than by encoding/json's reflection: res is encoded
// with each object replaced by a marker, an object of one null member whose key starts
// with a NUL character, and each marker's text by its object's. A marker's text cannot
// occur inside a JSON string (its quote would be escaped); when one does not occur exactly
// once, in order, res is encoded whole by encoding/json.
func encodeResult(dst []byte, res *report.Result) ([]byte, error) {
	var objects []map[string]any
	marked := withObjectMarkers(res, &objects)
	if len(objects) == 0 {
		return encodeJSON(res, "")
	}
	b, err := encodeJSON(marked, "")
	if err != nil {
		return nil, err
	}
	out := dst[:0]
	rest := b
	for i, obj := range objects {
		m, err := encodeJSON(objectMarker(i), "")
		if err != nil {
			return nil, err
		}
		at := bytes.Index(rest, m)
		if at < 0 || bytes.Count(b, m) != 1 {
			return encodeJSON(res, "")
		}
		out = append(out, rest[:at]...)
		if out, err = fieldsjson.AppendJSONUnescaped(out, obj); err != nil {
			return nil, err
		}
		rest = rest[at+len(m):]
	}
	return append(out, rest...), nil
}

// withObjectMarkers is a copy of res (nil for nil) whose non-empty objects (its own, its
// forced twin's) are markers, each object appended to objects in the order they print.
func withObjectMarkers(res *report.Result, objects *[]map[string]any) *report.Result {
	if res == nil {
		return nil
	}
	c := *res
	if len(c.Object) > 0 {
		*objects = append(*objects, c.Object)
		c.Object = objectMarker(len(*objects) - 1)
	}
	c.WithForce = withObjectMarkers(res.WithForce, objects)
	return &c
}

// objectMarker is the object that stands for the i-th object of a result in encodeResult.
func objectMarker(i int) map[string]any {
	return map[string]any{"\x00ssa-diff-object-" + strconv.Itoa(i): nil}
}

// encodeResultIndented is encodeResult's bytes indented as jsontext.Indent(prefix, indent)
// indents them, written over dst (text is room for the indented text between): res is encoded with its objects as markers and indented,
// and each marker, an object of one member at some depth, replaced by its object written
// indented at that depth (fieldsjson.AppendJSONUnescapedIndent): a report's largest part
// is not read back to be indented. When a marker does not occur exactly once (as in
// encodeResult), the encoding of res is indented whole.
func encodeResultIndented(dst []byte, text *bytes.Buffer, res *report.Result, prefix, indent string) ([]byte, error) {
	var objects []map[string]any
	marked := withObjectMarkers(res, &objects)
	b, err := encodeJSON(marked, "")
	if err != nil {
		return nil, err
	}
	indented := func(b []byte) ([]byte, error) {
		buf := bytes.NewBuffer(dst[:0])
		if err := jsontext.Indent(buf, b, prefix, indent); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	whole := func() ([]byte, error) {
		b, err := encodeResult(nil, res)
		if err != nil {
			return nil, err
		}
		return indented(b)
	}
	keys := make([][]byte, len(objects))
	for i := range objects {
		m, err := encodeJSON(objectMarker(i), "")
		if err != nil {
			return nil, err
		}
		if bytes.Count(b, m) != 1 {
			return whole()
		}
		keys[i] = m[1 : len(m)-len(":null}")]
	}
	if len(objects) == 0 {
		return indented(b)
	}
	text.Reset()
	if err := jsontext.Indent(text, b, prefix, indent); err != nil {
		return nil, err
	}
	rest := text.Bytes()
	out := dst[:0]
	for i, obj := range objects {
		start, end, depth, ok := indentedMarker(rest, keys[i], prefix, indent)
		if !ok {
			return whole()
		}
		out = append(out, rest[:start]...)
		if out, err = fieldsjson.AppendJSONUnescapedIndent(out, obj, prefix+strings.Repeat(indent, depth), indent); err != nil {
			return nil, err
		}
		rest = rest[end:]
	}
	return append(out, rest...), nil
}

// indentedMarker finds in text, indented by jsontext.Indent(prefix, indent), the first
// object whose only member is key (an encoded string) with null: where it starts and ends,
// and the depth it is at. A key followed by a colon is a key (text in a string holds no
// newline, and its quotes are escaped).
func indentedMarker(text, key []byte, prefix, indent string) (start, end, depth int, ok bool) {
	member := append(append([]byte{}, key...), ": null\n"...)
	for from := 0; ; {
		i := bytes.Index(text[from:], member)
		if i < 0 || indent == "" {
			return 0, 0, 0, false
		}
		at := from + i
		from = at + 1
		nl := bytes.LastIndexByte(text[:at], '\n')
		if nl < 1 || text[nl-1] != '{' {
			continue
		}
		ws := text[nl+1 : at]
		n := len(ws) - len(prefix)
		if n < len(indent) || n%len(indent) != 0 {
			continue
		}
		d := n/len(indent) - 1
		if string(ws) != prefix+strings.Repeat(indent, d+1) {
			continue
		}
		closing := prefix + strings.Repeat(indent, d) + "}"
		after := at + len(member)
		if !bytes.HasPrefix(text[after:], []byte(closing)) {
			continue
		}
		return nl - 1, after + len(closing), d, true
	}
}
