package cli

import (
	"errors"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/outfiles"
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

var reportArgNames = [][2]string{{"report-html", "FILE"}, {"report-url", "URL"}}

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
			if f.Format == "html" {
				return f.Path
			}
		}
	}
	return c.report.html
}

// htmlPages are the --report-html page, when asked: written beside the -o output, put in
// place of FILE only once it is whole (a failed or interrupted run leaves FILE as it was).
func (c *options) htmlPages() []outfiles.File {
	if c.report.html == "" {
		return nil
	}
	return []outfiles.File{{Format: "html", Path: c.report.html, Flag: "--report-html"}}
}
