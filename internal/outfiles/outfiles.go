package outfiles

import (
	"bufio"
	"fmt"
	"io"

	"github.com/ssa-diff/ssa-diff/internal/atomicfile"
	"github.com/ssa-diff/ssa-diff/internal/output"
)

// Output is where the -o report goes: standard output, or a file through a temporary file
// that takes the file's place only once the whole report is written.
type Output struct {
	io.Writer
	file *atomicfile.File // nil for standard output
}

// Open is the -o output: stdout when path is "", else the file path (flag names it in
// errors).
func Open(path, flag string, stdout io.Writer) (*Output, error) {
	if path == "" {
		return &Output{Writer: stdout}, nil
	}
	f, err := atomicfile.Create(path, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return &Output{Writer: f, file: f}, nil
}

// IsFile reports an output written to a file.
func (o *Output) IsFile() bool { return o.file != nil }

// Commit puts the report in place.
func (o *Output) Commit() error {
	if o.file == nil {
		return nil
	}
	return o.file.Commit()
}

// Abort drops a report not committed: the file stays as it was.
func (o *Output) Abort() {
	if o.file != nil {
		o.file.Abort()
	}
}

// A File is a page to write beside the -o output: its format and path, and the flag that
// asks for it (named in errors). Quiet drops what its format prints on the error stream
// (kubectl's refusals, in diff and objects: the -o output's alone).
type File struct {
	Format, Path, Flag string
	Quiet              bool
}

// Tee adds a writer for each file to w: the writer, and the pages, which take their places
// only at Commit. A file's format writes no colour.
func Tee(w output.Writer, opts output.Options, files []File) (output.Writer, Pages, error) {
	if len(files) == 0 {
		return w, nil, nil
	}
	ws := []output.Writer{w}
	var pages Pages
	for _, f := range files {
		o := opts
		o.Color = false
		if f.Quiet {
			o.Stderr = io.Discard
		}
		fw, page, err := openPage(f, o)
		if err != nil {
			pages.Abort()
			return nil, nil, err
		}
		ws = append(ws, fw)
		pages = append(pages, page)
	}
	return output.Multi(ws...), pages, nil
}

// openPage opens a file for a report in its format, written all at once.
func openPage(file File, opts output.Options) (output.Writer, *Page, error) {
	f, err := atomicfile.Create(file.Path, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file.Flag, err)
	}
	page := &Page{f: f, buf: bufio.NewWriterSize(f, 64<<10), flag: file.Flag}
	w, err := output.New(file.Format, page.buf, opts)
	if err != nil {
		f.Abort()
		return nil, nil, err
	}
	return w, page, nil
}

// A Page is a report file being written.
type Page struct {
	f    *atomicfile.File
	buf  *bufio.Writer
	flag string
}

// Commit puts the whole page in place.
func (p *Page) Commit() error {
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

// Pages are the pages being written.
type Pages []*Page

// Commit puts every page in place, in the order given; it stops at the first that fails.
func (ps Pages) Commit() error {
	for _, p := range ps {
		if err := p.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// Abort drops the pages not committed.
func (ps Pages) Abort() {
	for _, p := range ps {
		p.f.Abort()
	}
}
