package cli

import (
	"fmt"
	"io"

	"github.com/ssa-diff/ssa-diff/internal/atomicfile"
)

const outputFileUsage = "Write the output (-o) to FILE instead of standard output, all at once: FILE is replaced only when the whole report is written, so a run that is interrupted or fails leaves the previous FILE, or none (written to a temporary file .FILE.tmp-* beside it, then renamed)."

// reportOutput is where the report goes: standard output, or --output-file through a
// temporary file that takes the file's place only once the whole report is written.
type reportOutput struct {
	io.Writer
	file *atomicfile.File // nil for standard output
	c    *invocation
}

func (c *invocation) openOutput() (*reportOutput, error) {
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
