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
	got := ServerWarnings(res.Warnings)
	want := append([]string(nil), c.Response.Warnings...)
	sort.Strings(want)
	if slices.Equal(got, want) {
		return nil
	}
	return []string{fmt.Sprintf("server warnings %q, the server sent %q", got, want)}
}

// ServerWarnings is, of a prediction's warnings, the Warning headers the server would send,
// as it words them, sorted: not ssa-diff's own warnings, nor the audit annotations.
func ServerWarnings(warnings []string) []string {
	var sent []string
	for _, w := range warnings {
		if s, ok := strings.CutPrefix(w, serverWarningPrefix); ok {
			sent = append(sent, s)
		}
	}
	sort.Strings(sent)
	return sent
}
