package input

import (
	"errors"
	"fmt"
	"io"
)

// LoadReader reads every object in r as Load reads a file, within the same limits, naming
// it name in sources: input that is not a file, such as the live state read from a cluster.
func (l *Loader) LoadReader(name string, r io.Reader) []Entry {
	l.init()
	if l.objects >= l.limits.MaxObjects {
		return errEntry(fileError(name, fmt.Errorf("not read: %w", l.objectLimitError())))
	}
	entries, docs := l.parseStream(name, r)
	if docs == 0 && len(entries) == 0 {
		return errEntry(fileError(name, errors.New("no objects")))
	}
	return entries
}
