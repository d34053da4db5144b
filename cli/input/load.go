package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// DefaultMaxBytes is the largest file a Loader reads unless told otherwise: big enough for a
// whole-cluster dump, small enough that hostile input cannot exhaust memory.
const DefaultMaxBytes = 256 << 20

// Object is one Kubernetes object read from a file.
type Object struct {
	Source Source
	// Object is the object as decoded: maps, slices, strings, bools, int64, float64 and nil.
	Object map[string]interface{}
	// Warnings are things about the input the user should know (duplicate keys …).
	Warnings []string

	doc  *document
	base string // JSON Pointer of the object in its document ("" or "/items/3")
}

// Line returns the line of the field at pointer (an RFC 6901 JSON Pointer into the object,
// "" for the object itself), or of its closest enclosing field that has a known position;
// 0 when nothing is known.
func (o *Object) Line(pointer string) int {
	if o.doc != nil {
		if l := o.doc.line(o.base + pointer); l > 0 {
			return l
		}
	}
	return o.Source.Line
}

// Errorf returns an *Error about the field at pointer (a JSON Pointer into the object).
func (o *Object) Errorf(pointer string, format string, args ...interface{}) *Error {
	return &Error{Source: o.Source, Line: o.Line(pointer), Path: PointerToPath(pointer), Err: fmt.Errorf(format, args...)}
}

// Entry is one object read, or why a document could not be read; entries come in input order.
type Entry struct {
	Object *Object
	Err    error
}

// Split separates entries into the objects and the errors, each in input order.
func Split(entries []Entry) ([]*Object, []error) {
	var objs []*Object
	var errs []error
	for _, e := range entries {
		if e.Err != nil {
			errs = append(errs, e.Err)
		} else {
			objs = append(objs, e.Object)
		}
	}
	return objs, errs
}

func errEntry(err error) []Entry { return []Entry{{Err: err}} }

// Loader reads objects from paths. The zero value reads files with the default size limit
// and has no standard input.
type Loader struct {
	// Stdin is read for the path "-", at most once per Loader.
	Stdin io.Reader
	// MaxBytes caps the size of one file (0: DefaultMaxBytes).
	MaxBytes int64

	stdinUsed bool
}

// Load reads every object in path: a file, a directory (recursively, files ending in .yaml,
// .yml or .json in lexical order) or "-" for standard input. The objects it could read come
// back in order, with an error in place of each document it could not read; a path that
// cannot be read at all is one error.
func (l *Loader) Load(path string) []Entry {
	if path == StdinName {
		if l.Stdin == nil {
			return errEntry(errors.New("reading standard input: no standard input"))
		}
		if l.stdinUsed {
			return errEntry(errors.New("standard input (-) can be read only once"))
		}
		l.stdinUsed = true
		data, err := l.readAll(l.Stdin)
		if err != nil {
			return errEntry(fmt.Errorf("reading standard input: %w", err))
		}
		return Parse(StdinName, data)
	}
	info, err := os.Stat(path)
	if err != nil {
		return errEntry(err)
	}
	if !info.IsDir() {
		return l.loadFile(path)
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && IsManifestFile(p) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return errEntry(fmt.Errorf("reading directory %s: %w", path, err))
	}
	sort.Strings(files)
	var entries []Entry
	for _, f := range files {
		entries = append(entries, l.loadFile(f)...)
	}
	return entries
}

// IsManifestFile reports whether a file in a directory is read: .yaml, .yml or .json.
func IsManifestFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

func (l *Loader) loadFile(path string) []Entry {
	f, err := os.Open(path)
	if err != nil {
		return errEntry(err)
	}
	defer f.Close()
	data, err := l.readAll(f)
	if err != nil {
		return errEntry(fmt.Errorf("reading %s: %w", path, err))
	}
	return Parse(path, data)
}

func (l *Loader) readAll(r io.Reader) ([]byte, error) {
	limit := l.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return data, nil
}

// Parse reads the objects in data, a file's contents; name is the file's name in sources.
func Parse(name string, data []byte) []Entry {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if first := firstNonSpace(data); first == '{' || first == '[' {
		return parseJSONStream(name, data)
	}
	return parseYAMLStream(name, data)
}

func firstNonSpace(data []byte) byte {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// parseJSONStream reads a stream of JSON values.
func parseJSONStream(name string, data []byte) []Entry {
	var entries []Entry
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for index := 0; ; index++ {
		start := int(dec.InputOffset())
		for start < len(data) && isSpace(data[start]) {
			start++
		}
		var v interface{}
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		src := Source{File: name, Document: index, Line: lineAt(data, start)}
		if err != nil {
			off := int(dec.InputOffset())
			var se *json.SyntaxError
			if errors.As(err, &se) {
				off = int(se.Offset)
			}
			entries = append(entries, Entry{Err: &Error{Source: src, Line: lineAt(data, off), Err: fmt.Errorf("invalid JSON: %w", err)}})
			break // a JSON stream cannot be resynchronised
		}
		doc := &document{raw: data[start:dec.InputOffset()], firstLine: src.Line, json: true}
		entries = append(entries, objectsOf(src, doc, normalize(v))...)
	}
	return entries
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// rawDoc is one YAML document of a stream.
type rawDoc struct {
	data      []byte
	firstLine int // line of data[0]
	err       error
}

// splitYAML splits a stream at lines starting with "---", as kubectl's YAML reader does:
// only spaces or a comment may follow the separator. Documents holding nothing but blanks
// and comments are dropped.
func splitYAML(data []byte) []rawDoc {
	var docs []rawDoc
	start, startLine, line := 0, 1, 1
	var pending error // a bad separator: the document it opens is reported, not read
	flush := func(end int) {
		chunk := data[start:end]
		if pending != nil {
			docs = append(docs, rawDoc{data: chunk, firstLine: startLine - 1, err: pending})
		} else if !blankYAML(chunk) {
			docs = append(docs, rawDoc{data: chunk, firstLine: startLine})
		}
		pending = nil
	}
	for off := 0; off < len(data); line++ {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			next = off + end + 1
		}
		text := data[off:next]
		if bytes.HasPrefix(text, []byte("---")) {
			flush(off)
			if rest := strings.TrimSpace(string(text[3:])); rest != "" && rest[0] != '#' {
				pending = fmt.Errorf("invalid YAML document separator: %q", strings.TrimSpace(string(text)))
			}
			start, startLine = next, line+1
		}
		off = next
	}
	flush(len(data))
	return docs
}

// blankYAML reports whether a chunk has only blank lines and comments.
func blankYAML(chunk []byte) bool {
	for _, l := range bytes.Split(chunk, []byte("\n")) {
		t := bytes.TrimSpace(l)
		if len(t) > 0 && t[0] != '#' {
			return false
		}
	}
	return true
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

// yamlError is a YAML error with its line numbers made absolute.
type yamlError struct {
	msg string
	err error
}

func (e *yamlError) Error() string { return e.msg }
func (e *yamlError) Unwrap() error { return e.err }

// relocate rewrites "line N" in a YAML error of a document that starts at firstLine and
// returns the first such line.
func relocate(err error, firstLine int) (error, int) {
	first := 0
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	msg = yamlLineRE.ReplaceAllStringFunc(msg, func(s string) string {
		n, _ := strconv.Atoi(s[len("line "):])
		n += firstLine - 1
		if first == 0 {
			first = n
		}
		return "line " + strconv.Itoa(n)
	})
	// "line N: msg": the line is reported separately.
	if first > 0 {
		msg = strings.TrimPrefix(msg, "line "+strconv.Itoa(first)+": ")
	}
	return &yamlError{msg: msg, err: err}, first
}

func parseYAMLStream(name string, data []byte) []Entry {
	var entries []Entry
	for index, rd := range splitYAML(data) {
		src := Source{File: name, Document: index, Line: rd.firstLine}
		if rd.err != nil {
			entries = append(entries, Entry{Err: &Error{Source: src, Err: rd.err}})
			continue
		}
		src.Line += leadingBlankLines(rd.data)
		j, err := yaml.YAMLToJSON(rd.data)
		if err != nil {
			err, line := relocate(err, rd.firstLine)
			entries = append(entries, Entry{Err: &Error{Source: src, Line: line, Err: fmt.Errorf("invalid YAML: %w", err)}})
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(j))
		dec.UseNumber()
		var v interface{}
		if err := dec.Decode(&v); err != nil {
			entries = append(entries, Entry{Err: &Error{Source: src, Err: fmt.Errorf("invalid YAML: %w", err)}})
			continue
		}
		doc := &document{raw: rd.data, firstLine: rd.firstLine}
		es := objectsOf(src, doc, normalize(v))
		if len(es) > 0 && es[0].Object != nil {
			if _, err := yaml.YAMLToJSONStrict(rd.data); err != nil {
				err, _ := relocate(err, rd.firstLine)
				es[0].Object.Warnings = append(es[0].Object.Warnings, "duplicate keys (kubectl's strict field validation rejects them): "+oneLine(err.Error()))
			}
		}
		entries = append(entries, es...)
	}
	return entries
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// leadingBlankLines counts the blank and comment lines before a document's content.
func leadingBlankLines(chunk []byte) int {
	n := 0
	for _, l := range bytes.Split(chunk, []byte("\n")) {
		t := bytes.TrimSpace(l)
		if len(t) > 0 && t[0] != '#' {
			break
		}
		n++
	}
	return n
}

// objectsOf turns one decoded document into objects: itself, or a List's items.
func objectsOf(src Source, doc *document, v interface{}) []Entry {
	switch t := v.(type) {
	case nil:
		return nil // an empty document
	case map[string]interface{}:
		if items, ok := t["items"].([]interface{}); ok && isListKind(t["kind"]) {
			return itemsOf(src, doc, "/items", items)
		}
		return []Entry{{Object: &Object{Source: src, Object: t, doc: doc}}}
	case []interface{}:
		return itemsOf(src, doc, "", t)
	default:
		return errEntry(&Error{Source: src, Err: fmt.Errorf("not an object but a %s", typeName(v))})
	}
}

func isListKind(kind interface{}) bool {
	k, _ := kind.(string)
	return strings.HasSuffix(k, "List")
}

func itemsOf(src Source, doc *document, base string, items []interface{}) []Entry {
	var entries []Entry
	lines := doc.itemLines(base, len(items))
	for i, item := range items {
		s := src
		idx := i
		s.Item = &idx
		ptr := base + "/" + strconv.Itoa(i)
		if lines != nil {
			s.Line = lines[i]
		} else if l := doc.line(ptr); l > 0 {
			s.Line = l
		}
		m, ok := item.(map[string]interface{})
		if !ok {
			entries = append(entries, Entry{Err: &Error{Source: s, Path: PointerToPath(ptr), Err: fmt.Errorf("a list item is not an object but a %s", typeName(item))}})
			continue
		}
		entries = append(entries, Entry{Object: &Object{Source: s, Object: m, doc: doc, base: ptr}})
	}
	return entries
}

// typeName names a decoded value's type for messages.
func typeName(v interface{}) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]interface{}:
		return "map"
	case []interface{}:
		return "list"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64, float64:
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// normalize converts json.Numbers to int64 (integers) or float64 (others), as Kubernetes'
// JSON decoding does.
func normalize(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, x := range t {
			t[k] = normalize(x)
		}
		return t
	case []interface{}:
		for i, x := range t {
			t[i] = normalize(x)
		}
		return t
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		if f, err := t.Float64(); err == nil {
			return f
		}
		return t // out of float64's range: keep the number's text
	}
	return v
}
