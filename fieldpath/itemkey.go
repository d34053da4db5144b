package fieldpath

import (
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// ItemKey names an item of an associative list by its key fields, as a field set names
// it: the element holding each field of names with the item's value, in the order of
// names. When the item omits a key field that omitted does not excuse (nil: none is
// excused), ItemKey reports that field's name, the first in names' order, and false.
// An excused field that the item omits is left out of the key.
func ItemKey(item map[string]any, names []string, omitted func(name string) bool) (smdpath.PathElement, string, bool) {
	key := make(value.FieldList, 0, len(names))
	for _, name := range names {
		v, ok := item[name]
		if !ok {
			if omitted != nil && omitted(name) {
				continue
			}
			return smdpath.PathElement{}, name, false
		}
		key = append(key, value.Field{Name: name, Value: value.NewValueInterface(v)})
	}
	return smdpath.PathElement{Key: &key}, "", true
}

// KeyNames are the key field names of pe, an element naming a list item by its keys, in
// their order; nil when pe names no item by keys.
func KeyNames(pe smdpath.PathElement) []string {
	if pe.Key == nil {
		return nil
	}
	names := make([]string, len(*pe.Key))
	for i, f := range *pe.Key {
		names[i] = f.Name
	}
	return names
}
