package output

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedBody(t *testing.T) {
	a := "apiVersion: v1\ndata:\n  a: \"1\"\n  b: \"2\"\n  c: \"3\"\nkind: ConfigMap\nmetadata:\n  name: x\n"
	b := "apiVersion: v1\ndata:\n  a: \"1\"\n  c: \"4\"\nkind: ConfigMap\nmetadata:\n  name: x\n"
	want := "@@ -1,8 +1,7 @@\n apiVersion: v1\n data:\n   a: \"1\"\n-  b: \"2\"\n-  c: \"3\"\n+  c: \"4\"\n kind: ConfigMap\n metadata:\n   name: x\n"
	if got := unifiedBody(a, b, 3, palette{}); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := unifiedBody("", "a\nb\n", 3, palette{}); got != "@@ -0,0 +1,2 @@\n+a\n+b\n" {
		t.Errorf("create: got %q", got)
	}
	if got := unifiedBody("a\n", "a\n", 3, palette{}); got != "" {
		t.Errorf("no change: got %q", got)
	}
}

func TestHunksSplitFarChanges(t *testing.T) {
	var a, b []string
	for i := 0; i < 30; i++ {
		a = append(a, strconv.Itoa(i))
		b = append(b, strconv.Itoa(i))
	}
	b[2], b[25] = "two", "twenty-five"
	got := unifiedBody(strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n", 3, palette{})
	if n := strings.Count(got, "@@ -"); n != 2 {
		t.Fatalf("got %d hunks, want 2:\n%s", n, got)
	}
	if !strings.HasPrefix(got, "@@ -1,6 +1,6 @@\n") || !strings.Contains(got, "@@ -23,7 +23,7 @@\n") {
		t.Errorf("hunk headers wrong:\n%s", got)
	}
}

// patch applies a unified body to a, as patch(1) would, checking every context line.
func patch(a, body string) (string, error) {
	src := splitLines(a)
	var out []string
	pos := 0 // next unread line of src, 0-based
	for _, l := range splitLines(body) {
		if strings.HasPrefix(l, "@@") {
			var as, al, bs, bl int
			if _, err := fmt.Sscanf(l, "@@ -%d,%d +%d,%d @@", &as, &al, &bs, &bl); err != nil {
				// single-line ranges print without a length
				al = 1
				if _, err := fmt.Sscanf(l, "@@ -%d +%d", &as, &bs); err != nil {
					if _, err := fmt.Sscanf(l, "@@ -%d,%d +%d", &as, &al, &bs); err != nil {
						if _, err := fmt.Sscanf(l, "@@ -%d +%d,%d", &as, &bs, &bl); err != nil {
							return "", fmt.Errorf("bad header %q", l)
						}
					}
				}
			}
			start := as - 1
			if al == 0 {
				start = as
			}
			for pos < start {
				out = append(out, src[pos])
				pos++
			}
			continue
		}
		switch l[0] {
		case ' ', '-':
			if pos >= len(src) || src[pos] != l[1:] {
				return "", fmt.Errorf("line %d: %q does not match %q", pos+1, l, src[pos:])
			}
			if l[0] == ' ' {
				out = append(out, src[pos])
			}
			pos++
		case '+':
			out = append(out, l[1:])
		}
	}
	out = append(out, src[pos:]...)
	if len(out) == 0 {
		return "", nil
	}
	return strings.Join(out, "\n") + "\n", nil
}

func TestUnifiedPatchesBack(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"a", "b", "c", "d", "e"}
	text := func() string {
		n := rng.Intn(25)
		var ls []string
		for i := 0; i < n; i++ {
			ls = append(ls, words[rng.Intn(len(words))])
		}
		if n == 0 {
			return ""
		}
		return strings.Join(ls, "\n") + "\n"
	}
	for i := 0; i < 500; i++ {
		a, b := text(), text()
		body := unifiedBody(a, b, rng.Intn(4), palette{})
		got, err := patch(a, body)
		if err != nil || got != b {
			t.Fatalf("a=%q b=%q\n%s\npatched to %q, %v", a, b, body, got, err)
		}
	}
}
