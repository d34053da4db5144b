package crd

import (
	"errors"
	"strconv"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
)

// Mirrors of the internal apiextensions types the server prints in error values: the same
// fields in the same order, without JSON tags, so that they marshal to the same JSON.

type iRule struct {
	Rule              string
	Message           string
	MessageExpression string
	Reason            *string
	FieldPath         string
	OptionalOldSelf   *bool
}

func internalRule(r crdschema.Rule) iRule {
	return iRule{Rule: r.Rule, Message: r.Message, MessageExpression: r.MessageExpression, Reason: r.Reason, FieldPath: r.FieldPath, OptionalOldSelf: r.OptionalOldSelf}
}

// printedRule is a rule as the server of cfg prints it in a field error: JSON from 1.34;
// Kubernetes 1.33 and older (k8s.io/apimachinery before v0.34) print it in Go syntax, %#v of
// the internal type (goRule).
func printedRule(cfg *serverconfig.Config, r crdschema.Rule) any {
	if !cfg.AtLeast(34) {
		return goRule(internalRule(r))
	}
	return internalRule(r)
}

// goRule is a rule printed as fmt's %#v writes apiextensions.ValidationRule; a pointer set
// is printed with a stand-in for the address the server's process held (0xc000000000, as
// package internal/api/layout writes one).
type goRule iRule

var errGoSyntax = errors.New("printed in Go syntax")

// MarshalJSON fails: the field error then prints String.
func (r goRule) MarshalJSON() ([]byte, error) { return nil, errGoSyntax }

func (r goRule) String() string {
	ptr := func(typ string, set bool) string {
		if set {
			return "(" + typ + ")(0xc000000000)"
		}
		return "(" + typ + ")(nil)"
	}
	return "apiextensions.ValidationRule{Rule:" + strconv.Quote(r.Rule) + ", Message:" + strconv.Quote(r.Message) +
		", MessageExpression:" + strconv.Quote(r.MessageExpression) +
		", Reason:" + ptr("*apiextensions.FieldValueErrorReason", r.Reason != nil) +
		", FieldPath:" + strconv.Quote(r.FieldPath) + ", OptionalOldSelf:" + ptr("*bool", r.OptionalOldSelf != nil) + "}"
}

type iProps struct {
	ID                     string
	Schema                 string
	Ref                    *string
	Description            string
	Type                   string
	Nullable               bool
	Format                 string
	Title                  string
	Default                *any
	Maximum                *float64
	ExclusiveMaximum       bool
	Minimum                *float64
	ExclusiveMinimum       bool
	MaxLength              *int64
	MinLength              *int64
	Pattern                string
	MaxItems               *int64
	MinItems               *int64
	UniqueItems            bool
	MultipleOf             *float64
	Enum                   []any
	MaxProperties          *int64
	MinProperties          *int64
	Required               []string
	Items                  *iPropsOrArray
	AllOf                  []iProps
	OneOf                  []iProps
	AnyOf                  []iProps
	Not                    *iProps
	Properties             map[string]iProps
	AdditionalProperties   *iPropsOrBool
	PatternProperties      map[string]iProps
	Dependencies           map[string]iPropsOrStrings
	AdditionalItems        *iPropsOrBool
	Definitions            map[string]iProps
	ExternalDocs           *iExternalDocs
	Example                *any
	XPreserveUnknownFields *bool
	XEmbeddedResource      bool
	XIntOrString           bool
	XListMapKeys           []string
	XListType              *string
	XMapType               *string
	XValidations           []iRule
}

type iPropsOrArray struct {
	Schema      *iProps
	JSONSchemas []iProps
}

type iPropsOrBool struct {
	Allows bool
	Schema *iProps
}

type iPropsOrStrings struct {
	Schema   *iProps
	Property []string
}

type iExternalDocs struct {
	Description string
	URL         string
}

func internalProps(s *crdschema.Schema) iProps {
	if s == nil {
		return iProps{}
	}
	p := iProps{ID: s.ID, Schema: s.SchemaURL, Description: s.Description, Type: s.Type, Nullable: s.Nullable, Format: s.Format, Title: s.Title,
		Maximum: s.Maximum, ExclusiveMaximum: s.ExclusiveMaximum, Minimum: s.Minimum, ExclusiveMinimum: s.ExclusiveMinimum,
		MaxLength: s.MaxLength, MinLength: s.MinLength, Pattern: s.Pattern, MaxItems: s.MaxItems, MinItems: s.MinItems,
		UniqueItems: s.UniqueItems, MultipleOf: s.MultipleOf, Enum: s.Enum, MaxProperties: s.MaxProperties, MinProperties: s.MinProperties,
		Required: s.Required, XPreserveUnknownFields: s.XPreserveUnknownFields, XEmbeddedResource: s.XEmbeddedResource,
		XIntOrString: s.XIntOrString, XListMapKeys: s.XListMapKeys, XListType: s.XListType, XMapType: s.XMapType}
	if s.Ref != "" {
		r := s.Ref
		p.Ref = &r
	}
	if s.HasDefault {
		d := s.Default
		p.Default = &d
	}
	if s.HasExample {
		e := s.Example
		p.Example = &e
	}
	if s.Items != nil || s.ItemsList != nil {
		p.Items = itemsValue(s)
	}
	p.AllOf, p.OneOf, p.AnyOf = internalList(s.AllOf), internalList(s.OneOf), internalList(s.AnyOf)
	if s.Not != nil {
		n := internalProps(s.Not)
		p.Not = &n
	}
	p.Properties, p.PatternProperties, p.Definitions = internalMap(s.Properties), internalMap(s.PatternProperties), internalMap(s.Definitions)
	p.AdditionalProperties, p.AdditionalItems = internalOrBool(s.AdditionalProperties), internalOrBool(s.AdditionalItems)
	if s.Dependencies != nil {
		p.Dependencies = map[string]iPropsOrStrings{}
		for k, d := range s.Dependencies {
			v := iPropsOrStrings{Property: d.Property}
			if d.Schema != nil {
				ds := internalProps(d.Schema)
				v.Schema = &ds
			}
			p.Dependencies[k] = v
		}
	}
	if s.ExternalDocs != nil {
		p.ExternalDocs = &iExternalDocs{Description: s.ExternalDocs.Description, URL: s.ExternalDocs.URL}
	}
	for _, r := range s.XValidations {
		p.XValidations = append(p.XValidations, internalRule(r))
	}
	return p
}

func itemsValue(s *crdschema.Schema) *iPropsOrArray {
	out := &iPropsOrArray{}
	if s.Items != nil {
		i := internalProps(s.Items)
		out.Schema = &i
	}
	if s.ItemsList != nil {
		out.JSONSchemas = internalList(s.ItemsList)
	}
	return out
}

func internalList(l []*crdschema.Schema) []iProps {
	if l == nil {
		return nil
	}
	out := make([]iProps, len(l))
	for i, s := range l {
		out[i] = internalProps(s)
	}
	return out
}

func internalMap(m map[string]*crdschema.Schema) map[string]iProps {
	if m == nil {
		return nil
	}
	out := make(map[string]iProps, len(m))
	for k, s := range m {
		out[k] = internalProps(s)
	}
	return out
}

func internalOrBool(b *crdschema.SchemaOrBool) *iPropsOrBool {
	if b == nil {
		return nil
	}
	out := &iPropsOrBool{Allows: b.Allows}
	if b.Schema != nil {
		s := internalProps(b.Schema)
		out.Schema = &s
	}
	return out
}
