package api

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// mirrorPrefix is the import path prefix of the generated mirror types, whose fields carry
// `ext` tags; other struct types (apimachinery's ObjectMeta, Time, Quantity …) decode from
// their JSON as the server decodes them.
const mirrorPrefix = "github.com/ssa-diff/ssa-diff/internal/api/"

// Decode converts obj, an object at its group's served version as decoded JSON (objects as
// map[string]any, arrays as []any, numbers as int64, float64 or json.Number), into out, a
// pointer to the kind's internal type. Fields out's type does not declare are ignored (the
// engine has checked the object against its schema); a value of the wrong JSON type is an
// error naming its path.
func Decode(obj map[string]any, out any) error {
	return decode(obj, out, decoder{})
}

// DecodeToValidate is Decode for the registry's validation, which reads of the object's own
// metadata.managedFields entries the manager, operation, fieldsType and subresource, never
// the fields (apimachinery's ValidateManagedFields; the declarative rules of 1.38 are alpha
// and not enforced): the fieldsV1 of those entries is not made into text, and their FieldsV1
// is nil. A fieldsV1 that Decode could not write as text is refused as Decode refuses it.
// The managedFields of metadata inside the object (a pod template's) decode as Decode
// decodes them: a rule comparing two templates compares them too.
func DecodeToValidate(obj map[string]any, out any) error {
	return decode(obj, out, decoder{ownFieldsLeft: true})
}

func decode(obj map[string]any, out any, d decoder) error {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("decode: want a non-nil pointer, got %T", out)
	}
	if obj["apiVersion"] == "events.k8s.io/v1" && obj["kind"] == "Event" {
		obj = eventAsCoreV1(obj)
	}
	if err := d.value(obj, v.Elem(), planOf(v.Elem().Type())); err != nil {
		return err
	}
	return convert(obj, out)
}

type decoder struct {
	path []step // where the value being decoded is; made into text only for an error
	// ownFieldsLeft: the fieldsV1 of the object's own managedFields entries are checked,
	// not decoded (DecodeToValidate).
	ownFieldsLeft bool
}

// step is one step of a path: a member ".name" or an item "[index]".
type step struct {
	member string // with its leading "."
	index  int
}

func (d *decoder) errorf(format string, args ...any) error {
	var b strings.Builder
	for _, s := range d.path {
		if s.member != "" {
			b.WriteString(s.member)
		} else {
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		}
	}
	p := b.String()
	if p == "" {
		p = "."
	}
	return fmt.Errorf("%s: %s", p, fmt.Sprintf(format, args...))
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	byteSlice       = reflect.TypeFor[[]byte]()
	// Conversion to the internal version leaves the kind and apiVersion of objects empty.
	typeMeta = reflect.TypeFor[metav1.TypeMeta]()
	// objectMeta decodes through objectMeta: its managedFields hold most of its text.
	objectMeta = reflect.TypeFor[metav1.ObjectMeta]()
)

// how says how a Go type decodes, in the order value tells them apart.
type how int

const (
	skipped    how = iota // metav1.TypeMeta
	viaMeta               // metav1.ObjectMeta: objectMeta
	viaJSONOf             // a type that decodes itself, or a struct of another package
	pointer               // a pointer: its element, allocated
	mirror                // a generated struct: by its fields' ext tags
	base64Text            // []byte and other byte slices: base64
	slice
	stringMapOf // a map with string keys
	badMapKey   // a map whose keys are not strings
	text
	boolean
	signed
	unsigned
	float
	anyValue
	unknown
)

// plan is what Decode needs to know about a Go type, worked out once per type: which way it
// decodes, the plan of its elements (pointers, slices, maps), and for a generated struct its
// decoded fields in declaration order (the first field in error is the one reported).
//
// A plan is worked out as far as the values decoded need it: the element's plan when the
// first element is decoded, a struct's fields when the first object of it is, a field's plan
// when the field is first present. A Deployment's Go type holds some 300 types, of which a
// manifest uses a few dozen; building them all by reflection was 8% of a small prediction's
// instructions.
type plan struct {
	how    how
	t      reflect.Type
	elem   atomic.Pointer[plan]
	fields atomic.Pointer[fieldSet]
}

// fieldSet is a mirror struct's decoded fields.
type fieldSet struct {
	list []fieldPlan // in declaration order
	// byName indexes list by JSON name; nil when the struct has an inline field or two
	// fields of one name, which only declaration order decodes.
	byName map[string]int
}

type fieldPlan struct {
	index  int
	name   string // the served version's JSON name; "" for an inline field
	member string // "." + name, the path step
	typ    reflect.Type
	plan   *atomic.Pointer[plan] // the field's plan, once the field was present
}

// plans holds the plan of every Go type decoded so far, as encoding/json keeps its facts
// about types: a type never changes, so neither does its plan, and decoding object after
// object of the same kinds no longer reads their struct tags by reflection (two thirds of
// a Deployment's validation went there). Nothing about a decoding depends on what it holds.
var plans sync.Map // reflect.Type -> *plan

// planOf is t's plan: the one plans holds, or a new one with only its way to decode (two
// goroutines may both make one: the first stored is the one used).
func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p, _ := plans.LoadOrStore(t, &plan{how: howOf(t), t: t})
	return p.(*plan)
}

// elemPlan is the plan of a pointer's, slice's or map's element.
func (p *plan) elemPlan() *plan {
	if e := p.elem.Load(); e != nil {
		return e
	}
	e := planOf(p.t.Elem())
	p.elem.Store(e)
	return e
}

// fieldPlan's plan: the plan of the field's type.
func (f *fieldPlan) planOf() *plan {
	if fp := f.plan.Load(); fp != nil {
		return fp
	}
	fp := planOf(f.typ)
	f.plan.Store(fp)
	return fp
}

// fieldSet is a mirror struct's decoded fields. Two goroutines may both work them out, the
// same: each uses its own until one is kept.
func (p *plan) fieldSet() *fieldSet {
	if fs := p.fields.Load(); fs != nil {
		return fs
	}
	fs := &fieldSet{list: mirrorFields(p.t), byName: map[string]int{}}
	for i, f := range fs.list {
		if _, seen := fs.byName[f.name]; seen || f.name == "" {
			fs.byName = nil
			break
		}
		fs.byName[f.name] = i
	}
	p.fields.CompareAndSwap(nil, fs)
	return p.fields.Load()
}

// mirrorFields are the fields of a generated struct that carry an ext tag.
func mirrorFields(t reflect.Type) []fieldPlan {
	// The members' path steps (".name") are cut from one string per type: one allocation
	// per type, not one per field.
	type member struct {
		index int
		name  string // "" inline
		typ   reflect.Type
	}
	n := t.NumField()
	ms := make([]member, 0, n)
	size := 0
	for i := 0; i < n; i++ {
		f := t.Field(i)
		switch name := f.Tag.Get("ext"); name {
		case "-", "":
		case ",inline":
			ms = append(ms, member{index: i, typ: f.Type})
		default:
			ms = append(ms, member{index: i, name: name, typ: f.Type})
			size += 1 + len(name)
		}
	}
	var b strings.Builder
	b.Grow(size)
	for _, m := range ms {
		if m.name != "" {
			b.WriteByte('.')
			b.WriteString(m.name)
		}
	}
	steps := b.String()
	fs := make([]fieldPlan, len(ms))
	ps := make([]atomic.Pointer[plan], len(ms))
	for k, m := range ms {
		fs[k] = fieldPlan{index: m.index, name: m.name, typ: m.typ, plan: &ps[k]}
		if m.name != "" {
			fs[k].member, steps = steps[:1+len(m.name)], steps[1+len(m.name):]
		}
	}
	return fs
}

func howOf(t reflect.Type) how {
	if t == typeMeta {
		return skipped
	}
	if t == objectMeta {
		return viaMeta
	}
	if t.Kind() != reflect.Pointer && !mirrored(t) && reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return viaJSONOf
	}
	switch t.Kind() {
	case reflect.Pointer:
		return pointer
	case reflect.Struct:
		if !mirrored(t) {
			return viaJSONOf
		}
		return mirror
	case reflect.Slice:
		if t == byteSlice || t.Elem().Kind() == reflect.Uint8 {
			return base64Text
		}
		return slice
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return badMapKey
		}
		return stringMapOf
	case reflect.String:
		return text
	case reflect.Bool:
		return boolean
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return signed
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return unsigned
	case reflect.Float32, reflect.Float64:
		return float
	case reflect.Interface:
		return anyValue
	}
	return unknown
}

// value decodes src into dst, which holds the zero value of its type; p is the type's plan.
func (d *decoder) value(src any, dst reflect.Value, p *plan) error {
	if src == nil {
		return nil // null leaves the zero value, as encoding/json does
	}
	t := dst.Type()
	switch p.how {
	case skipped:
		return nil
	case viaMeta:
		return d.objectMeta(src, dst)
	case viaJSONOf:
		return d.viaJSON(src, dst)
	case pointer:
		elem := reflect.New(t.Elem())
		if err := d.value(src, elem.Elem(), p.elemPlan()); err != nil {
			return err
		}
		dst.Set(elem)
		return nil
	case mirror:
		m, ok := src.(map[string]any)
		if !ok {
			return d.errorf("want an object, got %s", jsonType(src))
		}
		return d.fields(m, dst, p)
	case base64Text:
		s, ok := src.(string)
		if !ok {
			return d.errorf("want a base64 string, got %s", jsonType(src))
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return d.errorf("%v", err)
		}
		dst.SetBytes(b)
		return nil
	case slice:
		list, ok := src.([]any)
		if !ok {
			return d.errorf("want an array, got %s", jsonType(src))
		}
		out := reflect.MakeSlice(t, len(list), len(list))
		for i, item := range list {
			d.path = append(d.path, step{index: i})
			err := d.value(item, out.Index(i), p.elemPlan())
			d.path = d.path[:len(d.path)-1]
			if err != nil {
				return err
			}
		}
		dst.Set(out)
		return nil
	case stringMapOf, badMapKey:
		m, ok := src.(map[string]any)
		if !ok {
			return d.errorf("want an object, got %s", jsonType(src))
		}
		out := reflect.MakeMapWithSize(t, len(m))
		for k, item := range m {
			if p.how == badMapKey {
				return d.errorf("map keys of %s are not strings", t)
			}
			key := reflect.New(t.Key()).Elem()
			key.SetString(k)
			val := reflect.New(t.Elem()).Elem()
			d.path = append(d.path, step{member: "." + k})
			err := d.value(item, val, p.elemPlan())
			d.path = d.path[:len(d.path)-1]
			if err != nil {
				return d.firstMemberError(m, t.Elem(), p.elemPlan())
			}
			out.SetMapIndex(key, val)
		}
		dst.Set(out)
		return nil
	case text:
		s, ok := src.(string)
		if !ok {
			return d.errorf("want a string, got %s", jsonType(src))
		}
		dst.SetString(s)
		return nil
	case boolean:
		b, ok := src.(bool)
		if !ok {
			return d.errorf("want a boolean, got %s", jsonType(src))
		}
		dst.SetBool(b)
		return nil
	case signed:
		n, err := d.integer(src)
		if err != nil {
			return err
		}
		if dst.OverflowInt(n) {
			return d.errorf("%d overflows %s", n, t)
		}
		dst.SetInt(n)
		return nil
	case unsigned:
		n, err := d.integer(src)
		if err != nil {
			return err
		}
		if n < 0 || dst.OverflowUint(uint64(n)) {
			return d.errorf("%d overflows %s", n, t)
		}
		dst.SetUint(uint64(n))
		return nil
	case float:
		f, err := number(src)
		if err != nil {
			return d.errorf("%v", err)
		}
		dst.SetFloat(f)
		return nil
	case anyValue:
		dst.Set(reflect.ValueOf(src))
		return nil
	}
	return d.errorf("cannot decode into %s", t)
}

// firstMemberError is the error of the first member of m, in key order, whose value does not
// decode into elem: members are met in Go's random map order, and the same input must
// always be answered with the same message.
func (d *decoder) firstMemberError(m map[string]any, elem reflect.Type, p *plan) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		d.path = append(d.path, step{member: "." + k})
		err := d.value(m[k], reflect.New(elem).Elem(), p)
		d.path = d.path[:len(d.path)-1]
		if err != nil {
			return err
		}
	}
	return fmt.Errorf("a member of %s did not decode, then did", reflect.MapOf(reflect.TypeOf(""), elem))
}

// fields decodes the members of a JSON object into a mirror struct by the fields' ext tags.
//
// An object with few of the struct's fields (a PodSpec declares some 40, a manifest's has
// a handful) is decoded member by member, found by name, rather than looking each declared
// field up in it; the first member in error then makes it decode again in declaration
// order, so that the error is the first field's, as always.
func (d *decoder) fields(m map[string]any, dst reflect.Value, p *plan) error {
	set := p.fieldSet()
	if set.byName != nil && 2*len(m) < len(set.list) {
		failed := false
		for k, v := range m {
			i, ok := set.byName[k]
			if !ok {
				continue
			}
			f := &set.list[i]
			d.path = append(d.path, step{member: f.member})
			err := d.value(v, dst.Field(f.index), f.planOf())
			d.path = d.path[:len(d.path)-1]
			if err != nil {
				failed = true
				break
			}
		}
		if !failed {
			return nil
		}
		dst.SetZero()
	}
	fs := set.list
	for i := range fs {
		f := &fs[i]
		if f.name == "" { // inline
			if err := d.value(m, dst.Field(f.index), f.planOf()); err != nil {
				return err
			}
			continue
		}
		v, ok := m[f.name]
		if !ok {
			continue
		}
		d.path = append(d.path, step{member: f.member})
		err := d.value(v, dst.Field(f.index), f.planOf())
		d.path = d.path[:len(d.path)-1]
		if err != nil {
			return err
		}
	}
	return nil
}

// objectMeta decodes an object's metadata as viaJSON does, without its JSON text for what
// is most of it: the strings, string maps and lists, and the managedFields entries (their
// fieldsV1 kept as the text the engine holds, json.RawMessage, or made from a tree). What
// is left (times, owner references, other keys) goes through viaJSON, and so does anything
// of an unexpected type, whole, for encoding/json's errors.
func (d *decoder) objectMeta(src any, dst reflect.Value) error {
	m, ok := src.(map[string]any)
	if !ok {
		return d.viaJSON(src, dst)
	}
	meta := dst.Addr().Interface().(*metav1.ObjectMeta)
	rest := make(map[string]any, 4)
	for k, v := range m {
		if v == nil {
			continue // null leaves the zero value
		}
		var ok bool
		switch k {
		case "name":
			meta.Name, ok = v.(string)
		case "generateName":
			meta.GenerateName, ok = v.(string)
		case "namespace":
			meta.Namespace, ok = v.(string)
		case "uid":
			var uid string
			uid, ok = v.(string)
			meta.UID = types.UID(uid)
		case "resourceVersion":
			meta.ResourceVersion, ok = v.(string)
		case "generation":
			var err error
			meta.Generation, err = d.integer(v)
			ok = err == nil
		case "labels":
			meta.Labels, ok = stringMap(v)
		case "annotations":
			meta.Annotations, ok = stringMap(v)
		case "finalizers":
			meta.Finalizers, ok = stringList(v)
		case "managedFields":
			// The object's own metadata is the only ObjectMeta at depth 1.
			meta.ManagedFields, ok = d.managedFields(v, d.ownFieldsLeft && len(d.path) == 1)
		case "creationTimestamp":
			if t, direct := directTime(v); direct {
				meta.CreationTimestamp, ok = t, true
			} else {
				rest[k], ok = v, true
			}
		default:
			rest[k], ok = v, true
		}
		if !ok {
			*meta = metav1.ObjectMeta{}
			return d.viaJSON(src, dst)
		}
	}
	if len(rest) == 0 {
		return nil
	}
	return d.viaJSON(rest, dst)
}

// managedFields decodes the entries of metadata.managedFields; false when one is not as the
// engine makes them. With fieldsLeft their fieldsV1 is only checked: FieldsV1 stays nil.
func (d *decoder) managedFields(v any, fieldsLeft bool) ([]metav1.ManagedFieldsEntry, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	entries := make([]metav1.ManagedFieldsEntry, len(list))
	for i, item := range list {
		e, ok := item.(map[string]any)
		if !ok {
			return nil, false
		}
		for k, v := range e {
			if v == nil {
				continue
			}
			var ok bool
			switch k {
			case "manager":
				entries[i].Manager, ok = v.(string)
			case "operation":
				var op string
				op, ok = v.(string)
				entries[i].Operation = metav1.ManagedFieldsOperationType(op)
			case "apiVersion":
				entries[i].APIVersion, ok = v.(string)
			case "fieldsType":
				entries[i].FieldsType, ok = v.(string)
			case "subresource":
				entries[i].Subresource, ok = v.(string)
			case "time":
				var s string
				// "" and "null" parse as the zero time here but fail as JSON: left to viaJSON.
				if s, ok = v.(string); ok && s != "" && s != "null" {
					var t metav1.Time
					ok = t.UnmarshalQueryParameter(s) == nil
					entries[i].Time = &t
				} else {
					ok = false
				}
			case "fieldsV1":
				if fieldsLeft {
					// Refused where AppendJSON would refuse it, so that the whole metadata
					// goes to viaJSON and its error, as without fieldsLeft.
					_, isText := v.(json.RawMessage)
					ok = isText || fieldsjson.Encodable(v)
					break
				}
				raw, isText := v.(json.RawMessage)
				if !isText {
					// The text encoding/json.Marshal writes, without its reflection.
					b, err := fieldsjson.AppendJSON(nil, v)
					if err != nil {
						return nil, false
					}
					raw = b
				}
				//lint:ignore SA1019 the text is handed over as it is: SetRawBytes and NewFieldsV1 copy it, a copy per entry on the hot path
				entries[i].FieldsV1, ok = &metav1.FieldsV1{Raw: raw}, true
			}
			if !ok {
				return nil, false
			}
		}
	}
	return entries, true
}

// stringMap is a JSON object of strings as a Go map; false when a value is no string.
func stringMap(v any) (map[string]string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		out[k] = s
	}
	return out, true
}

// stringList is a JSON array of strings as a Go slice; false when an item is no string.
func stringList(v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, len(list))
	for i, v := range list {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// viaJSON decodes src through its JSON text, for types that decode themselves
// (Quantity, Time, IntOrString …) and apimachinery's structs.
func (d *decoder) viaJSON(src any, dst reflect.Value) error {
	if direct(src, dst) {
		return nil
	}
	b, err := json.Marshal(src)
	if err != nil {
		return d.errorf("%v", err)
	}
	if err := json.Unmarshal(b, dst.Addr().Interface()); err != nil {
		return d.errorf("%v", err)
	}
	return nil
}

var (
	quantityType      = reflect.TypeFor[resource.Quantity]()
	intOrStringType   = reflect.TypeFor[intstr.IntOrString]()
	timeType          = reflect.TypeFor[metav1.Time]()
	labelSelectorType = reflect.TypeFor[metav1.LabelSelector]()
)

// direct decodes the commonest values viaJSON meets — quantities, int-or-strings and times
// given as strings, int-or-strings given as integers, label selectors of matchLabels only —
// without their JSON text, to exactly what their JSON text decodes to, and reports whether
// it did. It leaves dst alone (and viaJSON to encoding/json) whenever the text could read
// differently: a string that encoding/json would escape or mend, an integer out of range, a
// parse error (for encoding/json's wording), any other member.
func direct(src any, dst reflect.Value) bool {
	switch dst.Type() {
	case quantityType:
		// Quantity.UnmarshalJSON parses the text between the quotes, unescaped.
		s, ok := src.(string)
		if !ok || !plainASCII(s) {
			return false
		}
		q, err := resource.ParseQuantity(strings.TrimSpace(s))
		if err != nil {
			return false
		}
		*dst.Addr().Interface().(*resource.Quantity) = q
		return true
	case intOrStringType:
		switch v := src.(type) {
		case string:
			if !utf8.ValidString(v) {
				return false
			}
			*dst.Addr().Interface().(*intstr.IntOrString) = intstr.IntOrString{Type: intstr.String, StrVal: v}
			return true
		case int64:
			if v < math.MinInt32 || v > math.MaxInt32 {
				return false
			}
			*dst.Addr().Interface().(*intstr.IntOrString) = intstr.IntOrString{Type: intstr.Int, IntVal: int32(v)}
			return true
		}
	case timeType:
		t, ok := directTime(src)
		if ok {
			*dst.Addr().Interface().(*metav1.Time) = t
		}
		return ok
	case labelSelectorType:
		m, ok := src.(map[string]any)
		if !ok || len(m) != 1 {
			return false
		}
		labels, ok := m["matchLabels"].(map[string]any)
		if !ok {
			return false
		}
		out := make(map[string]string, len(labels))
		for k, v := range labels {
			s, ok := v.(string)
			if !ok || !utf8.ValidString(k) || !utf8.ValidString(s) {
				return false
			}
			out[k] = s
		}
		*dst.Addr().Interface().(*metav1.LabelSelector) = metav1.LabelSelector{MatchLabels: out}
		return true
	}
	return false
}

// directTime is what metav1.Time's UnmarshalJSON makes of a string (RFC 3339, in the local
// zone); false for anything else, or a string it would refuse or read differently.
func directTime(src any) (metav1.Time, bool) {
	s, ok := src.(string)
	if !ok || !utf8.ValidString(s) || s == "null" {
		return metav1.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return metav1.Time{}, false
	}
	return metav1.Time{Time: t.Local()}, true
}

// plainASCII reports whether encoding/json writes s between quotes as it is.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

func (d *decoder) integer(src any) (int64, error) {
	switch n := src.(type) {
	case int64:
		return n, nil
	case int:
		return int64(n), nil
	case float64:
		if n != math.Trunc(n) || n < math.MinInt64 || n >= math.MaxInt64 {
			return 0, d.errorf("want an integer, got %v", n)
		}
		return int64(n), nil
	case json.Number:
		i, err := n.Int64()
		if err != nil {
			return 0, d.errorf("want an integer, got %s", n)
		}
		return i, nil
	}
	return 0, d.errorf("want a number, got %s", jsonType(src))
}

func number(src any) (float64, error) {
	switch n := src.(type) {
	case float64:
		return n, nil
	case int64:
		return float64(n), nil
	case int:
		return float64(n), nil
	case json.Number:
		return n.Float64()
	}
	return 0, fmt.Errorf("want a number, got %s", jsonType(src))
}

func mirrored(t reflect.Type) bool {
	return strings.HasPrefix(t.PkgPath(), mirrorPrefix)
}

func jsonType(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, int, float64, json.Number:
		return "a number"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// New returns a new, zero object of the internal type of a built-in kind, given the group,
// version and kind it is served and decoded at ("apps", "v1", "Deployment"); nil when the
// kind has no internal type here.
func New(group, version, kind string) any {
	return newInternal(group, version, kind)
}
