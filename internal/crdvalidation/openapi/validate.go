package openapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-openapi/swag/conv"
	"github.com/ssa-diff/ssa-diff/internal/correlate"
	"github.com/ssa-diff/ssa-diff/internal/formats"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Validator validates values against one schema as a kube-apiserver of one minor does. Its
// pattern cache makes it safe for concurrent use; build one per schema and keep it.
type Validator struct {
	root *crdschema.Schema
	// formats are the server's format rules.
	formats formats.Schemas
	// ranges: numeric values, and bounds, are checked against the range of the node's type
	// and format (kube-openapi as 1.36 pins it); before, the validator was given neither.
	ranges bool
	// structural: the schema as the server rebuilds it from its structural form (defaults
	// are validated so): int-or-string nodes have no type, and formats are kept as written.
	structural bool
	patterns   sync.Map // pattern → patternResult
}

type patternResult struct {
	re  *regexp.Regexp
	err error
}

// New returns a validator for the schema s as a kube-apiserver of minor server validates
// custom resources (nil: everything is valid).
func New(server kube.Minor, s *crdschema.Schema) *Validator {
	// From 1.36 numbers and bounds are checked against the range of their type.
	return &Validator{root: s, formats: formats.SchemasOf(server), ranges: server.AtLeast(36)}
}

// NewStructural returns a validator for s as the server validates the defaults of a CRD:
// from the schema's structural form, where int-or-string nodes have no type and formats are
// not filtered.
func NewStructural(server kube.Minor, s *crdschema.Schema) *Validator {
	v := New(server, s)
	v.structural = true
	return v
}

// Validate checks value (a whole object, or the status of one for a status update) and
// returns the field errors, their paths under fldPath. old is the value the update replaces
// with its correlation (nil on a create): unchanged values that fail are ratcheted.
func (v *Validator) Validate(fldPath *field.Path, value any, corr *correlate.Node) field.ErrorList {
	if v == nil || v.root == nil {
		return nil
	}
	w := walker{v: v}
	var r *result
	if corr != nil {
		r = w.ratcheted(v.root, value, "", corr)
	} else {
		r = w.node(v.root, value, "", nil)
	}
	if r.valid() {
		return nil
	}
	return toFieldErrors(fldPath, r.errs)
}

type walker struct{ v *Validator }

// ratcheted validates a node whose value has a counterpart in the old object: its errors
// are dropped when the value did not change.
func (w walker) ratcheted(s *crdschema.Schema, data any, path string, corr *correlate.Node) *result {
	r := w.node(s, data, path, corr)
	if !r.valid() && corr.Equal() {
		return &result{count: r.count}
	}
	return r
}

// child validates a member or item: ratcheted when it has a counterpart, plain otherwise.
func (w walker) child(s *crdschema.Schema, data any, path string, corr *correlate.Node) *result {
	if corr != nil {
		return w.ratcheted(s, data, path, corr)
	}
	return w.node(s, data, path, nil)
}

type kind int

const (
	kNull kind = iota
	kBool
	kString
	kInt
	kFloat
	kList
	kMap
	kOther
)

func kindOf(d any) kind {
	switch d.(type) {
	case nil:
		return kNull
	case bool:
		return kBool
	case string:
		return kString
	case int64, int, int32:
		return kInt
	case float64, float32:
		return kFloat
	case []any:
		return kList
	case map[string]any:
		return kMap
	}
	return kOther
}

// types is the node's type list as the server's validator sees it.
func types(s *crdschema.Schema) []string {
	if s.XIntOrString {
		return []string{"integer", "string"}
	}
	if s.Type != "" {
		return []string{s.Type}
	}
	return nil
}

func contains(ts []string, t string) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// node runs every check of one schema node on data, in the server's order.
func (w walker) node(s *crdschema.Schema, data any, path string, corr *correlate.Node) *result {
	res := &result{}
	var ts []string
	if w.v.structural {
		if s.Type != "" {
			ts = []string{s.Type}
		}
	} else {
		ts = types(s)
	}
	single := ""
	if len(ts) == 1 {
		single = ts[0]
	}
	format := s.Format
	if !w.v.structural {
		format = w.v.formats.Supported(single, s.Format)
	}
	k := kindOf(data)
	if k == kNull {
		res.merge(w.typeCheck(ts, s.Nullable, format, data, k, path))
		res.merge(enumCheck(s, data, path))
		return res
	}
	if len(ts) > 0 || format != "" {
		res.merge(w.typeCheck(ts, s.Nullable, format, data, k, path))
		res.count++
	}
	res.merge(w.combinators(s, data, path))
	res.count++
	if k == kString {
		res.merge(w.stringCheck(s, data.(string), path))
		res.count++
		if format != "" && formats.Known(format) {
			if !formats.Valid(format, data.(string)) {
				res.add(invalidType(path, format, data))
			}
			res.count++
		}
	}
	if k == kInt || k == kFloat {
		res.merge(numberCheck(s, single, w.v.ranges, data, path))
		res.count++
	}
	if k == kList {
		res.merge(w.listCheck(s, data.([]any), path, corr))
		res.count++
	}
	res.merge(enumCheck(s, data, path))
	res.count++
	if k == kMap {
		res.merge(w.objectCheck(s, data.(map[string]any), path, corr))
		res.count++
	}
	res.count++
	return res
}

func (w walker) typeCheck(ts []string, nullable bool, format string, data any, k kind, path string) *result {
	if k == kNull {
		if len(ts) > 0 && !contains(ts, "null") && !nullable {
			return single(invalidType(path, strings.Join(ts, ","), "null"))
		}
		return &result{count: 1}
	}
	schType, dataFormat := "", ""
	switch k {
	case kBool:
		schType = "boolean"
	case kString:
		schType = "string"
	case kInt:
		schType, dataFormat = "integer", "int64"
	case kFloat:
		schType, dataFormat = "number", "float64"
	case kList:
		schType = "array"
	case kMap:
		schType = "object"
	}
	isFloatInt := schType == "number" && conv.IsFloat64AJSONInteger(toFloat(data)) && contains(ts, "integer")
	isIntFloat := schType == "integer" && contains(ts, "number")
	if k != kString && k != kList && format != "" && !(contains(ts, schType) || dataFormat == format || isFloatInt || isIntFloat) {
		return single(invalidType(path, format, dataFormat))
	}
	if !(contains(ts, "number") || contains(ts, "integer")) && format != "" && (k == kString || k == kList) {
		return &result{count: 1}
	}
	if !(contains(ts, schType) || isFloatInt || isIntFloat) {
		return single(invalidType(path, strings.Join(ts, ","), schType))
	}
	return &result{count: 1}
}

// combinators checks anyOf, oneOf, allOf, not and dependencies. Their subschemas are
// validated without ratcheting, at the node's own path.
func (w walker) combinators(s *crdschema.Schema, data any, path string) *result {
	main := &result{}
	if len(s.AnyOf) > 0 {
		var best, firstOK *result
		ok := false
		for _, sub := range s.AnyOf {
			r := w.node(sub, data, path, nil)
			if r.valid() {
				best, ok = nil, true
				if firstOK == nil {
					firstOK = r
				}
				break
			}
			if best == nil || r.count > best.count {
				best = r
			}
		}
		if !ok {
			main.add(plain("%q must validate at least one schema (anyOf)", path))
		}
		if best != nil {
			main.merge(best)
		} else if firstOK != nil {
			main.merge(firstOK)
		}
	}
	if len(s.OneOf) > 0 {
		var best, firstOK *result
		n := 0
		for _, sub := range s.OneOf {
			r := w.node(sub, data, path, nil)
			if r.valid() {
				n++
				best = nil
				if firstOK == nil {
					firstOK = r
				}
				continue
			}
			if n == 0 && (best == nil || r.count > best.count) {
				best = r
			}
		}
		if n != 1 {
			more := "Found none valid"
			if n > 0 {
				more = fmt.Sprintf("Found %d valid alternatives", n)
			}
			main.add(plain("%q must validate one and only one schema (oneOf). %s", path, more))
			if best != nil {
				main.merge(best)
			}
		} else if firstOK != nil {
			main.merge(firstOK)
		}
	}
	if len(s.AllOf) > 0 {
		n := 0
		for _, sub := range s.AllOf {
			r := w.node(sub, data, path, nil)
			if r.valid() {
				n++
			}
			main.merge(r)
		}
		if n != len(s.AllOf) {
			more := ""
			if n == 0 {
				more = ". None validated"
			}
			main.add(plain("%q must validate all the schemas (allOf)%s", path, more))
		}
	}
	if s.Not != nil {
		if w.node(s.Not, data, path, nil).valid() {
			main.add(plain("%q must not validate the schema (not)", path))
		}
	}
	if m, ok := data.(map[string]any); ok && len(s.Dependencies) > 0 {
		for _, key := range unstructured.SortedKeys(m) {
			dep, ok := s.Dependencies[key]
			if !ok {
				continue
			}
			if dep.Schema != nil {
				main.merge(w.node(dep.Schema, data, path+"."+key, nil))
				continue
			}
			for _, depKey := range dep.Property {
				if _, ok := m[depKey]; !ok {
					main.add(plain("%q has a dependency on %s", path, depKey))
				}
			}
		}
	}
	main.count++
	return main
}

func (w walker) stringCheck(s *crdschema.Schema, data, path string) *result {
	if s.MaxLength != nil && int64(utf8.RuneCountInString(data)) > *s.MaxLength {
		return single(tooLong(path, *s.MaxLength, data))
	}
	if s.MinLength != nil && int64(utf8.RuneCountInString(data)) < *s.MinLength {
		return single(tooShort(path, *s.MinLength, data))
	}
	if s.Pattern != "" {
		re, err := w.v.pattern(s.Pattern)
		if err != nil {
			return single(failedPattern(path, fmt.Sprintf("%s, but pattern is invalid: %s", s.Pattern, err.Error()), data))
		}
		if !re.MatchString(data) {
			return single(failedPattern(path, s.Pattern, data))
		}
	}
	return nil
}

func (v *Validator) pattern(p string) (*regexp.Regexp, error) {
	if c, ok := v.patterns.Load(p); ok {
		pr := c.(patternResult)
		return pr.re, pr.err
	}
	re, err := regexp.Compile(p)
	v.patterns.Store(p, patternResult{re, err})
	return re, err
}

func toFloat(d any) float64 {
	switch x := d.(type) {
	case int64:
		return float64(x)
	case int:
		return float64(x)
	case int32:
		return float64(x)
	case float64:
		return x
	case float32:
		return float64(x)
	}
	return 0
}

func toInt(d any) (int64, bool) {
	switch x := d.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	case int32:
		return int64(x), true
	}
	return 0, false
}

// numberCheck checks multipleOf, minimum and maximum, comparing integers as integers. The
// type and format it checks ranges against are the node's single type with a format of
// that type; bounds that do not fit are reported too. Without ranges (before 1.36) the
// validator has no type and format, and no range check fails.
func numberCheck(s *crdschema.Schema, single string, ranges bool, data any, path string) *result {
	typeName, format := "", ""
	if !ranges {
		single = ""
	}
	switch single {
	case "integer":
		typeName = "integer"
		if s.Format == "int32" || s.Format == "int64" {
			format = s.Format
		}
	case "number":
		typeName = "number"
		if s.Format == "float" || s.Format == "double" {
			format = s.Format
		}
	}
	res, resMultiple, resMin, resMax := &result{}, &result{}, &result{}, &result{}
	f := toFloat(data)
	if e, bad := inRange(data, typeName, format, "Checked", path); bad {
		res.add(e)
	}
	i, isInt := toInt(data)
	if s.MultipleOf != nil {
		m := *s.MultipleOf
		if e, bad := inRange(m, typeName, format, "MultipleOf", path); bad {
			resMultiple.add(e)
			if e, bad := multipleOfFloat(path, f, m); bad {
				resMultiple.add(e)
			}
		} else if isInt {
			factor := int64(m)
			switch {
			case factor <= 0:
				resMultiple.add(multipleOfMustBePositive(path, factor))
			case (i/factor)*factor != i:
				resMultiple.add(notMultipleOf(path, factor, i))
			}
		} else if e, bad := multipleOfFloat(path, f, m); bad {
			resMultiple.add(e)
		}
	}
	if s.Maximum != nil {
		max, ex := *s.Maximum, s.ExclusiveMaximum
		if e, bad := inRange(max, typeName, format, "Maximum boundary", path); bad {
			resMax.add(e)
			if (!ex && f > max) || (ex && f >= max) {
				resMax.add(exceedsMaximum(path, max, ex, f))
			}
		} else if isInt {
			m := int64(max)
			if (!ex && i > m) || (ex && i >= m) {
				resMax.add(exceedsMaximum(path, m, ex, i))
			}
		} else if (!ex && f > max) || (ex && f >= max) {
			resMax.add(exceedsMaximum(path, max, ex, f))
		}
	}
	if s.Minimum != nil {
		min, ex := *s.Minimum, s.ExclusiveMinimum
		if e, bad := inRange(min, typeName, format, "Minimum boundary", path); bad {
			resMin.add(e)
			if (!ex && f < min) || (ex && f <= min) {
				resMin.add(exceedsMinimum(path, min, ex, f))
			}
		} else if isInt {
			m := int64(min)
			if (!ex && i < m) || (ex && i <= m) {
				resMin.add(exceedsMinimum(path, m, ex, i))
			}
		} else if (!ex && f < min) || (ex && f <= min) {
			resMin.add(exceedsMinimum(path, min, ex, f))
		}
	}
	res.merge(resMultiple, resMin, resMax)
	res.count++
	return res
}

func multipleOfFloat(path string, data, factor float64) (verr, bool) {
	if factor <= 0 {
		return multipleOfMustBePositive(path, factor), true
	}
	var mult float64
	if factor < 1 {
		mult = 1 / factor * data
	} else {
		mult = data / factor
	}
	if !conv.IsFloat64AJSONInteger(mult) {
		return notMultipleOf(path, factor, data), true
	}
	return verr{}, false
}

// inRange reports a value (the data or a bound) that the node's numeric type and format
// cannot hold.
func inRange(val any, typeName, format, prefix, path string) (verr, bool) {
	var rep string
	switch x := val.(type) {
	case float64:
		rep = conv.FormatFloat(x)
	case float32:
		rep = conv.FormatFloat(float64(x))
	default:
		n, _ := toInt(val)
		rep = conv.FormatInteger(n)
	}
	var err error
	switch typeName {
	case "integer":
		if format == "int32" {
			_, err = conv.ConvertInteger[int32](rep)
		} else {
			_, err = conv.ConvertInteger[int64](rep)
		}
	default:
		if format == "float" {
			_, err = conv.ConvertFloat[float32](rep)
		}
	}
	if err == nil {
		return verr{}, false
	}
	if format != "" {
		return plain("%s value must be of type %s with format %s in %s", prefix, typeName, format, path), true
	}
	return plain("%s value must be of type %s (default format) in %s", prefix, typeName, path), true
}

func (w walker) listCheck(s *crdschema.Schema, data []any, path string, corr *correlate.Node) *result {
	res := &result{}
	size := int64(len(data))
	if s.Items != nil {
		for i, item := range data {
			var c *correlate.Node
			if corr != nil {
				c = corr.Index(i)
			}
			res.merge(w.child(s.Items, item, fmt.Sprintf("%s[%d]", path, i), c))
		}
	}
	if len(s.ItemsList) > 0 {
		for i, sub := range s.ItemsList {
			if i >= len(data) {
				break
			}
			var c *correlate.Node
			if corr != nil {
				c = corr.Index(i)
			}
			res.merge(w.child(sub, data[i], fmt.Sprintf("%s[%d]", path, i), c))
		}
	}
	if s.MinItems != nil && size < *s.MinItems {
		res.add(tooFewItems(path, *s.MinItems, size))
	}
	if s.MaxItems != nil && size > *s.MaxItems {
		res.add(tooManyItems(path, *s.MaxItems, size))
	}
	if s.UniqueItems {
		for i := range data {
			dup := false
			for j := 0; j < i; j++ {
				if unstructured.Equal(data[i], data[j]) {
					dup = true
					break
				}
			}
			if dup {
				res.add(duplicateItems(path))
				break
			}
		}
	}
	res.count++
	return res
}

// enumCheck: the value must equal one of the enum values, after the conversion Go's
// reflection allows between their types (an integer matches an equal float, and a string of
// the character it codes).
func enumCheck(s *crdschema.Schema, data any, path string) *result {
	if len(s.Enum) == 0 {
		return nil
	}
	for _, e := range s.Enum {
		if enumMatches(data, e) {
			return nil
		}
	}
	return single(enumFail(path, data, s.Enum))
}

func enumMatches(data, e any) bool {
	if e == nil || data == nil {
		return false
	}
	switch ev := e.(type) {
	case string:
		switch d := data.(type) {
		case string:
			return d == ev
		case int64:
			return intToString(d) == ev
		}
	case bool:
		d, ok := data.(bool)
		return ok && d == ev
	case int64:
		switch d := data.(type) {
		case int64:
			return d == ev
		case float64:
			return int64(d) == ev
		}
	case float64:
		switch d := data.(type) {
		case int64:
			return float64(d) == ev
		case float64:
			return d == ev
		}
	case map[string]any:
		d, ok := data.(map[string]any)
		return ok && unstructured.Equal(d, ev)
	case []any:
		d, ok := data.([]any)
		return ok && unstructured.Equal(d, ev)
	}
	return false
}

// intToString is Go's integer-to-string conversion: the UTF-8 of the code point.
func intToString(i int64) string {
	return reflect.ValueOf(i).Convert(reflect.TypeOf("")).Interface().(string)
}

func (w walker) objectCheck(s *crdschema.Schema, data map[string]any, path string, corr *correlate.Node) *result {
	res := &result{}
	n := int64(len(data))
	if s.MinProperties != nil && n < *s.MinProperties {
		res.add(tooFewProperties(path, *s.MinProperties, n))
	}
	if s.MaxProperties != nil && n > *s.MaxProperties {
		res.add(tooManyProperties(path, *s.MaxProperties, n))
	}
	keys := unstructured.SortedKeys(data)
	memberCorr := func(key string) *correlate.Node {
		if corr == nil || (path == "" && (key == "kind" || key == "apiVersion")) {
			return nil
		}
		return corr.Key(key)
	}
	if ap := s.AdditionalProperties; ap != nil && !ap.Allows {
		for _, k := range keys {
			if _, ok := s.Properties[k]; ok {
				continue
			}
			if patternMatchesAny(s.PatternProperties, k) {
				continue
			}
			res.add(propertyNotAllowed(path, k))
		}
	} else {
		for _, k := range keys {
			_, regular := s.Properties[k]
			matched := w.patternProperties(s, k, data[k], path, res, corr)
			if !regular && !matched && ap != nil && ap.Schema != nil {
				res.merge(w.child(ap.Schema, data[k], path+"."+k, memberCorr(k)))
			}
		}
	}
	for _, name := range s.PropertyNames() {
		v, ok := data[name]
		if !ok {
			continue
		}
		rName := name
		if path != "" {
			rName = path + "." + name
		}
		res.merge(w.child(s.Properties[name], v, rName, memberCorr(name)))
	}
	for _, k := range s.Required {
		if _, ok := data[k]; !ok {
			res.add(required(path + "." + k))
		}
	}
	for _, k := range keys {
		if _, regular := s.Properties[k]; regular {
			continue
		}
		for _, pk := range sortedSchemaKeys(s.PatternProperties) {
			if ok, _ := regexp.MatchString(pk, k); ok {
				res.merge(w.child(s.PatternProperties[pk], data[k], path+"."+k, memberCorr(k)))
			}
		}
	}
	return res
}

// patternProperties validates a member against every pattern property its name matches
// (the first of the two passes the server makes), reporting whether any matched.
func (w walker) patternProperties(s *crdschema.Schema, key string, value any, path string, res *result, corr *correlate.Node) bool {
	matched := false
	for _, pk := range sortedSchemaKeys(s.PatternProperties) {
		if ok, _ := regexp.MatchString(pk, key); ok {
			matched = true
			var c *correlate.Node
			if corr != nil && !(path == "" && (key == "kind" || key == "apiVersion")) {
				c = corr.Key(key)
			}
			res.merge(w.child(s.PatternProperties[pk], value, path+"."+key, c))
		}
	}
	return matched
}

func patternMatchesAny(pp map[string]*crdschema.Schema, key string) bool {
	for pk := range pp {
		if ok, _ := regexp.MatchString(pk, key); ok {
			return true
		}
	}
	return false
}

func sortedSchemaKeys(m map[string]*crdschema.Schema) []string {
	if len(m) == 0 {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// toFieldErrors turns findings into field errors as the server does: errors about a field
// under fldPath, the others at fldPath itself.
func toFieldErrors(fldPath *field.Path, errs []verr) field.ErrorList {
	var out field.ErrorList
	for _, e := range errs {
		if e.code == codePlain {
			out = append(out, field.Invalid(fldPath, "", e.msg))
			continue
		}
		p := fldPath
		if e.name != "" && e.name != "." {
			p = p.Child(strings.TrimPrefix(e.name, "."))
		}
		switch e.code {
		case codeRequired:
			out = append(out, field.Required(p, ""))
		case codeEnum:
			values := make([]string, 0, len(e.values))
			for _, v := range e.values {
				if s, ok := v.(string); ok {
					values = append(values, s)
				} else {
					b, _ := json.Marshal(v)
					values = append(values, string(b))
				}
			}
			out = append(out, field.NotSupported(p, e.value, values))
		case codeTooLong:
			out = append(out, field.TooLong(p, "", int(e.valid)))
		case codeMaxItems, codeTooManyProperties:
			actual, ok := e.value.(int64)
			if !ok {
				actual = -1
			}
			out = append(out, field.TooMany(p, int(actual), int(e.valid)))
		case codeInvalidType:
			out = append(out, field.TypeInvalid(p, valueOrEmpty(e.value), e.msg))
		default:
			out = append(out, field.Invalid(p, valueOrEmpty(e.value), e.msg))
		}
	}
	return out
}

func valueOrEmpty(v any) any {
	if v == nil {
		return ""
	}
	return v
}
