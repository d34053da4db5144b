package flagvalue

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/shard"
)

func TestValuesCheckWhatTheyAreGiven(t *testing.T) {
	n := 1
	i := &Int{P: &n, Name: "max-depth", Max: 10}
	for _, bad := range []string{"0", "-1", "x", "11"} {
		if err := i.Set(bad); err == nil {
			t.Errorf("--max-depth %s taken", bad)
		}
	}
	if err := i.Set(" 10 "); err != nil || n != 10 {
		t.Errorf("--max-depth 10: %v, %d", err, n)
	}
	var size int64
	if err := (&Size{P: &size}).Set("2Ki"); err != nil || size != 2048 {
		t.Errorf("2Ki: %v, %d", err, size)
	}
	var spec shard.Spec
	if err := (Shard{Spec: &spec}).Set("2/3"); err != nil || spec.String() != "2/3" {
		t.Errorf("--shard 2/3: %v, %s", err, spec.String())
	}
	var fams IPFamilies
	if err := fams.Set("IPv6,IPv4"); err != nil || fams.String() != "IPv6,IPv4" {
		t.Errorf("IPv6,IPv4: %v, %s", err, fams.String())
	}
	if err := fams.Set("IPv5"); err == nil {
		t.Error("IPv5 taken")
	}
}

func TestUsagesWrapUnderTheFlag(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.StringP("output", "o", "text", strings.Repeat("word ", 30)+"end.")
	got := Usages(fs, map[string]string{"output": "FORMAT"})
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if lines[0] != "  -o, --output FORMAT" || len(lines) < 3 || !strings.HasSuffix(got, "end. Default: text.\n") {
		t.Errorf("usage:\n%s", got)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "      ") || len(l) > 92 {
			t.Errorf("line %q: not indented under the flag or longer than 92", l)
		}
	}
}
