package crd

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/cellib"
	"github.com/ssa-diff/ssa-diff/internal/celrules"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// The CEL cost limits of a CRD: per rule, and for all the rules of a version's schema.
const (
	StaticEstimatedCostLimit    = 10000000
	StaticEstimatedCRDCostLimit = 100000000
)

var openAPIV3Types = []string{"array", "boolean", "integer", "number", "object", "string"}

var supportedReasons = []string{"FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"}

// options are the checks the CRD's history asks for, and the server that makes them.
type options struct {
	cfg                      *serverconfig.Config
	allowDefaults            bool
	requireValidPropertyType bool
	requireStructuralSchema  bool
	requirePrunedDefaults    bool
	requireAtomicSetType     bool
	requireMapListKeysMapSet bool
	requireOpenAPISchema     bool
	suppressPerExpression    bool
	storedRules, storedMsgs  map[string]bool
	// tooManySelectable: see tooManySelectableAllowed.
	tooManySelectable map[string]bool
}

// server is the kube-apiserver's minor.
func (o *options) server() kube.Minor { return o.cfg.Minor }

// envFor chooses the environment of an expression: stored when the old CRD has it, new
// otherwise.
func (o *options) envFor(stored map[string]bool) celrules.EnvFor {
	return func(expr string) cellib.Kind {
		if stored[expr] {
			return cellib.Stored
		}
		return cellib.New
	}
}

// standard is what the schema walk carries down: where defaults are forbidden, whether the
// node is inside a resource's metadata, and where oldSelf cannot be used.
type standard struct {
	allowDefaults        bool
	disallowReason       string
	requireValidType     bool
	insideResourceMeta   bool
	uncorrelatableOldSel *field.Path
}

func (v standard) forbidDefaults(reason string) standard {
	v.disallowReason, v.allowDefaults = reason, false
	return v
}

func (v standard) forbidOldSelf(p *field.Path) standard {
	if v.uncorrelatableOldSel == nil {
		v.uncorrelatableOldSel = p
	}
	return v
}

func (v standard) check(s *crdschema.Schema, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if v.requireValidType && s.Type != "" && !contains(openAPIV3Types, s.Type) {
		errs = append(errs, field.NotSupported(p.Child("type"), s.Type, openAPIV3Types))
	}
	if s.HasDefault && !v.allowDefaults {
		detail := "must not be set"
		if v.disallowReason != "" {
			detail += " " + v.disallowReason
		}
		errs = append(errs, field.Forbidden(p.Child("default"), detail))
	}
	if s.ID != "" {
		errs = append(errs, field.Forbidden(p.Child("id"), "id is not supported"))
	}
	if s.AdditionalItems != nil {
		errs = append(errs, field.Forbidden(p.Child("additionalItems"), "additionalItems is not supported"))
	}
	if len(s.PatternProperties) != 0 {
		errs = append(errs, field.Forbidden(p.Child("patternProperties"), "patternProperties is not supported"))
	}
	if len(s.Definitions) != 0 {
		errs = append(errs, field.Forbidden(p.Child("definitions"), "definitions is not supported"))
	}
	if s.Dependencies != nil {
		errs = append(errs, field.Forbidden(p.Child("dependencies"), "dependencies is not supported"))
	}
	if s.Ref != "" {
		errs = append(errs, field.Forbidden(p.Child("$ref"), "$ref is not supported"))
	}
	if s.Type == "null" {
		errs = append(errs, field.Forbidden(p.Child("type"), "type cannot be set to null, use nullable as an alternative"))
	}
	if len(s.ItemsList) != 0 {
		errs = append(errs, field.Forbidden(p.Child("items"), "items must be a schema object and not an array"))
	}
	if v.insideResourceMeta && s.XEmbeddedResource {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"))
	}
	return errs
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// schemaErrors are the errors of a schema walk: schema errors first, then CEL errors.
type schemaErrors struct{ schema, cel field.ErrorList }

func (e *schemaErrors) add(o *schemaErrors) {
	e.schema = append(e.schema, o.schema...)
	e.cel = append(e.cel, o.cel...)
}

// celContext is where a node stands for CEL: the CEL type of its values (computed on
// demand), how often it can occur, and the running total cost.
type celContext struct {
	server      kube.Minor
	inScope     bool
	schema      *crdschema.Schema
	parent      *celContext
	access      func(parent *typeInfo) *typeInfo
	info        *typeInfo
	infoErr     error
	computed    bool
	cardinality *uint64 // nil: unbounded
	total       *totalCost
}

type typeInfo struct {
	schema *crdschema.Schema
	t      *apiservercel.DeclType
}

func rootContext(server kube.Minor, s *crdschema.Schema) *celContext {
	one := uint64(1)
	return &celContext{server: server, schema: s, inScope: len(s.XValidations) > 0, cardinality: &one, total: &totalCost{}}
}

func (c *celContext) typeInfo() (*typeInfo, error) {
	if c == nil || !c.inScope {
		return nil, nil
	}
	if c.computed {
		return c.info, c.infoErr
	}
	c.computed = true
	if c.parent != nil {
		pi, err := c.parent.typeInfo()
		if err != nil {
			c.infoErr = err
			return nil, err
		}
		if pi != nil && c.access != nil {
			if c.info = c.access(pi); c.info != nil {
				return c.info, nil
			}
		}
	}
	if err := structuralError(c.schema); err != nil {
		c.infoErr = err
		return nil, err
	}
	t := celrules.DeclType(c.server, c.schema, c.parent == nil || c.schema.XEmbeddedResource)
	if t == nil {
		c.infoErr = fmt.Errorf("unable to convert structural schema to CEL declarations")
		return nil, c.infoErr
	}
	c.info = &typeInfo{schema: c.schema, t: t}
	return c.info, nil
}

func (c *celContext) child(s *crdschema.Schema, access func(*typeInfo) *typeInfo) *celContext {
	if c == nil {
		return nil
	}
	r := &celContext{server: c.server, parent: c, access: access, inScope: c.inScope, total: c.total}
	if s != nil {
		r.schema = s
		if len(s.XValidations) > 0 {
			r.inScope = true
		}
	}
	if c.schema == nil || c.cardinality == nil {
		return r
	}
	max := maxElements(c.schema)
	if max == nil {
		return r
	}
	n := multiply(*c.cardinality, *max)
	r.cardinality = &n
	return r
}

func (c *celContext) property(s *crdschema.Schema, name string) *celContext {
	return c.child(s, func(p *typeInfo) *typeInfo {
		if p.schema.Properties == nil {
			return nil
		}
		if p.t == nil {
			// The server dereferences the missing type here.
			panic("nil CEL type of a property's parent")
		}
		escaped, ok := apiservercel.Escape(name)
		if !ok {
			return nil
		}
		f, ok := p.t.Fields[escaped]
		if !ok {
			return nil
		}
		ps := p.schema.Properties[name]
		if ps == nil {
			ps = &crdschema.Schema{}
		}
		return &typeInfo{schema: ps, t: f.Type}
	})
}

func (c *celContext) items(s *crdschema.Schema) *celContext {
	return c.child(s, func(p *typeInfo) *typeInfo {
		if p.schema.Items == nil {
			return nil
		}
		return &typeInfo{schema: p.schema.Items, t: p.t.ElemType}
	})
}

func (c *celContext) additional(s *crdschema.Schema) *celContext {
	return c.child(s, func(p *typeInfo) *typeInfo {
		if p.schema.AdditionalProperties == nil {
			return nil
		}
		return &typeInfo{schema: p.schema.AdditionalProperties.Schema, t: p.t.ElemType}
	})
}

// maxElements is how many children a node can have: nil when unbounded.
func maxElements(s *crdschema.Schema) *uint64 {
	one := uint64(1)
	switch s.Type {
	case "object":
		if s.AdditionalProperties != nil {
			if s.MaxProperties != nil {
				n := uint64(zeroIfNegative(*s.MaxProperties))
				return &n
			}
			return nil
		}
		return &one
	case "array":
		if s.MaxItems != nil {
			n := uint64(zeroIfNegative(*s.MaxItems))
			return &n
		}
		return nil
	}
	return &one
}

func zeroIfNegative(v int64) int64 {
	if v < 0 {
		return 0
	}
	return v
}

func multiply(a, b uint64) uint64 {
	if a == 0 {
		return 0
	}
	if math.MaxUint/a < b {
		return math.MaxUint
	}
	return a * b
}

type ruleCost struct {
	path *field.Path
	cost uint64
}

type totalCost struct {
	total         uint64
	mostExpensive []ruleCost
}

func (t *totalCost) observe(p *field.Path, cost uint64) {
	if math.MaxUint64-t.total < cost {
		t.total = math.MaxUint64
	} else {
		t.total += cost
	}
	if cost < StaticEstimatedCRDCostLimit/100 {
		return
	}
	t.mostExpensive = append(t.mostExpensive, ruleCost{p, cost})
	sort.SliceStable(t.mostExpensive, func(i, j int) bool { return t.mostExpensive[i].cost > t.mostExpensive[j].cost })
	if len(t.mostExpensive) > 4 {
		t.mostExpensive = t.mostExpensive[:4]
	}
}

// costMessage words a cost over its limit.
func costMessage(name string, cost, limit uint64) string {
	f := float64(cost) / float64(limit)
	var factor string
	switch {
	case f > 100.0:
		factor = "more than 100x"
	case f < 1.5:
		factor = fmt.Sprintf("%fx", f)
	default:
		factor = fmt.Sprintf("%.1fx", f)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", name, factor)
}

var newlines = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[\n\r]+`) })
var metaFields = map[string]bool{"metadata": true, "kind": true, "apiVersion": true}

// walk validates one schema node and what is below it.
func walk(s *crdschema.Schema, p *field.Path, v standard, isRoot bool, opts *options, cc *celContext) *schemaErrors {
	errs := &schemaErrors{}
	if s == nil {
		return errs
	}
	errs.schema = append(errs.schema, v.check(s, p)...)
	if s.UniqueItems {
		errs.schema = append(errs.schema, field.Forbidden(p.Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	if ap := s.AdditionalProperties; ap != nil {
		if len(s.Properties) != 0 && (!ap.Allows || ap.Schema != nil) {
			errs.schema = append(errs.schema, field.Forbidden(p.Child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
		}
		sub := v
		if v.insideResourceMeta {
			sub = v.forbidDefaults("inside additionalProperties applying to object metadata")
		}
		errs.add(walk(ap.Schema, p.Child("additionalProperties"), sub, false, opts, cc.additional(ap.Schema)))
	}
	for _, name := range s.PropertyNames() {
		prop := s.Properties[name]
		sub := v
		if s.XMapType != nil && *s.XMapType != "granular" && *s.XMapType != "atomic" {
			sub = sub.forbidOldSelf(p)
		}
		if (isRoot || s.XEmbeddedResource) && metaFields[name] {
			sub.insideResourceMeta = true
			if isRoot {
				sub = sub.forbidDefaults(fmt.Sprintf("in top-level %s", name))
			}
		}
		errs.add(walk(prop, p.Child("properties").Key(name), sub, false, opts, cc.property(prop, name)))
	}
	errs.add(walk(s.Not, p.Child("not"), v, false, opts, nil))
	for i, sub := range s.AllOf {
		errs.add(walk(sub, p.Child("allOf").Index(i), v, false, opts, nil))
	}
	for i, sub := range s.OneOf {
		errs.add(walk(sub, p.Child("oneOf").Index(i), v, false, opts, nil))
	}
	for i, sub := range s.AnyOf {
		errs.add(walk(sub, p.Child("anyOf").Index(i), v, false, opts, nil))
	}
	for _, k := range sortedSchemaKeys(s.Definitions) {
		errs.add(walk(s.Definitions[k], p.Child("definitions").Key(k), v, false, opts, nil))
	}
	if s.Items != nil || len(s.ItemsList) > 0 {
		sub := v
		if s.XListType == nil || *s.XListType != "map" {
			sub = sub.forbidOldSelf(p)
		}
		errs.add(walk(s.Items, p.Child("items"), sub, false, opts, cc.items(s.Items)))
		for i, it := range s.ItemsList {
			errs.add(walk(it, p.Child("items").Index(i), sub, false, opts, cc.items(it)))
		}
	}
	for _, k := range sortedDeps(s.Dependencies) {
		errs.add(walk(s.Dependencies[k].Schema, p.Child("dependencies").Key(k), v, false, opts, nil))
	}
	errs.schema = append(errs.schema, listAndMapTypes(s, p, opts)...)
	if opts.requireMapListKeysMapSet {
		errs.schema = append(errs.schema, mapListKeysMapSet(s, p)...)
	}
	if len(s.XValidations) > 0 {
		errs.schema = append(errs.schema, ruleShapes(s, p)...)
		if len(errs.schema) == 0 && cc != nil {
			errs.cel = append(errs.cel, compileRules(s, p, v, opts, cc)...)
		}
	}
	return errs
}

func sortedSchemaKeys(m map[string]*crdschema.Schema) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sortedDeps(m map[string]crdschema.SchemaOrStrings) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func listAndMapTypes(s *crdschema.Schema, p *field.Path, opts *options) field.ErrorList {
	var errs field.ErrorList
	if s.XPreserveUnknownFields != nil && !*s.XPreserveUnknownFields {
		errs = append(errs, field.Invalid(p.Child("x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined"))
	}
	if s.XMapType != nil && s.Type != "object" {
		if s.Type == "" {
			errs = append(errs, field.Required(p.Child("type"), "must be object if x-kubernetes-map-type is specified"))
		} else {
			errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be object if x-kubernetes-map-type is specified"))
		}
	}
	if s.XMapType != nil && *s.XMapType != "atomic" && *s.XMapType != "granular" {
		errs = append(errs, field.NotSupported(p.Child("x-kubernetes-map-type"), *s.XMapType, []string{"atomic", "granular"}))
	}
	if s.XListType != nil && s.Type != "array" {
		if s.Type == "" {
			errs = append(errs, field.Required(p.Child("type"), "must be array if x-kubernetes-list-type is specified"))
		} else {
			errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be array if x-kubernetes-list-type is specified"))
		}
	} else if opts.requireAtomicSetType && s.XListType != nil && *s.XListType == "set" && s.Items != nil {
		is := s.Items
		switch is.Type {
		case "array":
			if is.XListType != nil && *is.XListType != "atomic" {
				errs = append(errs, field.Invalid(p.Child("items").Child("x-kubernetes-list-type"), is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		case "object":
			if is.XMapType == nil || *is.XMapType != "atomic" {
				errs = append(errs, field.Invalid(p.Child("items").Child("x-kubernetes-map-type"), is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		}
	}
	if s.XListType != nil && *s.XListType != "atomic" && *s.XListType != "set" && *s.XListType != "map" {
		errs = append(errs, field.NotSupported(p.Child("x-kubernetes-list-type"), *s.XListType, []string{"atomic", "set", "map"}))
	}
	if len(s.XListMapKeys) > 0 {
		if s.XListType == nil {
			errs = append(errs, field.Required(p.Child("x-kubernetes-list-type"), "must be map if x-kubernetes-list-map-keys is non-empty"))
		} else if *s.XListType != "map" {
			errs = append(errs, field.Invalid(p.Child("x-kubernetes-list-type"), *s.XListType, "must be map if x-kubernetes-list-map-keys is non-empty"))
		}
	}
	if s.XListType != nil && *s.XListType == "map" {
		if len(s.XListMapKeys) == 0 {
			errs = append(errs, field.Required(p.Child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
		}
		if s.Items == nil && len(s.ItemsList) == 0 {
			errs = append(errs, field.Required(p.Child("items"), "must have a schema if x-kubernetes-list-type is map"))
		}
		if s.Items == nil && len(s.ItemsList) > 0 {
			errs = append(errs, field.Invalid(p.Child("items"), itemsValue(s), "must only have a single schema if x-kubernetes-list-type is map"))
		}
		if s.Items != nil && s.Items.Type != "object" {
			errs = append(errs, field.Invalid(p.Child("items").Child("type"), s.Items.Type, "must be object if parent array's x-kubernetes-list-type is map"))
		}
		if s.Items != nil && s.Items.Type == "object" {
			seen := map[string]bool{}
			for _, k := range s.XListMapKeys {
				if ks, ok := s.Items.Properties[k]; ok {
					if ks.Type == "array" || ks.Type == "object" {
						errs = append(errs, field.Invalid(p.Child("items").Child("properties").Key(k).Child("type"), s.Items.Type, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
					}
				} else {
					errs = append(errs, field.Invalid(p.Child("x-kubernetes-list-map-keys"), s.XListMapKeys, "entries must all be names of item properties"))
				}
				if seen[k] {
					errs = append(errs, field.Invalid(p.Child("x-kubernetes-list-map-keys"), s.XListMapKeys, "must not contain duplicate entries"))
				}
				seen[k] = true
			}
		}
	}
	return errs
}

func mapListKeysMapSet(s *crdschema.Schema, p *field.Path) field.ErrorList {
	if s.Items == nil || s.XListType == nil || (*s.XListType != "set" && *s.XListType != "map") {
		return nil
	}
	var errs field.ErrorList
	if s.Items.Nullable {
		errs = append(errs, field.Forbidden(p.Child("items").Child("nullable"), "cannot be nullable when x-kubernetes-list-type is "+*s.XListType))
	}
	if *s.XListType == "map" {
		required := map[string]bool{}
		for _, r := range s.Items.Required {
			required[r] = true
		}
		for _, k := range s.XListMapKeys {
			ks, ok := s.Items.Properties[k]
			if !ok {
				continue
			}
			if !required[k] && !ks.HasDefault {
				errs = append(errs, field.Required(p.Child("items").Child("properties").Key(k).Child("default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
			}
			if ks.Nullable {
				errs = append(errs, field.Forbidden(p.Child("items").Child("properties").Key(k).Child("nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
			}
		}
	}
	return errs
}

// ruleShapes checks the fields of each rule before it is compiled.
func ruleShapes(s *crdschema.Schema, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, r := range s.XValidations {
		rp := p.Child("x-kubernetes-validations").Index(i)
		rule, msg, msgExpr := strings.TrimSpace(r.Rule), strings.TrimSpace(r.Message), strings.TrimSpace(r.MessageExpression)
		switch {
		case rule == "":
			errs = append(errs, field.Required(rp.Child("rule"), "rule is not specified"))
		case r.Message != "" && msg == "":
			errs = append(errs, field.Invalid(rp.Child("message"), r.Message, "must be non-empty if specified"))
		case newlines().MatchString(msg):
			errs = append(errs, field.Invalid(rp.Child("message"), r.Message, "must not contain line breaks"))
		case newlines().MatchString(rule) && msg == "":
			errs = append(errs, field.Required(rp.Child("message"), "message must be specified if rule contains line breaks"))
		}
		if r.MessageExpression != "" && msgExpr == "" {
			errs = append(errs, field.Required(rp.Child("messageExpression"), "messageExpression must be non-empty if specified"))
		}
		if r.Reason != nil && !contains(supportedReasons, *r.Reason) {
			errs = append(errs, field.NotSupported(rp.Child("reason"), *r.Reason, supportedReasons))
		}
		if r.FieldPath != "" && strings.TrimSpace(r.FieldPath) == "" {
			errs = append(errs, field.Invalid(rp.Child("fieldPath"), r.FieldPath, "must be non-empty if specified"))
		}
		if newlines().MatchString(r.FieldPath) {
			errs = append(errs, field.Invalid(rp.Child("fieldPath"), r.FieldPath, "must not contain line breaks"))
		}
		if r.FieldPath != "" && structuralError(s) == nil {
			if _, _, err := celrules.FieldPath(r.FieldPath, s); err != nil {
				errs = append(errs, field.Invalid(rp.Child("fieldPath"), r.FieldPath, "must be a valid path"))
			}
		}
	}
	return errs
}

// compileRules compiles a node's rules as the server does when it validates a CRD, and
// holds their estimated costs to the budgets.
func compileRules(s *crdschema.Schema, p *field.Path, v standard, opts *options, cc *celContext) field.ErrorList {
	vp := p.Child("x-kubernetes-validations")
	info, err := cc.typeInfo()
	switch {
	case err != nil:
		return field.ErrorList{field.InternalError(vp, fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", err))}
	case info == nil:
		return field.ErrorList{field.InternalError(vp, fmt.Errorf("internal error: failed to retrieve type information for x-kubernetes-validations"))}
	}
	results, err := celrules.CompileWith(opts.server(), info.schema, info.schema.XValidations, info.t, opts.envFor(opts.storedRules), opts.envFor(opts.storedMsgs))
	if err != nil {
		return field.ErrorList{field.InternalError(vp, err)}
	}
	var errs field.ErrorList
	for i, cr := range results {
		rp := vp.Index(i)
		cost := expressionCost(cr, cc)
		if !opts.suppressPerExpression && cost > StaticEstimatedCostLimit {
			errs = append(errs, field.Forbidden(rp.Child("rule"), costMessage("estimated rule cost", cost, StaticEstimatedCostLimit)))
		}
		if cc.total != nil {
			cc.total.observe(rp.Child("rule"), cost)
		}
		if cr.Err != nil {
			if cr.Err.Type == apiservercel.ErrorTypeRequired {
				errs = append(errs, field.Required(rp.Child("rule"), cr.Err.Detail))
			} else {
				errs = append(errs, field.Invalid(rp.Child("rule"), printedRule(opts.cfg, s.XValidations[i]), cr.Err.Detail))
			}
		}
		if cr.MessageErr != nil {
			errs = append(errs, field.Invalid(rp.Child("messageExpression"), printedRule(opts.cfg, s.XValidations[i]), cr.MessageErr.Detail))
		} else if cr.Message != nil {
			if !opts.suppressPerExpression && cr.MessageMaxCost > StaticEstimatedCostLimit {
				errs = append(errs, field.Forbidden(rp.Child("messageExpression"), costMessage("estimated messageExpression cost", cr.MessageMaxCost, StaticEstimatedCostLimit)))
			}
			if cc.total != nil {
				cc.total.observe(rp.Child("messageExpression"), cr.MessageMaxCost)
			}
		}
		if cr.UsesOldSelf {
			if up := v.uncorrelatableOldSel; up != nil {
				errs = append(errs, field.Invalid(rp.Child("rule"), s.XValidations[i].Rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %v", up)))
			}
		} else if s.XValidations[i].OptionalOldSelf != nil {
			errs = append(errs, field.Invalid(rp.Child("optionalOldSelf"), *s.XValidations[i].OptionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
	}
	return errs
}

func expressionCost(cr celrules.Compiled, cc *celContext) uint64 {
	if cc.cardinality != nil {
		return multiply(cr.MaxCost, *cc.cardinality)
	}
	return multiply(cr.MaxCost, cr.MaxCardinality)
}
