package emit

import (
	"context"
	"fmt"
	"io"
	"iter"
	"os"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/outfiles"
	"github.com/ssa-diff/ssa-diff/internal/output"
	"github.com/ssa-diff/ssa-diff/internal/plan"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/internal/shard"
	"golang.org/x/term"
)

// A Writer is where and how a run's report is written.
type Writer struct {
	// Format is -o's; File the file it is written to ("": Stdout).
	Format string
	File   string
	Stdout io.Writer
	// Stderr receives the summary with another format than text, and the progress line.
	Stderr  io.Writer
	Options output.Options
	// Summary prints the one-screen overview: instead of the objects with text, on Stderr
	// with the other formats (coloured when Options are and Stderr is a terminal).
	Summary bool
	// Pages are the HTML page written beside (--report-html), Files the other formats'.
	Pages, Files []outfiles.File
	// Progress forces the progress line on (tests; by default it shows on a terminal);
	// ProgressDelay is how long a run goes before it shows (0: a second), Count how many
	// objects are predicted so far.
	Progress      bool
	ProgressDelay time.Duration
	Count         func() int64
	// Sharding is the run's part of the shards' record (--shard), kept as results come.
	Sharding *shard.Record
}

// Write prints the slots' results in order as done yields them, each once it is done, into
// rep; it returns the exit status, report.ExitError when done stops short (the run was
// stopped) or when err, an error to print, is not nil.
func (c Writer) Write(ctx context.Context, rep *report.Report, total int, done iter.Seq[*plan.Slot]) (int, error) {
	opts := c.Options
	dst, err := outfiles.Open(c.File, "--output-file", c.Stdout)
	if err != nil {
		return report.ExitError, err
	}
	defer dst.Abort()
	w, err := output.New(c.Format, dst, opts)
	if err != nil {
		return report.ExitError, err
	}
	if c.Summary {
		if c.Format == "text" {
			w = output.NewSummary(dst, opts)
		} else {
			sopts := opts
			sopts.Color = opts.Color && IsTerminal(c.Stderr)
			w = output.Multi(w, output.NewSummary(c.Stderr, sopts))
		}
	}
	w, page, err := outfiles.Tee(w, opts, c.Pages)
	if err != nil {
		return report.ExitError, err
	}
	defer page.Abort()
	w, files, err := outfiles.Tee(w, opts, c.Files)
	if err != nil {
		return report.ExitError, err
	}
	defer files.Abort()

	// The progress line shows on a terminal, unless the results themselves scroll by on it.
	streams := output.Streams(c.Format) && !(c.Summary && c.Format == "text")
	if c.Progress || (IsTerminal(c.Stderr) && !(streams && !dst.IsFile() && IsTerminal(c.Stdout))) {
		p := startProgress(c.Stderr, total, c.Count, c.ProgressDelay)
		defer p.stop()
	}
	output.Start(w, rep) // the report's head is final: json prints each result as it comes
	var tally report.Tally
	var werr error
	k := 0
	for s := range done {
		tally.Add(s.Result)
		c.Sharding.Keep(rep, k, s.Result)
		k++
		if werr == nil {
			werr = w.Write(s.Result)
		}
		s.Release()
	}
	if k < total {
		return report.ExitError, nil // stopped: the workers have finished what they had started
	}
	rep.Summary = tally.Summary()
	if werr == nil {
		werr = w.Close(rep)
	}
	if ctx.Err() != nil {
		return report.ExitError, nil
	}
	if werr == nil {
		werr = page.Commit()
	}
	if werr == nil {
		werr = files.Commit()
	}
	if werr == nil {
		werr = dst.Commit()
	}
	if werr != nil {
		return report.ExitError, fmt.Errorf("writing the report: %w", werr)
	}
	return rep.Summary.ExitCode, nil
}

// IsTerminal reports whether w is a terminal. A character device is not enough: /dev/null
// is one too, and output sent there must not be coloured nor get a progress line (issue 29).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
