package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/ssa-diff/ssa-diff/internal/report"
	yamlv2 "go.yaml.in/yaml/v2"
)

// yamlWriter prints the whole report as YAML (the JSON report's fields, keys sorted). Each
// result is encoded as JSON as it is written, so a long run holds bytes, not results.
type yamlWriter struct {
	w       io.Writer
	results [][]byte
}

func newYAML(w io.Writer, _ Options) Writer { return &yamlWriter{w: w} }

func (y *yamlWriter) Write(res *report.Result) error {
	b, err := encodeResult(nil, res)
	if err != nil {
		return err
	}
	y.results = append(y.results, b)
	return nil
}

// Close prints the report with the results written; when none were, with the report's own.
func (y *yamlWriter) Close(rep *report.Report) error {
	var doc []byte
	if len(y.results) == 0 {
		b, err := encodeReport(rep, "")
		if err != nil {
			return err
		}
		doc = b
	} else {
		head := *rep
		head.Results = nil
		b, err := encodeReport(&head, "")
		if err != nil {
			return err
		}
		const marker = `"results":null`
		i := bytes.Index(b, []byte(marker))
		if i < 0 {
			return fmt.Errorf("printing the report as YAML: no results field")
		}
		doc = append(append([]byte(nil), b[:i]...), `"results":[`...)
		doc = append(doc, bytes.Join(y.results, []byte(","))...)
		doc = append(append(doc, ']'), b[i+len(marker):]...)
	}
	out, err := jsonToYAML(doc)
	if err != nil {
		return fmt.Errorf("printing the report as YAML: %w", err)
	}
	_, err = y.w.Write(out)
	return err
}

// jsonToYAML converts a JSON document as sigs.k8s.io/yaml's JSONToYAML does, keys in the
// same order but with its ties broken (see renderYAML), so the same report always prints
// the same.
func jsonToYAML(doc []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return nil, err
	}
	return yamlv2.Marshal(asYAMLTree(v))
}
