package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/ssa-diff/ssa-diff/cli/report"
	"sigs.k8s.io/yaml"
)

// yamlWriter prints the whole report as YAML (the JSON report's fields, keys sorted).
type yamlWriter struct{ w io.Writer }

func newYAML(w io.Writer, _ Options) Writer { return yamlWriter{w} }

func (yamlWriter) Write(*report.Result) error { return nil }

func (y yamlWriter) Close(rep *report.Report) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rep); err != nil {
		return err
	}
	out, err := yaml.JSONToYAML(buf.Bytes())
	if err != nil {
		return fmt.Errorf("printing the report as YAML: %w", err)
	}
	_, err = y.w.Write(out)
	return err
}
