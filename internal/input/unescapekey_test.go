package input

import (
	"encoding/json"
	"testing"
)

// FuzzUnescapeKey holds unescapeKey to json.Unmarshal on the text of every JSON string it
// decodes.
func FuzzUnescapeKey(f *testing.F) {
	for _, s := range []string{`k:{\"name\":\"app\"}`, `a\\b\/c\b\f\n\r\t`, `\u0041`, "caf\xe9", `\`, `plain`, `é\"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var want string
		if json.Unmarshal([]byte(`"`+text+`"`), &want) != nil {
			return // not a string's text: duplicateKeys reads only valid JSON
		}
		got, ok := unescapeKey([]byte(text))
		if ok && string(got) != want {
			t.Fatalf("unescapeKey(%q) = %q, json.Unmarshal %q", text, got, want)
		}
	})
}

func TestUnescapeKey(t *testing.T) {
	for in, want := range map[string]string{`k:{\"name\":\"app\"}`: `k:{"name":"app"}`, `a\\b\/c`: `a\b/c`} {
		if got, ok := unescapeKey([]byte(in)); !ok || string(got) != want {
			t.Errorf("unescapeKey(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{`\u0041`, "caf\xe9", `a\`, `\x`} {
		if got, ok := unescapeKey([]byte(in)); ok {
			t.Errorf("unescapeKey(%q) = %q: want it left to json.Unmarshal", in, got)
		}
	}
}
