package gate

import (
	"testing"
	"unicode/utf8"
)

func TestCutApart(t *testing.T) {
	a := `"registry.example.com/team-search-1/auth-api-11:v1.13.8"`
	b := `"registry.example.com/team-search-1/auth-api-11:v2.5.4"`
	ca, cb := CutApart(a, b, 40)
	if ca == cb || utf8.RuneCountInString(ca) > 40 || utf8.RuneCountInString(cb) > 40 {
		t.Errorf("%q / %q", ca, cb)
	}
	// Values whose cut ends already differ are cut as always.
	if ca, cb := CutApart("abc", "abd", 40); ca != "abc" || cb != "abd" {
		t.Errorf("short: %q / %q", ca, cb)
	}
	// A text and a longer one that starts with it.
	if ca, cb := CutApart("0000000000000000", "00000000000", 9); ca == cb {
		t.Errorf("a prefix: both %q", ca)
	}
}

// FuzzCutApart: two different texts never come out the same, nor longer than the limit.
func FuzzCutApart(f *testing.F) {
	f.Add(`[{"interval":"30s","path":"/metrics","port":"metrics","relabelings":[{"action":"replace"}]}]`, `[{"interval":"30s","path":"/metrics","port":"metrics","relabelings":[{"sourceLabels":["x"]}]}]`, 40)
	f.Add("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 40)
	f.Add("é", "ê", 8)
	f.Fuzz(func(t *testing.T, a, b string, max int) {
		if max < 8 || max > 200 || !utf8.ValidString(a) || !utf8.ValidString(b) {
			return
		}
		ca, cb := CutApart(a, b, max)
		if a != b && ca == cb {
			t.Fatalf("%q and %q both print %q", a, b, ca)
		}
		if utf8.RuneCountInString(ca) > max || utf8.RuneCountInString(cb) > max {
			t.Fatalf("longer than %d: %q / %q", max, ca, cb)
		}
	})
}
