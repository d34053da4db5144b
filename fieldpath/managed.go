package fieldpath

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Managed is the decoded form of metadata.managedFields: one versioned field set and one
// time per manager identity (see ManagerKey). A nil time means the entry carries none.
type Managed struct {
	Fields smdpath.ManagedFields
	Times  map[string]*time.Time
}

// NewManaged returns an empty Managed.
func NewManaged() Managed {
	return Managed{Fields: smdpath.ManagedFields{}, Times: map[string]*time.Time{}}
}

// Copy returns a deep copy of the field sets and times.
func (m Managed) Copy() Managed {
	c := Managed{Fields: m.Fields.Copy(), Times: make(map[string]*time.Time, len(m.Times))}
	for k, t := range m.Times {
		if t != nil {
			tt := *t
			c.Times[k] = &tt
		} else {
			c.Times[k] = nil
		}
	}
	return c
}

// DecodeError says why an entry of managedFields is invalid; Index is its position.
type DecodeError struct {
	Index int
	Err   error
}

func (e *DecodeError) Error() string { return e.Err.Error() }
func (e *DecodeError) Unwrap() error { return e.Err }

// Decode validates entries as the API server does and decodes them. An entry is invalid when
// its operation is neither Apply nor Update, its apiVersion is empty, its fieldsType is not
// FieldsV1, or its fieldsV1 is not a well-formed field set (trailing data included). When two
// entries share an identity the later one wins (rules.md owner.duplicate-entries). The error, a *DecodeError, carries
// the server's wording.
func Decode(entries []Entry) (Managed, error) {
	m := Managed{Fields: make(smdpath.ManagedFields, len(entries)), Times: make(map[string]*time.Time, len(entries))}
	for i, e := range entries {
		switch e.Operation {
		case OperationApply, OperationUpdate:
		default:
			return Managed{}, &DecodeError{i, errors.New("operation must be `Apply` or `Update`")}
		}
		if e.APIVersion == "" {
			return Managed{}, &DecodeError{i, errors.New("apiVersion must not be empty")}
		}
		switch e.FieldsType {
		case FieldsTypeV1:
		case "":
			return Managed{}, &DecodeError{i, fmt.Errorf("missing fieldsType in managed fields entry %d", i)}
		default:
			return Managed{}, &DecodeError{i, fmt.Errorf("invalid fieldsType %q in managed fields entry %d", e.FieldsType, i)}
		}
		set, err := FieldsV1ToSet(e.FieldsV1)
		if err != nil {
			return Managed{}, &DecodeError{i, fmt.Errorf("error decoding versioned set from entry %d (manager %q): %w", i, e.Manager, err)}
		}
		key := ManagerKey(e)
		m.Fields[key] = smdpath.NewVersionedSet(set, smdpath.APIVersion(e.APIVersion), e.Operation == OperationApply)
		m.Times[key] = e.Time
	}
	return m, nil
}

// FieldsV1ToSet decodes a fieldsV1 value. An absent value is the empty set.
func FieldsV1ToSet(raw []byte) (*smdpath.Set, error) {
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	if set, ok := readFieldsV1(raw); ok {
		return set, nil
	}
	set := &smdpath.Set{}
	if err := set.FromJSON(bytes.NewReader(raw)); err != nil {
		return nil, err
	}
	return set, nil
}

// SetToFieldsV1 encodes a field set as fieldsV1, in the server's layout, as Kubernetes
// 1.32 to 1.37 write it (TextJSONIter).
func SetToFieldsV1(s *smdpath.Set) ([]byte, error) {
	return s.ToJSON()
}

// SetToFieldsV1As is SetToFieldsV1 in text t.
func SetToFieldsV1As(s *smdpath.Set, t Text) ([]byte, error) { return fieldsV1Writer(t)(s) }

// fieldsV1Writer is the server's fieldsV1 writer of text t.
func fieldsV1Writer(t Text) func(*smdpath.Set) ([]byte, error) {
	if t == TextJSONv2 {
		return setToFieldsV1V2
	}
	return SetToFieldsV1
}

// textWriter is SetToFieldsV1Text's writer of text t and order o.
func textWriter(t Text, o Order) func(*smdpath.Set) ([]byte, error) {
	if t == TextJSONIter && o == OrderBytes {
		return SetToCanonicalFieldsV1
	}
	return func(s *smdpath.Set) ([]byte, error) { return SetToFieldsV1Text(s, t, o) }
}

// ManagerKey is the identity of an entry (rules.md owner.key): the compact JSON of its manager,
// operation, apiVersion (Update entries only) and subresource, with empty fields left out.
func ManagerKey(e Entry) string {
	apiVersion := e.APIVersion
	if e.Operation == OperationApply {
		apiVersion = ""
	}
	if key, ok := plainManagerKey(e.Manager, string(e.Operation), apiVersion, e.Subresource); ok {
		return key
	}
	id := struct {
		Manager     string    `json:"manager,omitempty"`
		Operation   Operation `json:"operation,omitempty"`
		APIVersion  string    `json:"apiVersion,omitempty"`
		Subresource string    `json:"subresource,omitempty"`
	}{e.Manager, e.Operation, apiVersion, e.Subresource}
	b, err := json.Marshal(id)
	if err != nil { // strings and a string type always marshal
		panic(err)
	}
	return string(b)
}

// managerKeyMembers open the members of an identity, in the order ManagerKey writes them.
var managerKeyMembers = [4]string{`"manager":"`, `"operation":"`, `"apiVersion":"`, `"subresource":"`}

// plainManagerKey writes an identity whose strings need no escaping — every name and
// version a cluster uses — as encoding/json would, without its reflection: a run computes
// identities for every entry of every object several times. It reports false when a string
// holds a byte encoding/json escapes or rewrites (controls, quotes, backslashes, <, >, &,
// anything outside ASCII); ManagerKey then asks encoding/json.
func plainManagerKey(values ...string) (string, bool) {
	n := 2
	for i, v := range values {
		if v == "" {
			continue
		}
		if !plainJSONString(v) {
			return "", false
		}
		n += len(managerKeyMembers[i]) + len(v) + 2
	}
	b := make([]byte, 0, n)
	b = append(b, '{')
	for i, v := range values {
		if v == "" {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(b, managerKeyMembers[i]...)
		b = append(b, v...)
		b = append(b, '"')
	}
	b = append(b, '}')
	return string(b), true
}

// plainJSONString reports whether encoding/json writes s between quotes as it is.
func plainJSONString(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// ParseManagerKey is the inverse of ManagerKey. Apply keys carry no apiVersion.
func ParseManagerKey(key string) (ManagerRef, error) {
	if r, ok := parsePlainManagerKey(key); ok {
		return r, nil
	}
	var e Entry
	if err := json.Unmarshal([]byte(key), &e); err != nil {
		return ManagerRef{}, fmt.Errorf("manager identity %q: %w", key, err)
	}
	return e.Ref(), nil
}

// parsePlainManagerKey reads a key exactly as plainManagerKey writes it (members in its
// order, each at most once, plain strings), which encoding/json would read to the same
// entry; anything else reports false and is left to encoding/json.
func parsePlainManagerKey(key string) (ManagerRef, bool) {
	if len(key) < 2 || key[0] != '{' || key[len(key)-1] != '}' {
		return ManagerRef{}, false
	}
	var values [4]string
	rest := key[1 : len(key)-1]
	next := 0
	for rest != "" {
		if next > 0 {
			if rest[0] != ',' {
				return ManagerRef{}, false
			}
			rest = rest[1:]
		}
		field := -1
		for i := next; i < len(managerKeyMembers); i++ {
			if strings.HasPrefix(rest, managerKeyMembers[i]) {
				field, rest = i, rest[len(managerKeyMembers[i]):]
				break
			}
		}
		end := strings.IndexByte(rest, '"')
		if field < 0 || end <= 0 || !plainJSONString(rest[:end]) {
			return ManagerRef{}, false
		}
		values[field], rest, next = rest[:end], rest[end+1:], field+1
	}
	return ManagerRef{Manager: values[0], Operation: Operation(values[1]), APIVersion: values[2], Subresource: values[3]}, true
}

// Ref describes the manager with identity key, with its apiVersion and time as recorded.
func (m Managed) Ref(key string) ManagerRef {
	r, err := ParseManagerKey(key)
	if err != nil {
		r = ManagerRef{Manager: key}
	}
	if vs, ok := m.Fields[key]; ok {
		r.APIVersion = string(vs.APIVersion())
	}
	r.Time = m.Times[key]
	return r
}

// Encode writes the entries as the API server stores them: one per identity, fields filled
// from the identity (rules.md owner.key), in the server's order (rules.md encode.order). No
// entries encode as nil. The fieldsV1 are in text TextJSONIter (EncodeAs names another).
func (m Managed) Encode() ([]Entry, error) { return m.encode(SetToFieldsV1) }

// EncodeAs is Encode with the fieldsV1 in text t.
func (m Managed) EncodeAs(t Text) ([]Entry, error) { return m.encode(fieldsV1Writer(t)) }

// EncodeText is Encode with each fieldsV1 in canonical form (SetToCanonicalFieldsV1): the
// text a custom resource's answers hold, and kubectl's -o json of any kind.
func (m Managed) EncodeText() ([]Entry, error) { return m.encode(SetToCanonicalFieldsV1) }

// EncodeTextAs is EncodeText with the path elements in text t and the keys in order o
// (SetToFieldsV1Text): the fieldsV1 as the server answers them in JSON, for a kind it
// stores in order o.
func (m Managed) EncodeTextAs(t Text, o Order) ([]Entry, error) { return m.encode(textWriter(t, o)) }

func (m Managed) encode(fieldsV1 func(*smdpath.Set) ([]byte, error)) ([]Entry, error) {
	if len(m.Fields) == 0 {
		return nil, nil
	}
	out := make([]Entry, 0, len(m.Fields))
	for key, vs := range m.Fields {
		ref, err := ParseManagerKey(key)
		if err != nil {
			return nil, err
		}
		raw, err := fieldsV1(vs.Set())
		if err != nil {
			return nil, fmt.Errorf("encoding the fields of %s: %w", key, err)
		}
		e := Entry{Manager: ref.Manager, Operation: ref.Operation, APIVersion: string(vs.APIVersion()),
			FieldsType: FieldsTypeV1, FieldsV1: raw, Subresource: ref.Subresource}
		if vs.Applied() {
			e.Operation = OperationApply
		}
		if t, ok := m.Times[key]; ok && t != nil {
			tt := *t
			e.Time = &tt
		}
		out = append(out, e)
	}
	SortEntries(out)
	return out, nil
}

// SortEntries orders entries as the API server does (rules.md encode.order): by operation (Apply before
// Update), then time in seconds (none counts as 0), manager, apiVersion and subresource.
func SortEntries(entries []Entry) {
	sort.SliceStable(entries, func(i, j int) bool {
		p, q := entries[i], entries[j]
		if p.Operation != q.Operation {
			return p.Operation < q.Operation
		}
		var ps, qs int64
		if p.Time != nil {
			ps = p.Time.Unix()
		}
		if q.Time != nil {
			qs = q.Time.Unix()
		}
		if ps != qs {
			return ps < qs
		}
		if p.Manager != q.Manager {
			return p.Manager < q.Manager
		}
		if p.APIVersion != q.APIVersion {
			return p.APIVersion < q.APIVersion
		}
		if p.Subresource != q.Subresource {
			return p.Subresource < q.Subresource
		}
		// Two entries can only tie when they share an identity (the /scale translation can
		// write such a pair); the server's order is then arbitrary, ours is by fields.
		return string(p.FieldsV1) < string(q.FieldsV1)
	})
}
