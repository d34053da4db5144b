package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/outfiles"
	"github.com/ssa-diff/ssa-diff/internal/output"
)

// This file holds where the report goes: standard output, or --output-file FILE; and the
// other formats one prediction also writes, --output-file FORMAT=PATH (repeatable). Every
// file is written all at once: through a temporary file that takes the file's place only
// once the whole report is written.

const outputFileUsage = "Write the output (-o) to FILE instead of standard output; FORMAT=PATH (repeatable) also writes the same prediction in another format to PATH (" +
	"e.g. --output-file markdown=report.md --output-file json=report.json beside -o github). Each file is written all at once: it is replaced only when the whole report is written, so a run that is interrupted or fails leaves the previous file, or none (written to a temporary file .NAME.tmp-* beside it, then renamed). A FILE whose name has = in it is written ./NAME."

// formatFile is one --output-file FORMAT=PATH.
type formatFile struct {
	format, path string
}

// checkOutputFiles reads the --output-file values: at most one FILE (the -o output), and
// FORMAT=PATH for more formats, each to a file of its own.
func (c *options) checkOutputFiles() error {
	seen := map[string]string{}
	claim := func(path, what string) error {
		key := filepath.Clean(path)
		if prev, ok := seen[key]; ok {
			return fmt.Errorf("--output-file: %s and %s are both written to %s", prev, what, path)
		}
		seen[key] = what
		return nil
	}
	if c.report.html != "" {
		if err := claim(c.report.html, "--report-html"); err != nil {
			return err
		}
	}
	for _, v := range c.outputFiles {
		format, path, isFormat := strings.Cut(v, "=")
		if isFormat && strings.ContainsAny(format, `/\`) {
			isFormat = false // a path with = in a directory's name
		}
		if !isFormat {
			if v == "" {
				return errors.New("--output-file needs a file name")
			}
			if c.outputFile != "" {
				return fmt.Errorf("--output-file %s and %s: the -o output goes to one FILE (FORMAT=PATH writes another format)", c.outputFile, v)
			}
			if err := claim(v, "-o "+c.output); err != nil {
				return err
			}
			c.outputFile = v
			continue
		}
		if !isFormatName(format) {
			return fmt.Errorf("--output-file %s: unknown format %q (want FORMAT=PATH, FORMAT one of %s; a FILE whose name has = in it is written ./%s)",
				v, format, strings.Join(output.Formats(), ", "), v)
		}
		if path == "" || path == "-" {
			return fmt.Errorf("--output-file %s: needs a file name after %s= (standard output is -o's)", v, format)
		}
		if err := claim(path, format+"="); err != nil {
			return err
		}
		c.formatFiles = append(c.formatFiles, formatFile{format: format, path: path})
	}
	return nil
}

func isFormatName(name string) bool {
	for _, f := range output.Formats() {
		if f == name {
			return true
		}
	}
	return false
}

// formatFilesShowWithForce reports whether a FORMAT=PATH format shows what
// --force-conflicts would do about a refusal with conflicts.
func (c *options) formatFilesShowWithForce() bool {
	for _, f := range c.formatFiles {
		if output.ShowsWithForce(f.format) {
			return true
		}
	}
	return false
}

// formatPages are the --output-file FORMAT=PATH files, written beside the -o output.
func (c *options) formatPages() []outfiles.File {
	var out []outfiles.File
	for _, f := range c.formatFiles {
		out = append(out, outfiles.File{Format: f.format, Path: f.path, Flag: "--output-file " + f.format + "=", Quiet: true})
	}
	return out
}
