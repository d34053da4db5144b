package input

import (
	"errors"
	"fmt"
)

// WithoutEmptyFiles leaves out of manifests the files that hold no object (ErrNoObjects:
// empty, or only comments and document separators): kubectl reads nothing from them, and
// they are no object to count. It returns the entries kept and the errors of the files left
// out (to be said as warnings), or, when nothing else is left, the error kubectl refuses
// the apply with ("error: no objects passed to apply").
func WithoutEmptyFiles(entries []Entry) (kept []Entry, left []error, err error) {
	for _, e := range entries {
		if e.Err != nil && errors.Is(e.Err, ErrNoObjects) {
			left = append(left, e.Err)
			continue
		}
		kept = append(kept, e)
	}
	switch {
	case len(left) == 0:
		return entries, nil, nil
	case len(kept) == 0:
		return nil, nil, fmt.Errorf("no objects to predict (kubectl apply answers \"error: no objects passed to apply\"): %w", errors.Join(left...))
	}
	return kept, left, nil
}
