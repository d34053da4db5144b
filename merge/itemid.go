package merge

import (
	"encoding/binary"
	"math"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// itemID is what identifies an item of an associative list, as its path element does
// for structured-merge-diff (value.FieldList.Compare of its key fields, or value.Compare
// of a set's item: strings, booleans and nulls by themselves, numbers as numbers, an
// integer and a float alike), as a comparable Go value: the walks find items by it
// without comparing path elements through value interfaces. Only plain keys have one:
// strings, booleans, nulls, integers and floats within ±2^53 (where structured-merge-
// diff's comparison, which turns integers into floats, is exact); anything else is left
// to structured-merge-diff.
type itemID struct {
	// kind: 's' a string, 'n' an integer (or an integral float), 'f' any other float
	// (n holds its bits), 'b' a boolean (n is 0 or 1), 'z' a null, 'k' several key
	// fields (s holds them encoded).
	kind byte
	s    string
	n    int64
}

// exactFloat is 2^53: integers up to it in magnitude convert to floats and back exactly.
const exactFloat = 1 << 53

// scalarID is the itemID of a plain scalar; ok is false for anything else.
func scalarID(v any) (id itemID, ok bool) {
	switch x := v.(type) {
	case string:
		return itemID{kind: 's', s: x}, true
	case bool:
		if x {
			return itemID{kind: 'b', n: 1}, true
		}
		return itemID{kind: 'b'}, true
	case nil:
		return itemID{kind: 'z'}, true
	case int64:
		if x > exactFloat || x < -exactFloat {
			return id, false
		}
		return itemID{kind: 'n', n: x}, true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) || x > exactFloat || x < -exactFloat {
			return id, false
		}
		if i := int64(x); float64(i) == x {
			return itemID{kind: 'n', n: i}, true
		}
		return itemID{kind: 'f', n: int64(math.Float64bits(x))}, true
	}
	return id, false
}

// itemIDOf is the itemID of an item of an associative list t whose element type is elem
// when it has keys: its key fields, present or defaulted, or in a set its value. ok is
// false where itemPathElement fails (an item with none of its keys, a set item that is
// not a scalar or is a null), and for keys without an itemID.
func itemIDOf(t *smdschema.List, elem *smdschema.Map, item any) (itemID, bool) {
	if len(t.Keys) == 0 {
		if item == nil {
			return itemID{}, false
		}
		return scalarID(item)
	}
	m, isMap := item.(map[string]any)
	if !isMap {
		return itemID{}, false
	}
	if len(t.Keys) == 1 {
		v, found := m[t.Keys[0]]
		if !found {
			sf, _ := elem.FindField(t.Keys[0])
			if sf.Default == nil {
				return itemID{}, false
			}
			v = sf.Default
		}
		return scalarID(v)
	}
	// Several keys: each one's itemID written in the order of t.Keys, an absent one
	// without default as '-'.
	var buf [64]byte
	b := buf[:0]
	hasKey := false
	for _, name := range t.Keys {
		v, found := m[name]
		if !found {
			sf, _ := elem.FindField(name)
			if sf.Default == nil {
				b = append(b, '-')
				continue
			}
			v = sf.Default
		}
		id, ok := scalarID(v)
		if !ok {
			return itemID{}, false
		}
		hasKey = true
		b = append(b, id.kind)
		switch id.kind {
		case 's':
			b = binary.AppendUvarint(b, uint64(len(id.s)))
			b = append(b, id.s...)
		case 'n', 'f', 'b':
			b = binary.LittleEndian.AppendUint64(b, uint64(id.n))
		}
	}
	if !hasKey {
		return itemID{}, false
	}
	return itemID{kind: 'k', s: string(b)}, true
}

// itemIDs are the itemIDs of a list's items, each item once, and a way to find one.
type itemIDs struct {
	ids []itemID
	// at finds an itemID's index in long lists; short ones are searched in ids.
	at map[itemID]int
}

// shortList is the length up to which a list's items are searched one by one.
const shortList = 8

// itemIDsOf is the itemIDs of list's items; ok is false when one has none (see
// itemIDOf) or two have the same.
func itemIDsOf(t *smdschema.List, elem *smdschema.Map, list []any) (itemIDs, bool) {
	x := itemIDs{ids: make([]itemID, len(list))}
	if len(list) > shortList {
		x.at = make(map[itemID]int, len(list))
	}
	for i, item := range list {
		id, ok := itemIDOf(t, elem, item)
		if !ok || x.find(id) >= 0 {
			return x, false
		}
		x.ids[i] = id
		if x.at != nil {
			x.at[id] = i
		}
	}
	return x, true
}

// find is the index of the item id, -1 when the list has none. Items not yet set in ids
// (being built) are the zero itemID, which no item has.
func (x *itemIDs) find(id itemID) int {
	if x.at != nil {
		if i, found := x.at[id]; found {
			return i
		}
		return -1
	}
	for i := range x.ids {
		if x.ids[i] == id {
			return i
		}
	}
	return -1
}
