package output

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// requireGNUDiff skips the test where GNU diff is not installed.
func requireGNUDiff(tb testing.TB) {
	tb.Helper()
	if out, err := exec.Command("diff", "--version").Output(); err != nil || !bytes.Contains(out, []byte("GNU diffutils")) {
		tb.Skip("GNU diff is not installed")
	}
}

// gnuDiffs runs GNU diff as kubectl diff does (`diff -u -N`, here with -r on two folders
// holding every pair, one process for them all) and returns the hunks of each pair,
// without the header lines: "" for a pair whose texts are the same.
func gnuDiffs(tb testing.TB, pairs [][2]string) []string {
	tb.Helper()
	requireGNUDiff(tb)
	dir := tb.TempDir()
	live, merged := filepath.Join(dir, "LIVE"), filepath.Join(dir, "MERGED")
	for _, d := range []string{live, merged} {
		if err := os.Mkdir(d, 0o700); err != nil {
			tb.Fatal(err)
		}
	}
	name := func(i int) string { return fmt.Sprintf("%06d", i) }
	for i, p := range pairs {
		if err := os.WriteFile(filepath.Join(live, name(i)), []byte(p[0]), 0o600); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(merged, name(i)), []byte(p[1]), 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	cmd := exec.Command("diff", "-u", "-N", "-r", "LIVE", "MERGED")
	cmd.Dir = dir
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		tb.Fatalf("diff: %v", err)
	}
	bodies := make([]string, len(pairs))
	var cur *strings.Builder
	var curIndex int
	flush := func() {
		if cur != nil {
			bodies[curIndex] = cur.String()
		}
	}
	for _, l := range strings.SplitAfter(string(out), "\n") {
		switch {
		case l == "":
		case strings.HasPrefix(l, "diff -u -N -r LIVE/"):
			flush()
			if _, err := fmt.Sscanf(l, "diff -u -N -r LIVE/%d", &curIndex); err != nil {
				tb.Fatalf("diff printed %q", l)
			}
			cur = &strings.Builder{}
		case strings.HasPrefix(l, "--- LIVE/"), strings.HasPrefix(l, "+++ MERGED/"):
		default:
			cur.WriteString(l)
		}
	}
	flush()
	return bodies
}

// checkLikeGNU requires unifiedBody to print what GNU diff prints for each pair.
func checkLikeGNU(t *testing.T, pairs [][2]string) {
	t.Helper()
	for i, want := range gnuDiffs(t, pairs) {
		a, b := pairs[i][0], pairs[i][1]
		if got := unifiedBody(a, b, DefaultContext, palette{}); got != want {
			t.Fatalf("pair %d: a=%.2000q\nb=%.2000q\ngot:\n%.4000s\nGNU diff -u -N:\n%.4000s", i, a, b, got, want)
		}
	}
}

// The case: a block scalar gains lines, two of them repeating the lines before
// them; GNU diff aligns the insertions after the repeated lines and prints two hunks.
func TestUnifiedLikeGNUBlockScalar(t *testing.T) {
	doc := func(lines ...string) string {
		return "apiVersion: v1\ndata:\n  a: |\n    " + strings.Join(lines, "\n    ") + "\nkind: ConfigMap\nmetadata:\n  name: x\n  namespace: y\n"
	}
	a := doc("e1", "v1", "i", "p", "n", "ps", "c80", "nh", "t", "r")
	b := doc("e1", "v1", "e2", "v2", "i", "p", "n", "ps", "c80", "nh", "t", "c443", "ns", "t", "r")
	want := `@@ -3,6 +3,8 @@
   a: |
     e1
     v1
+    e2
+    v2
     i
     p
     n
@@ -10,6 +12,9 @@
     c80
     nh
     t
+    c443
+    ns
+    t
     r
 kind: ConfigMap
 metadata:
`
	if got := unifiedBody(a, b, DefaultContext, palette{}); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	checkLikeGNU(t, [][2]string{{a, b}})
}

// pairGenerator makes pairs of texts of the shapes -o diff meets: YAML documents with
// nested maps, lists and block scalars, edited by insertions, deletions and replacements
// of blocks (often repeating the lines around them), and texts of few distinct lines.
type pairGenerator struct{ rng *rand.Rand }

func (g pairGenerator) words(n int, alphabet []string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = alphabet[g.rng.Intn(len(alphabet))]
	}
	return out
}

// yamlDoc is a YAML-like document of about n lines.
func (g pairGenerator) yamlDoc(n int) []string {
	keys := []string{"name", "image", "port", "value", "key", "path", "protocol", "cpu", "memory", "app"}
	vals := []string{"web", "TCP", "80", "8080", "nginx:1.27", "\"1\"", "true", "null", "100m", "/data"}
	var out []string
	indent := ""
	for len(out) < n {
		switch g.rng.Intn(8) {
		case 0:
			out = append(out, indent+keys[g.rng.Intn(len(keys))]+":")
			if len(indent) < 8 {
				indent += "  "
			}
		case 1:
			if indent != "" {
				indent = indent[2:]
			}
		case 2:
			out = append(out, indent+"- "+keys[g.rng.Intn(len(keys))]+": "+vals[g.rng.Intn(len(vals))])
		case 3:
			out = append(out, indent+"script: |")
			for range g.rng.Intn(12) {
				out = append(out, indent+"  "+[]string{"set -e", "echo ok", "exit 0", "fi", "done", "", "t", "r"}[g.rng.Intn(8)])
			}
		default:
			out = append(out, indent+keys[g.rng.Intn(len(keys))]+": "+vals[g.rng.Intn(len(vals))])
		}
	}
	return out
}

// edit changes lines by a few random edits.
func (g pairGenerator) edit(lines []string, edits int, alphabet []string) []string {
	out := append([]string(nil), lines...)
	for range edits {
		at := g.rng.Intn(len(out) + 1)
		switch g.rng.Intn(6) {
		case 0, 1: // insert a block, often of the lines around it
			n := 1 + g.rng.Intn(5)
			var block []string
			for k := range n {
				if g.rng.Intn(2) == 0 && at > 0 {
					block = append(block, out[min(len(out)-1, max(0, at-1-g.rng.Intn(3)+k%2))])
				} else {
					block = append(block, alphabet[g.rng.Intn(len(alphabet))])
				}
			}
			out = append(out[:at], append(block, out[at:]...)...)
		case 2, 3: // delete a block
			n := 1 + g.rng.Intn(5)
			out = append(out[:at], out[min(len(out), at+n):]...)
		case 4: // replace a line
			if at < len(out) {
				out[at] = alphabet[g.rng.Intn(len(alphabet))]
			}
		case 5: // repeat a line
			if at < len(out) {
				out = append(out[:at+1], append([]string{out[at]}, out[at+1:]...)...)
			}
		}
	}
	return out
}

func text(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// pair returns the i-th generated pair.
func (g pairGenerator) pair(i int) (string, string) {
	small := []string{"a", "b", "c", "a", "  a", "d", ""}
	switch i % 6 {
	case 0: // few distinct lines: repeats everywhere
		return text(g.words(g.rng.Intn(30), small)), text(g.words(g.rng.Intn(30), small))
	case 1: // a small text edited
		a := g.words(g.rng.Intn(40), small)
		return text(a), text(g.edit(a, 1+g.rng.Intn(4), small))
	case 2, 3: // a YAML document edited
		a := g.yamlDoc(5 + g.rng.Intn(80))
		b := g.edit(a, 1+g.rng.Intn(6), a)
		if g.rng.Intn(2) == 0 {
			a, b = b, a
		}
		return text(a), text(b)
	case 4: // a long document, a few edits
		a := g.yamlDoc(200 + g.rng.Intn(1500))
		return text(a), text(g.edit(a, 1+g.rng.Intn(10), a))
	default: // created or deleted, or edited everywhere
		a := g.yamlDoc(g.rng.Intn(40))
		switch g.rng.Intn(3) {
		case 0:
			return "", text(a)
		case 1:
			return text(a), ""
		}
		return text(a), text(g.edit(a, 10+g.rng.Intn(30), small))
	}
}

// TestUnifiedLikeGNU compares unifiedBody with GNU diff -u -N on generated pairs.
func TestUnifiedLikeGNU(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	g := pairGenerator{rand.New(rand.NewSource(30))}
	pairs := make([][2]string, n)
	for i := range pairs {
		pairs[i][0], pairs[i][1] = g.pair(i)
	}
	checkLikeGNU(t, pairs)
}

// Texts so different that the search passes TOO_EXPENSIVE edits (4096) and settles for the
// furthest point reached, as GNU diff does.
func TestUnifiedLikeGNUTooExpensive(t *testing.T) {
	if testing.Short() {
		t.Skip("a large diff")
	}
	g := pairGenerator{rand.New(rand.NewSource(4096))}
	alphabet := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	var pairs [][2]string
	for range 2 {
		pairs = append(pairs, [2]string{text(g.words(12000, alphabet)), text(g.words(12000, alphabet))})
	}
	checkLikeGNU(t, pairs)
}

// FuzzUnifiedLikeGNU compares unifiedBody with GNU diff -u -N on texts made of the
// fuzzer's bytes, each byte a line of a small alphabet (repeats are where diffs differ).
func FuzzUnifiedLikeGNU(f *testing.F) {
	f.Add([]byte("abcde"), []byte("abxcde"))
	f.Add([]byte("aaaa"), []byte("aaaaa"))
	f.Add([]byte("evipnsPcht r"), []byte("evEVipnsPcht443nst r"))
	lines := func(b []byte) string {
		var sb strings.Builder
		for _, c := range b {
			sb.WriteString([]string{"a", "b", "c", "  a", "", "t", "r", "x"}[c%8])
			sb.WriteByte('\n')
		}
		return sb.String()
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		if len(a) > 2000 || len(b) > 2000 {
			return
		}
		checkLikeGNU(t, [][2]string{{lines(a), lines(b)}})
	})
}
