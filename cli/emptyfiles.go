package cli

import (
	"errors"
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/input"
)

// withoutEmptyFiles leaves out the manifest files that hold no object (empty, or only
// comments and document separators): kubectl reads nothing from them, and they are no
// object to count. Each is said in a warning; when nothing else is given, the run is
// refused as kubectl refuses it ("error: no objects passed to apply").
func (c *invocation) withoutEmptyFiles(entries []input.Entry) ([]input.Entry, error) {
	var kept []input.Entry
	var empty []error
	for _, e := range entries {
		if e.Err != nil && errors.Is(e.Err, input.ErrNoObjects) {
			empty = append(empty, e.Err)
			continue
		}
		kept = append(kept, e)
	}
	switch {
	case len(empty) == 0:
		return entries, nil
	case len(kept) == 0:
		return nil, fmt.Errorf("no objects to predict (kubectl apply answers \"error: no objects passed to apply\"): %w", errors.Join(empty...))
	}
	for _, err := range empty {
		c.warnf("%v: left out", err)
	}
	return kept, nil
}
