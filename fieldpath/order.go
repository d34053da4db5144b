package fieldpath

import "fmt"

// Order is the order of the keys of fieldsV1 as the API server answers them. It follows
// from how the server stores the kind, and is the only thing besides the Text that makes
// two servers' bytes of one field set differ.
type Order uint8

const (
	// OrderBytes sorts the keys as strings, byte by byte: what encoding/json writes for
	// the decoded tree. The server keeps a custom resource unstructured — fieldsV1 a
	// tree of JSON maps — and answers it so, in JSON ("k:{\"port\":443}" before
	// "k:{\"port\":80}", "i:" before "k:"). It is the order of kubectl's -o json for
	// every kind, which re-encodes what it reads.
	OrderBytes Order = iota
	// OrderElements is structured-merge-diff's order of path elements
	// (PathElement.Compare): field names (f:) first, then keys (k:), values (v:) and
	// indexes (i:); names and strings byte by byte, numbers by value (port 9 before 80
	// before 443 before 8125), keys field by field in their names' order. The server keeps
	// a built-in kind typed — fieldsV1 as the bytes structured-merge-diff wrote — and
	// answers it so in JSON. YAML answers sort again (yaml.v2's order) for every kind.
	OrderElements
)

// String names the order by the storage it stands for.
func (o Order) String() string {
	switch o {
	case OrderBytes:
		return "byte order (unstructured storage)"
	case OrderElements:
		return "element order (typed storage)"
	}
	return fmt.Sprintf("Order(%d)", uint8(o))
}
