package merge

import (
	"fmt"
	"sort"

	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// sortedValue presents an unstructured value to structured-merge-diff with every map
// iterated in key order. Validation stops at the first error it meets while ranging over a
// map, and Go ranges over maps at random: the server names one of several schema errors at
// random. Validating through sortedValue names the first one in key order, every time.
type sortedValue struct{ value.Value }

// sorted wraps maps and lists; scalars stay as they are, so errors print them as usual.
func sorted(v value.Value) value.Value {
	if v != nil && (v.IsMap() || v.IsList()) {
		return sortedValue{v}
	}
	return v
}

// String prints the value as structured-merge-diff's errors print the wrapped one.
func (v sortedValue) String() string { return fmt.Sprint(v.Value) }

// GoString prints the value as %#v prints the wrapped one.
func (v sortedValue) GoString() string { return fmt.Sprintf("%#v", v.Value) }

func (v sortedValue) AsMap() value.Map { return sortedMap{v.Value.AsMap()} }
func (v sortedValue) AsMapUsing(a value.Allocator) value.Map {
	return sortedMap{v.Value.AsMapUsing(a)}
}
func (v sortedValue) AsList() value.List { return sortedList{v.Value.AsList()} }
func (v sortedValue) AsListUsing(a value.Allocator) value.List {
	return sortedList{v.Value.AsListUsing(a)}
}

type sortedMap struct{ value.Map }

func (m sortedMap) Get(k string) (value.Value, bool) {
	v, ok := m.Map.Get(k)
	if !ok {
		return v, false
	}
	return sorted(v), true
}

func (m sortedMap) GetUsing(a value.Allocator, k string) (value.Value, bool) {
	v, ok := m.Map.GetUsing(a, k)
	if !ok {
		return v, false
	}
	return sorted(v), true
}

func (m sortedMap) Iterate(fn func(string, value.Value) bool) bool {
	return m.IterateUsing(value.HeapAllocator, fn)
}

func (m sortedMap) IterateUsing(a value.Allocator, fn func(string, value.Value) bool) bool {
	var keys []string
	m.Map.IterateUsing(a, func(k string, _ value.Value) bool { keys = append(keys, k); return true })
	sort.Strings(keys)
	for _, k := range keys {
		v, _ := m.Map.GetUsing(a, k)
		if !fn(k, sorted(v)) {
			return false
		}
	}
	return true
}

type sortedList struct{ value.List }

func (l sortedList) At(i int) value.Value { return sorted(l.List.At(i)) }
func (l sortedList) AtUsing(a value.Allocator, i int) value.Value {
	return sorted(l.List.AtUsing(a, i))
}
func (l sortedList) Range() value.ListRange { return sortedRange{l.List.Range()} }
func (l sortedList) RangeUsing(a value.Allocator) value.ListRange {
	return sortedRange{l.List.RangeUsing(a)}
}

type sortedRange struct{ value.ListRange }

func (r sortedRange) Item() (int, value.Value) {
	i, v := r.ListRange.Item()
	return i, sorted(v)
}
