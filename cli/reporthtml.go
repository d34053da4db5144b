package cli

import (
	"bufio"
	"errors"
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/atomicfile"

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
	fs.StringVar(&c.report.url, "report-url", "", "Where the HTML report will be found (a CI artifact's or job's address): -o markdown links it. Default: the --report-html FILE (or --output-file html=PATH).")
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
	if c.report.html == "" {
		for _, f := range c.formatFiles {
			if f.format == "html" {
				return f.path
			}
		}
	}
	return c.report.html
}

// htmlReport opens the --report-html page: its writer, and the file, which puts the page in
// place of FILE only once it is whole (a failed or interrupted run leaves FILE as it was).
func (c *options) htmlReport(opts output.Options) (output.Writer, *pageFile, error) {
	opts.Color = false
	return openPage(c.report.html, "html", "--report-html", opts)
}

// openPage opens path for a report in format, written all at once (flag names it in errors).
func openPage(path, format, flag string, opts output.Options) (output.Writer, *pageFile, error) {
	f, err := atomicfile.Create(path, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", flag, err)
	}
	page := &pageFile{f: f, buf: bufio.NewWriterSize(f, 64<<10), flag: flag}
	w, err := output.New(format, page.buf, opts)
	if err != nil {
		f.Abort()
		return nil, nil, err
	}
	return w, page, nil
}

// pageFile is a report file being written (--report-html, --output-file FORMAT=PATH); nil
// when there is none.
type pageFile struct {
	f    *atomicfile.File
	buf  *bufio.Writer
	flag string
}

// commit puts the whole page in place.
func (p *pageFile) commit() error {
	if p == nil {
		return nil
	}
	err := p.buf.Flush()
	if err == nil {
		err = p.f.Commit()
	} else {
		p.f.Abort()
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", p.flag, p.f.Name(), err)
	}
	return nil
}

// abort drops a page not committed.
func (p *pageFile) abort() {
	if p != nil {
		p.f.Abort()
	}
}

// withHTMLReport adds the --report-html page to w, when asked: the writer, and the page
// file (nil without --report-html).
func (c *options) withHTMLReport(w output.Writer, opts output.Options) (output.Writer, *pageFile, error) {
	if c.report.html == "" {
		return w, nil, nil
	}
	hw, page, err := c.htmlReport(opts)
	if err != nil {
		return nil, nil, err
	}
	return output.Multi(w, hw), page, nil
}
