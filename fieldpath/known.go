package fieldpath

import smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"

// KnownText gives the fieldsV1 already written for some field sets, by the identity of the
// set: known(s) is the text the same writer wrote for s, this very set (never changed since,
// as field sets are not), which EncodeDecoded* vouched reads back as s. A request that
// leaves a manager's set as the previous request of its sequence encoded it need not write
// it again.
type KnownText func(s *smdpath.Set) ([]byte, bool)

// EncodeDecodedAsKnowing is EncodeDecodedAs, each set that known has a text for taking that
// text instead of being written and walked again.
func (m Managed) EncodeDecodedAsKnowing(t Text, known KnownText) (entries []Entry, decoded Managed, ok bool, err error) {
	return m.encodeKnowing(fieldsV1Writer(t), known)
}

// EncodeDecodedTextAsKnowing is EncodeDecodedTextAs, each set that known has a text for
// taking that text instead of being written and walked again.
func (m Managed) EncodeDecodedTextAsKnowing(t Text, o Order, known KnownText) (entries []Entry, decoded Managed, ok bool, err error) {
	return m.encodeKnowing(textWriter(t, o), known)
}

func (m Managed) encodeKnowing(write func(*smdpath.Set) ([]byte, error), known KnownText) ([]Entry, Managed, bool, error) {
	if known == nil {
		return m.vouch(m.encode(write))
	}
	entries, err := m.encode(func(s *smdpath.Set) ([]byte, error) {
		if raw, ok := known(s); ok {
			return raw, nil
		}
		return write(s)
	})
	if err != nil {
		return nil, Managed{}, false, err
	}
	decoded, ok := m.decodedAsKnowing(entries, known)
	return entries, decoded, ok, nil
}
