package schema

import (
	"fmt"
	"strings"
)

// Error is a problem in a schema input (a CustomResourceDefinition or an
// OpenAPI document): where it came from and where in it the problem is.
type Error struct {
	// Origin names the input, usually a file name as the caller gave it.
	Origin string
	// Document is the 0-based index of the YAML document in the input, or
	// -1 when the input is a single document.
	Document int
	// Line is the 1-based line in the input of the field Path names (or of
	// its closest existing parent), 0 when unknown.
	Line int
	// Object names the object the problem is in, e.g. the CRD
	// "backups.ops.example.com"; may be empty.
	Object string
	// Path is the field path inside the object, e.g.
	// "spec.versions[1].schema.openAPIV3Schema.properties.spec.type"; may
	// be empty.
	Path string
	// Err is the problem itself.
	Err error
}

// Error formats the error as
// "crds.yaml:42: backups.ops.example.com: spec.versions[1]...: message"
// (the document index replaces the line when the line is unknown).
func (e *Error) Error() string {
	var b strings.Builder
	if e.Origin != "" {
		b.WriteString(e.Origin)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Document >= 0 && e.Line == 0 {
		fmt.Fprintf(&b, "document %d: ", e.Document+1)
	}
	if e.Object != "" {
		b.WriteString(e.Object)
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying problem.
func (e *Error) Unwrap() error { return e.Err }

// fieldPath builds field paths in the notation of error messages:
// spec.versions[1].schema.openAPIV3Schema.properties.spec.
type fieldPath string

func (p fieldPath) child(name string) fieldPath {
	if isPlainName(name) {
		if p == "" {
			return fieldPath(name)
		}
		return p + "." + fieldPath(name)
	}
	return p + fieldPath(fmt.Sprintf("[%q]", name))
}

func (p fieldPath) index(i int) fieldPath { return p + fieldPath(fmt.Sprintf("[%d]", i)) }

// isPlainName reports whether a field name can be written after a dot
// without ambiguity.
func isPlainName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// problems collects schema errors found while walking one input, so that
// a user sees all of them at once.
type problems struct {
	list []pathError
}

type pathError struct {
	path fieldPath
	msg  string
}

func (p *problems) add(path fieldPath, format string, args ...any) {
	p.list = append(p.list, pathError{path, fmt.Sprintf(format, args...)})
}
