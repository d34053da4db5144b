package output

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/internal/report"
	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// DefaultContext is the number of unchanged lines shown around each change.
const DefaultContext = 3

// lineOp is one line of a line diff: ' ' kept, '-' removed, '+' added.
type lineOp struct {
	op   byte
	text string // without the trailing newline
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
	for _, h := range hunks(gnuLineDiff(a, b, context), context) {
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

// displayDiff is the body of the unified diff the human formats print for a result,
// between the live object and the prediction as displayed (see displayTexts); "" when
// they print the same. whole: the objects print whole (-o diff, as kubectl diff).
func displayDiff(res *report.Result, opts Options, p palette, whole bool) (string, error) {
	a, b, same, err := displayTexts(res, res.Live, res.Object, opts, whole)
	if err != nil || same {
		return "", err
	}
	return unifiedBody(a, b, DefaultContext, p), nil
}

// sameDisplay reports whether two displayed objects print the same YAML, with no error, so
// that their diff is empty without printing them: equal trees of what renderYAML writes with
// the YAML encoder directly (see plainValue), or both nil.
func sameDisplay(a, b map[string]any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return sameValue(a, b)
}

func sameValue(x, y any) bool {
	switch t := x.(type) {
	case map[string]any:
		u, ok := y.(map[string]any)
		if !ok || len(t) != len(u) {
			return false
		}
		for k, v := range t {
			w, ok := u[k]
			if !ok || !plainString(k) || !sameValue(v, w) {
				return false
			}
		}
		return true
	case []any:
		u, ok := y.([]any)
		if !ok || len(t) != len(u) {
			return false
		}
		for i := range t {
			if !sameValue(t[i], u[i]) {
				return false
			}
		}
		return true
	case string:
		u, ok := y.(string)
		return ok && t == u && plainString(t)
	case int64:
		u, ok := y.(int64)
		return ok && t == u
	case bool:
		u, ok := y.(bool)
		return ok && t == u
	case float64:
		u, ok := y.(float64)
		return ok && math.Float64bits(t) == math.Float64bits(u) && !math.IsNaN(t) && !math.IsInf(t, 0)
	case nil:
		return y == nil
	}
	return false
}

// renderYAML prints an object as kubectl -o yaml does (keys sorted); nil prints as "".
// A decoded object (strings, booleans, int64, float64, maps, lists) is written by the YAML
// encoder directly, keys in the order sigs.k8s.io/yaml's JSON round trip gives them (the
// YAML encoder's "natural" order: numbers in keys compare as numbers), with ties broken
// by bytes: that encoder sorts with an order that is not total (0x1F, 01, 1), so its
// output for such keys changes from run to run. Anything else takes the round trip.
//
// The plain case is written by emitYAML, which reproduces the YAML encoder's output without
// its machinery; what emitYAML does not reproduce takes renderYAMLMarshal.
func renderYAML(obj map[string]any) (string, error) {
	if obj == nil {
		return "", nil
	}
	if s, ok := emitYAML(obj); ok {
		return s, nil
	}
	return renderYAMLMarshal(obj)
}

// renderYAMLMarshal is renderYAML through the YAML encoder (the reference emitYAML follows).
func renderYAMLMarshal(obj map[string]any) (string, error) {
	if obj == nil {
		return "", nil
	}
	var b []byte
	var err error
	if plainValue(obj) {
		b, err = yamlv2.Marshal(asYAMLTree(obj))
	} else {
		b, err = yaml.Marshal(obj)
	}
	if err != nil {
		return "", fmt.Errorf("printing the object as YAML: %w", err)
	}
	return string(b), nil
}

// asYAMLTree turns maps into key-ordered yaml.MapSlices (see renderYAML).
func asYAMLTree(v any) any {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		sort.SliceStable(keys, func(i, j int) bool { return naturalLess(keys[i], keys[j]) })
		m := make(yamlv2.MapSlice, len(keys))
		for i, k := range keys {
			m[i] = yamlv2.MapItem{Key: k, Value: asYAMLTree(t[k])}
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, x := range t {
			l[i] = asYAMLTree(x)
		}
		return l
	case float64:
		// As the round trip makes it: JSON's digits read back as YAML (8e17 is written
		// 800000000000000000, an integer).
		if b, err := json.Marshal(t); err == nil {
			var x any
			if yamlv2.Unmarshal(b, &x) == nil && x != nil {
				return x
			}
		}
	}
	return v
}

// naturalLess orders keys as the YAML encoder does: at the first rune that differs, a
// letter comes after anything else, two letters in rune order, and otherwise the runs of
// digits there compare as numbers, then by length, then the runes.
func naturalLess(a, b string) bool {
	ar, br := []rune(a), []rune(b)
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		al, bl := unicode.IsLetter(ar[i]), unicode.IsLetter(br[i])
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			return bl
		}
		// The numbers written by the runs of digits around i (which begin at the same
		// place: before i the keys are equal).
		start := i
		for start > 0 && isDigit(ar[start-1]) {
			start--
		}
		an, ae := digitRun(ar, start)
		bn, be := digitRun(br, start)
		if an != bn {
			return an < bn
		}
		if ae != be {
			return ae < be
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// digitRun reads the number the digits of r from start write (saturating) and where they end.
func digitRun(r []rune, start int) (uint64, int) {
	var n uint64
	end := start
	for ; end < len(r) && isDigit(r[end]); end++ {
		if d := uint64(r[end] - '0'); n <= (math.MaxUint64-d)/10 {
			n = n*10 + d
		} else {
			n = math.MaxUint64
		}
	}
	return n, end
}

// plainValue reports whether v holds only what JSON decoding makes (integers as int64) with
// strings of valid UTF-8: values the YAML encoder writes as the JSON round trip would.
func plainValue(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if !plainValue(k) || !plainValue(x) {
				return false
			}
		}
	case []any:
		for _, x := range t {
			if !plainValue(x) {
				return false
			}
		}
	case string:
		// YAML 1.1 reads NEL, LS and PS as line breaks: the round trip folds them, so
		// strings with them (and with a byte-order mark) take it.
		return utf8.ValidString(t) && !strings.ContainsAny(t, "\u0085\u2028\u2029\ufeff")
	case float64:
		return !math.IsInf(t, 0) && !math.IsNaN(t)
	case bool, int64, nil:
	default:
		return false
	}
	return true
}
