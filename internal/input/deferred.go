package input

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/internal/jsontext"
	"github.com/ssa-diff/ssa-diff/schema"
)

// This file keeps objects as text (Loader.DeferDecoding). A repository and a live dump
// are mostly objects that are used once, each by one prediction, and a dump holds some
// that are not used at all; as trees of maps they take three to four times the size of
// their compact JSON text. Checking that a List item is valid JSON and compacting it costs
// less than decoding it, and compact text decodes faster than indented, so deferring costs
// no time; a YAML document is converted to compact JSON before it is decoded anyway.
//
// An object is deferred only when nothing about it needs its tree while reading: it is a
// JSON object, valid, within the depth limit, not a List nor a CustomResourceDefinition,
// and its apiVersion, kind, metadata.namespace and metadata.name are plain ASCII strings
// (no escapes) that identify it without error. Anything else is decoded at once, as
// before, so what is reported about it is unchanged.
//
// A List item whose field lines are not kept (NoFieldLines) must also be free of warnings
// (bytes that are not UTF-8, keys set twice): its compact text then replaces its bytes in
// the List, followed by as many line ends as its bytes held, so that should the List have
// to be read whole after all (it turns out not to be a List, or something between its
// items is not valid JSON) the whole value decodes to the same tree, and every line
// counted in it (where its items start, where a warning is) is the same. An item whose
// field lines are kept keeps its bytes for them, and the text besides.

// objectHead is what matching needs of a deferred object, read from its text.
type objectHead struct {
	apiVersion, kind, namespace, name string
	managedFields                     bool // metadata has a managedFields key
}

// Deferred reports whether the object is kept as its JSON text (see Loader.DeferDecoding):
// Object is then nil and Decode makes its tree.
func (o *Object) Deferred() bool { return o.text != nil }

// Decode returns the object's tree: Object itself, or for a deferred object a new tree
// decoded from its text, numbers and managedFields as the Loader reads them. A deferred
// object does not keep the tree: each call decodes again, and the tree goes when its user
// lets it go. With CompactManagedFields, a fieldsV1 whose text is already encoding/json's
// (every one of a dump kubectl or the API server wrote) is copied as it stands, not
// decoded and encoded again (decodeTextAs).
func (o *Object) Decode() (map[string]any, error) {
	if o.text == nil {
		return o.Object, nil
	}
	if m, ok := decodeTextAs(o.text, o.depth, o.compact); ok {
		if o.compact {
			compactManagedFields(m)
		}
		return m, nil
	}
	v, _, err := decodeJSON(o.text)
	if err == nil {
		v, err = normalize(v, o.depth)
	}
	m, ok := v.(map[string]any)
	if err == nil && !ok {
		err = fmt.Errorf("not an object but a %s", typeName(v))
	}
	if err != nil {
		// The text was checked when it was read: this is a bug, not bad input.
		return nil, o.Errorf("", "decoding the object kept as text: %w", err)
	}
	if o.compact {
		compactManagedFields(m)
	}
	return m, nil
}

// GVK returns the object's group, version and kind as written (zero when absent).
func (o *Object) GVK() schema.GVK {
	av, kind, _, _ := o.Meta()
	return schema.GVKFromAPIVersionKind(av, kind)
}

// Meta returns the object's apiVersion, kind, metadata.namespace and metadata.name as
// written; "" for each that is absent or not a string.
func (o *Object) Meta() (apiVersion, kind, namespace, name string) {
	if h := o.head; h != nil {
		return h.apiVersion, h.kind, h.namespace, h.name
	}
	apiVersion, _ = o.Object["apiVersion"].(string)
	kind, _ = o.Object["kind"].(string)
	md, _ := o.Object["metadata"].(map[string]any)
	namespace, _ = md["namespace"].(string)
	name, _ = md["name"].(string)
	return apiVersion, kind, namespace, name
}

// HasManagedFields reports whether the object carries metadata.managedFields.
func (o *Object) HasManagedFields() bool {
	if o.head != nil {
		return o.head.managedFields
	}
	return HasManagedFields(o.Object)
}

// compacting is a goroutine's buffers for compacting objects, reused from one to the next.
type compacting struct {
	buf bytes.Buffer
	c   jsontext.Compactor
}

// compactObject checks that data is one JSON object that can be deferred and returns its
// compact text, in sc's buffer, its identity, and whether reading it warns (warnings:
// bytes that are not UTF-8, keys set twice, as jsonWarnings finds them).
func compactObject(data []byte, sc *compacting) (text []byte, head *objectHead, warns, ok bool) {
	if len(data) == 0 || data[0] != '{' {
		return nil, nil, false, false
	}
	sc.buf.Reset()
	checks, err := sc.c.Compact(&sc.buf, data)
	if err != nil {
		return nil, nil, false, false // decoding says what is wrong, and where
	}
	text = sc.buf.Bytes()
	if head, ok = readHead(text, &sc.c); !ok {
		return nil, nil, false, false
	}
	if checks.Known {
		// The compact text holds the same strings and keys in the same objects as data.
		warns = !checks.UTF8 || len(data) <= maxDuplicateScan && !checks.UniqueKeys
	} else {
		warns = !utf8.Valid(text) || len(data) <= maxDuplicateScan && len(duplicateKeys(text, 1)) > 0
	}
	return text, head, warns, true
}

// deferItem keeps a List item as its compact text when it can be and reports whether it
// did; sc is the caller's, reused from item to item. The splitter has checked the item's
// depth.
func (l *rawList) deferItem(it *jsonItem, sc *compacting, keepLines bool) bool {
	text, head, warns, ok := compactObject(it.data, sc)
	if !ok {
		return false
	}
	if keepLines {
		it.text, it.head = bytes.Clone(text), head
		it.doc = &document{raw: it.data, firstLine: it.line, json: true}
		if warns {
			it.warnings = jsonWarnings(it.data, it.line)
		}
		return true
	}
	if warns {
		return false
	}
	lines := bytes.Count(it.data, []byte("\n"))
	kept := make([]byte, len(text)+lines)
	copy(kept, text)
	for i := len(text); i < len(kept); i++ {
		kept[i] = '\n'
	}
	it.data, it.text, it.head = kept, kept[:len(text)], head
	return true
}

// deferJSON adds a JSON document that is an object as a deferred object, if it can be,
// and reports whether it did. The splitter has checked its depth.
func (p *parser) deferJSON(src Source, data []byte, firstLine int) bool {
	text, head, warns, ok := compactObject(data, &p.compacting)
	if !ok {
		return false
	}
	p.docs++
	o := &Object{Source: src, doc: &document{raw: data, firstLine: firstLine, json: true},
		text: bytes.Clone(text), head: head, depth: p.lim.MaxDepth, compact: p.l.CompactManagedFields}
	n := len(p.entries)
	p.add(o)
	if len(p.entries) > n && warns {
		o.Warnings = append(o.Warnings, jsonWarnings(data, firstLine)...)
	}
	return true
}

// deferYAML adds a YAML document, converted to JSON (compact, valid), as a deferred
// object, if it can be, and reports whether it did.
func (p *parser) deferYAML(src Source, doc *document, j []byte) bool {
	if len(j) == 0 || j[0] != '{' {
		return false
	}
	head, ok := readHead(j, nil)
	if !ok || jsonDepth(j) > p.lim.MaxDepth {
		return false
	}
	p.docs++
	p.add(&Object{Source: src, doc: doc, text: j, head: head, depth: p.lim.MaxDepth, compact: p.l.CompactManagedFields})
	return true
}

// jsonDepth is how deeply maps and lists nest in valid JSON text (1 for a flat object).
func jsonDepth(text []byte) int {
	depth, max := 0, 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
			if depth > max {
				max = depth
			}
		case '}', ']':
			depth--
		}
	}
	return max
}

// readHead reads a deferred object's identity from its compact text. It reports false
// when the object cannot be deferred: its identity is not plain strings, or is missing,
// or the object is a List or a CustomResourceDefinition. With the Compactor that wrote
// the text (else nil), the values it does not read are skipped without being scanned.
func readHead(text []byte, compacted *jsontext.Compactor) (*objectHead, bool) {
	h := &objectHead{}
	metadata := false
	r := headReader{text: text, compacted: compacted}
	r.object(func(key string) {
		switch key {
		case "apiVersion":
			h.apiVersion = r.str()
		case "kind":
			h.kind = r.str()
		case "metadata":
			if r.peek() != '{' {
				r.unfit = true
				return
			}
			metadata = true
			r.object(func(key string) {
				switch key {
				case "namespace":
					h.namespace = r.str()
				case "name":
					h.name = r.str()
				case "managedFields":
					h.managedFields = true
					r.skip()
				default:
					r.skip()
				}
			})
		default:
			r.skip()
		}
	})
	if r.unfit || !metadata || h.apiVersion == "" || h.kind == "" || h.name == "" || strings.HasSuffix(h.kind, "List") {
		return nil, false
	}
	if gvk := schema.GVKFromAPIVersionKind(h.apiVersion, h.kind); gvk.Group == "apiextensions.k8s.io" && gvk.Kind == "CustomResourceDefinition" {
		return nil, false
	}
	return h, true
}

// headReader walks compact, valid JSON text; it stops at the first thing that makes the
// object unfit for deferring.
type headReader struct {
	text      []byte
	i         int
	unfit     bool
	compacted *jsontext.Compactor // where the text's shallow values end, when not nil
}

func (r *headReader) peek() byte {
	if r.i < len(r.text) {
		return r.text[r.i]
	}
	return 0
}

// object reads the object at r.i, calling member with each key, positioned at its value,
// which member must read.
func (r *headReader) object(member func(key string)) {
	r.i++ // '{'
	for r.i < len(r.text) && r.text[r.i] != '}' {
		if r.text[r.i] == ',' {
			r.i++
		}
		start := r.i + 1
		key := r.text[start:r.stringEnd()]
		if bytes.IndexByte(key, '\\') >= 0 {
			r.unfit = true // it could be any key
			return
		}
		r.i++ // ':'
		member(string(key))
		if r.unfit {
			return
		}
	}
	r.i++ // '}'
}

// str reads a string value of ASCII without escapes; anything else makes the object unfit.
func (r *headReader) str() string {
	if r.peek() != '"' {
		r.unfit = true
		return ""
	}
	start := r.i + 1
	s := r.text[start:r.stringEnd()]
	for _, c := range s {
		if c == '\\' || c >= utf8.RuneSelf {
			r.unfit = true // decoding could make another string of it
			return ""
		}
	}
	return string(s)
}

// stringEnd moves past the string at r.i and returns the offset of its closing quote.
func (r *headReader) stringEnd() int {
	j := r.i + 1
	for j < len(r.text) && r.text[j] != '"' {
		if r.text[j] == '\\' {
			j++
		}
		j++
	}
	r.i = j + 1
	return j
}

// skip moves past the value at r.i.
func (r *headReader) skip() {
	if r.compacted != nil {
		if end, ok := r.compacted.MemberEnd(r.i); ok {
			r.i = end
			return
		}
	}
	depth := 0
	for r.i < len(r.text) {
		switch r.text[r.i] {
		case '"':
			r.stringEnd()
			if depth == 0 {
				return
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return // the end of the enclosing object: a scalar ended
			}
			depth--
			if depth == 0 {
				r.i++
				return
			}
		case ',':
			if depth == 0 {
				return
			}
		}
		r.i++
	}
}
