package output

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/judge"
)

// Writer prints a report in one format.
type Writer interface {
	// Write is called once per result, in input order.
	Write(res *report.Result) error
	// Close is called once, after the last result, with the whole summarised report.
	Close(rep *report.Report) error
}

// Options shape the human formats.
type Options struct {
	// Color turns on ANSI colours.
	Color bool
	// ShowManagedFields keeps metadata.managedFields in diffs.
	ShowManagedFields bool
	// ShowSecrets shows Secret values instead of masking them.
	ShowSecrets bool
	// ShowUnchanged prints the unchanged objects in text and markdown, which otherwise
	// fold them into the summary's count (Folded says which fold).
	ShowUnchanged bool
	// Ignore hides fields from the diffs (the ignore rules of --ignore-path and
	// --ignore-manager); nil hides none.
	Ignore *judge.Ignore
	// Now is the time ages are measured from.
	Now time.Time
	// ReportURL is where the HTML report of the same run is (a file or a CI artifact's
	// address): the markdown comment links it.
	ReportURL string
	// Stderr receives what kubectl would print on its error stream (refusals in the diff
	// and objects formats).
	Stderr io.Writer
	// Client names the client whose requests a result's steps are ("kubectl", "helm" …;
	// "" is kubectl).
	Client string
}

var formats = map[string]func(io.Writer, Options) Writer{
	"text":     newText,
	"diff":     newDiff,
	"json":     newJSON,
	"yaml":     newYAML,
	"objects":  newObjects,
	"github":   newGitHub,
	"junit":    newJUnit,
	"markdown": newMarkdown,
	"html":     newHTML,
}

// ShowsWithForce reports whether a format shows what --force-conflicts would do about a
// refusal with conflicts (Result.WithForce).
func ShowsWithForce(format string) bool {
	return format == "text" || format == "json" || format == "yaml" || format == "html" || format == "markdown"
}

// Streams reports whether a format prints each result as it is written.
func Streams(format string) bool { return format == "text" || format == "diff" }

// Start gives w, before the first result, the report its results are printed in (its
// apiVersion, kind and options final; Close gets the same report, summarised). The json
// format then prints each result as it is written instead of keeping it until Close; the
// bytes are the same. Other formats ignore it.
func Start(w Writer, rep *report.Report) {
	if s, ok := w.(starter); ok {
		s.start(rep)
	}
}

// A starter is a Writer that Start tells of its report.
type starter interface{ start(rep *report.Report) }

// Multi writes to several writers.
func Multi(ws ...Writer) Writer { return multiWriter(ws) }

type multiWriter []Writer

func (m multiWriter) start(rep *report.Report) {
	for _, w := range m {
		Start(w, rep)
	}
}

func (m multiWriter) Write(res *report.Result) error {
	for _, w := range m {
		if err := w.Write(res); err != nil {
			return err
		}
	}
	return nil
}

func (m multiWriter) Close(rep *report.Report) error {
	for _, w := range m {
		if err := w.Close(rep); err != nil {
			return err
		}
	}
	return nil
}

// Folded reports whether text and markdown leave a result out, counted in the summary
// only: an unchanged object with nothing worth a look (no finding above a notice, no
// advice), unless opts.ShowUnchanged.
func Folded(res *report.Result, opts Options) bool {
	if opts.ShowUnchanged || res.Action != report.ActionUnchanged || len(res.Advice) > 0 || hasDrift(res, opts) || res.SyncStatus.OutOfSync() {
		return false
	}
	for _, f := range res.Findings {
		if f.Level != report.LevelNotice {
			return false
		}
	}
	return true
}

// Formats lists the format names.
func Formats() []string {
	names := make([]string, 0, len(formats))
	for n := range formats {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// New returns the writer of a format.
func New(format string, w io.Writer, opts Options) (Writer, error) {
	f, ok := formats[format]
	if !ok {
		return nil, fmt.Errorf("unknown output format %q (want one of %s)", format, strings.Join(Formats(), ", "))
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	return f(w, opts), nil
}

// errWriter remembers the first write error so printing code can stay linear.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

func (e *errWriter) write(s string) {
	if e.err == nil {
		_, e.err = io.WriteString(e.w, s)
	}
}
