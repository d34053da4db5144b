package output

import (
	"io"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/schema"
)

// diffWriter prints the unified diff alone, the way kubectl diff --server-side does: one
// "diff -u -N LIVE/<name> MERGED/<name>" section per object that changes. Refusals go to the
// error stream as kubectl prints them.
type diffWriter struct {
	w    *errWriter
	p    palette
	opts Options
}

func newDiff(w io.Writer, opts Options) Writer {
	return &diffWriter{w: &errWriter{w: w}, p: palette{opts.Color}, opts: opts}
}

// DiffName is kubectl diff's file name for an object: [group.]version.Kind.namespace.name.
func DiffName(apiVersion, kind, namespace, name string) string {
	gvk := schema.GVKFromAPIVersionKind(apiVersion, kind)
	group := ""
	if gvk.Group != "" {
		group = gvk.Group + "."
	}
	return group + strings.Join([]string{gvk.Version, gvk.Kind, namespace, name}, ".")
}

func (d *diffWriter) Write(res *report.Result) error {
	if err := warnStderr(d.opts, res); err != nil {
		return err
	}
	if res.Error != nil {
		_, err := io.WriteString(d.opts.Stderr, serverError(res))
		return err
	}
	if res.Object == nil && res.Action != report.ActionPrune {
		return nil
	}
	if l := assignedLine(res); l != "" {
		if _, err := io.WriteString(d.opts.Stderr, title(res)+": "+l+" (not in the diff)\n"); err != nil {
			return err
		}
	}
	body, err := displayDiff(res, d.opts, d.p, true)
	if err != nil || body == "" {
		return err
	}
	name := DiffName(res.APIVersion, res.Kind, res.Namespace, res.DisplayName())
	d.w.write(d.p.bold("diff -u -N LIVE/"+name+" MERGED/"+name) + "\n")
	d.w.write(d.p.bold("--- LIVE/"+name) + "\n")
	d.w.write(d.p.bold("+++ MERGED/"+name) + "\n")
	d.w.write(body)
	return d.w.err
}

func (d *diffWriter) Close(*report.Report) error { return d.w.err }
