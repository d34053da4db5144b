package crd

import (
	"errors"
	"fmt"
	"regexp"
	"sort"

	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// structuralError is why a schema cannot be read as a structural schema at all.
func structuralError(s *crdschema.Schema) error {
	if s == nil {
		return nil
	}
	if len(s.ItemsList) > 0 {
		return errors.New("OpenAPIV3Schema 'items' must be a schema, but is an array")
	}
	switch {
	case s.ID != "":
		return errors.New("OpenAPIV3Schema 'id' is not supported")
	case s.SchemaURL != "":
		return errors.New("OpenAPIV3Schema 'schema' is not supported")
	case s.Ref != "":
		return errors.New("OpenAPIV3Schema '$ref' is not supported")
	case len(s.PatternProperties) > 0:
		return errors.New("OpenAPIV3Schema 'patternProperties' is not supported")
	case s.Dependencies != nil:
		return errors.New("OpenAPIV3Schema 'dependencies' is not supported")
	case s.AdditionalItems != nil:
		return errors.New("OpenAPIV3Schema 'additionalItems' is not supported")
	case len(s.Definitions) > 0:
		return errors.New("OpenAPIV3Schema 'definitions' is not supported")
	}
	if s.XPreserveUnknownFields != nil && !*s.XPreserveUnknownFields {
		return errors.New("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined")
	}
	for _, sub := range append(append(append([]*crdschema.Schema{s.Items, s.Not}, s.AllOf...), s.AnyOf...), s.OneOf...) {
		if err := structuralError(sub); err != nil {
			return err
		}
	}
	for _, name := range s.PropertyNames() {
		if err := structuralError(s.Properties[name]); err != nil {
			return err
		}
	}
	if s.AdditionalProperties != nil {
		if err := structuralError(s.AdditionalProperties.Schema); err != nil {
			return err
		}
	}
	return nil
}

type level int

const (
	rootLevel level = iota
	itemLevel
	fieldLevel
)

// validateStructural is the structural schema rules, sorted by their text as the server
// sorts them.
func validateStructural(p *field.Path, s *crdschema.Schema) field.ErrorList {
	errs := invariants(s, rootLevel, p)
	errs = append(errs, completeness(s, p)...)
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errs
}

func preserves(s *crdschema.Schema) bool {
	return s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields
}

func invariants(s *crdschema.Schema, lvl level, p *field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	if s.Type == "array" && s.Items == nil {
		errs = append(errs, field.Required(p.Child("items"), "must be specified"))
	}
	errs = append(errs, invariants(s.Items, itemLevel, p.Child("items"))...)
	for _, k := range s.PropertyNames() {
		errs = append(errs, invariants(s.Properties[k], fieldLevel, p.Child("properties").Key(k))...)
	}
	if s.AdditionalProperties != nil {
		if lvl == rootLevel {
			errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must not be used at the root"))
		}
		if s.AdditionalProperties.Schema != nil {
			errs = append(errs, invariants(s.AdditionalProperties.Schema, fieldLevel, p.Child("additionalProperties"))...)
		}
	}
	if s.XIntOrString && preserves(s) {
		errs = append(errs, field.Invalid(p.Child("x-kubernetes-preserve-unknown-fields"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.XIntOrString && s.XEmbeddedResource {
		errs = append(errs, field.Invalid(p.Child("x-kubernetes-embedded-resource"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	errs = append(errs, valueValidation(s, intOrStringAnyOf(s.AnyOf), len(s.AllOf) >= 1 && intOrStringAnyOf(s.AllOf[0].AnyOf), lvl, p, false)...)
	checkMetadata := lvl == rootLevel || s.XEmbeddedResource
	switch {
	case s.XEmbeddedResource && s.Type != "object":
		if s.Type == "" {
			errs = append(errs, field.Required(p.Child("type"), "must be object if x-kubernetes-embedded-resource is true"))
		} else {
			errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
		}
	case s.Type == "" && !s.XIntOrString && !preserves(s):
		switch lvl {
		case rootLevel:
			errs = append(errs, field.Required(p.Child("type"), "must not be empty at the root"))
		case itemLevel:
			errs = append(errs, field.Required(p.Child("type"), "must not be empty for specified array items"))
		default:
			errs = append(errs, field.Required(p.Child("type"), "must not be empty for specified object fields"))
		}
	}
	if s.XEmbeddedResource && s.AdditionalProperties != nil {
		errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == rootLevel && s.Type != "" && s.Type != "object" {
		errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be object at the root"))
	}
	if kind, ok := s.Properties["kind"]; ok && checkMetadata && kind.Type != "string" {
		errs = append(errs, field.Invalid(p.Child("properties").Key("kind").Child("type"), kind.Type, "must be string"))
	}
	if av, ok := s.Properties["apiVersion"]; ok && checkMetadata && av.Type != "string" {
		errs = append(errs, field.Invalid(p.Child("properties").Key("apiVersion").Child("type"), av.Type, "must be string"))
	}
	if md, ok := s.Properties["metadata"]; ok {
		mp := p.Child("properties").Key("metadata")
		if checkMetadata && md.Type != "object" {
			errs = append(errs, field.Invalid(mp.Child("type"), md.Type, "must be object"))
		}
		if lvl == rootLevel && !onlyNameAndGenerateName(md) {
			errs = append(errs, field.Forbidden(mp, "must not specify anything other than name and generateName, but metadata is implicitly specified"))
		}
	}
	if s.XEmbeddedResource && !preserves(s) && len(s.Properties) == 0 {
		errs = append(errs, field.Required(p.Child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return errs
}

// onlyNameAndGenerateName: the root's metadata may say nothing but its type and the
// schemas of name and generateName.
func onlyNameAndGenerateName(md *crdschema.Schema) bool {
	c := *md
	_, name := c.Properties["name"]
	_, gen := c.Properties["generateName"]
	if (name && gen && len(c.Properties) == 2) || ((name || gen) && len(c.Properties) == 1) {
		c.Properties = nil
	}
	c.Type, c.HasDefault, c.Default = "", false, nil
	return isZeroStructural(&c)
}

// isZeroStructural reports whether a schema holds nothing the structural form keeps (a
// description, a title, a bound, an extension, members …).
func isZeroStructural(s *crdschema.Schema) bool {
	return s.Description == "" && s.Title == "" && !s.Nullable && s.Format == "" && s.Maximum == nil && !s.ExclusiveMaximum &&
		s.Minimum == nil && !s.ExclusiveMinimum && s.MaxLength == nil && s.MinLength == nil && s.Pattern == "" && s.MaxItems == nil &&
		s.MinItems == nil && !s.UniqueItems && s.MultipleOf == nil && s.Enum == nil && s.MaxProperties == nil && s.MinProperties == nil &&
		s.Required == nil && s.Items == nil && s.AllOf == nil && s.OneOf == nil && s.AnyOf == nil && s.Not == nil && s.Properties == nil &&
		s.AdditionalProperties == nil && s.XPreserveUnknownFields == nil && !s.XEmbeddedResource && !s.XIntOrString &&
		s.XListMapKeys == nil && s.XListType == nil && s.XMapType == nil && s.XValidations == nil && s.Type == "" && !s.HasDefault
}

// intOrStringAnyOf: anyOf is exactly [{type: integer}, {type: string}] (the int-or-string
// pattern, allowed types in value validations).
func intOrStringAnyOf(l []*crdschema.Schema) bool {
	if len(l) != 2 {
		return false
	}
	only := func(s *crdschema.Schema, t string) bool {
		c := *s
		if c.Type != t {
			return false
		}
		c.Type = ""
		return isZeroStructural(&c) && c.ExternalDocs == nil && !c.HasExample
	}
	return only(l[0], "integer") && only(l[1], "string")
}

// valueValidation checks a node's value validations: what its allOf, anyOf, oneOf and not
// may hold, and its pattern.
func valueValidation(s *crdschema.Schema, skipAnyOf, skipFirstAllOfAnyOf bool, lvl level, p *field.Path, allowRules bool) field.ErrorList {
	var errs field.ErrorList
	if !skipAnyOf {
		for i, sub := range s.AnyOf {
			errs = append(errs, nested(sub, false, lvl, p.Child("anyOf").Index(i), false)...)
		}
	}
	for i, sub := range s.AllOf {
		errs = append(errs, nested(sub, skipFirstAllOfAnyOf && i == 0, lvl, p.Child("allOf").Index(i), allowRules)...)
	}
	for i, sub := range s.OneOf {
		errs = append(errs, nested(sub, false, lvl, p.Child("oneOf").Index(i), false)...)
	}
	if s.Not != nil {
		errs = append(errs, nested(s.Not, false, lvl, p.Child("not"), false)...)
	}
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err != nil {
			errs = append(errs, field.Invalid(p.Child("pattern"), s.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
		}
	}
	return errs
}

// nested checks a schema inside allOf/anyOf/oneOf/not: value validations only.
func nested(s *crdschema.Schema, skipAnyOf bool, lvl level, p *field.Path, allowRules bool) field.ErrorList {
	if s == nil {
		return nil
	}
	errs := valueValidation(s, skipAnyOf, false, lvl, p, allowRules)
	errs = append(errs, nested(s.Items, false, lvl, p.Child("items"), allowRules)...)
	for _, k := range s.PropertyNames() {
		errs = append(errs, nested(s.Properties[k], false, fieldLevel, p.Child("properties").Key(k), allowRules)...)
	}
	if s.Type != "" {
		errs = append(errs, field.Forbidden(p.Child("type"), "must be empty to be structural"))
	}
	if s.AdditionalProperties != nil {
		errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must be undefined to be structural"))
	}
	if s.HasDefault {
		errs = append(errs, field.Forbidden(p.Child("default"), "must be undefined to be structural"))
	}
	if s.Title != "" {
		errs = append(errs, field.Forbidden(p.Child("title"), "must be empty to be structural"))
	}
	if s.Description != "" {
		errs = append(errs, field.Forbidden(p.Child("description"), "must be empty to be structural"))
	}
	if s.Nullable {
		errs = append(errs, field.Forbidden(p.Child("nullable"), "must be false to be structural"))
	}
	if preserves(s) {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-preserve-unknown-fields"), "must be false to be structural"))
	}
	if s.XEmbeddedResource {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-embedded-resource"), "must be false to be structural"))
	}
	if s.XIntOrString {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-int-or-string"), "must be false to be structural"))
	}
	if len(s.XListMapKeys) > 0 {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-list-map-keys"), "must be empty to be structural"))
	}
	if s.XListType != nil {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-list-type"), "must be undefined to be structural"))
	}
	if s.XMapType != nil {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-map-type"), "must be undefined to be structural"))
	}
	if len(s.XValidations) > 0 && !allowRules {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-validations"), "must be empty to be structural"))
	}
	if _, ok := s.Properties["metadata"]; ok {
		errs = append(errs, field.Forbidden(p.Child("properties").Key("metadata"), "must not be specified in a nested context"))
	}
	return errs
}

// completeness: every property a value validation names must be declared by the schema.
func completeness(s *crdschema.Schema, p *field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	return valueCompleteness(s, s, p, p)
}

func valueCompleteness(v, s *crdschema.Schema, sPath, vPath *field.Path) field.ErrorList {
	if s == nil {
		return field.ErrorList{field.Required(sPath, fmt.Sprintf("because it is defined in %s", vPath.String()))}
	}
	var errs field.ErrorList
	if v.Not != nil {
		errs = append(errs, nestedCompleteness(v.Not, s, sPath, vPath.Child("not"))...)
	}
	for i, sub := range v.AllOf {
		errs = append(errs, nestedCompleteness(sub, s, sPath, vPath.Child("allOf").Index(i))...)
	}
	for i, sub := range v.AnyOf {
		errs = append(errs, nestedCompleteness(sub, s, sPath, vPath.Child("anyOf").Index(i))...)
	}
	for i, sub := range v.OneOf {
		errs = append(errs, nestedCompleteness(sub, s, sPath, vPath.Child("oneOf").Index(i))...)
	}
	return errs
}

func nestedCompleteness(v, s *crdschema.Schema, sPath, vPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	if s == nil {
		return field.ErrorList{field.Required(sPath, fmt.Sprintf("because it is defined in %s", vPath.String()))}
	}
	errs := valueCompleteness(v, s, sPath, vPath)
	if v.Items != nil {
		errs = append(errs, nestedCompleteness(v.Items, s.Items, sPath.Child("items"), vPath.Child("items"))...)
	}
	for _, k := range v.PropertyNames() {
		if sf, ok := s.Properties[k]; ok {
			errs = append(errs, nestedCompleteness(v.Properties[k], sf, sPath.Child("properties").Key(k), vPath.Child("properties").Key(k))...)
		} else {
			errs = append(errs, field.Required(sPath.Child("properties").Key(k), fmt.Sprintf("because it is defined in %s", vPath.Child("properties").Key(k))))
		}
	}
	return errs
}
