package output

import (
	"bytes"
	"html/template"
	"os"
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/report"
)

// The page used to be printed by html/template from testdata/page.tmpl; htmlpage.go prints
// it without the template package. These tests hold the two to the same bytes: the whole
// page of every report the package's tests build, and each part of the page with values of
// every kind (markup, quotes, +, NUL, bytes that are not UTF-8) in every field.

// referenceTemplate is the page's former template.
func referenceTemplate(t testing.TB) *template.Template {
	t.Helper()
	page, err := os.ReadFile("testdata/page.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	css, js, err := htmlStyleAndScript()
	if err != nil {
		t.Fatal(err)
	}
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"css": func() template.CSS { return template.CSS(css) },
		"js":  func() template.JS { return template.JS(js) },
		"add": func(a, b int) int { return a + b },
	}).Parse(string(page)))
}

// templatePage prints rep as the page's former template did.
func templatePage(t *testing.T, tmpl *template.Template, rep *report.Report, opts Options) string {
	t.Helper()
	if opts.Now.IsZero() {
		opts.Now = now
	}
	h := newHTML(nil, opts).(*htmlWriter)
	var objects bytes.Buffer
	for _, res := range rep.Results {
		h.n++
		v, err := h.object(res)
		if err != nil {
			t.Fatal(err)
		}
		if err := tmpl.ExecuteTemplate(&objects, "object", v); err != nil {
			t.Fatal(err)
		}
	}
	head := h.pageHead(rep)
	var out bytes.Buffer
	if err := tmpl.ExecuteTemplate(&out, "head", head); err != nil {
		t.Fatal(err)
	}
	out.Write(objects.Bytes())
	if err := tmpl.ExecuteTemplate(&out, "tail", head); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestPageSameAsTemplate(t *testing.T) {
	tmpl := referenceTemplate(t)
	reports := map[string]func() *report.Report{
		"sample":  sampleReport,
		"hostile": hostileReport,
		"gate":    func() *report.Report { return gateReport(gatePolicy) },
	}
	for name, rep := range reports {
		for _, opts := range []Options{{}, {ShowSecrets: true}, {ShowManagedFields: true}} {
			got, _ := writeAll(t, "html", rep(), opts)
			want := templatePage(t, tmpl, rep(), opts)
			if got != want {
				t.Errorf("%s %+v: the page differs from the template's at byte %d:\n got %q\nwant %q", name, opts, firstDiff(got, want), around(got, firstDiff(got, want)), around(want, firstDiff(got, want)))
			}
		}
	}
}

func firstDiff(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func around(s string, i int) string {
	return s[max(0, i-80):min(len(s), i+80)]
}

// FuzzPageSameAsTemplate fills every field of an object's part and of the page's head with
// values drawn from the input (strings, numbers, flags, lists of 0 to 10), prints each with
// htmlpage.go and with the former template, and wants the same bytes.
func FuzzPageSameAsTemplate(f *testing.F) {
	f.Add([]byte("<b>&'\"+\x00\xff\xfe é → a"), []byte{1, 0, 9, 3, 255, 1, 1, 0, 2})
	f.Add([]byte("plain"), []byte{0})
	f.Add([]byte("failure"), []byte{1, 1, 1, 1, 1, 1, 1, 1, 10, 10, 10})
	f.Add([]byte("prune"), []byte{0, 1, 0, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte("create"), []byte{2, 2, 2, 0, 0, 0, 1})
	tmpl := referenceTemplate(f)
	css, js, err := htmlStyleAndScript()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text, choices []byte) {
		fill := &filler{text: string(text), choices: choices}
		var v htmlObject
		fill.value(reflect.ValueOf(&v).Elem(), 0)
		var want bytes.Buffer
		if err := tmpl.ExecuteTemplate(&want, "object", &v); err != nil {
			t.Fatal(err)
		}
		var p page
		p.object(&v)
		if got := string(p.b); got != want.String() {
			i := firstDiff(got, want.String())
			t.Fatalf("an object's part differs from the template's at byte %d:\n got %q\nwant %q", i, around(got, i), around(want.String(), i))
		}

		head := htmlHead{Report: &report.Report{}}
		fill.value(reflect.ValueOf(&head).Elem(), 0)
		want.Reset()
		if err := tmpl.ExecuteTemplate(&want, "head", &head); err != nil {
			t.Fatal(err)
		}
		if err := tmpl.ExecuteTemplate(&want, "tail", &head); err != nil {
			t.Fatal(err)
		}
		p = page{}
		p.head(&head, css)
		p.tail(&head, js)
		if got := string(p.b); got != want.String() {
			i := firstDiff(got, want.String())
			t.Fatalf("the page's head and tail differ from the template's at byte %d:\n got %q\nwant %q", i, around(got, i), around(want.String(), i))
		}
	})
}

// filler sets the exported fields of a value from a fuzz input: each string a cut of text
// (or one of the words the page compares with), each number, flag and list length a choice.
type filler struct {
	text    string
	choices []byte
	n       int
}

func (f *filler) choice() int {
	if len(f.choices) == 0 {
		return 0
	}
	c := f.choices[f.n%len(f.choices)]
	f.n++
	return int(c)
}

var pageWords = []string{"", "prune", "create", "failure", "warning", "o1", "x"}

func (f *filler) value(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		c := f.choice()
		if c%3 == 0 {
			v.SetString(pageWords[c/3%len(pageWords)])
			return
		}
		if len(f.text) > 0 {
			i := c % len(f.text)
			v.SetString(f.text[i:] + f.text[:i])
		}
	case reflect.Bool:
		v.SetBool(f.choice()%2 == 1)
	case reflect.Int, reflect.Int64:
		c := f.choice()
		v.SetInt(int64(c%12) - 1)
	case reflect.Pointer:
		if depth > 4 || f.choice()%4 == 0 {
			return
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		f.value(v.Elem(), depth+1)
	case reflect.Slice:
		if depth > 4 {
			return
		}
		n := f.choice() % 11
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			e := s.Index(i)
			if e.Kind() == reflect.Pointer {
				// A list's elements are never nil (the writer never makes such a list).
				e.Set(reflect.New(e.Type().Elem()))
				e = e.Elem()
			}
			f.value(e, depth+1)
		}
		v.Set(s)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[report.Report]() {
			// The head shows the report's kind, options and summary, not its results.
			for _, name := range []string{"APIVersion", "Kind", "Options", "Summary"} {
				f.value(v.FieldByName(name), depth+1)
			}
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				f.value(v.Field(i), depth+1)
			}
		}
	}
}
