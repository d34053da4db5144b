package output

import (
	"io"

	"github.com/ssa-diff/ssa-diff/internal/report"
)

// objectsWriter prints the predicted objects as the server would return them, managedFields
// included, as `kubectl apply --server-side --dry-run=server -o yaml` does: one object alone,
// several as a v1 List. Refusals go to the error stream as kubectl prints them.
type objectsWriter struct {
	w       io.Writer
	opts    Options
	objects []any
}

func newObjects(w io.Writer, opts Options) Writer { return &objectsWriter{w: w, opts: opts} }

func (o *objectsWriter) Write(res *report.Result) error {
	if err := warnStderr(o.opts, res); err != nil {
		return err
	}
	if res.Error != nil {
		_, err := io.WriteString(o.opts.Stderr, serverError(res))
		return err
	}
	if res.Object != nil {
		o.objects = append(o.objects, res.Object)
	}
	return nil
}

func (o *objectsWriter) Close(*report.Report) error {
	var v map[string]any
	switch len(o.objects) {
	case 0:
		return nil
	case 1:
		v = o.objects[0].(map[string]any)
	default:
		v = map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": o.objects}
	}
	s, err := renderYAML(v)
	if err != nil {
		return err
	}
	_, err = io.WriteString(o.w, s)
	return err
}
