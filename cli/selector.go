package cli

import (
	"fmt"

	"k8s.io/apimachinery/pkg/labels"
)

// parseSelector reads -l/--selector as kubectl reads it: apimachinery's label selector
// syntax (key=value, key!=value, key in (a,b), key notin (a), key, !key, key>n, key<n;
// comma-separated requirements).
func parseSelector(s string) (labels.Selector, error) {
	sel, err := labels.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("--selector %q: %w", s, err)
	}
	return sel, nil
}
