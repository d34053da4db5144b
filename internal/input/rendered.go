package input

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// This file is about objects that are not read as written but come out of a renderer —
// `kustomize build`, `helm template` — and yet should be reported at the file and line a
// person edits: the resource file of a kustomization, the patch that set a field, the
// chart's template.

// FieldLocator finds where a field of a rendered object was written: path is a field path
// as the API server prints it, tree the object's tree. It returns the file and the line,
// or a line of 0 when it does not know.
type FieldLocator func(tree map[string]any, path string) (file string, line int)

// Attribute makes o an object rendered from src (a file a person edits, with Via naming
// the renderer): its Source becomes src, and the lines of its fields are asked of locate
// (nil: every field is at src.Line). The rendered text's own lines are forgotten.
func (o *Object) Attribute(src Source, locate FieldLocator) {
	o.Source = src
	o.doc, o.base = nil, ""
	o.locate = locate
}

// LocateFieldPath returns the file and line of the field at path (as LineOfFieldPathIn,
// whose tree it takes): for a rendered object, where its renderer's input has the field,
// which may be another file than the object's (a kustomize patch); for an object read as
// written, its own file.
func (o *Object) LocateFieldPath(tree map[string]any, path string) (file string, line int) {
	if o.locate != nil {
		if f, l := o.locate(tree, path); l > 0 {
			if f == "" {
				f = o.Source.File
			}
			return f, l
		}
		return o.Source.File, o.Source.Line
	}
	return o.Source.File, o.LineOfFieldPathIn(tree, path)
}

// FieldLine returns the line of the field at path in this object as read, and whether the
// object has the whole path (false: the line is of the closest enclosing field it has).
// tree is the object's tree (Decode).
func (o *Object) FieldLine(tree map[string]any, path string) (line int, whole bool) {
	ptr, whole := resolvePath(tree, path)
	return o.Line(ptr), whole
}

// ParseRendered reads the objects of a renderer's output (one YAML or JSON stream) within
// the loader's limits, its bytes counted with the rest of the input; name names the output
// in errors until the renderer attributes the objects (Object.Attribute).
func (l *Loader) ParseRendered(name string, data []byte) []Entry {
	l.init()
	if l.objects >= l.limits.MaxObjects {
		return errEntry(fileError(name, l.objectLimitError()))
	}
	entries, _ := l.parseStream(name, bytes.NewReader(data))
	return entries
}

// helmSourcePrefix starts the comment `helm template` writes above each document.
const helmSourcePrefix = "# Source: "

// sourceComment finds the `# Source: PATH` comment Helm writes before a document's
// content: PATH, and how many lines of data go up to and including the comment.
func sourceComment(data []byte) (string, int) {
	n := 0
	for len(data) > 0 {
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		n++
		t := bytes.TrimSpace(l)
		switch {
		case len(t) == 0 || string(t) == "---":
		case bytes.HasPrefix(t, []byte(helmSourcePrefix)):
			p := strings.TrimSpace(string(t[len(helmSourcePrefix):]))
			if p == "" {
				return "", 0
			}
			return p, n
		case t[0] == '#':
		default:
			return "", 0
		}
	}
	return "", 0
}

// helmSource is the Source of a document Helm rendered from template path: the template's
// file (under Loader.SourceRoot), the index of the document among those of the template,
// and lines counted from the line after the comment, as they are in the template when
// its directives add no lines above.
func (p *parser) helmSource(path string) Source {
	if p.helmDocs == nil {
		p.helmDocs = map[string]int{}
	}
	file := filepath.FromSlash(path)
	if p.l.SourceRoot != "" {
		file = filepath.Join(p.l.SourceRoot, file)
	}
	src := Source{File: file, Document: p.helmDocs[path], Via: "helm template"}
	p.helmDocs[path]++
	return src
}

// Charge counts n bytes a renderer read (the files of a kustomization) toward
// Limits.MaxInputBytes, with everything else the loader read; past the limit it returns
// the limit's error and counts nothing.
func (l *Loader) Charge(n int64) error {
	l.init()
	if l.read+n > l.limits.MaxInputBytes {
		return l.inputLimitError()
	}
	l.read += n
	return nil
}

// FileError is an *Error about a whole file or directory (no document), as the loader
// reports a file it cannot read.
func FileError(name string, err error) *Error { return fileError(name, err) }

// PointerOfPath resolves a field path (as the API server prints it) against tree into the
// JSON Pointer of its longest prefix that tree has.
func PointerOfPath(tree map[string]any, path string) string { return pointerOf(tree, path) }

// DirRenderer renders directories that are not read as files (see Loader.Renderer).
type DirRenderer interface {
	// Renders reports, cheaply, whether dir is rendered.
	Renders(dir string) bool
	// Render returns dir's objects, or an error entry naming it.
	Render(dir string) []Entry
}

// Rewritten is o holding the object jsonText is instead of its own (decoded as the Loader
// decodes JSON, within the default limits), at the same source: its lines are still
// looked up in o's document, which is right where the rewriting changed values, not the
// shape (a namespace set, variables substituted). o is not changed.
func (o *Object) Rewritten(jsonText []byte) (*Object, error) {
	v, _, err := decodeJSON(jsonText)
	if err == nil {
		v, err = normalize(v, Limits{}.withDefaults().MaxDepth)
	}
	m, ok := v.(map[string]any)
	if err == nil && !ok {
		err = fmt.Errorf("not an object but a %s", typeName(v))
	}
	if err != nil {
		return nil, o.Errorf("", "%w", err)
	}
	c := *o
	c.Object, c.text, c.head = m, nil, nil
	return &c, nil
}
