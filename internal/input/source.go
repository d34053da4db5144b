package input

import (
	"fmt"
	"strings"
)

// StdinName is the file name of standard input in sources and messages.
const StdinName = "-"

// Source says where an object was read from.
type Source struct {
	// File is the path as given, or "-" for standard input.
	File string `json:"file"`
	// Document is the 0-based index of the document (YAML document or JSON value) in File.
	Document int `json:"document"`
	// Item is the 0-based index of the object in its List's items, or nil.
	Item *int `json:"item,omitempty"`
	// Line is the 1-based line where the object starts (0 when unknown).
	Line int `json:"line,omitempty"`
	// Via names the renderer the object came out of, for an object that is not read as
	// written ("kustomize overlays/prod", "helm template"): File is then the file it was
	// rendered from. "" for objects read as written.
	Via string `json:"via,omitempty"`
}

// FileName is File for people: "stdin" for standard input.
func (s Source) FileName() string {
	if s.File == StdinName {
		return "stdin"
	}
	return s.File
}

// String prints the source as "file, document 2, item 4, line 130".
func (s Source) String() string {
	return s.describe(s.Line)
}

func (s Source) describe(line int) string {
	var b strings.Builder
	b.WriteString(s.FileName())
	fmt.Fprintf(&b, ", document %d", s.Document)
	if s.Item != nil {
		fmt.Fprintf(&b, ", item %d", *s.Item)
	}
	if line > 0 {
		fmt.Fprintf(&b, ", line %d", line)
	}
	return b.String()
}

// Short prints the source as file:line, the form editors and terminals link.
func (s Source) Short() string {
	if s.Line > 0 {
		return fmt.Sprintf("%s:%d", s.FileName(), s.Line)
	}
	return s.FileName()
}

// Error is bad input: where it is and what is wrong.
type Error struct {
	Source Source
	// Line is the line of the offending field (0: unknown; Source.Line is the object's).
	Line int
	// Path is the field path, as .spec.template.spec.containers[0].image; "" for the whole
	// document.
	Path string
	Err  error

	whole bool // about the whole file: no document
}

func (e *Error) Error() string {
	if e.whole {
		return e.Source.FileName() + ": " + e.Err.Error()
	}
	line := e.Line
	if line == 0 {
		line = e.Source.Line
	}
	msg := e.Source.describe(line) + ": "
	if e.Path != "" {
		msg += e.Path + ": "
	}
	return msg + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }
