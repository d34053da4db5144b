package output

import (
	"fmt"
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"
	"sigs.k8s.io/yaml"
)

// DefaultContext is the number of unchanged lines shown around each change.
const DefaultContext = 3

// diffTimeout bounds the time spent finding a minimal diff of one object: past it the diff is
// still correct, only longer.
const diffTimeout = 2 * time.Second

// lineOp is one line of a line diff: ' ' kept, '-' removed, '+' added.
type lineOp struct {
	op   byte
	text string // without the trailing newline
}

// lineDiff diffs two texts line by line; in each changed run removals come before additions.
func lineDiff(a, b string) []lineOp {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = diffTimeout
	ra, rb, lines := dmp.DiffLinesToRunes(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(ra, rb, false), lines)
	var out, adds []lineOp
	flush := func() { out = append(out, adds...); adds = adds[:0] }
	for _, d := range diffs {
		for _, l := range splitLines(d.Text) {
			switch d.Type {
			case diffmatchpatch.DiffEqual:
				flush()
				out = append(out, lineOp{' ', l})
			case diffmatchpatch.DiffDelete:
				out = append(out, lineOp{'-', l})
			case diffmatchpatch.DiffInsert:
				adds = append(adds, lineOp{'+', l})
			}
		}
	}
	flush()
	return out
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// hunk is one @@ section of a unified diff.
type hunk struct {
	aStart, aLen, bStart, bLen int
	lines                      []lineOp
}

func (h hunk) header() string {
	return fmt.Sprintf("@@ -%s +%s @@", hunkRange(h.aStart, h.aLen), hunkRange(h.bStart, h.bLen))
}

// hunkRange prints a range as diff -u does: "start,len", "start" when len is 1, and for an
// empty range the line before it.
func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	if n == 0 {
		start--
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// hunks groups a line diff into hunks with context lines around each change.
func hunks(ops []lineOp, context int) []hunk {
	var out []hunk
	n := len(ops)
	// aLine[i], bLine[i]: 1-based line numbers of ops[i] in a and b (before it for the other side).
	aLine, bLine := make([]int, n+1), make([]int, n+1)
	a, b := 1, 1
	for i, o := range ops {
		aLine[i], bLine[i] = a, b
		if o.op != '+' {
			a++
		}
		if o.op != '-' {
			b++
		}
	}
	aLine[n], bLine[n] = a, b
	for i := 0; i < n; {
		if ops[i].op == ' ' {
			i++
			continue
		}
		start := i - context
		if start < 0 {
			start = 0
		}
		end := i // exclusive end of the hunk, extended while changes are close
		for j := i; j < n; j++ {
			if ops[j].op != ' ' {
				end = j + 1
				continue
			}
			if j-end >= 2*context {
				break
			}
		}
		stop := end + context
		if stop > n {
			stop = n
		}
		h := hunk{aStart: aLine[start], bStart: bLine[start], lines: ops[start:stop]}
		for _, o := range h.lines {
			if o.op != '+' {
				h.aLen++
			}
			if o.op != '-' {
				h.bLen++
			}
		}
		out = append(out, h)
		i = stop
	}
	return out
}

// unifiedBody prints the hunks of a diff of a and b ("" when they are equal), each line
// passed through paint.
func unifiedBody(a, b string, context int, p palette) string {
	if a == b {
		return ""
	}
	var sb strings.Builder
	for _, h := range hunks(lineDiff(a, b), context) {
		sb.WriteString(p.cyan(h.header()))
		sb.WriteByte('\n')
		for _, l := range h.lines {
			line := string(l.op) + l.text
			switch l.op {
			case '-':
				line = p.red(line)
			case '+':
				line = p.green(line)
			}
			sb.WriteString(line)
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// renderYAML prints an object as kubectl -o yaml does (keys sorted); nil prints as "".
func renderYAML(obj map[string]interface{}) (string, error) {
	if obj == nil {
		return "", nil
	}
	b, err := yaml.Marshal(obj)
	if err != nil {
		return "", fmt.Errorf("printing the object as YAML: %w", err)
	}
	return string(b), nil
}
