package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/output"
)

// This file holds the HTML report written beside the -o output (--report-html): the same
// prediction, one self-contained page for a browser or a CI artifact.

// reportOptions are the HTML report's flags.
type reportOptions struct {
	// html is the file the page is written to ("": none).
	html string
	// url is where readers will find the page (a CI artifact's address), for -o markdown.
	url string
}

var reportArgNames = map[string]string{"report-html": "FILE", "report-url": "URL"}

func (c *options) addReportFlags(fs *pflag.FlagSet) {
	fs.StringVar(&c.report.html, "report-html", "", "Also write the report as one self-contained HTML page to FILE, from the same prediction as -o: the summary, filters, and per object its diff, ownership map, conflicts, refusal and advice (for a CI artifact; -o html prints it on standard output).")
	fs.StringVar(&c.report.url, "report-url", "", "Where the HTML report will be found (a CI artifact's or job's address): -o markdown links it. Default: the --report-html FILE.")
}

// checkReport validates the HTML report's flags.
func (c *options) checkReport() error {
	if c.report.html == "-" {
		return errors.New("--report-html needs a file name (-o html prints the page on standard output)")
	}
	return nil
}

// reportLink is where -o markdown says the HTML report is ("" when there is none).
func (c *options) reportLink() string {
	if c.report.url != "" {
		return c.report.url
	}
	return c.report.html
}

// htmlReport opens the --report-html page: its writer, and finish, which completes it once
// the report is closed: the page replaces FILE only when it is whole (a failed run leaves
// FILE as it was), and finish returns the first error of the run or its own.
func (c *options) htmlReport(opts output.Options) (output.Writer, func(error) error, error) {
	path := c.report.html
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return nil, nil, fmt.Errorf("--report-html: %w", err)
	}
	buf := bufio.NewWriterSize(f, 64<<10)
	opts.Color = false
	w, err := output.New("html", buf, opts)
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, nil, err
	}
	finish := func(werr error) error {
		err := werr
		if err == nil {
			err = buf.Flush()
		}
		if err == nil {
			err = f.Chmod(0o644)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(f.Name(), path)
		}
		if err != nil {
			os.Remove(f.Name())
			if werr == nil {
				return fmt.Errorf("--report-html %s: %w", path, err)
			}
		}
		return err
	}
	return w, finish, nil
}

// withHTMLReport adds the --report-html page to w, when asked: the writer, and the finish
// that completes the page (see htmlReport; without a page it returns its error as it is).
func (c *options) withHTMLReport(w output.Writer, opts output.Options) (output.Writer, func(error) error, error) {
	if c.report.html == "" {
		return w, func(err error) error { return err }, nil
	}
	hw, finish, err := c.htmlReport(opts)
	if err != nil {
		return nil, nil, err
	}
	return output.Multi(w, hw), finish, nil
}
