package conformance

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/merge"
)

// serverWarningPrefix starts the warnings of a prediction that the server would send
// (merge words them so).
const serverWarningPrefix = "the server would warn: "

// CompareWarnings checks the warnings the prediction says the server sends against the
// Warning headers of the recording (response.warnings), in any order; nothing when the
// recording kept none (cases recorded before record.py wrote them) or the answer is
// kubectl's (its warnings are in its output).
func CompareWarnings(c *Case, res *merge.Result) []string {
	if c.Response.Warnings == nil || c.Request.Mode == "kubectl" {
		return nil
	}
	var got []string
	for _, w := range res.Warnings {
		if s, ok := strings.CutPrefix(w, serverWarningPrefix); ok {
			got = append(got, s)
		}
	}
	want := append([]string(nil), c.Response.Warnings...)
	sort.Strings(got)
	sort.Strings(want)
	if slices.Equal(got, want) {
		return nil
	}
	return []string{fmt.Sprintf("server warnings %q, the server sent %q", got, want)}
}
