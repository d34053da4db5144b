package cli

import (
	"github.com/ssa-diff/ssa-diff/internal/outfiles"
	"github.com/ssa-diff/ssa-diff/internal/output"
)

// This file holds where the report goes: standard output, or --output-file FILE; and the
// other formats one prediction also writes, --output-file FORMAT=PATH (repeatable). Every
// file is written all at once: through a temporary file that takes the file's place only
// once the whole report is written.

const outputFileUsage = "Write the output (-o) to FILE instead of standard output; FORMAT=PATH (repeatable) also writes the same prediction in another format to PATH (" +
	"e.g. --output-file markdown=report.md --output-file json=report.json beside -o github). Each file is written all at once: it is replaced only when the whole report is written, so a run that is interrupted or fails leaves the previous file, or none (written to a temporary file .NAME.tmp-* beside it, then renamed). A FILE whose name has = in it is written ./NAME."

// checkOutputFiles reads the --output-file values (outfiles.ParseFiles): at most one FILE
// (the -o output), and FORMAT=PATH for more formats, each to a file of its own.
func (c *options) checkOutputFiles() error {
	var err error
	c.outputFile, c.formatFiles, err = outfiles.ParseFiles(c.outputFiles, c.output, c.report.html)
	return err
}

// formatFilesShowWithForce reports whether a FORMAT=PATH format shows what
// --force-conflicts would do about a refusal with conflicts.
func (c *options) formatFilesShowWithForce() bool {
	for _, f := range c.formatFiles {
		if output.ShowsWithForce(f.Format) {
			return true
		}
	}
	return false
}
