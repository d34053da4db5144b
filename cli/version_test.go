package cli

import (
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-o", "json", "--version"}} {
		out, _, code := run(t, "", args...)
		if code != 0 || !strings.HasPrefix(out, "ssa-diff ") || !strings.Contains(out, "  go:         go1.") ||
			!strings.Contains(out, "  kubernetes: 1.32.13, 1.33.13, 1.34.4, 1.35.4, 1.36.3, 1.37.2, 1.38.0-beta.0 ") || !strings.Contains(out, "  commit:     ") {
			t.Errorf("%q: exit %d\n%s", args, code, out)
		}
	}
	if _, stderr, code := run(t, "", "version", "extra"); code != 2 || !strings.Contains(stderr, "takes no arguments") {
		t.Errorf("version with an argument: exit %d, %q", code, stderr)
	}
}
