package input

import (
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1048576": 1 << 20, "512Ki": 512 << 10, "64Mi": 64 << 20, "1Gi": 1 << 30, "2G": 2e9, "10k": 1e4, "3MiB": 3 << 20} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "-1", "1.5Mi", "Mi", "9999999999Ti", "x"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) succeeded", bad)
		}
	}
}

// FuzzParseSize: a size read is positive, and the size FormatSize prints is read back as
// itself.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"1048576", "512Ki", "64Mi", "1Gi", "2G", "10k", "3MiB", "0", "-1", "9999999999Ti", " 7 Ki "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseSize(s)
		if err != nil {
			return
		}
		if n <= 0 {
			t.Fatalf("ParseSize(%q) = %d", s, n)
		}
		out := FormatSize(n)
		if m, err := ParseSize(strings.TrimSuffix(out, " bytes")); err != nil || m != n {
			t.Fatalf("ParseSize(FormatSize(%d) = %q) = %d, %v", n, out, m, err)
		}
	})
}
