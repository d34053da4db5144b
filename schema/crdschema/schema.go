package crdschema

import (
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// Schema is one node of a JSONSchemaProps tree. Absent keywords are zero (nil pointers,
// empty strings and slices); Has* fields tell an absent default or example from a null one.
type Schema struct {
	ID          string
	SchemaURL   string // $schema
	Ref         string // $ref (never valid in a CRD)
	Description string
	Title       string
	Type        string
	Format      string

	HasDefault bool
	Default    any

	Maximum          *float64
	ExclusiveMaximum bool
	Minimum          *float64
	ExclusiveMinimum bool
	MaxLength        *int64
	MinLength        *int64
	Pattern          string
	MaxItems         *int64
	MinItems         *int64
	UniqueItems      bool
	MultipleOf       *float64
	Enum             []any
	MaxProperties    *int64
	MinProperties    *int64
	Required         []string

	// Items is the single item schema; ItemsList the array form (never valid in a CRD).
	Items     *Schema
	ItemsList []*Schema

	AllOf []*Schema
	OneOf []*Schema
	AnyOf []*Schema
	Not   *Schema

	Properties           map[string]*Schema
	AdditionalProperties *SchemaOrBool
	PatternProperties    map[string]*Schema
	Dependencies         map[string]SchemaOrStrings
	AdditionalItems      *SchemaOrBool
	Definitions          map[string]*Schema
	ExternalDocs         *ExternalDocs

	HasExample bool
	Example    any

	Nullable bool

	XPreserveUnknownFields *bool
	XEmbeddedResource      bool
	XIntOrString           bool
	XListMapKeys           []string
	XListType              *string
	XMapType               *string
	XValidations           []Rule
}

// SchemaOrBool is additionalProperties or additionalItems: a schema, or true/false.
type SchemaOrBool struct {
	Allows bool
	Schema *Schema
}

// SchemaOrStrings is one entry of dependencies: a schema, or a list of property names.
type SchemaOrStrings struct {
	Schema   *Schema
	Property []string
}

// ExternalDocs is externalDocs.
type ExternalDocs struct {
	Description string
	URL         string
}

// Rule is one entry of x-kubernetes-validations.
type Rule struct {
	Rule              string
	Message           string
	MessageExpression string
	// Reason is FieldValueInvalid, FieldValueForbidden, FieldValueRequired or
	// FieldValueDuplicate; nil when not set.
	Reason          *string
	FieldPath       string
	OptionalOldSelf *bool
}

// PropertyNames returns the names of Properties, sorted.
func (s *Schema) PropertyNames() []string {
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Validation is a CRD version's validation schema, with the validators compiled from it.
type Validation struct {
	// Schema is the version's openAPIV3Schema; nil when the version has none.
	Schema *Schema
	// PreserveUnknownFields is the CRD's spec.preserveUnknownFields.
	PreserveUnknownFields bool

	mu       sync.Mutex
	compiled map[any]*compiledOnce
}

type compiledOnce struct {
	once sync.Once
	v    any
}

// Compiled returns what build makes of v for key (the validators of one server, say),
// calling build only the first time for each key (it is safe for concurrent use: other
// callers of the same key wait for the first build).
func (v *Validation) Compiled(key any, build func(*Validation) any) any {
	v.mu.Lock()
	c, ok := v.compiled[key]
	if !ok {
		if v.compiled == nil {
			v.compiled = map[any]*compiledOnce{}
		}
		c = &compiledOnce{}
		v.compiled[key] = c
	}
	v.mu.Unlock()
	c.once.Do(func() { c.v = build(v) })
	return c.v
}

// Parse reads a JSONSchemaProps from its decoded JSON (or YAML) form. A value of the wrong
// JSON type is an error naming its path (relative to raw).
func Parse(raw any) (*Schema, error) {
	p := parser{}
	s := p.schema(raw, "")
	if p.err != nil {
		return nil, p.err
	}
	return s, nil
}

type parser struct{ err error }

func (p *parser) fail(path, format string, args ...any) {
	if p.err == nil {
		if path != "" {
			format = path + ": " + format
		}
		p.err = fmt.Errorf(format, args...)
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (p *parser) schema(raw any, path string) *Schema {
	m, ok := raw.(map[string]any)
	if !ok {
		if raw != nil {
			p.fail(path, "must be an object, not %s", unstructured.Describe(raw))
		}
		return &Schema{}
	}
	s := &Schema{}
	for k, v := range m {
		kp := join(path, k)
		switch k {
		case "id":
			s.ID = p.str(v, kp)
		case "$schema":
			s.SchemaURL = p.str(v, kp)
		case "$ref":
			s.Ref = p.str(v, kp)
		case "description":
			s.Description = p.str(v, kp)
		case "title":
			s.Title = p.str(v, kp)
		case "type":
			s.Type = p.str(v, kp)
		case "format":
			s.Format = p.str(v, kp)
		case "default":
			if v != nil {
				s.HasDefault, s.Default = true, Normalize(v)
			}
		case "example":
			if v != nil {
				s.HasExample, s.Example = true, Normalize(v)
			}
		case "maximum":
			s.Maximum = p.float(v, kp)
		case "exclusiveMaximum":
			s.ExclusiveMaximum = p.boolean(v, kp)
		case "minimum":
			s.Minimum = p.float(v, kp)
		case "exclusiveMinimum":
			s.ExclusiveMinimum = p.boolean(v, kp)
		case "maxLength":
			s.MaxLength = p.int(v, kp)
		case "minLength":
			s.MinLength = p.int(v, kp)
		case "pattern":
			s.Pattern = p.str(v, kp)
		case "maxItems":
			s.MaxItems = p.int(v, kp)
		case "minItems":
			s.MinItems = p.int(v, kp)
		case "uniqueItems":
			s.UniqueItems = p.boolean(v, kp)
		case "multipleOf":
			s.MultipleOf = p.float(v, kp)
		case "enum":
			if v != nil {
				l, ok := v.([]any)
				if !ok {
					p.fail(kp, "must be a list, not %s", unstructured.Describe(v))
					continue
				}
				s.Enum = make([]any, len(l))
				for i, e := range l {
					s.Enum[i] = Normalize(e)
				}
			}
		case "maxProperties":
			s.MaxProperties = p.int(v, kp)
		case "minProperties":
			s.MinProperties = p.int(v, kp)
		case "required":
			s.Required = p.strings(v, kp)
		case "items":
			switch it := v.(type) {
			case nil:
			case []any:
				for i, x := range it {
					s.ItemsList = append(s.ItemsList, p.schema(x, fmt.Sprintf("%s[%d]", kp, i)))
				}
			default:
				s.Items = p.schema(it, kp)
			}
		case "allOf":
			s.AllOf = p.schemas(v, kp)
		case "oneOf":
			s.OneOf = p.schemas(v, kp)
		case "anyOf":
			s.AnyOf = p.schemas(v, kp)
		case "not":
			if v != nil {
				s.Not = p.schema(v, kp)
			}
		case "properties":
			s.Properties = p.schemaMap(v, kp)
		case "patternProperties":
			s.PatternProperties = p.schemaMap(v, kp)
		case "definitions":
			s.Definitions = p.schemaMap(v, kp)
		case "additionalProperties":
			s.AdditionalProperties = p.schemaOrBool(v, kp)
		case "additionalItems":
			s.AdditionalItems = p.schemaOrBool(v, kp)
		case "dependencies":
			if v == nil {
				continue
			}
			dm, ok := v.(map[string]any)
			if !ok {
				p.fail(kp, "must be an object, not %s", unstructured.Describe(v))
				continue
			}
			s.Dependencies = make(map[string]SchemaOrStrings, len(dm))
			for dk, dv := range dm {
				if l, ok := dv.([]any); ok {
					s.Dependencies[dk] = SchemaOrStrings{Property: p.strings(l, join(kp, dk))}
				} else {
					s.Dependencies[dk] = SchemaOrStrings{Schema: p.schema(dv, join(kp, dk))}
				}
			}
		case "externalDocs":
			if dm, ok := v.(map[string]any); ok {
				s.ExternalDocs = &ExternalDocs{Description: p.str(dm["description"], join(kp, "description")), URL: p.str(dm["url"], join(kp, "url"))}
			}
		case "nullable":
			s.Nullable = p.boolean(v, kp)
		case "x-kubernetes-preserve-unknown-fields":
			if v != nil {
				b := p.boolean(v, kp)
				s.XPreserveUnknownFields = &b
			}
		case "x-kubernetes-embedded-resource":
			s.XEmbeddedResource = p.boolean(v, kp)
		case "x-kubernetes-int-or-string":
			s.XIntOrString = p.boolean(v, kp)
		case "x-kubernetes-list-map-keys":
			s.XListMapKeys = p.strings(v, kp)
		case "x-kubernetes-list-type":
			if v != nil {
				t := p.str(v, kp)
				s.XListType = &t
			}
		case "x-kubernetes-map-type":
			if v != nil {
				t := p.str(v, kp)
				s.XMapType = &t
			}
		case "x-kubernetes-validations":
			s.XValidations = p.rules(v, kp)
		}
	}
	return s
}

func (p *parser) rules(v any, path string) []Rule {
	if v == nil {
		return nil
	}
	l, ok := v.([]any)
	if !ok {
		p.fail(path, "must be a list, not %s", unstructured.Describe(v))
		return nil
	}
	out := make([]Rule, 0, len(l))
	for i, x := range l {
		ip := fmt.Sprintf("%s[%d]", path, i)
		m, ok := x.(map[string]any)
		if !ok {
			p.fail(ip, "must be an object, not %s", unstructured.Describe(x))
			continue
		}
		r := Rule{
			Rule:              p.str(m["rule"], join(ip, "rule")),
			Message:           p.str(m["message"], join(ip, "message")),
			MessageExpression: p.str(m["messageExpression"], join(ip, "messageExpression")),
			FieldPath:         p.str(m["fieldPath"], join(ip, "fieldPath")),
		}
		if rv, ok := m["reason"]; ok && rv != nil {
			reason := p.str(rv, join(ip, "reason"))
			r.Reason = &reason
		}
		if ov, ok := m["optionalOldSelf"]; ok && ov != nil {
			b := p.boolean(ov, join(ip, "optionalOldSelf"))
			r.OptionalOldSelf = &b
		}
		out = append(out, r)
	}
	return out
}

func (p *parser) schemas(v any, path string) []*Schema {
	if v == nil {
		return nil
	}
	l, ok := v.([]any)
	if !ok {
		p.fail(path, "must be a list, not %s", unstructured.Describe(v))
		return nil
	}
	out := make([]*Schema, len(l))
	for i, x := range l {
		out[i] = p.schema(x, fmt.Sprintf("%s[%d]", path, i))
	}
	return out
}

func (p *parser) schemaMap(v any, path string) map[string]*Schema {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		p.fail(path, "must be an object, not %s", unstructured.Describe(v))
		return nil
	}
	out := make(map[string]*Schema, len(m))
	for k, x := range m {
		out[k] = p.schema(x, join(path, k))
	}
	return out
}

func (p *parser) schemaOrBool(v any, path string) *SchemaOrBool {
	switch x := v.(type) {
	case nil:
		return nil
	case bool:
		return &SchemaOrBool{Allows: x}
	default:
		return &SchemaOrBool{Allows: true, Schema: p.schema(x, path)}
	}
}

func (p *parser) str(v any, path string) string {
	if v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		p.fail(path, "must be a string, not %s", unstructured.Describe(v))
	}
	return s
}

func (p *parser) strings(v any, path string) []string {
	if v == nil {
		return nil
	}
	l, ok := v.([]any)
	if !ok {
		p.fail(path, "must be a list of strings, not %s", unstructured.Describe(v))
		return nil
	}
	out := make([]string, len(l))
	for i, x := range l {
		out[i] = p.str(x, fmt.Sprintf("%s[%d]", path, i))
	}
	return out
}

func (p *parser) boolean(v any, path string) bool {
	if v == nil {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		p.fail(path, "must be a boolean, not %s", unstructured.Describe(v))
	}
	return b
}

func (p *parser) float(v any, path string) *float64 {
	switch x := Normalize(v).(type) {
	case nil:
		return nil
	case int64:
		f := float64(x)
		return &f
	case float64:
		return &x
	default:
		p.fail(path, "must be a number, not %s", unstructured.Describe(v))
		return nil
	}
}

func (p *parser) int(v any, path string) *int64 {
	switch x := Normalize(v).(type) {
	case nil:
		return nil
	case int64:
		return &x
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
			i := int64(x)
			return &i
		}
	}
	p.fail(path, "must be an integer, not %s", unstructured.Describe(v))
	return nil
}

// Normalize returns a copy of a decoded JSON value in the form the API server's decoder
// gives: objects map[string]any, lists []any, integers int64, other numbers float64. It
// accepts what JSON and YAML decoders produce (json.Number, int, map[any]any …).
func Normalize(v any) any { return unstructured.Normalize(v) }
