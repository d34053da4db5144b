package celrules

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/ssa-diff/ssa-diff/internal/formats"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"k8s.io/apimachinery/pkg/api/equality"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// metaSchemas caches WithTypeAndObjectMeta of the schemas that need it (embedded resources),
// so that reading a value does not rebuild them; server is the kube-apiserver minor whose
// values they are.
type metaSchemas struct {
	server kube.Minor
	mu     sync.Mutex
	m      map[*crdschema.Schema]*crdschema.Schema
}

// rawLists: + on lists, and == on list-type set and map lists, work on the lists' raw
// (decoded JSON) elements, as before 1.37 (k8s.io/apiserver pkg/cel/common
// valuesunstructured.go; 1.37 works on their CEL values).
func (c *metaSchemas) rawLists() bool { return c != nil && c.server.Before(37) }

func (c *metaSchemas) of(s *crdschema.Schema) *crdschema.Schema {
	if c == nil {
		return WithTypeAndObjectMeta(s)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if w, ok := c.m[s]; ok {
		return w
	}
	if c.m == nil {
		c.m = map[*crdschema.Schema]*crdschema.Schema{}
	}
	w := WithTypeAndObjectMeta(s)
	c.m[s] = w
	return w
}

// toVal is the CEL value of v under schema s.
func toVal(v any, s *crdschema.Schema, meta *metaSchemas) ref.Val {
	if v == nil {
		if s.Nullable {
			return types.NullValue
		}
		return types.NewErr("invalid data, got null for schema with nullable=false")
	}
	if s.XIntOrString {
		switch x := v.(type) {
		case string:
			return types.String(x)
		case int:
			return types.Int(x)
		case int32:
			return types.Int(x)
		case int64:
			return types.Int(x)
		}
		return types.NewErr("invalid data, expected XIntOrString value to be either a string or integer")
	}
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return types.NewErr("invalid data, expected a map for the provided schema with type=object")
		}
		if s.XEmbeddedResource || s.Properties != nil {
			if s.XEmbeddedResource {
				s = meta.of(s)
			}
			return &objectVal{value: m, schema: s, meta: meta, props: true}
		}
		if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil {
			return &objectVal{value: m, schema: s, meta: meta, values: ap.Schema}
		}
		return &objectVal{value: m, schema: s, meta: meta}
	case "array":
		l, ok := v.([]any)
		if !ok {
			return types.NewErr("invalid data, expected an array for the provided schema with type=array")
		}
		if s.Items == nil {
			return types.NewErr("invalid array type, expected Items with a non-empty Schema")
		}
		list := listVal{elements: l, items: s.Items, meta: meta}
		if s.XListType != nil {
			switch *s.XListType {
			case "map":
				return &mapListVal{listVal: list, keys: escapeKeys(s.XListMapKeys)}
			case "set":
				return &setListVal{listVal: list}
			case "atomic":
				return &list
			default:
				return types.NewErr("invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got %s", *s.XListType)
			}
		}
		return &list
	case "string":
		str, ok := v.(string)
		if !ok {
			return types.NewErr("invalid data, expected string, got %T", v)
		}
		switch s.Format {
		case "duration":
			d, err := formats.ParseDuration(str)
			if err != nil {
				return types.NewErr("Invalid duration %s: %v", str, err)
			}
			return types.Duration{Duration: d}
		case "date":
			d, err := time.Parse("2006-01-02", str)
			if err != nil {
				return types.NewErr("Invalid date formatted string %s: %v", str, err)
			}
			return types.Timestamp{Time: d}
		case "date-time":
			d, err := parseDateTime(str)
			if err != nil {
				return types.NewErr("Invalid date-time formatted string %s: %v", str, err)
			}
			return types.Timestamp{Time: d}
		case "byte":
			b, err := decodeBase64URL(str)
			if err != nil {
				return types.NewErr("Invalid byte formatted string %s: %v", str, err)
			}
			return types.Bytes(b)
		}
		return types.String(str)
	case "number":
		switch x := v.(type) {
		case int:
			return types.Double(x)
		case int32:
			return types.Double(x)
		case int64:
			return types.Double(x)
		case float32:
			return types.Double(x)
		case float64:
			return types.Double(x)
		}
		return types.NewErr("invalid data, expected float, got %T", v)
	case "integer":
		switch x := v.(type) {
		case int:
			return types.Int(x)
		case int32:
			return types.Int(x)
		case int64:
			return types.Int(x)
		}
		return types.NewErr("invalid data, expected int, got %T", v)
	case "boolean":
		b, ok := v.(bool)
		if !ok {
			return types.NewErr("invalid data, expected bool, got %T", v)
		}
		return types.Bool(b)
	}
	if s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields {
		return &preservedVal{v: v}
	}
	return types.NewErr("invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got %s", s.Type)
}

// parseDateTime reads a date-time in the layouts the server's date-time format accepts,
// returning the last layout's error when none fits.
func parseDateTime(s string) (time.Time, error) {
	if s == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	var last error
	for _, layout := range []string{"2006-01-02T15:04:05.000000Z07:00", "2006-01-02T15:04:05.000Z07:00", time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04:05"} {
		t, err := time.Parse(layout, s)
		if err == nil {
			return t, nil
		}
		last = err
	}
	return time.Time{}, last
}

// preservedVal is a value under x-kubernetes-preserve-unknown-fields without a type: it can
// only be compared.
type preservedVal struct{ v any }

func (p *preservedVal) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion to '%s' not supported for values preserved by x-kubernetes-preserve-unknown-fields", t)
}

func (p *preservedVal) ConvertToType(t ref.Type) ref.Val {
	return types.NewErr("type conversion to '%s' not supported for values preserved by x-kubernetes-preserve-unknown-fields", t.TypeName())
}

func (p *preservedVal) Equal(other ref.Val) ref.Val {
	return types.Bool(equality.Semantic.DeepEqual(p.v, other.Value()))
}

func (p *preservedVal) Type() ref.Type { return types.UnknownType }
func (p *preservedVal) Value() any     { return p.v }

// listVal is a list whose items have one schema.
type listVal struct {
	elements []any
	items    *crdschema.Schema
	meta     *metaSchemas
}

var _ traits.Lister = (*listVal)(nil)

func (l *listVal) ConvertToNative(t reflect.Type) (any, error) {
	if t.Kind() == reflect.Slice {
		if l.items.Type == "string" {
			var out []string
			for _, e := range l.elements {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("expected all elements to be of type string, but got %T", e)
				}
				out = append(out, s)
			}
			return out, nil
		}
		return l.elements, nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%s'", l.Type(), t)
}

func (l *listVal) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.ListType:
		return l
	case types.TypeType:
		return types.ListType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", l.Type(), t.TypeName())
}

func (l *listVal) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	n := types.Int(len(l.elements))
	if n != o.Size() {
		return types.False
	}
	for i := types.Int(0); i < n; i++ {
		if eq := l.Get(i).Equal(o.Get(i)); eq != types.True {
			return eq
		}
	}
	return types.True
}

func (l *listVal) Type() ref.Type { return types.ListType }
func (l *listVal) Value() any     { return l.elements }

func (l *listVal) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if l.meta.rawLists() {
		// Before 1.37: the other list's raw values appended, read with this list's item
		// schema.
		return &listVal{elements: appendRaw(l.elements, o), items: l.items, meta: l.meta}
	}
	on, _ := o.Size().(types.Int)
	out := make([]ref.Val, 0, len(l.elements)+int(on))
	for i := range l.elements {
		out = append(out, l.Get(types.Int(i)))
	}
	for it := o.Iterator(); it.HasNext() == types.True; {
		out = append(out, it.Next())
	}
	return types.NewRefValList(types.DefaultTypeAdapter, out)
}

func (l *listVal) Contains(v ref.Val) ref.Val {
	if types.IsUnknownOrError(v) {
		return v
	}
	var errVal ref.Val
	for _, e := range l.elements {
		cmp := toVal(e, l.items, l.meta).Equal(v)
		b, ok := cmp.(types.Bool)
		if !ok && errVal == nil {
			errVal = types.MaybeNoSuchOverloadErr(cmp)
		}
		if b == types.True {
			return types.True
		}
	}
	if errVal != nil {
		return errVal
	}
	return types.False
}

func (l *listVal) Get(idx ref.Val) ref.Val {
	i, ok := idx.(types.Int)
	if !ok {
		return types.ValOrErr(idx, "unsupported index: %v", idx)
	}
	if i < 0 || int(i) >= len(l.elements) {
		return types.NewErr("index out of bounds: %v", idx)
	}
	return toVal(l.elements[i], l.items, l.meta)
}

func (l *listVal) Iterator() traits.Iterator {
	items := make([]ref.Val, len(l.elements))
	for i, e := range l.elements {
		items[i] = toVal(e, l.items, l.meta)
	}
	return &valIterator{vals: items}
}

func (l *listVal) Size() ref.Val { return types.Int(len(l.elements)) }

// appendRaw is elements followed by the raw values of other's elements.
func appendRaw(elements []any, other traits.Lister) []any {
	out := append(make([]any, 0, len(elements)), elements...)
	for it := other.Iterator(); it.HasNext() == types.True; {
		out = append(out, it.Next().Value())
	}
	return out
}

// valIterator iterates over values (a list's items, a map's keys).
type valIterator struct {
	vals []ref.Val
	i    int
}

func (it *valIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.vals)) }

func (it *valIterator) Next() ref.Val {
	v := it.vals[it.i]
	it.i++
	return v
}

func (it *valIterator) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion on iterators not supported")
}
func (it *valIterator) ConvertToType(t ref.Type) ref.Val { return types.NewErr("no such overload") }
func (it *valIterator) Equal(ref.Val) ref.Val            { return types.NewErr("no such overload") }
func (it *valIterator) Type() ref.Type                   { return types.IteratorType }
func (it *valIterator) Value() any                       { return nil }

// mapListVal is an x-kubernetes-list-type: map list: equal to another list with the same
// items by key, whatever their order; + replaces items of the same key.
type mapListVal struct {
	listVal
	keys  []string
	once  sync.Once
	byKey map[any]any
}

func (l *mapListVal) index() map[any]any {
	l.once.Do(func() {
		l.byKey = make(map[any]any, len(l.elements))
		for _, e := range l.elements {
			l.byKey[l.rawKey(e)] = e
		}
	})
	return l.byKey
}

// rawKey is the key of an item as it is stored (its key values).
func (l *mapListVal) rawKey(e any) any {
	m, ok := e.(map[string]any)
	if !ok {
		return types.NewErr("unexpected data format for element of array with x-kubernetes-list-type=map: %T", e)
	}
	switch len(l.keys) {
	case 1:
		return m[l.keys[0]]
	case 2:
		return [2]any{m[l.keys[0]], m[l.keys[1]]}
	case 3:
		return [3]any{m[l.keys[0]], m[l.keys[1]], m[l.keys[2]]}
	}
	key := make([]any, len(l.keys))
	for i, k := range l.keys {
		key[i] = m[k]
	}
	if l.meta.rawLists() {
		// Before 1.37, %v: keys whose values differ only in where spaces fall collide.
		return fmt.Sprintf("%v", key)
	}
	return fmt.Sprintf("%#v", key)
}

func (l *mapListVal) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if types.Int(len(l.elements)) != o.Size() {
		return types.False
	}
	idx := l.index()
	seen := make(map[any]struct{}, len(idx))
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := l.rawKey(v.Value())
		mine, ok := idx[k]
		if !ok {
			return types.False
		}
		if eq := toVal(mine, l.items, l.meta).Equal(v); eq != types.True {
			return eq
		}
		seen[k] = struct{}{}
	}
	// Before 1.37, the other list's items need only all be found (repeated keys pass).
	return types.Bool(l.meta.rawLists() || len(seen) == len(idx))
}

func (l *mapListVal) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if l.meta.rawLists() {
		return l.addRaw(o)
	}
	elems := make([]ref.Val, len(l.elements))
	for i := range l.elements {
		elems[i] = l.Get(types.Int(i))
	}
	return mergeMapList(elems, o, l.keys)
}

// addRaw is + before 1.37: the other list's raw values merged by key (a value that is not
// a decoded JSON object, a CEL map literal say, has no key and is appended), the result a
// map list of this list's schema.
func (l *mapListVal) addRaw(o traits.Lister) ref.Val {
	elements := append(make([]any, 0, len(l.elements)), l.elements...)
	pos := map[any]int{}
	for i, e := range l.elements {
		pos[l.rawKey(e)] = i
	}
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next().Value()
		if i, ok := pos[l.rawKey(v)]; ok {
			elements[i] = v
		} else {
			elements = append(elements, v)
		}
	}
	return &mapListVal{listVal: listVal{elements: elements, items: l.items, meta: l.meta}, keys: l.keys}
}

// setListVal is an x-kubernetes-list-type: set list: equal to another list with the same
// elements, whatever their order; + appends only new elements.
type setListVal struct {
	listVal
	once   sync.Once
	set    map[any]struct{}
	setErr ref.Val
	// rawOnce and raw: the set of raw elements before 1.37.
	rawOnce sync.Once
	raw     map[any]struct{}
}

func (l *setListVal) elements() (map[any]struct{}, ref.Val) {
	l.once.Do(func() {
		l.set = make(map[any]struct{}, len(l.listVal.elements))
		for i := range l.listVal.elements {
			k, err := setKey(l.Get(types.Int(i)))
			if err != nil {
				l.set, l.setErr = nil, err
				return
			}
			l.set[k] = struct{}{}
		}
	})
	return l.set, l.setErr
}

func (l *setListVal) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if types.Int(len(l.listVal.elements)) != o.Size() {
		return types.False
	}
	if l.meta.rawLists() {
		// Before 1.37: every raw value of the other list is one of this list's raw
		// elements (a value that cannot be a Go map key panics, as on the server).
		mine := l.rawSet()
		for it := o.Iterator(); it.HasNext() == types.True; {
			if _, ok := mine[it.Next().Value()]; !ok {
				return types.False
			}
		}
		return types.True
	}
	mine, err := l.elements()
	if err != nil {
		return err
	}
	return sameSet(mine, o)
}

func sameSet(mine map[any]struct{}, o traits.Lister) ref.Val {
	seen := make(map[any]struct{}, len(mine))
	for it := o.Iterator(); it.HasNext() == types.True; {
		k, err := setKey(it.Next())
		if err != nil {
			return err
		}
		if _, ok := mine[k]; !ok {
			return types.False
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(mine))
}

func (l *setListVal) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if l.meta.rawLists() {
		// Before 1.37: the other list's raw values not in this list's set appended, and
		// added to the set this list keeps (the server adds them to its own cache).
		set := l.rawSet()
		elements := append(make([]any, 0, len(l.listVal.elements)), l.listVal.elements...)
		for it := o.Iterator(); it.HasNext() == types.True; {
			v := it.Next().Value()
			if _, ok := set[v]; !ok {
				set[v] = struct{}{}
				elements = append(elements, v)
			}
		}
		return &setListVal{listVal: listVal{elements: elements, items: l.items, meta: l.meta}}
	}
	elems := make([]ref.Val, len(l.listVal.elements))
	for i := range l.listVal.elements {
		elems[i] = l.Get(types.Int(i))
	}
	return mergeSetList(elems, o)
}

// rawSet is the set of the list's raw elements, built once (before 1.37).
func (l *setListVal) rawSet() map[any]struct{} {
	l.rawOnce.Do(func() {
		l.raw = make(map[any]struct{}, len(l.listVal.elements))
		for _, e := range l.listVal.elements {
			l.raw[e] = struct{}{}
		}
	})
	return l.raw
}

// setKey is an element's identity in a set: its value, or its printed form when the value
// cannot be a map key; lists and maps cannot be set elements.
func setKey(v ref.Val) (any, ref.Val) {
	switch v.(type) {
	case traits.Lister, traits.Mapper:
		return nil, types.NewErr("listSet operations are only supported on lists of scalar values")
	}
	raw := v.Value()
	if raw != nil && !reflect.TypeOf(raw).Comparable() {
		return fmt.Sprintf("%#v", raw), nil
	}
	return raw, nil
}

func mergeSetList(elems []ref.Val, other traits.Lister) ref.Val {
	set := make(map[any]struct{}, len(elems))
	for _, e := range elems {
		k, err := setKey(e)
		if err != nil {
			return err
		}
		set[k] = struct{}{}
	}
	for it := other.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k, err := setKey(v)
		if err != nil {
			return err
		}
		if _, ok := set[k]; !ok {
			set[k] = struct{}{}
			elems = append(elems, v)
		}
	}
	return &concatSetList{Lister: types.NewRefValList(types.DefaultTypeAdapter, elems)}
}

// concatSetList is the result of + on a set list.
type concatSetList struct{ traits.Lister }

func (l *concatSetList) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return mergeSetList(listElems(l), o)
}

func (l *concatSetList) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	n, _ := l.Size().(types.Int)
	if n != o.Size() {
		return types.False
	}
	set := make(map[any]struct{}, int(n))
	for i := types.Int(0); i < n; i++ {
		k, err := setKey(l.Get(i))
		if err != nil {
			return err
		}
		set[k] = struct{}{}
	}
	return sameSet(set, o)
}

func listElems(l traits.Lister) []ref.Val {
	n, _ := l.Size().(types.Int)
	out := make([]ref.Val, int(n))
	for i := types.Int(0); i < n; i++ {
		out[i] = l.Get(i)
	}
	return out
}

// valKey is a map-list item's key read through CEL (as + and == on results of + see them).
func valKey(e ref.Val, keys []string) any {
	get := func(k string) any {
		key := types.String(k)
		var v ref.Val
		found := false
		switch x := e.(type) {
		case traits.Mapper:
			v, found = x.Find(key)
		case traits.Indexer:
			if t, ok := e.(traits.FieldTester); ok {
				found = t.IsSet(key) == types.True
			}
			if found {
				v = x.Get(key)
			}
		}
		if !found || v == nil || types.IsUnknownOrError(v) {
			return nil
		}
		raw := v.Value()
		if raw != nil && !reflect.TypeOf(raw).Comparable() {
			return fmt.Sprintf("%#v", raw)
		}
		return raw
	}
	switch len(keys) {
	case 1:
		return get(keys[0])
	case 2:
		return [2]any{get(keys[0]), get(keys[1])}
	case 3:
		return [3]any{get(keys[0]), get(keys[1]), get(keys[2])}
	}
	key := make([]any, len(keys))
	for i, k := range keys {
		key[i] = get(k)
	}
	return fmt.Sprintf("%#v", key)
}

func mergeMapList(elems []ref.Val, other traits.Lister, keys []string) ref.Val {
	pos := make(map[any]int, len(elems))
	for i, e := range elems {
		pos[valKey(e, keys)] = i
	}
	for it := other.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := valKey(v, keys)
		if i, ok := pos[k]; ok {
			elems[i] = v
		} else {
			elems = append(elems, v)
		}
	}
	return &concatMapList{Lister: types.NewRefValList(types.DefaultTypeAdapter, elems), keys: keys}
}

// concatMapList is the result of + on a map list.
type concatMapList struct {
	traits.Lister
	keys []string
}

func (l *concatMapList) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return mergeMapList(listElems(l), o, l.keys)
}

func (l *concatMapList) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	n, _ := l.Size().(types.Int)
	if n != o.Size() {
		return types.False
	}
	byKey := make(map[any]ref.Val, int(n))
	for i := types.Int(0); i < n; i++ {
		e := l.Get(i)
		byKey[valKey(e, l.keys)] = e
	}
	seen := make(map[any]struct{}, int(n))
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := valKey(v, l.keys)
		e, ok := byKey[k]
		if !ok {
			return types.False
		}
		if eq := e.Equal(v); eq != types.True {
			return eq
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(byKey))
}

func escapeKeys(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		if e, ok := apiservercel.Escape(k); ok {
			out[i] = e
		} else {
			out[i] = k
		}
	}
	return out
}

// objectVal is an object (props: its declared properties are its fields, names escaped as
// CEL identifiers), a map (values: every key has the additionalProperties schema), or a map
// without a schema for its values (neither: no key can be read).
type objectVal struct {
	value  map[string]any
	schema *crdschema.Schema
	meta   *metaSchemas
	props  bool
	values *crdschema.Schema
}

var _ traits.Mapper = (*objectVal)(nil)

func (o *objectVal) propSchema(k string) (*crdschema.Schema, bool) {
	if o.props {
		s, ok := o.schema.Properties[k]
		return s, ok
	}
	if o.values != nil {
		return o.values, true
	}
	return nil, false
}

// isObject: the server's test for escaping keys is whether the schema has properties.
func (o *objectVal) isObject() bool { return o.schema.Properties != nil }

func (o *objectVal) ConvertToNative(t reflect.Type) (any, error) {
	if t.Kind() == reflect.Map {
		return o.value, nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%s'", o.Type(), t)
}

func (o *objectVal) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.MapType:
		return o
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", o.Type(), t.TypeName())
}

func (o *objectVal) Equal(other ref.Val) ref.Val {
	om, ok := other.(traits.Mapper)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if o.Size() != om.Size() {
		return types.False
	}
	for k, v := range o.value {
		if _, ok := o.propSchema(k); ok {
			mine, found := o.Find(types.String(k))
			theirs, oFound := om.Find(types.String(k))
			if found != oFound {
				return types.False
			}
			if !found {
				continue
			}
			if eq := mine.Equal(theirs); eq != types.True {
				return eq
			}
			continue
		}
		ou, ok := other.(*objectVal)
		if !ok {
			return types.MaybeNoSuchOverloadErr(other)
		}
		if ov, ok := ou.value[k]; ok && !equality.Semantic.DeepEqual(v, ov) {
			return types.False
		}
	}
	return types.True
}

func (o *objectVal) Type() ref.Type { return types.MapType }
func (o *objectVal) Value() any     { return o.value }

func (o *objectVal) Contains(key ref.Val) ref.Val {
	v, found := o.Find(key)
	if v != nil && types.IsUnknownOrError(v) {
		return v
	}
	return types.Bool(found)
}

func (o *objectVal) Get(key ref.Val) ref.Val {
	if v, found := o.Find(key); found {
		return v
	}
	return types.ValOrErr(key, "no such key: %v", key)
}

func (o *objectVal) Iterator() traits.Iterator {
	obj := o.isObject()
	keys := make([]ref.Val, 0, len(o.value))
	for k := range o.value {
		if _, ok := o.propSchema(k); !ok {
			continue
		}
		name := k
		if obj {
			if e, ok := apiservercel.Escape(k); ok {
				name = e
			}
		}
		keys = append(keys, types.String(name))
	}
	return &valIterator{vals: keys}
}

func (o *objectVal) Size() ref.Val { return types.Int(len(o.value)) }

func (o *objectVal) Find(key ref.Val) (ref.Val, bool) {
	ks, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key), true
	}
	k := string(ks)
	obj := o.isObject()
	if obj {
		if k, ok = apiservercel.Unescape(k); !ok {
			return nil, false
		}
	}
	v, ok := o.value[k]
	if !ok || (obj && v == nil) {
		return nil, false
	}
	if s, ok := o.propSchema(k); ok {
		return toVal(v, s, o.meta), true
	}
	return nil, false
}

// decodeBase64URL decodes as the server's byte format reads a value: URL-safe base64.
func decodeBase64URL(s string) ([]byte, error) {
	enc := base64.URLEncoding
	buf := make([]byte, enc.DecodedLen(len(s)))
	n, err := enc.Decode(buf, []byte(s))
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}
