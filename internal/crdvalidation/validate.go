package crdvalidation

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/correlate"
	"github.com/ssa-diff/ssa-diff/internal/crdvalidation/embedded"
	"github.com/ssa-diff/ssa-diff/internal/crdvalidation/openapi"
	"github.com/ssa-diff/ssa-diff/internal/fromunstructured"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Result is what the validation says of an object about to be stored.
type Result struct {
	// Errors make the server refuse the write (422 Invalid), in the server's order.
	Errors field.ErrorList
	// Warnings are the server's Warning headers.
	Warnings []string
}

// compiled is what is built once per CRD version: the schema validators and the CEL rules.
type compiled struct {
	main   *openapi.Validator
	status *openapi.Validator
	cel    RuleValidator
}

// RuleValidator runs the CEL rules of a CRD version (see package celrules); nil when the
// schema has none.
type RuleValidator interface {
	// Validate runs every rule on obj (old is the stored object on an update, nil on a
	// create; corr pairs them for ratcheting): the errors, and the warnings of ratcheted
	// failures.
	Validate(obj, old map[string]any, corr *correlate.Node) (field.ErrorList, []string)
}

// RuleCompiler builds the RuleValidator of a schema as a kube-apiserver of minor server
// compiles its rules; set by the caller that links CEL.
type RuleCompiler func(server kube.Minor, s *crdschema.Schema) RuleValidator

// Validator validates custom resources as a kube-apiserver does.
type Validator struct {
	// Server is the kube-apiserver, its minor and feature gates (required).
	Server *serverconfig.Config
	// Rules compiles the CEL rules of a schema; nil: rules are not checked.
	Rules RuleCompiler
}

func (v Validator) server() kube.Minor { return v.Server.Minor }

// compiledFor is what val compiles to on the server: built once per minor.
func (v Validator) compiledFor(val *crdschema.Validation) *compiled {
	server := v.server()
	type key struct {
		minor int
		rules bool
	}
	return val.Compiled(key{int(server), v.Rules != nil}, func(val *crdschema.Validation) any {
		c := &compiled{main: openapi.New(server, val.Schema)}
		if s := val.Schema; s != nil {
			if st, ok := s.Properties["status"]; ok {
				c.status = openapi.New(server, st)
			}
			if v.Rules != nil && hasRules(s) {
				c.cel = v.Rules(server, s)
			}
		}
		return c
	}).(*compiled)
}

// hasRules reports whether a schema has x-kubernetes-validations on any node the CEL
// validator visits (properties, additionalProperties, items).
func hasRules(s *crdschema.Schema) bool {
	if s == nil {
		return false
	}
	if len(s.XValidations) > 0 || hasRules(s.Items) {
		return true
	}
	if s.AdditionalProperties != nil && hasRules(s.AdditionalProperties.Schema) {
		return true
	}
	for _, p := range s.Properties {
		if hasRules(p) {
			return true
		}
	}
	return false
}

// Validate validates obj, a custom resource of type t about to be stored through the given
// subresource ("" or "status"; a write through /scale validates the parent as the main
// resource does); old is the stored object on an update, nil on a create.
func (v Validator) Validate(t *schema.Type, subresource string, obj, old map[string]any) Result {
	if t == nil || t.Validation == nil {
		return Result{}
	}
	c := v.compiledFor(t.Validation)
	s := t.Validation.Schema
	obj = withSystemMetadata(obj, old)
	md := convertMeta(obj)
	var r Result
	// The strategy's warnings are asked for once the object passed validation; the ratcheted
	// failures of CEL rules are warned about as they are found.
	switch {
	case old == nil:
		r.Errors = v.create(t, c, s, obj, md)
		if len(r.Errors) == 0 {
			r.Warnings = finalizerWarnings(obj, nil)
		}
	case subresource == "status":
		r.Errors = append(commonUpdate(t, md, old), v.statusUpdate(t, c, s, md, old, &r.Warnings)...)
	default:
		r.Errors = append(commonUpdate(t, md, old), v.update(t, c, s, md, old, &r.Warnings)...)
		if len(r.Errors) == 0 {
			r.Warnings = append(r.Warnings, finalizerWarnings(obj, old)...)
		}
	}
	r.Warnings = dedupe(r.Warnings)
	return r
}

// dedupe drops repeated warnings, as the server's warning recorder does.
func dedupe(ws []string) []string {
	if len(ws) < 2 {
		return ws
	}
	seen := make(map[string]bool, len(ws))
	out := ws[:0]
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func (v Validator) create(t *schema.Type, c *compiled, s *crdschema.Schema, obj map[string]any, md *convertedMeta) field.ErrorList {
	var errs field.ErrorList
	if tm := typeMeta(t, obj); len(tm) > 0 {
		errs = tm
	} else {
		errs = append(errs, objectMetaCreate(t, md)...)
		errs = append(errs, c.main.Validate(nil, obj, nil)...)
		errs = append(errs, scaleSpec(t, obj)...)
		errs = append(errs, scaleStatus(t, obj)...)
	}
	errs = append(errs, embedded.Validate(nil, obj, s, false)...)
	errs = append(errs, listSetsAndMaps(nil, s, obj)...)
	if c.cel != nil {
		if tail, blocked := blocking(errs); blocked {
			errs = append(errs, tail)
		} else {
			ce, _ := c.cel.Validate(obj, nil, nil)
			errs = append(errs, ce...)
		}
	}
	if len(errs) == 0 {
		errs = metavalidation.ValidateObjectMetaAccessor(wellformed.Meta(md.accessor()), t.Namespaced, pathSegment, field.NewPath("metadata"))
	}
	return errs
}

func (v Validator) update(t *schema.Type, c *compiled, s *crdschema.Schema, md *convertedMeta, old map[string]any, warnings *[]string) field.ErrorList {
	obj := md.obj
	corr := correlate.New(obj, old, s)
	var errs field.ErrorList
	if tm := typeMeta(t, obj); len(tm) > 0 {
		errs = tm
	} else {
		errs = append(errs, objectMetaUpdate(md, old)...)
		errs = append(errs, c.main.Validate(nil, obj, corr)...)
		errs = append(errs, scaleSpec(t, obj)...)
		errs = append(errs, scaleStatus(t, obj)...)
	}
	errs = append(errs, embedded.Validate(nil, obj, s, false)...)
	if len(listSetsAndMaps(nil, s, old)) == 0 {
		errs = append(errs, listSetsAndMaps(nil, s, obj)...)
	}
	if c.cel != nil {
		if tail, blocked := blocking(errs); blocked {
			errs = append(errs, tail)
		} else {
			ce, w := c.cel.Validate(obj, old, corr)
			errs = append(errs, ce...)
			*warnings = append(*warnings, w...)
		}
	}
	return errs
}

func (v Validator) statusUpdate(t *schema.Type, c *compiled, s *crdschema.Schema, md *convertedMeta, old map[string]any, warnings *[]string) field.ErrorList {
	obj := md.obj
	corr := correlate.New(obj, old, s)
	var errs field.ErrorList
	if tm := typeMeta(t, obj); len(tm) > 0 {
		errs = tm
	} else {
		errs = append(errs, objectMetaUpdate(md, old)...)
		if status, ok := obj["status"]; ok && c.status != nil {
			var sc *correlate.Node
			if s != nil {
				sc = corr.Key("status")
			}
			errs = append(errs, c.status.Validate(field.NewPath("status"), status, sc)...)
		}
		errs = append(errs, scaleStatus(t, obj)...)
	}
	if newErrs := listSetsAndMaps(nil, s, obj); len(newErrs) > 0 && len(listSetsAndMaps(nil, s, old)) == 0 {
		errs = append(errs, newErrs...)
	}
	if c.cel != nil {
		if tail, blocked := blocking(errs); blocked {
			errs = append(errs, tail)
		} else {
			ce, w := c.cel.Validate(obj, old, corr)
			errs = append(errs, ce...)
			*warnings = append(*warnings, w...)
		}
	}
	return errs
}

// blocking: errors of these types stop the CEL rules (their input would be malformed).
func blocking(errs field.ErrorList) (*field.Error, bool) {
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"), true
		}
	}
	return nil, false
}

// typeMeta: apiVersion and kind must be the CRD version's. They are read as the server
// reads them: through the group, version and kind they parse to (an apiVersion that does not
// parse makes both empty).
func typeMeta(t *schema.Type, obj map[string]any) field.ErrorList {
	var errs field.ErrorList
	ta, err := meta.TypeAccessor(&unstructured.Unstructured{Object: obj})
	if err != nil {
		return field.ErrorList{field.Invalid(field.NewPath("kind"), nil, err.Error())}
	}
	kind, apiVersion := ta.GetKind(), ta.GetAPIVersion()
	if kind != t.GVK.Kind {
		errs = append(errs, field.Invalid(field.NewPath("kind"), kind, fmt.Sprintf("must be %v", t.GVK.Kind)))
	}
	if want := t.GVK.Group + "/" + t.GVK.Version; apiVersion != want {
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), apiVersion, fmt.Sprintf("must be %v", want)))
	}
	return errs
}

// objectMeta converts the object's metadata as the strategy does (a malformed one is an
// error at metadata): directly when it can (fromunstructured), else with the strategy's
// converter.
func objectMeta(obj map[string]any) (*metav1.ObjectMeta, field.ErrorList) {
	raw := obj["metadata"]
	if raw == nil {
		return &metav1.ObjectMeta{}, nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, fmt.Sprintf("expected map[string]interface{}, got %T", raw))}
	}
	if om, ok := fromunstructured.ObjectMeta(m); ok {
		return om, nil
	}
	om := &metav1.ObjectMeta{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, om); err != nil {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, err.Error())}
	}
	return om, nil
}

// convertedMeta is an object's metadata converted once (objectMeta) for every check
// that reads it.
type convertedMeta struct {
	obj  map[string]any
	om   *metav1.ObjectMeta
	errs field.ErrorList
}

func convertMeta(obj map[string]any) *convertedMeta {
	om, errs := objectMeta(obj)
	return &convertedMeta{obj: obj, om: om, errs: errs}
}

// accessor is the object's metadata as the registry's checks read it (meta.Accessor of
// the unstructured object), but for its managedFields, which both
// ValidateObjectMetaAccessor and ValidateObjectMetaAccessorUpdate ask for and
// Unstructured.GetManagedFields converts entry by entry at each call: when the metadata
// converted whole and they are absent, null or a list, they are the entries that
// conversion made, with the same converter — the same values.
func (m *convertedMeta) accessor() metav1.Object {
	a := accessor(m.obj)
	if m.errs != nil || m.om == nil {
		return a
	}
	md, _ := m.obj["metadata"].(map[string]any)
	switch md["managedFields"].(type) {
	case nil, []any:
		return &convertedEntries{Object: a, entries: m.om.ManagedFields}
	}
	return a
}

// convertedEntries is an accessor whose managedFields were converted already.
type convertedEntries struct {
	metav1.Object
	entries []metav1.ManagedFieldsEntry
}

func (c *convertedEntries) GetManagedFields() []metav1.ManagedFieldsEntry { return c.entries }

func objectMetaCreate(t *schema.Type, md *convertedMeta) field.ErrorList {
	om, errs := md.om, md.errs
	if len(errs) > 0 {
		return errs
	}
	return metavalidation.ValidateObjectMetaDeclaratively(context.Background(), operation.Create, om, nil, t.Namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"), true)
}

func objectMetaUpdate(md *convertedMeta, old map[string]any) field.ErrorList {
	om, errs := md.om, md.errs
	if len(errs) > 0 {
		return errs
	}
	oldMeta, errs := objectMeta(old)
	if len(errs) > 0 {
		return errs
	}
	return metavalidation.ValidateObjectMetaDeclaratively(context.Background(), operation.Update, om, oldMeta, false, nil, field.NewPath("metadata"), true)
}

// commonUpdate is what the registry checks of every update before the strategy.
func commonUpdate(t *schema.Type, md *convertedMeta, old map[string]any) field.ErrorList {
	p := field.NewPath("metadata")
	// Well-formed labels and annotations are checked once, not by both.
	meta := wellformed.Meta(md.accessor())
	errs := metavalidation.ValidateObjectMetaAccessor(meta, t.Namespaced, pathSegment, p)
	return append(errs, metavalidation.ValidateObjectMetaAccessorUpdate(meta, accessor(old), p)...)
}

func accessor(obj map[string]any) metav1.Object {
	a, _ := meta.Accessor(&unstructured.Unstructured{Object: obj})
	return a
}

func pathSegment(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}

// withSystemMetadata is obj as the registry has it when it validates an update: the uid,
// creation and deletion times of the stored object, and a resourceVersion (the stored one:
// a write that reaches validation always has one).
func withSystemMetadata(obj, old map[string]any) map[string]any {
	if old == nil {
		return obj
	}
	md, _ := obj["metadata"].(map[string]any)
	oldMD, _ := old["metadata"].(map[string]any)
	fix := map[string]any{}
	if s, _ := md["uid"].(string); s == "" {
		if u, ok := oldMD["uid"]; ok {
			fix["uid"] = u
		}
	}
	if ct, ok := oldMD["creationTimestamp"]; ok && ct != nil {
		fix["creationTimestamp"] = ct
	}
	if dt, ok := oldMD["deletionTimestamp"]; ok && dt != nil {
		fix["deletionTimestamp"] = dt
	}
	if g, ok := oldMD["deletionGracePeriodSeconds"]; ok && g != nil && md["deletionGracePeriodSeconds"] == nil {
		fix["deletionGracePeriodSeconds"] = g
	}
	if rv, _ := md["resourceVersion"].(string); rv == "" {
		rv, _ = oldMD["resourceVersion"].(string)
		if rv == "" {
			rv = "1"
		}
		fix["resourceVersion"] = rv
	}
	changed := false
	for k, v := range fix {
		if cur, ok := md[k]; !ok || fmt.Sprint(cur) != fmt.Sprint(v) {
			changed = true
		}
	}
	if !changed {
		return obj
	}
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	newMD := make(map[string]any, len(md)+len(fix))
	for k, v := range md {
		newMD[k] = v
	}
	for k, v := range fix {
		newMD[k] = v
	}
	out["metadata"] = newMD
	return out
}

func scaleSpec(t *schema.Type, obj map[string]any) field.ErrorList {
	if t.Scale == nil {
		return nil
	}
	return replicas(obj, t.Scale.SpecReplicasPath)
}

func scaleStatus(t *schema.Type, obj map[string]any) field.ErrorList {
	if t.Scale == nil {
		return nil
	}
	errs := replicas(obj, t.Scale.StatusReplicasPath)
	if p := t.Scale.LabelSelectorPath; p != "" {
		sel, _, err := unstructured.NestedString(obj, strings.Split(strings.TrimPrefix(p, "."), ".")...)
		if err != nil {
			errs = append(errs, field.Invalid(field.NewPath(p), sel, err.Error()))
		}
	}
	return errs
}

func replicas(obj map[string]any, path string) field.ErrorList {
	n, _, err := unstructured.NestedInt64(obj, strings.Split(strings.TrimPrefix(path, "."), ".")...)
	switch {
	case err != nil:
		return field.ErrorList{field.Invalid(field.NewPath(path), n, err.Error())}
	case n < 0:
		return field.ErrorList{field.Invalid(field.NewPath(path), n, "should be a non-negative integer")}
	case n > math.MaxInt32:
		return field.ErrorList{field.Invalid(field.NewPath(path), n, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32))}
	}
	return nil
}
