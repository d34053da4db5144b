package correlate

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
)

// Node is a new value paired with the old value it replaces, and the schema both have.
type Node struct {
	Old, New any
	Schema   *crdschema.Schema

	equal    *bool
	oldItems *KeyedList
	children map[any]*Node
}

// New pairs a whole new object with its old version.
func New(newObj, oldObj any, s *crdschema.Schema) *Node {
	return &Node{Old: oldObj, New: newObj, Schema: s}
}

// Key is the node of a map's member, nil when either side is not a map, either lacks the key,
// or the schema declares neither the property nor additionalProperties with a schema.
func (n *Node) Key(field string) *Node {
	if n == nil || n.Schema == nil {
		return nil
	}
	if c, ok := n.children[field]; ok {
		return c
	}
	oldMap, ok1 := n.Old.(map[string]any)
	newMap, ok2 := n.New.(map[string]any)
	if !ok1 || !ok2 {
		return nil
	}
	ov, ok1 := oldMap[field]
	nv, ok2 := newMap[field]
	if !ok1 || !ok2 {
		return nil
	}
	var s *crdschema.Schema
	if p, ok := n.Schema.Properties[field]; ok {
		s = p
	} else if ap := n.Schema.AdditionalProperties; ap != nil && ap.Schema != nil {
		s = ap.Schema
	} else {
		return nil
	}
	return n.child(field, len(newMap), &Node{Old: ov, New: nv, Schema: s})
}

// Index is the node of a list's item i, nil unless the list is a list-type map whose old
// version has an item with the same key values.
func (n *Node) Index(i int) *Node {
	if n == nil || n.Schema == nil {
		return nil
	}
	if c, ok := n.children[i]; ok {
		return c
	}
	newList, ok := n.New.([]any)
	if !ok || i >= len(newList) {
		return nil
	}
	oldList, ok := n.Old.([]any)
	if !ok || n.Schema.XListType == nil || *n.Schema.XListType != "map" {
		return nil
	}
	if n.oldItems == nil {
		n.oldItems = NewKeyedList(n.Schema, oldList)
	}
	ov := n.oldItems.Get(newList[i])
	if ov == nil || n.Schema.Items == nil {
		return nil
	}
	return n.child(i, len(newList), &Node{Old: ov, New: newList[i], Schema: n.Schema.Items})
}

func (n *Node) child(k any, size int, c *Node) *Node {
	if n.children == nil {
		n.children = make(map[any]*Node, size)
	}
	n.children[k] = c
	return c
}

// Equal reports whether the new value equals the old one (false for a nil node). Maps are
// equal when every member's node is; lists when they have the same length and every item's
// node is equal — or, for lists whose items have no counterparts at all, when the lists are
// deeply equal.
func (n *Node) Equal() bool {
	if n == nil {
		return false
	}
	if n.equal != nil {
		return *n.equal
	}
	r := n.compare()
	n.equal = &r
	return r
}

func (n *Node) compare() bool {
	if n.New == nil && n.Old == nil {
		return true
	}
	if n.New == nil || n.Old == nil {
		return false
	}
	oldList, oldIsList := n.Old.([]any)
	newList, newIsList := n.New.([]any)
	oldMap, oldIsMap := n.Old.(map[string]any)
	newMap, newIsMap := n.New.(map[string]any)
	if oldIsList != newIsList || oldIsMap != newIsMap {
		return false
	}
	switch {
	case oldIsList:
		if len(oldList) != len(newList) {
			return false
		}
		for i := range newList {
			c := n.Index(i)
			if c == nil {
				if n.oldItems == nil {
					return unstructured.Equal(oldList, newList)
				}
				return false
			}
			if !c.Equal() {
				return false
			}
		}
		return true
	case oldIsMap:
		if len(oldMap) != len(newMap) {
			return false
		}
		for k := range newMap {
			c := n.Key(k)
			if c == nil || !c.Equal() {
				return false
			}
		}
		return true
	default:
		return unstructured.Equal(n.Old, n.New)
	}
}

// KeyedList finds the items of an x-kubernetes-list-type: map list by their key values (the
// first item with given key values wins); items without every key, or with a key that is not
// a scalar, are never found.
type KeyedList struct {
	keys     []string
	byKey    map[any]any
	unkeyed  []any
	disabled bool
}

// NewKeyedList indexes items of a list whose schema is s; for a list that is not a list-type
// map (or has no items), every Get finds nothing.
func NewKeyedList(s *crdschema.Schema, items []any) *KeyedList {
	if s == nil || s.Type != "array" || s.XListType == nil || *s.XListType != "map" || len(s.XListMapKeys) == 0 || len(items) == 0 {
		return &KeyedList{disabled: true}
	}
	return &KeyedList{keys: s.XListMapKeys, byKey: map[any]any{}, unkeyed: items}
}

// Get returns the item with the key values of item, nil if there is none.
func (l *KeyedList) Get(item any) any {
	if l == nil || l.disabled {
		return nil
	}
	m, ok := item.(map[string]any)
	if !ok {
		return nil
	}
	key, ok := l.keyOf(m)
	if !ok {
		return nil
	}
	if v, ok := l.byKey[key]; ok {
		return v
	}
	for len(l.unkeyed) > 0 {
		it := l.unkeyed[0]
		l.unkeyed = l.unkeyed[1:]
		im, ok := it.(map[string]any)
		if !ok {
			continue
		}
		k, ok := l.keyOf(im)
		if !ok {
			continue
		}
		if _, seen := l.byKey[k]; !seen {
			l.byKey[k] = im
		}
		if k == key {
			return im
		}
	}
	return nil
}

// keyOf is the item's key: the scalar itself for a single key, else the values joined.
func (l *KeyedList) keyOf(m map[string]any) (any, bool) {
	if len(l.keys) == 1 {
		v, ok := m[l.keys[0]]
		if !ok {
			return nil, false
		}
		switch v.(type) {
		case bool, float64, int64, string:
			return v, true
		}
		return nil, false
	}
	var b strings.Builder
	for _, k := range l.keys {
		v, ok := m[k]
		if !ok {
			return nil, false
		}
		switch v := v.(type) {
		case bool:
			fmt.Fprintf(&b, "\x00%t", v)
		case float64:
			fmt.Fprintf(&b, "\x00%f", v)
		case int64:
			fmt.Fprintf(&b, "\x00%d", v)
		case string:
			fmt.Fprintf(&b, "\x00%q", v)
		default:
			return nil, false
		}
	}
	return b.String(), true
}
