package validation

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"testing"
)

// ruleCounts counts the rules the server's refusals came from — each cause with its list
// indexes, map keys and values left out — so that SSA_DIFF_RULES=1 shows which rules a
// kind's seeds and mutations reach, and which they never do.
type ruleCounts map[string]int

var (
	indexOrKey = regexp.MustCompile(`\[[^\]]*\]`)
	badValue   = regexp.MustCompile(`^(Invalid value|Unsupported value|Duplicate value|Too many|Not found): .*?: `)
)

func (r ruleCounts) add(a *Answer) {
	if os.Getenv("SSA_DIFF_RULES") == "" {
		return
	}
	for _, c := range a.Causes {
		msg := badValue.ReplaceAllString(c.Message, "$1: …: ")
		if len(msg) > 90 {
			msg = msg[:90]
		}
		r[fmt.Sprintf("%s: %s", indexOrKey.ReplaceAllString(c.Field, "[]"), msg)]++
	}
}

func (r ruleCounts) log(t *testing.T) {
	if len(r) == 0 {
		return
	}
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%6d %s", r[k], k)
	}
}
