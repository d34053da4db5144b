package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/atomicfile"
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

// reportOutput is where the report goes: standard output, or --output-file through a
// temporary file that takes the file's place only once the whole report is written.
type reportOutput struct {
	io.Writer
	file *atomicfile.File // nil for standard output
	c    *session
}

func (c *session) openOutput() (*reportOutput, error) {
	if c.outputFile == "" {
		return &reportOutput{Writer: c.stdout, c: c}, nil
	}
	f, err := atomicfile.Create(c.outputFile, 0o644)
	if err != nil {
		return nil, fmt.Errorf("--output-file: %w", err)
	}
	return &reportOutput{Writer: f, file: f, c: c}, nil
}

// commit puts the report in place.
func (o *reportOutput) commit() error {
	if o.file == nil {
		return nil
	}
	return o.file.Commit()
}

// abort drops a report not committed: the file stays as it was.
func (o *reportOutput) abort() {
	if o.file != nil {
		o.file.Abort()
	}
}

// terminal says whether the report scrolls by on a terminal.
func (o *reportOutput) terminal() bool {
	return o.file == nil && isTerminal(o.c.stdout)
}

// formatOutputs are the --output-file FORMAT=PATH files being written.
type formatOutputs []*pageFile

// withFormatFiles adds a writer for each --output-file FORMAT=PATH to w: the writer, and
// the files, which take their places only at commit. A file's format writes no colour, and
// what it would print on the error stream (kubectl's refusals, in diff and objects) is the
// -o output's alone.
func (c *options) withFormatFiles(w output.Writer, opts output.Options) (output.Writer, formatOutputs, error) {
	if len(c.formatFiles) == 0 {
		return w, nil, nil
	}
	opts.Color = false
	opts.Stderr = io.Discard
	ws := []output.Writer{w}
	var files formatOutputs
	for _, f := range c.formatFiles {
		fw, page, err := openPage(f.path, f.format, "--output-file "+f.format+"=", opts)
		if err != nil {
			files.abort()
			return nil, nil, err
		}
		ws = append(ws, fw)
		files = append(files, page)
	}
	return output.Multi(ws...), files, nil
}

// commit puts every file in place, in the order given; it stops at the first that fails.
func (fs formatOutputs) commit() error {
	for _, f := range fs {
		if err := f.commit(); err != nil {
			return err
		}
	}
	return nil
}

// abort drops the files not committed.
func (fs formatOutputs) abort() {
	for _, f := range fs {
		f.abort()
	}
}
