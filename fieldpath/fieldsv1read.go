package fieldpath

import (
	"github.com/ssa-diff/ssa-diff/internal/jsontext"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// This file reads fieldsV1 text into a field set without structured-merge-diff's reader
// (Set.FromJSON), which takes the text through an io.Reader and json-iterator with a buffer
// of 4 KiB for every entry, for what is mostly a few hundred bytes.
//
// fieldsV1 is an object whose keys are serialized path elements ("f:name", "k:{...}",
// "v:...", "i:N") and whose values are objects of the same kind. A key's object that is
// empty, or holds the key "." (whose value is an empty object), makes the key a member of
// the set; a key's object with path elements makes them its children. The reader takes
// the text exactly as structured-merge-diff's does — the same path element parser
// (DeserializePathElement), the same sets — and leaves everything else to it: keys it
// does not know or cannot parse, a "." that holds anything but {}, a key repeated in one
// object (the later one replaces the earlier one's children there), values that are not
// objects, text after the object, strings that JSON decoders mend, deep nesting. Then the
// answer, error or set, is structured-merge-diff's own. FuzzFieldsV1ToSet compares both
// readers on any text.

// maxReadDepth bounds the nesting read here; deeper text goes to structured-merge-diff.
const maxReadDepth = 1000

// readFieldsV1 reads raw, a fieldsV1 object, into a set; false when structured-merge-diff's
// reader must read it.
func readFieldsV1(raw []byte) (*smdpath.Set, bool) {
	r := setReader{Scanner: jsontext.NewScanner(raw), text: string(raw)}
	r.Space()
	if r.Peek() != '{' {
		return nil, false
	}
	set := &smdpath.Set{}
	if _, ok := r.readSetInto(set, 0); !ok {
		return nil, false
	}
	r.Space()
	if !r.AtEnd() {
		return nil, false
	}
	return set, true
}

// setReader reads one fieldsV1 text. Keys are parts of text (one copy of the whole) and
// field names are kept in blocks of names, so that a field's path element costs no
// allocation of its own.
type setReader struct {
	jsontext.Scanner
	text  string
	names []string
}

// pathElement is the path element of key, as DeserializePathElement reads it.
func (r *setReader) pathElement(key string) (smdpath.PathElement, error) {
	if len(key) < 2 || key[:2] != "f:" {
		return smdpath.DeserializePathElement(key)
	}
	if len(r.names) == cap(r.names) {
		r.names = make([]string, 0, 32)
	}
	r.names = append(r.names, key[2:])
	return smdpath.PathElement{FieldName: &r.names[len(r.names)-1]}, nil
}

// readSetInto reads the object at the scanner (at its opening brace) into set, which must
// be empty: the members and children its keys name. member reports that the object makes
// its own key a member: it is empty, or holds ".".
func (r *setReader) readSetInto(set *smdpath.Set, depth int) (member, ok bool) {
	if depth > maxReadDepth {
		return false, false
	}
	s := &r.Scanner
	if s.Enter('}') {
		return true, true
	}
	named := false // a key other than "." was read: set holds a member or a child
	for more := true; more; {
		key, ok := s.KeyIn(r.text)
		if !ok || s.Peek() != '{' {
			return false, false
		}
		if key == "." {
			if !s.Enter('}') {
				return false, false // "." holding something: left to structured-merge-diff
			}
			member = true
		} else {
			pe, err := r.pathElement(key)
			if err != nil {
				return false, false
			}
			if !r.readChild(set, pe, depth) {
				return false, false
			}
			named = true
		}
		if more, ok = s.Next('}'); !ok {
			return false, false
		}
	}
	if !named {
		member = true
	}
	return member, true
}

// readChild reads the object of key pe at the scanner into set: pe a member when the object
// makes it one, and a child of set with what the object names.
func (r *setReader) readChild(set *smdpath.Set, pe smdpath.PathElement, depth int) bool {
	s := &r.Scanner
	// An empty object (a leaf, the common case) makes pe a member and nothing else.
	if emptyObjectAhead(s) {
		set.Members.Insert(pe)
		return true
	}
	if _, seen := set.Children.Get(pe); seen {
		return false // repeated key: structured-merge-diff's rule, left to it
	}
	// The child is made before its object is read, and the object read into it. An object
	// with nothing but "." makes no child: structured-merge-diff keeps none then, so such
	// an object is read ahead first.
	if onlyDotAhead(s) {
		set.Members.Insert(pe)
		return true
	}
	if set.Members.Has(pe) {
		// A repeated key whose first object made it a member: the order of members and
		// children would have to be followed as structured-merge-diff follows it.
		return false
	}
	child := set.Children.Descend(pe)
	member, ok := r.readSetInto(child, depth+1)
	if !ok || child.Empty() {
		// Empty: an object of repeated "." keys, which makes no child either.
		return false
	}
	if member {
		set.Members.Insert(pe)
	}
	return true
}

// emptyObjectAhead reports whether the object at the scanner (at its opening brace) is {}
// (spaces allowed), and reads it if so.
func emptyObjectAhead(s *jsontext.Scanner) bool {
	probe := *s
	if !probe.Enter('}') {
		return false
	}
	*s = probe
	return true
}

// onlyDotAhead reports whether the object at the scanner (at its opening brace) is {".":{}}
// (spaces allowed), and reads it if so.
func onlyDotAhead(s *jsontext.Scanner) bool {
	probe := *s
	if probe.Enter('}') {
		return false
	}
	key, ok := probe.Key()
	if !ok || key != "." || probe.Peek() != '{' || !probe.Enter('}') {
		return false
	}
	if more, ok := probe.Next('}'); !ok || more {
		return false
	}
	*s = probe
	return true
}
