package admissionregistration

import (
	"fmt"
	"testing"

	"k8s.io/client-go/util/jsonpath"
)

// clientGoAnswer is what client-go's parser, which the server runs, says of a template.
func clientGoAnswer(text string) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("panic: %v", r)
		}
	}()
	if err := jsonpath.New("spec").Parse(text); err != nil {
		return err.Error()
	}
	return ""
}

func ourAnswer(text string) string {
	if err := checkJSONPath(text); err != nil {
		return err.Error()
	}
	return ""
}

var jsonPathCases = []string{
	"", "{}", "{.spec}", "{.spec.replicas}", "{.items[0].metadata.name}", "{.items[*].name}",
	"{.items[-1:]}", "{.items[1:3:2]}", "{.items[::]}", "{.items[-]}", "{.items[a]}",
	"{.items[99999999999999999999]}", "{.items[1,2]}", "{.items[1, 'a']}", "{.items[1,x]}",
	"{['a.b']}", "{['a']['b']}", "{['..']..x}", "{['a..']..b}", "{..}", "{....}", "{.. ..}",
	"{..a..b}", "{.a", "{.a\n}", "{[}", "{[1}", "{.a[?(@.b==\"x\")]}", "{.a[?(@.b)]}",
	"{.a[?(@.b=='x)')]}", "{.a[?(@.b=)]}", "{.a[?(@.b==)]}", "{.a[?(@.b<=3)]}", "{.a[?(=3)]}",
	"{.a[?(@.b==3)}", "{.a[?(@.b==3", "{.a[?(@.b==3)x]}", "{'abc'}", "{\"a\\\"b\"}", "{'a\\'}",
	"{'a\\q'}", "{\"\\u00e9\"}", "{'a}", "{+}", "{-}", "{1.2.3}", "{1.5}", "{-7}", "{true}",
	"{false}", "{range .items}{.name}{end}", "{\t}", "{a{b}", "{.a\\.b}", "{.a\\}", "{$.a}",
	"{@}", "{.a}{..}{..}", "{.a}}x{", "{.a}{", "{é}", "{.é.ü}", "{\x80}", "{.a[\x80]}",
	"{.a[?(@.b!=='c')]}", "{.a[?(@.b==\"c\\\")\")]}", "{.a[?(@.b==)x)]}", "{['']}", "{[' ']}",
	"{[\"a\"]}", "{[1:2,3:4]}", "{[*]}", "{[,]}", "{[ ]}", "{.a[?(.b==..)]}", "{.a[?(@..b)]}",
}

// TestJSONPathMatchesClientGo: the fieldRef check of a policy's type-checking warnings
// answers as client-go's JSONPath parser (rules.md valid.builtin: the message is the server's).
func TestJSONPathMatchesClientGo(t *testing.T) {
	for _, c := range jsonPathCases {
		if got, want := ourAnswer(c), clientGoAnswer(c); got != want {
			t.Errorf("%q: got %q, want %q", c, got, want)
		}
	}
}

func FuzzJSONPath(f *testing.F) {
	for _, c := range jsonPathCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, text string) {
		want := clientGoAnswer(text)
		if len(want) > 6 && want[:6] == "panic:" {
			t.Skip(want)
		}
		if got := ourAnswer(text); got != want {
			t.Errorf("%q: got %q, want %q", text, got, want)
		}
	})
}
