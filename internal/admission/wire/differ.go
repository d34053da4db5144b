package wire

import (
	"fmt"
	"sync"
)

// Differ asks the helper program for the differences of Diff, starting it on the first: a
// run that prints none never starts it. It is safe for concurrent use.
type Differ struct {
	path string
	mu   sync.Mutex
	p    *process
	err  error
}

// NewDiffer is a Differ asking the helper program at path.
func NewDiffer(path string) *Differ { return &Differ{path: path} }

// Diff is the text the helper prints for d.
func (d *Differ) Diff(req Diff) (string, error) {
	p, err := d.process()
	if err != nil {
		return "", err
	}
	return p.diff(req)
}

// process is the helper, started on first use; a helper that could not start is not
// started again.
func (d *Differ) process() (*process, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.p == nil && d.err == nil {
		if d.path == "" {
			d.err = fmt.Errorf("no %s program is configured", HelperName)
		} else {
			d.p, d.err = start(d.path)
		}
	}
	return d.p, d.err
}

// Close ends the helper, when it was started.
func (d *Differ) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.p == nil {
		return nil
	}
	return d.p.Close()
}
