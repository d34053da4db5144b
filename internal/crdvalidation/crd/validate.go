package crd

import (
	"context"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ssa-diff/ssa-diff/internal/celrules"
	"github.com/ssa-diff/ssa-diff/internal/formats"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sunstructured "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Result is what the server says of a write of a CRD.
type Result struct {
	Errors   field.ErrorList
	Warnings []string
	// Crashed is set when the server's own validation fails on this CRD (it dereferences a
	// nil type, for list-type map lists of int-or-string items, say): the server answers 500.
	Crashed string
}

// Validate validates obj, a CustomResourceDefinition (apiextensions.k8s.io/v1) about to be
// stored, as the kube-apiserver cfg does; old is the stored one on an update, nil on a
// create.
func Validate(cfg *serverconfig.Config, obj, old map[string]any) (r Result) {
	defer func() {
		if p := recover(); p != nil {
			r = Result{Crashed: fmt.Sprint(p)}
		}
	}()
	return validate(cfg, obj, old)
}

func validate(cfg *serverconfig.Config, obj, old map[string]any) Result {
	d, err := Read(obj, old)
	if err != nil {
		return Result{Errors: field.ErrorList{field.Invalid(field.NewPath("spec"), "", err.Error())}}
	}
	if old == nil {
		errs := validateCreate(cfg, d)
		if len(errs) == 0 {
			errs = metavalidation.ValidateObjectMetaAccessor(accessor(obj), false, pathSegment, field.NewPath("metadata"))
		}
		var r Result
		r.Errors = errs
		if len(errs) == 0 {
			r.Warnings = warnings(cfg, d, nil)
		}
		return r
	}
	od, err := Read(old, nil)
	if err != nil {
		return Result{}
	}
	p := field.NewPath("metadata")
	withRV := withResourceVersion(obj, old)
	errs := metavalidation.ValidateObjectMetaAccessor(accessor(withRV), false, pathSegment, p)
	errs = append(errs, metavalidation.ValidateObjectMetaAccessorUpdate(accessor(withRV), accessor(old), p)...)
	errs = append(errs, validateUpdate(cfg, d, od, withRV, old)...)
	r := Result{Errors: errs}
	if len(errs) == 0 {
		r.Warnings = warnings(cfg, d, od)
	}
	return r
}

func accessor(obj map[string]any) metav1.Object {
	a, _ := meta.Accessor(&k8sunstructured.Unstructured{Object: obj})
	return a
}

func pathSegment(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}

// withResourceVersion is obj with the stored object's system metadata (a write that reaches
// validation has it).
func withResourceVersion(obj, old map[string]any) map[string]any {
	md := obj0(obj["metadata"])
	omd := obj0(old["metadata"])
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	nmd := make(map[string]any, len(md)+2)
	for k, v := range md {
		nmd[k] = v
	}
	if rv, _ := nmd["resourceVersion"].(string); rv == "" {
		if rv, _ = omd["resourceVersion"].(string); rv == "" {
			rv = "1"
		}
		nmd["resourceVersion"] = rv
	}
	if u, _ := nmd["uid"].(string); u == "" {
		if ou, ok := omd["uid"]; ok {
			nmd["uid"] = ou
		}
	}
	for _, k := range []string{"creationTimestamp", "deletionTimestamp"} {
		if v, ok := omd[k]; ok && v != nil {
			nmd[k] = v
		}
	}
	out["metadata"] = nmd
	return out
}

func obj0(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func objectMeta(m map[string]any) (*metav1.ObjectMeta, error) {
	om := &metav1.ObjectMeta{}
	if m == nil {
		return om, nil
	}
	err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, om)
	return om, err
}

func newOptions(cfg *serverconfig.Config) *options {
	return &options{cfg: cfg, allowDefaults: true, requireOpenAPISchema: true, requireValidPropertyType: true, requireStructuralSchema: true,
		requirePrunedDefaults: true, requireAtomicSetType: true, requireMapListKeysMapSet: true}
}

func validateCreate(cfg *serverconfig.Config, d *Definition) field.ErrorList {
	name := func(n string, prefix bool) []string {
		out := metavalidation.NameIsDNSSubdomain(n, prefix)
		if n != d.Spec.Names.Plural+"."+d.Spec.Group {
			out = append(out, `must be spec.names.plural+"."+spec.group`)
		}
		return out
	}
	var errs field.ErrorList
	if om, err := objectMeta(d.Metadata); err != nil {
		errs = append(errs, field.Invalid(field.NewPath("metadata"), d.Metadata, err.Error()))
	} else {
		errs = metavalidation.ValidateObjectMetaDeclaratively(context.Background(), operation.Create, om, nil, false, name, field.NewPath("metadata"), true)
	}
	errs = append(errs, validateSpec(&d.Spec, newOptions(cfg), field.NewPath("spec"))...)
	errs = append(errs, storedVersions(d.StoredVersions, d.Spec.Versions, field.NewPath("status").Child("storedVersions"))...)
	errs = append(errs, apiApproval(d, nil)...)
	errs = append(errs, preserveUnknownFields(d, nil)...)
	return errs
}

func validateUpdate(cfg *serverconfig.Config, d, od *Definition, obj, old map[string]any) field.ErrorList {
	opts := &options{
		cfg:                      cfg,
		allowDefaults:            true,
		requireOpenAPISchema:     allSchemas(&od.Spec),
		requireValidPropertyType: !anySchema(&od.Spec, func(s *crdschema.Schema) bool { return s.Type != "" && !contains(openAPIV3Types, s.Type) }),
		requireStructuralSchema:  !hasNonStructural(&od.Spec),
		requirePrunedDefaults:    !hasUnprunedDefaults(&od.Spec),
		requireAtomicSetType:     !anySchema(&od.Spec, nonAtomicSetType),
		requireMapListKeysMapSet: !anySchema(&od.Spec, func(s *crdschema.Schema) bool { return len(mapListKeysMapSet(s, field.NewPath(""))) > 0 }),
		storedRules:              map[string]bool{},
		storedMsgs:               map[string]bool{},
		tooManySelectable:        tooManySelectableAllowed(cfg, d, od),
	}
	for _, s := range schemas(&od.Spec) {
		eachSchema(s, func(n *crdschema.Schema) bool {
			for _, r := range n.XValidations {
				opts.storedRules[r.Rule] = true
				if r.MessageExpression != "" {
					opts.storedMsgs[r.MessageExpression] = true
				}
			}
			return false
		})
	}
	unchanged := map[string]bool{}
	for _, v := range d.Spec.Versions {
		if validationRaw(d, v.Name) != nil || validationRaw(od, v.Name) != nil {
			if unstructured.Equal(validationRaw(d, v.Name), validationRaw(od, v.Name)) {
				unchanged[v.Name] = true
			}
		} else if hasVersion(od, v.Name) {
			unchanged[v.Name] = true
		}
	}
	var errs field.ErrorList
	om, err1 := objectMeta(obj0(obj["metadata"]))
	oom, err2 := objectMeta(obj0(old["metadata"]))
	if err1 == nil && err2 == nil {
		errs = metavalidation.ValidateObjectMetaDeclaratively(context.Background(), operation.Update, om, oom, false, nil, field.NewPath("metadata"), true)
	}
	p := field.NewPath("spec")
	errs = append(errs, validateSpecWith(&d.Spec, opts, p, unchanged)...)
	if established(old) {
		errs = append(errs, metavalidation.ValidateImmutableField(d.Spec.Scope, od.Spec.Scope, p.Child("scope"))...)
		errs = append(errs, metavalidation.ValidateImmutableField(d.Spec.Names.Kind, od.Spec.Names.Kind, p.Child("names", "kind"))...)
	}
	errs = append(errs, metavalidation.ValidateImmutableField(d.Spec.Group, od.Spec.Group, p.Child("group"))...)
	errs = append(errs, metavalidation.ValidateImmutableField(d.Spec.Names.Plural, od.Spec.Names.Plural, p.Child("names", "plural"))...)
	errs = append(errs, validateNames(readNames(obj0(obj0(old["status"])["acceptedNames"])), field.NewPath("status", "acceptedNames"))...)
	errs = append(errs, storedVersions(d.StoredVersions, d.Spec.Versions, field.NewPath("status").Child("storedVersions"))...)
	errs = append(errs, apiApproval(d, od)...)
	errs = append(errs, preserveUnknownFields(d, od)...)
	return errs
}

func hasVersion(d *Definition, name string) bool {
	for _, v := range d.Spec.Versions {
		if v.Name == name {
			return true
		}
	}
	return false
}

func validationRaw(d *Definition, version string) any {
	if d.Spec.Validation != nil {
		return d.Spec.Validation.Raw
	}
	for _, v := range d.Spec.Versions {
		if v.Name == version && v.Schema != nil {
			return v.Schema.Raw
		}
	}
	return nil
}

func established(old map[string]any) bool {
	for _, c := range listOf(obj0(old["status"])["conditions"]) {
		cm := obj0(c)
		if str(cm, "type") == "Established" && str(cm, "status") == "True" {
			return true
		}
	}
	return false
}

func schemas(spec *Spec) []*crdschema.Schema {
	var out []*crdschema.Schema
	if spec.Validation != nil && spec.Validation.Schema != nil {
		out = append(out, spec.Validation.Schema)
	}
	for _, v := range spec.Versions {
		if v.Schema != nil && v.Schema.Schema != nil {
			out = append(out, v.Schema.Schema)
		}
	}
	return out
}

func allSchemas(spec *Spec) bool {
	if spec.Validation != nil && spec.Validation.Schema != nil {
		return true
	}
	for _, v := range spec.Versions {
		if v.Schema == nil || v.Schema.Schema == nil {
			return false
		}
	}
	return true
}

func anySchema(spec *Spec, pred func(*crdschema.Schema) bool) bool {
	for _, s := range schemas(spec) {
		if eachSchema(s, pred) {
			return true
		}
	}
	return false
}

// eachSchema reports whether pred holds for a node of s (every kind of child visited).
func eachSchema(s *crdschema.Schema, pred func(*crdschema.Schema) bool) bool {
	if s == nil {
		return false
	}
	if pred(s) {
		return true
	}
	children := append([]*crdschema.Schema{s.Items, s.Not}, s.ItemsList...)
	children = append(children, s.AllOf...)
	children = append(children, s.AnyOf...)
	children = append(children, s.OneOf...)
	for _, m := range []map[string]*crdschema.Schema{s.Properties, s.PatternProperties, s.Definitions} {
		for _, c := range m {
			children = append(children, c)
		}
	}
	for _, b := range []*crdschema.SchemaOrBool{s.AdditionalProperties, s.AdditionalItems} {
		if b != nil {
			children = append(children, b.Schema)
		}
	}
	for _, d := range s.Dependencies {
		children = append(children, d.Schema)
	}
	for _, c := range children {
		if eachSchema(c, pred) {
			return true
		}
	}
	return false
}

func nonAtomicSetType(s *crdschema.Schema) bool {
	if s.XListType == nil || *s.XListType != "set" || s.Items == nil {
		return false
	}
	switch s.Items.Type {
	case "array":
		return s.Items.XListType != nil && *s.Items.XListType != "atomic"
	case "object":
		return s.Items.XMapType == nil || *s.Items.XMapType != "atomic"
	}
	return false
}

func hasNonStructural(spec *Spec) bool {
	for _, s := range schemas(spec) {
		if structuralError(s) != nil || len(validateStructural(nil, s)) > 0 {
			return true
		}
	}
	return false
}

func hasUnprunedDefaults(spec *Spec) bool {
	for _, s := range schemas(spec) {
		if !eachSchema(s, func(n *crdschema.Schema) bool { return n.HasDefault }) {
			continue
		}
		if structuralError(s) != nil || len(validateStructural(nil, s)) > 0 {
			continue
		}
		if eachStructural(s, func(n *crdschema.Schema) bool { return n.HasDefault && prunes(n.Default, n, n.XEmbeddedResource) }) {
			return true
		}
	}
	return false
}

// eachStructural visits the structural part of a schema (properties, items,
// additionalProperties).
func eachStructural(s *crdschema.Schema, pred func(*crdschema.Schema) bool) bool {
	if s == nil {
		return false
	}
	if pred(s) {
		return true
	}
	if eachStructural(s.Items, pred) {
		return true
	}
	for _, k := range s.PropertyNames() {
		if eachStructural(s.Properties[k], pred) {
			return true
		}
	}
	return s.AdditionalProperties != nil && eachStructural(s.AdditionalProperties.Schema, pred)
}

func validateSpec(spec *Spec, opts *options, p *field.Path) field.ErrorList {
	return validateSpecWith(spec, opts, p, nil)
}

func validateSpecWith(spec *Spec, opts *options, p *field.Path, unchanged map[string]bool) field.ErrorList {
	var errs field.ErrorList
	switch {
	case spec.Group == "":
		errs = append(errs, field.Required(p.Child("group"), ""))
	case len(utilvalidation.IsDNS1123Subdomain(spec.Group)) > 0:
		errs = append(errs, field.Invalid(p.Child("group"), spec.Group, strings.Join(utilvalidation.IsDNS1123Subdomain(spec.Group), ",")))
	case len(strings.Split(spec.Group, ".")) < 2:
		errs = append(errs, field.Invalid(p.Child("group"), spec.Group, "should be a domain with at least one dot"))
	}
	errs = append(errs, enumString(p.Child("scope"), spec.Scope, []string{"Cluster", "Namespaced"})...)
	o := *opts
	if spec.PreserveUnknownFields == nil || !*spec.PreserveUnknownFields {
		o.requireStructuralSchema = true
	}
	if o.requireOpenAPISchema {
		if spec.Validation == nil || spec.Validation.Schema == nil {
			for i, v := range spec.Versions {
				if v.Schema == nil || v.Schema.Schema == nil {
					errs = append(errs, field.Required(p.Child("versions").Index(i).Child("schema").Child("openAPIV3Schema"), ""))
				}
			}
		}
	} else if spec.PreserveUnknownFields == nil || !*spec.PreserveUnknownFields {
		if spec.Validation == nil || spec.Validation.Schema == nil {
			for i, v := range spec.Versions {
				if v.Served && (v.Schema == nil || v.Schema.Schema == nil) {
					errs = append(errs, field.Required(p.Child("versions").Index(i).Child("schema", "openAPIV3Schema"), "because otherwise all fields are pruned"))
				}
			}
		}
	}
	if o.allowDefaults && anySchema(spec, func(s *crdschema.Schema) bool { return s.HasDefault }) {
		o.requireStructuralSchema = true
		if spec.PreserveUnknownFields == nil || *spec.PreserveUnknownFields {
			errs = append(errs, field.Invalid(p.Child("preserveUnknownFields"), true, "must be false in order to use defaults in the schema"))
		}
	}
	if anySchema(spec, func(s *crdschema.Schema) bool {
		return s.XEmbeddedResource || s.XPreserveUnknownFields != nil || s.XIntOrString || len(s.XListMapKeys) > 0 || s.XListType != nil || len(s.XValidations) > 0
	}) {
		o.requireStructuralSchema = true
	}
	storage, seen, unique := 0, map[string]bool{}, true
	for i, v := range spec.Versions {
		if v.Storage {
			storage++
		}
		if seen[v.Name] {
			unique = false
		}
		seen[v.Name] = true
		vp := p.Child("versions").Index(i)
		if msgs := utilvalidation.IsDNS1035Label(v.Name); len(msgs) > 0 {
			errs = append(errs, field.Invalid(vp.Child("name"), v.Name, strings.Join(msgs, ",")))
		}
		sub := spec.Subresources
		if hasPerVersionSubresources(spec) {
			sub = v.Subresources
		}
		errs = append(errs, validateVersion(&v, vp, sub != nil && sub.Status, withSuppression(&o, unchanged, v.Name))...)
	}
	if !unique {
		errs = append(errs, field.Invalid(p.Child("versions"), internalVersions(spec), "must contain unique version names"))
	}
	if storage != 1 {
		errs = append(errs, field.Invalid(p.Child("versions"), internalVersions(spec), "must have exactly one version marked as storage version"))
	}
	if spec.Version != "" {
		if msgs := utilvalidation.IsDNS1035Label(spec.Version); len(msgs) > 0 {
			errs = append(errs, field.Invalid(p.Child("version"), spec.Version, strings.Join(msgs, ",")))
		}
	}
	n := spec.Names
	if n.Plural == "" {
		errs = append(errs, field.Required(p.Child("names", "plural"), ""))
	}
	if n.Singular == "" {
		errs = append(errs, field.Required(p.Child("names", "singular"), ""))
	}
	if n.Kind == "" {
		errs = append(errs, field.Required(p.Child("names", "kind"), ""))
	}
	if n.ListKind == "" {
		errs = append(errs, field.Required(p.Child("names", "listKind"), ""))
	}
	errs = append(errs, validateNames(n, p.Child("names"))...)
	if spec.Validation != nil {
		errs = append(errs, validateValidation(spec.Validation, anyStatus(spec), withSuppression(&o, unchanged, spec.Version), p.Child("validation"))...)
	}
	errs = append(errs, validateSubresources(spec.Subresources, p.Child("subresources"))...)
	for i := range spec.Columns {
		errs = append(errs, validateColumn(&spec.Columns[i], p.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(spec.SelectableFields) > 0 {
		if spec.Validation == nil {
			errs = append(errs, field.Invalid(p.Child("selectableFields"), "", "may only be set when validations.schema is included"))
		} else {
			errs = append(errs, validateSelectableFields(spec.SelectableFields, spec.Validation.Schema, p.Child("selectableFields"), o.tooManySelectable[""])...)
		}
	}
	if c := spec.Conversion; c != nil && c.Strategy != "None" && (spec.PreserveUnknownFields == nil || *spec.PreserveUnknownFields) {
		errs = append(errs, field.Invalid(p.Child("conversion").Child("strategy"), c.Strategy, "must be None if spec.preserveUnknownFields is true"))
	}
	errs = append(errs, validateConversion(spec.Conversion, p.Child("conversion"))...)
	return errs
}

func withSuppression(o *options, unchanged map[string]bool, version string) *options {
	if unchanged[version] {
		c := *o
		c.suppressPerExpression = true
		return &c
	}
	return o
}

func hasPerVersionSubresources(spec *Spec) bool {
	for _, v := range spec.Versions {
		if v.Subresources != nil {
			return true
		}
	}
	return false
}

func anyStatus(spec *Spec) bool {
	if spec.Subresources != nil && spec.Subresources.Status {
		return true
	}
	for _, v := range spec.Versions {
		if v.Subresources != nil && v.Subresources.Status {
			return true
		}
	}
	return false
}

func enumString(p *field.Path, v string, accepted []string) field.ErrorList {
	if v == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	if contains(accepted, v) {
		return nil
	}
	return field.ErrorList{field.NotSupported(p, v, accepted)}
}

func validateVersion(v *Version, p *field.Path, status bool, opts *options) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range deprecationWarning(v.Deprecated, v.DeprecationWarning) {
		errs = append(errs, field.Invalid(p.Child("deprecationWarning"), v.DeprecationWarning, msg))
	}
	if v.Schema != nil {
		errs = append(errs, validateValidation(v.Schema, status, opts, p.Child("schema"))...)
	}
	errs = append(errs, validateSubresources(v.Subresources, p.Child("subresources"))...)
	for i := range v.Columns {
		errs = append(errs, validateColumn(&v.Columns[i], p.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(v.SelectableFields) > 0 {
		if v.Schema == nil || v.Schema.Schema == nil {
			errs = append(errs, field.Invalid(p.Child("selectableFields"), "", "may only be set when `version.schema.openAPIV3Schema` is not included"))
		} else {
			errs = append(errs, validateSelectableFields(v.SelectableFields, v.Schema.Schema, p.Child("selectableFields"), opts.tooManySelectable[v.Name])...)
		}
	}
	return errs
}

func deprecationWarning(deprecated bool, w *string) []string {
	if !deprecated && w != nil {
		return []string{"can only be set for deprecated versions"}
	}
	if w == nil {
		return nil
	}
	var out []string
	if len(*w) > 256 {
		out = append(out, "must be <= 256 characters long")
	}
	if len(*w) == 0 {
		out = append(out, "must not be an empty string")
	}
	for i, r := range *w {
		if !unicode.IsPrint(r) {
			out = append(out, fmt.Sprintf("must only contain printable UTF-8 characters; non-printable character found at index %d", i))
			break
		}
		if unicode.IsControl(r) {
			out = append(out, fmt.Sprintf("must only contain printable UTF-8 characters; control character found at index %d", i))
			break
		}
	}
	if !utf8.ValidString(*w) {
		out = append(out, "must only contain printable UTF-8 characters")
	}
	return out
}

var allowedAtRoot = map[string]bool{"Description": true, "Type": true, "Format": true, "Title": true, "Maximum": true, "ExclusiveMaximum": true,
	"Minimum": true, "ExclusiveMinimum": true, "MaxLength": true, "MinLength": true, "Pattern": true, "MaxItems": true, "MinItems": true,
	"UniqueItems": true, "MultipleOf": true, "Required": true, "Items": true, "Properties": true, "ExternalDocs": true, "Example": true,
	"XPreserveUnknownFields": true, "XValidations": true}

const allowedAtRootList = "[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]"

// rootFields are the internal fields a root schema sets, in the order of the internal type.
func rootFields(s *crdschema.Schema) []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(s.ID != "", "ID")
	add(s.SchemaURL != "", "Schema")
	add(s.Ref != "", "Ref")
	add(s.Description != "", "Description")
	add(s.Type != "", "Type")
	add(s.Nullable, "Nullable")
	add(s.Format != "", "Format")
	add(s.Title != "", "Title")
	add(s.HasDefault, "Default")
	add(s.Maximum != nil, "Maximum")
	add(s.ExclusiveMaximum, "ExclusiveMaximum")
	add(s.Minimum != nil, "Minimum")
	add(s.ExclusiveMinimum, "ExclusiveMinimum")
	add(s.MaxLength != nil, "MaxLength")
	add(s.MinLength != nil, "MinLength")
	add(s.Pattern != "", "Pattern")
	add(s.MaxItems != nil, "MaxItems")
	add(s.MinItems != nil, "MinItems")
	add(s.UniqueItems, "UniqueItems")
	add(s.MultipleOf != nil, "MultipleOf")
	add(s.Enum != nil, "Enum")
	add(s.MaxProperties != nil, "MaxProperties")
	add(s.MinProperties != nil, "MinProperties")
	add(s.Required != nil, "Required")
	add(s.Items != nil || s.ItemsList != nil, "Items")
	add(s.AllOf != nil, "AllOf")
	add(s.OneOf != nil, "OneOf")
	add(s.AnyOf != nil, "AnyOf")
	add(s.Not != nil, "Not")
	add(s.Properties != nil, "Properties")
	add(s.AdditionalProperties != nil, "AdditionalProperties")
	add(s.PatternProperties != nil, "PatternProperties")
	add(s.Dependencies != nil, "Dependencies")
	add(s.AdditionalItems != nil, "AdditionalItems")
	add(s.Definitions != nil, "Definitions")
	add(s.ExternalDocs != nil, "ExternalDocs")
	add(s.HasExample, "Example")
	add(s.XPreserveUnknownFields != nil, "XPreserveUnknownFields")
	add(s.XEmbeddedResource, "XEmbeddedResource")
	add(s.XIntOrString, "XIntOrString")
	add(s.XListMapKeys != nil, "XListMapKeys")
	add(s.XListType != nil, "XListType")
	add(s.XMapType != nil, "XMapType")
	add(s.XValidations != nil, "XValidations")
	return out
}

func validateValidation(v *Validation, status bool, opts *options, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	s := v.Schema
	if s == nil {
		return nil
	}
	if status {
		for _, f := range rootFields(s) {
			if f == "Type" {
				if s.Type != "object" {
					errs = append(errs, field.Invalid(p.Child("openAPIV3Schema.type"), s.Type, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`))
					break
				}
				continue
			}
			if !allowedAtRoot[f] {
				errs = append(errs, field.Invalid(p.Child("openAPIV3Schema"), internalProps(s), fmt.Sprintf(`only %v fields are allowed at the root of the schema if the status subresource is enabled`, allowedAtRootList)))
				break
			}
		}
	}
	if s.Nullable {
		errs = append(errs, field.Forbidden(p.Child("openAPIV3Schema.nullable"), `nullable cannot be true at the root`))
	}
	sp := p.Child("openAPIV3Schema")
	std := standard{allowDefaults: opts.allowDefaults, requireValidType: opts.requireValidPropertyType}
	var cc *celContext
	var initErrs field.ErrorList
	if opts.requireStructuralSchema {
		if err := structuralError(s); err != nil {
			initErrs = append(initErrs, field.Invalid(sp, "", err.Error()))
		} else if se := validateStructural(sp, s); len(se) > 0 {
			errs = append(errs, se...)
		} else if de := validateDefaults(opts.server(), sp, s, opts.requirePrunedDefaults); len(de) > 0 {
			errs = append(errs, de...)
		} else {
			cc = rootContext(opts.server(), s)
		}
	}
	we := walk(s, sp, std, true, opts, cc)
	errs = append(errs, we.schema...)
	errs = append(errs, we.cel...)
	if len(errs) == 0 && len(initErrs) > 0 {
		errs = append(errs, initErrs...)
	}
	if cc != nil && cc.total != nil && cc.total.total > StaticEstimatedCRDCostLimit {
		for _, e := range cc.total.mostExpensive {
			errs = append(errs, field.Forbidden(e.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"))
		}
		errs = append(errs, field.Forbidden(sp, costMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", cc.total.total, StaticEstimatedCRDCostLimit)))
	}
	return errs
}

func validateSubresources(sub *Subresources, p *field.Path) field.ErrorList {
	if sub == nil || sub.Scale == nil {
		return nil
	}
	var errs field.ErrorList
	sc := sub.Scale
	if sc.SpecReplicasPath == "" {
		errs = append(errs, field.Required(p.Child("scale.specReplicasPath"), ""))
	} else if e := simpleJSONPath(sc.SpecReplicasPath, p.Child("scale.specReplicasPath")); len(e) > 0 {
		errs = append(errs, e...)
	} else if !strings.HasPrefix(sc.SpecReplicasPath, ".spec.") {
		errs = append(errs, field.Invalid(p.Child("scale.specReplicasPath"), sc.SpecReplicasPath, "should be a json path under .spec"))
	}
	if sc.StatusReplicasPath == "" {
		errs = append(errs, field.Required(p.Child("scale.statusReplicasPath"), ""))
	} else if e := simpleJSONPath(sc.StatusReplicasPath, p.Child("scale.statusReplicasPath")); len(e) > 0 {
		errs = append(errs, e...)
	} else if !strings.HasPrefix(sc.StatusReplicasPath, ".status.") {
		errs = append(errs, field.Invalid(p.Child("scale.statusReplicasPath"), sc.StatusReplicasPath, "should be a json path under .status"))
	}
	if l := sc.LabelSelectorPath; l != nil && *l != "" {
		if e := simpleJSONPath(*l, p.Child("scale.labelSelectorPath")); len(e) > 0 {
			errs = append(errs, e...)
		} else if !strings.HasPrefix(*l, ".spec.") && !strings.HasPrefix(*l, ".status.") {
			errs = append(errs, field.Invalid(p.Child("scale.labelSelectorPath"), l, "should be a json path under either .spec or .status"))
		}
	}
	return errs
}

func simpleJSONPath(s string, p *field.Path) field.ErrorList {
	switch {
	case s == "":
		return field.ErrorList{field.Invalid(p, s, "must not be empty")}
	case s[0] != '.':
		return field.ErrorList{field.Invalid(p, s, "must be a simple json path starting with .")}
	}
	return nil
}

var columnTypes = []string{"boolean", "date", "integer", "number", "string"}
var columnFormats = []string{"byte", "date", "date-time", "double", "float", "int32", "int64", "password"}

func validateColumn(c *Column, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if c.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	if c.Type == "" {
		errs = append(errs, field.Required(p.Child("type"), fmt.Sprintf("must be one of %s", strings.Join(columnTypes, ","))))
	} else if !contains(columnTypes, c.Type) {
		errs = append(errs, field.Invalid(p.Child("type"), c.Type, fmt.Sprintf("must be one of %s", strings.Join(columnTypes, ","))))
	}
	if c.Format != "" && !contains(columnFormats, c.Format) {
		errs = append(errs, field.Invalid(p.Child("format"), c.Format, fmt.Sprintf("must be one of %s", strings.Join(columnFormats, ","))))
	}
	if c.JSONPath == "" {
		errs = append(errs, field.Required(p.Child("JSONPath"), ""))
	} else {
		errs = append(errs, simpleJSONPath(c.JSONPath, p.Child("JSONPath"))...)
	}
	return errs
}

// validateSelectableFields checks a list of selectable fields (of the spec, or of a version);
// allowTooMany lets it hold more than 8 (an update that leaves a list the old CRD already had
// too many in unchanged, from 1.35).
func validateSelectableFields(fields []SelectableField, s *crdschema.Schema, p *field.Path, allowTooMany bool) field.ErrorList {
	var errs field.ErrorList
	unique := map[string]bool{}
	for i, f := range fields {
		ip := p.Index(i)
		if f.JSONPath == "" {
			errs = append(errs, field.Required(ip.Child("jsonPath"), ""))
			continue
		}
		path, found, err := celrules.FieldPath(f.JSONPath, s, celrules.WithoutArrayNotation())
		if err != nil {
			errs = append(errs, field.Invalid(ip.Child("jsonPath"), f.JSONPath, fmt.Sprintf("is an invalid path: %v", err)))
			continue
		}
		if path.Root().String() == "metadata" {
			errs = append(errs, field.Invalid(ip.Child("jsonPath"), f.JSONPath, "must not point to fields in metadata"))
		}
		if found == nil || (found.Type != "string" && found.Type != "boolean" && found.Type != "integer") {
			errs = append(errs, field.Invalid(ip.Child("jsonPath"), f.JSONPath, "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."))
		}
		if unique[path.String()] {
			errs = append(errs, field.Duplicate(ip.Child("jsonPath"), f.JSONPath))
		} else {
			unique[path.String()] = true
		}
	}
	if len(unique) > maxSelectableFields && !allowTooMany {
		errs = append(errs, field.TooMany(p, len(unique), maxSelectableFields))
	}
	return errs
}

const maxSelectableFields = 8

// tooManySelectableAllowed names the selectable field lists ("" for the spec's, else the
// version's) an update may keep with more than 8 fields: those the old CRD already had too
// many in, unchanged (1.35; 1.34 refuses them).
func tooManySelectableAllowed(cfg *serverconfig.Config, d, od *Definition) map[string]bool {
	out := map[string]bool{}
	if !cfg.AtLeast(35) {
		return out
	}
	if len(od.Spec.SelectableFields) > maxSelectableFields && reflect.DeepEqual(d.Spec.SelectableFields, od.Spec.SelectableFields) {
		out[""] = true
	}
	for _, v := range d.Spec.Versions {
		for _, ov := range od.Spec.Versions {
			if ov.Name == v.Name && len(ov.SelectableFields) > maxSelectableFields && reflect.DeepEqual(v.SelectableFields, ov.SelectableFields) {
				out[v.Name] = true
			}
		}
	}
	return out
}

func validateConversion(c *Conversion, p *field.Path) field.ErrorList {
	if c == nil {
		return nil
	}
	errs := enumString(p.Child("strategy"), c.Strategy, []string{"None", "Webhook"})
	if c.Strategy == "Webhook" {
		if c.Webhook == nil {
			errs = append(errs, field.Required(p.Child("webhookClientConfig"), "required when strategy is set to Webhook"))
		} else if (c.Webhook.URL == nil) == (c.Webhook.Service == nil) {
			errs = append(errs, field.Required(p.Child("webhookClientConfig"), "exactly one of url or service is required"))
		}
		errs = append(errs, conversionReviewVersions(c.ConversionReviewVersions, p.Child("conversionReviewVersions"))...)
	} else {
		if c.Webhook != nil {
			errs = append(errs, field.Forbidden(p.Child("webhookClientConfig"), "should not be set when strategy is not set to Webhook"))
		}
		if len(c.ConversionReviewVersions) > 0 {
			errs = append(errs, field.Forbidden(p.Child("conversionReviewVersions"), "should not be set when strategy is not set to Webhook"))
		}
	}
	return errs
}

func conversionReviewVersions(vs []string, p *field.Path) field.ErrorList {
	if len(vs) < 1 {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	seen, accepted := map[string]bool{}, false
	for i, v := range vs {
		if seen[v] {
			errs = append(errs, field.Invalid(p.Index(i), v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, msg := range utilvalidation.IsDNS1035Label(v) {
			errs = append(errs, field.Invalid(p.Index(i), v, msg))
		}
		if v == "v1" || v == "v1beta1" {
			accepted = true
		}
	}
	if !accepted {
		errs = append(errs, field.Invalid(p, vs, "must include at least one of v1, v1beta1"))
	}
	return errs
}

func validateNames(n Names, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if msgs := utilvalidation.IsDNS1035Label(n.Plural); n.Plural != "" && len(msgs) > 0 {
		errs = append(errs, field.Invalid(p.Child("plural"), n.Plural, strings.Join(msgs, ",")))
	}
	if msgs := utilvalidation.IsDNS1035Label(n.Singular); n.Singular != "" && len(msgs) > 0 {
		errs = append(errs, field.Invalid(p.Child("singular"), n.Singular, strings.Join(msgs, ",")))
	}
	if msgs := utilvalidation.IsDNS1035Label(strings.ToLower(n.Kind)); n.Kind != "" && len(msgs) > 0 {
		errs = append(errs, field.Invalid(p.Child("kind"), n.Kind, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
	}
	if msgs := utilvalidation.IsDNS1035Label(strings.ToLower(n.ListKind)); n.ListKind != "" && len(msgs) > 0 {
		errs = append(errs, field.Invalid(p.Child("listKind"), n.ListKind, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
	}
	for i, s := range n.ShortNames {
		if msgs := utilvalidation.IsDNS1035Label(s); len(msgs) > 0 {
			errs = append(errs, field.Invalid(p.Child("shortNames").Index(i), s, strings.Join(msgs, ",")))
		}
	}
	if n.Kind != "" && n.Kind == n.ListKind {
		errs = append(errs, field.Invalid(p.Child("listKind"), n.ListKind, "kind and listKind may not be the same"))
	}
	for i, c := range n.Categories {
		if msgs := utilvalidation.IsDNS1035Label(c); len(msgs) > 0 {
			errs = append(errs, field.Invalid(p.Child("categories").Index(i), c, strings.Join(msgs, ",")))
		}
	}
	return errs
}

func storedVersions(stored []string, versions []Version, p *field.Path) field.ErrorList {
	if len(stored) == 0 {
		return field.ErrorList{field.Invalid(p, stored, "must have at least one stored version")}
	}
	var errs field.ErrorList
	left := map[string]int{}
	for i, v := range stored {
		left[v] = i
	}
	for _, v := range versions {
		_, ok := left[v.Name]
		if v.Storage && !ok {
			errs = append(errs, field.Invalid(p, stored, "must have the storage version "+v.Name))
		}
		if ok {
			delete(left, v.Name)
		}
	}
	for _, v := range sortedIntKeys(left) {
		errs = append(errs, field.Invalid(p.Index(left[v]), v, fmt.Sprintf("missing from spec.versions; %[1]s was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in %[1]s and removes %[1]s from status.storedVersions", v)))
	}
	return errs
}

func sortedIntKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

const approvalAnnotation = "api-approved.kubernetes.io"

func protectedGroup(g string) bool {
	return g == "k8s.io" || strings.HasSuffix(g, ".k8s.io") || g == "kubernetes.io" || strings.HasSuffix(g, ".kubernetes.io")
}

type approvalState int

const (
	approvalInvalid approvalState = iota
	approved
	approvalBypassed
	approvalMissing
)

func approvalOf(annotations map[string]string) (approvalState, string) {
	a := annotations[approvalAnnotation]
	u, err := url.ParseRequestURI(a)
	switch {
	case a == "":
		return approvalMissing, fmt.Sprintf("protected groups must have approval annotation %q, see https://github.com/kubernetes/enhancements/pull/1111", approvalAnnotation)
	case strings.HasPrefix(a, "unapproved"):
		return approvalBypassed, fmt.Sprintf("not approved: %q", a)
	case err == nil && u != nil && u.Host != "" && u.Scheme != "":
		return approved, fmt.Sprintf("approved in %v", a)
	}
	return approvalInvalid, fmt.Sprintf("protected groups must have approval annotation %q with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111", approvalAnnotation)
}

func apiApproval(d, od *Definition) field.ErrorList {
	if !protectedGroup(d.Spec.Group) {
		return nil
	}
	state, reason := approvalOf(d.Annotations)
	if od != nil {
		if old, _ := approvalOf(od.Annotations); old == state {
			return nil
		}
	}
	p := field.NewPath("metadata", "annotations").Key(approvalAnnotation)
	switch state {
	case approvalMissing:
		return field.ErrorList{field.Required(p, reason)}
	case approved, approvalBypassed:
		return nil
	}
	return field.ErrorList{field.Invalid(p, d.Annotations[approvalAnnotation], reason)}
}

func preserveUnknownFields(d, od *Definition) field.ErrorList {
	if od != nil && od.Spec.PreserveUnknownFields != nil && *od.Spec.PreserveUnknownFields {
		return nil
	}
	if d.Spec.PreserveUnknownFields != nil && *d.Spec.PreserveUnknownFields {
		return field.ErrorList{field.Invalid(field.NewPath("spec").Child("preserveUnknownFields"), d.Spec.PreserveUnknownFields, "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead")}
	}
	return nil
}

// warnings are the server's warnings about a CRD written: formats it does not know (on an
// update, only those the old CRD did not have), and from 1.37 list-type set lists of objects
// or lists (on an update, only new ones).
func warnings(cfg *serverconfig.Config, d, od *Definition) []string {
	if !cfg.AtLeast(34) {
		// Kubernetes 1.34 brought the unrecognized-format warnings; 1.33 warns of none
		// (recorded: crdminors format-warnings-by-type, format-k8s-names-warning).
		return nil
	}
	fs := formats.SchemasOf(cfg.Minor)
	var old map[string]bool
	if od != nil {
		old = map[string]bool{}
		for _, f := range unrecognizedFormats(fs, &od.Spec) {
			old[f] = true
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range unrecognizedFormats(fs, &d.Spec) {
		w := fmt.Sprintf("unrecognized format %q", f)
		if old[f] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	if !cfg.AtLeast(37) {
		// The warning about list-type set lists of objects or lists came with 1.37.
		return out
	}
	var oldSets map[string]bool
	if od != nil {
		oldSets = map[string]bool{}
		for _, w := range nonScalarSets(&od.Spec) {
			oldSets[w] = true
		}
	}
	for _, w := range nonScalarSets(&d.Spec) {
		if !oldSets[w] {
			out = append(out, w)
		}
	}
	return out
}

func unrecognizedFormats(fs formats.Schemas, spec *Spec) []string {
	var out []string
	for _, s := range schemas(spec) {
		eachSchema(s, func(n *crdschema.Schema) bool {
			if fs.Unrecognized(n.Type, n.Format) {
				out = append(out, n.Format)
			}
			return false
		})
	}
	return out
}

func nonScalarSets(spec *Spec) []string {
	seen := map[string]bool{}
	for _, s := range schemas(spec) {
		eachSchema(s, func(n *crdschema.Schema) bool {
			if n.XListType != nil && *n.XListType == "set" && n.Items != nil && (n.Items.Type == "object" || n.Items.Type == "array") {
				seen[fmt.Sprintf("x-kubernetes-list-type: set for items of type %q is not supported by server-side apply or CEL validation rules", n.Items.Type)] = true
			}
			return false
		})
	}
	out := make([]string, 0, len(seen))
	for w := range seen {
		out = append(out, w)
	}
	sortStrings(out)
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// internalVersions renders spec.versions as the server prints them.
func internalVersions(spec *Spec) []iVersion {
	out := make([]iVersion, len(spec.Versions))
	for i, v := range spec.Versions {
		iv := iVersion{Name: v.Name, Served: v.Served, Storage: v.Storage, Deprecated: v.Deprecated, DeprecationWarning: v.DeprecationWarning}
		if v.Schema != nil {
			iv.Schema = &iValidation{}
			if v.Schema.Schema != nil {
				p := internalProps(v.Schema.Schema)
				iv.Schema.OpenAPIV3Schema = &p
			}
		}
		if v.Subresources != nil {
			iv.Subresources = &iSubresources{}
			if v.Subresources.Status {
				iv.Subresources.Status = &struct{}{}
			}
			if sc := v.Subresources.Scale; sc != nil {
				iv.Subresources.Scale = &iScale{SpecReplicasPath: sc.SpecReplicasPath, StatusReplicasPath: sc.StatusReplicasPath, LabelSelectorPath: sc.LabelSelectorPath}
			}
		}
		for _, c := range v.Columns {
			iv.AdditionalPrinterColumns = append(iv.AdditionalPrinterColumns, iColumn(c))
		}
		for _, f := range v.SelectableFields {
			iv.SelectableFields = append(iv.SelectableFields, iSelectable(f))
		}
		out[i] = iv
	}
	return out
}

type iVersion struct {
	Name                     string
	Served                   bool
	Storage                  bool
	Deprecated               bool
	DeprecationWarning       *string
	Schema                   *iValidation
	Subresources             *iSubresources
	AdditionalPrinterColumns []iColumn
	SelectableFields         []iSelectable
}

type iValidation struct{ OpenAPIV3Schema *iProps }

type iSubresources struct {
	Status *struct{}
	Scale  *iScale
}

type iScale struct {
	SpecReplicasPath   string
	StatusReplicasPath string
	LabelSelectorPath  *string
}

type iColumn struct {
	Name        string
	Type        string
	Format      string
	Description string
	Priority    int32
	JSONPath    string
}

type iSelectable struct{ JSONPath string }
