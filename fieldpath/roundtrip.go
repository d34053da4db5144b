package fieldpath

import (
	"time"
	"unicode/utf8"

	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// EncodeDecoded is Encode, and beside the entries the Managed that Decode gives for them,
// made without decoding them when it is provably m's own field sets; ok is false when it
// is not (then decode the entries). It is so when:
//
//   - every entry's identity (ManagerKey) is the key its set had in m, no two alike, and
//     Decode accepts the entry (Apply or Update, an apiVersion);
//   - every set comes back from its fieldsV1 as it is: no child set is empty (fieldsV1
//     writes one as {}, which reads back as a member), every name and string is valid
//     UTF-8, a key's fields are in order, and every value is a string, a boolean, null, a
//     float or an integer of fewer than 7 digits (fieldsV1 reads numbers back as floats,
//     which compare as the integers do and print alike below a million).
//
// The Managed returned shares m's field sets: read them, never change them. Its times are
// the entries', as Decode's are.
func (m Managed) EncodeDecoded() (entries []Entry, decoded Managed, ok bool, err error) {
	entries, err = m.Encode()
	return m.vouch(entries, err)
}

// EncodeDecodedAs is EncodeDecoded with the fieldsV1 in text t (the sets come back from
// either text alike).
func (m Managed) EncodeDecodedAs(t Text) (entries []Entry, decoded Managed, ok bool, err error) {
	entries, err = m.EncodeAs(t)
	return m.vouch(entries, err)
}

// EncodeDecodedTextAs is EncodeDecodedText with the fieldsV1 of EncodeTextAs(t, o).
func (m Managed) EncodeDecodedTextAs(t Text, o Order) (entries []Entry, decoded Managed, ok bool, err error) {
	entries, err = m.EncodeTextAs(t, o)
	return m.vouch(entries, err)
}

// EncodeDecodedText is EncodeDecoded with the fieldsV1 of EncodeText (canonical text, which
// decodes to the same sets).
func (m Managed) EncodeDecodedText() (entries []Entry, decoded Managed, ok bool, err error) {
	entries, err = m.EncodeText()
	return m.vouch(entries, err)
}

func (m Managed) vouch(entries []Entry, err error) ([]Entry, Managed, bool, error) {
	if err != nil {
		return nil, Managed{}, false, err
	}
	decoded, ok := m.decodedAs(entries)
	return entries, decoded, ok, nil
}

// decodedAs is what Decode(entries) gives, from m's sets, when entries are m encoded and
// the sets come back from them as they are.
func (m Managed) decodedAs(entries []Entry) (Managed, bool) {
	return m.decodedAsKnowing(entries, nil)
}

// decodedAsKnowing is decodedAs, the sets known has a text for being vouched for already.
func (m Managed) decodedAsKnowing(entries []Entry, known KnownText) (Managed, bool) {
	if len(entries) != len(m.Fields) {
		return Managed{}, false
	}
	d := Managed{Fields: make(smdpath.ManagedFields, len(entries)), Times: make(map[string]*time.Time, len(entries))}
	for _, e := range entries {
		if e.Operation != OperationApply && e.Operation != OperationUpdate || e.APIVersion == "" || e.FieldsType != FieldsTypeV1 {
			return Managed{}, false
		}
		key := ManagerKey(e)
		vs, found := m.Fields[key]
		if _, dup := d.Fields[key]; !found || dup || string(vs.APIVersion()) != e.APIVersion || vs.Applied() != (e.Operation == OperationApply) {
			return Managed{}, false
		}
		if _, ok := knownText(known, vs.Set()); !ok && !setRoundTrips(vs.Set(), 0) {
			return Managed{}, false
		}
		d.Fields[key] = vs
		d.Times[key] = e.Time
	}
	return d, true
}

func knownText(known KnownText, s *smdpath.Set) ([]byte, bool) {
	if known == nil {
		return nil, false
	}
	return known(s)
}

// maxRoundTripDepth bounds the walk; deeper sets are left to decoding.
const maxRoundTripDepth = 1000

// setRoundTrips reports whether s reads back from its fieldsV1 as it is (see EncodeDecoded).
func setRoundTrips(s *smdpath.Set, depth int) bool {
	if depth > maxRoundTripDepth {
		return false
	}
	ok := true
	s.Members.Iterate(func(pe smdpath.PathElement) {
		ok = ok && elementRoundTrips(pe)
	})
	if !ok {
		return false
	}
	s.Children.Iterate(func(pe smdpath.PathElement) {
		if !ok || !elementRoundTrips(pe) {
			ok = false
			return
		}
		child, _ := s.Children.Get(pe)
		ok = child != nil && !child.Empty() && setRoundTrips(child, depth+1)
	})
	return ok
}

// elementRoundTrips reports whether a path element reads back from its serialization
// as it is.
func elementRoundTrips(pe smdpath.PathElement) bool {
	switch {
	case pe.FieldName != nil:
		return utf8.ValidString(*pe.FieldName)
	case pe.Key != nil:
		fl := *pe.Key
		for i, f := range fl {
			if !utf8.ValidString(f.Name) || i > 0 && fl[i-1].Name >= f.Name || !valueRoundTrips(f.Value) {
				return false
			}
		}
		return true
	case pe.Value != nil:
		return valueRoundTrips(*pe.Value)
	case pe.Index != nil:
		return true
	}
	return false
}

// maxPlainInt bounds the integers that print alike as floats (fmt's %v of a float turns
// to an exponent from a million).
const maxPlainInt = 1_000_000

func valueRoundTrips(v value.Value) bool {
	switch {
	case v == nil:
		return false
	case v.IsNull(), v.IsBool(), v.IsFloat():
		return true
	case v.IsInt():
		n := v.AsInt()
		return n > -maxPlainInt && n < maxPlainInt
	case v.IsString():
		return utf8.ValidString(v.AsString())
	}
	return false
}
