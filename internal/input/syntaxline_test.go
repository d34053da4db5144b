package input

import (
	"errors"
	"testing"
)

// A YAML syntax error names the line of the token the parser stopped at: go-yaml's parser
// counts that line from 0 (and prints none for a document's first line), its scanner from 1.
func TestYAMLSyntaxErrorLines(t *testing.T) {
	const head = "apiVersion: v1\nkind: ConfigMap\n"
	cases := []struct {
		name, in string
		doc      int
		line     int
		msg      string
	}{
		{"flow map holding a bad flow sequence", head + "metadata: {name: [x}\n", 0, 3, "did not find expected ',' or ']'"},
		{"flow sequence holding a bad flow map", head + "data: [a, {b: c]\n", 0, 3, "did not find expected ',' or '}'"},
		{"nested flow collections on one line", head + "data: {a: b, c: {d: e}, f: [g, {h: i]}\n", 0, 3, "did not find expected ',' or '}'"},
		{"multi-line flow map", head + "data: {a: b,\n  c: d\n  e: f}\n", 0, 5, "did not find expected ',' or '}'"},
		{"multi-line flow sequence", head + "data: [a,\n  b,\n  {c: d]\n", 0, 5, "did not find expected ',' or '}'"},
		{"multi-line flow sequence, a missing comma", head + "data: [a,\n  b\n  c: d]\n", 0, 5, "did not find expected ',' or ']'"},
		{"on the document's first line", "kind: [x}\napiVersion: v1\n", 0, 1, "did not find expected ',' or ']'"},
		{"after blank and comment lines", "\n# c\n\nkind: [x}\n", 0, 4, "did not find expected ',' or ']'"},
		{"in a later document", head + "---\n\nkind: {a: [x}\n", 1, 5, "did not find expected ',' or ']'"},
		{"on a later document's first line", head + "---\nkind: {a: [x}\n", 1, 4, "did not find expected ',' or ']'"},
		{"never closed: the document's last line", head + "data: [a, b\n\n\n", 0, 3, "did not find expected ',' or ']'"},
		{"never closed, a later document follows", head + "data: {a: b\n---\n" + head, 0, 3, "did not find expected ',' or '}'"},
		{"never closed, the next key", head + "data: {a: b\nmetadata:\n  name: x\n", 0, 4, "did not find expected ',' or '}'"},
		{"Windows line ends", "apiVersion: v1\r\nkind: ConfigMap\r\ndata: {a: [x}\r\n", 0, 3, "did not find expected ',' or ']'"},
		{"block mapping, a key indented less", head + "data:\n  a: b\n c: d\n", 0, 5, "did not find expected key"},
		// A scanner error counts from 1 already.
		{"scanner error", head + "data:\n  a: b\n  c: d: e\n", 0, 5, "mapping values are not allowed in this context"},
		{"scanner error at the end of the input", head + "data:\n  a: b\n  c", 0, 5, "could not find expected ':'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs := Split(Parse("f.yaml", []byte(c.in)))
			if len(errs) != 1 {
				t.Fatalf("errors %v, want one", errs)
			}
			var e *Error
			if !errors.As(errs[0], &e) {
				t.Fatalf("error %T, want *Error", errs[0])
			}
			if e.Source.Document != c.doc || e.Line != c.line || e.Err.Error() != "invalid YAML: "+c.msg {
				t.Errorf("document %d, line %d, %q; want document %d, line %d, %q", e.Source.Document, e.Line, e.Err, c.doc, c.line, "invalid YAML: "+c.msg)
			}
		})
	}
}
