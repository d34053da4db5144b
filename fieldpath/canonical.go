package fieldpath

import (
	"encoding/json"
	"slices"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// SetToCanonicalFieldsV1 is the canonical text of a set's fieldsV1
// (fieldsjson.CanonicalFieldsV1 of what SetToFieldsV1 writes: keys in byte order, HTML
// characters escaped), written from the set in one pass.
func SetToCanonicalFieldsV1(s *smdpath.Set) ([]byte, error) {
	return SetToCanonicalFieldsV1As(s, TextJSONIter)
}

// SetToCanonicalFieldsV1As is SetToCanonicalFieldsV1 with the path elements in text t.
func SetToCanonicalFieldsV1As(s *smdpath.Set, t Text) ([]byte, error) {
	return SetToFieldsV1Text(s, t, OrderBytes)
}

// SetToFieldsV1Text is a set's fieldsV1 as a server answers it in JSON for a kind whose
// keys it holds in order o, the path elements in text t: compact, strings escaped as
// encoding/json escapes them (HTML characters included). In OrderBytes it is the canonical
// text (a custom resource's fieldsV1, a JSON tree, as encoding/json writes it); in
// OrderElements it is the bytes SetToFieldsV1As writes, compacted as encoding/json
// compacts them (a built-in kind's fieldsV1, kept as structured-merge-diff wrote it). It is
// written from the set in one pass.
func SetToFieldsV1Text(s *smdpath.Set, t Text, o Order) ([]byte, error) {
	// Room for the keys of a few levels of a typical object: the stack grows no more.
	st := canonicalStack{items: make([]canonicalItem, 0, 32), order: o}
	if b, ok := st.appendSet(nil, s, false, 0, t); ok {
		return b, nil
	}
	// What the one pass does not take (invalid UTF-8, control characters, two elements
	// written alike, depth): the set's fieldsV1 in the server's layout, made canonical or
	// compacted as encoding/json writes a json.RawMessage.
	raw, err := SetToFieldsV1As(s, t)
	if err != nil {
		return nil, err
	}
	if o == OrderElements {
		return json.Marshal(json.RawMessage(raw))
	}
	return fieldsjson.CanonicalFieldsV1(raw)
}

// canonicalItem is one key of a set's object: a path element serialized (its kind's
// letter apart, so that field names need no new string), member and child as the set has it.
type canonicalItem struct {
	kind   byte // 'f', 'i', 'k', 'v'
	member bool
	rest   string
	child  *smdpath.Set
	// pe is the element, which OrderElements compares.
	pe smdpath.PathElement
}

func compareElements(a, b canonicalItem) int { return a.pe.Compare(b.pe) }

func compareCanonicalItems(a, b canonicalItem) int {
	if a.kind != b.kind {
		return int(a.kind) - int(b.kind)
	}
	switch {
	case a.rest < b.rest:
		return -1
	case a.rest > b.rest:
		return 1
	}
	return 0
}

// canonicalStack holds the keys of the objects being written, each object's above its
// parent's: one slice for the whole set instead of one per object.
type canonicalStack struct {
	items []canonicalItem
	order Order
}

// maxCanonicalDepth bounds the one pass (fieldsjson's reader goes as deep).
const maxCanonicalDepth = 1000

// appendSet appends the object of s's contents (with "." when self, and s is not
// empty), or reports false when the one pass cannot vouch for the bytes.
func (st *canonicalStack) appendSet(dst []byte, s *smdpath.Set, self bool, depth int, t Text) ([]byte, bool) {
	if depth > maxCanonicalDepth {
		return nil, false
	}
	base := len(st.items)
	defer func() { st.items = st.items[:base] }()
	ok := true
	add := func(pe smdpath.PathElement, child *smdpath.Set) {
		if !ok {
			return
		}
		var it canonicalItem
		if pe.FieldName != nil {
			it.kind, it.rest = 'f', *pe.FieldName
		} else {
			key, err := SerializePathElement(pe, t)
			if err != nil || len(key) < 2 || key[1] != ':' {
				ok = false
				return
			}
			it.kind, it.rest = key[0], key[2:]
		}
		if !utf8.ValidString(it.rest) || st.order == OrderElements && hasControl(it.rest) {
			// Invalid UTF-8 may make two elements one text; structured-merge-diff v4/v6
			// escape \b and \f otherwise than encoding/json.
			ok = false
			return
		}
		it.member, it.child, it.pe = child == nil, child, pe
		st.items = append(st.items, it)
	}
	s.Members.Iterate(func(pe smdpath.PathElement) { add(pe, nil) })
	members := len(st.items)
	s.Children.Iterate(func(pe smdpath.PathElement) {
		child, _ := s.Children.Get(pe)
		if child == nil {
			child = smdpath.NewSet()
		}
		add(pe, child)
	})
	if !ok {
		return nil, false
	}
	// This object's keys; the children's, appended above them while they are written,
	// leave them as they are (a slice grown anew keeps these in the old array).
	items := st.items[base:len(st.items):len(st.items)]
	if st.order == OrderElements {
		// Members and children come each in element order (structured-merge-diff keeps
		// them sorted); when there are both, one stable sort merges them, a member
		// before a child of the same element.
		if base < members && members < len(st.items) {
			slices.SortStableFunc(items, compareElements)
		}
	} else {
		slices.SortStableFunc(items, compareCanonicalItems)
	}
	// A member and a child of the same element are one key; in OrderBytes, any other two
	// keys alike are not taken (the tree keeps one of them). In OrderElements two elements
	// written alike are two keys, as structured-merge-diff writes them.
	kept := items[:0]
	for i := 0; i < len(items); i++ {
		it := items[i]
		if i+1 < len(items) && st.sameKey(&items[i+1], &items[i]) {
			next := items[i+1]
			if it.member == next.member {
				return nil, false
			}
			if it.member {
				it.child = next.child
			}
			it.member = true
			i++
		}
		kept = append(kept, it)
	}
	dst = append(dst, '{')
	if self && len(kept) > 0 {
		dst = append(dst, `".":{}`...)
	}
	for i := range kept {
		it := &kept[i]
		if i > 0 || self {
			dst = append(dst, ',')
		}
		if dst, ok = appendCanonicalKey(dst, it.kind, it.rest); !ok {
			return nil, false
		}
		dst = append(dst, ':')
		if it.child == nil || it.child.Empty() {
			dst = append(dst, "{}"...)
			continue
		}
		if dst, ok = st.appendSet(dst, it.child, it.member, depth+1, t); !ok {
			return nil, false
		}
	}
	return append(dst, '}'), true
}

// sameKey reports whether two neighbours in the stack's order are one key: the same
// element (OrderElements), the same text (OrderBytes).
func (st *canonicalStack) sameKey(a, b *canonicalItem) bool {
	if st.order == OrderElements {
		return a.pe.Equals(b.pe)
	}
	return a.kind == b.kind && a.rest == b.rest
}

// hasControl reports whether s holds a control character.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 {
			return true
		}
	}
	return false
}

// appendCanonicalKey writes "K:rest" as encoding/json writes the string.
func appendCanonicalKey(dst []byte, kind byte, rest string) ([]byte, bool) {
	plain := true
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; c < 0x20 || c >= 0x7f {
			plain = false
			break
		}
	}
	if !plain {
		b, err := fieldsjson.AppendString(dst, string(kind)+":"+rest)
		return b, err == nil
	}
	dst = append(dst, '"', kind, ':')
	return append(fieldsjson.AppendEscapedPrintable(dst, rest), '"'), true
}
