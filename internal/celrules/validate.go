package celrules

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
	"github.com/ssa-diff/ssa-diff/internal/cellib"
	"github.com/ssa-diff/ssa-diff/internal/correlate"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema/crdschema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// Validator runs the rules of one CRD version's schema as a kube-apiserver of one minor
// runs them. Build it once (New compiles every rule) and use it for any number of objects,
// concurrently.
type Validator struct {
	root *node
	meta *metaSchemas
	// typedValues: a failed rule's error shows the value (1.35 and later) rather than its
	// schema's type (1.34).
	typedValues bool
}

// node holds the compiled rules of one schema node, and the validators of its members.
type node struct {
	schema     *crdschema.Schema // the node, as values are read through it
	rules      []crdschema.Rule
	compiled   []Compiled
	compileErr error
	isRoot     bool // a resource: the root or an embedded resource
	withMeta   *crdschema.Schema
	oldSelf    bool // some rule uses oldSelf

	items, additional *node
	properties        map[string]*node
	allOf             []*node
}

// New compiles the rules of schema s, the schema of a whole resource, as a kube-apiserver of
// minor server does (nil when s has none).
func New(server kube.Minor, s *crdschema.Schema) *Validator { return NewAt(server, s, true) }

// NewAt compiles the rules of schema s, isResourceRoot when s is a resource's (the root or
// an embedded resource); nil when s has none.
func NewAt(server kube.Minor, s *crdschema.Schema, isResourceRoot bool) *Validator {
	if !HasRules(s) {
		return nil
	}
	meta := &metaSchemas{server: server}
	// From 1.35 a failed rule's error shows the value rather than its Go form.
	return &Validator{root: build(s, s, isResourceRoot, DeclType(server, s, isResourceRoot), meta), meta: meta,
		typedValues: server.AtLeast(35)}
}

// ValidateValue runs the rules on a value at path p (old: its old value, nil if none),
// within budget, without ratcheting: the errors, and the budget left (negative: it ran out).
func (v *Validator) ValidateValue(p *field.Path, obj, old any, budget int64) (field.ErrorList, int64) {
	if v == nil || v.root == nil {
		return nil, budget
	}
	r := &run{meta: v.meta, typedValues: v.typedValues}
	left := r.validate(v.root, p, obj, old, ratchet{}, budget)
	return r.errs, left
}

// HasRules reports whether s has x-kubernetes-validations on a node the validator visits.
func HasRules(s *crdschema.Schema) bool {
	if s == nil {
		return false
	}
	if len(s.XValidations) > 0 || HasRules(s.Items) {
		return true
	}
	if s.AdditionalProperties != nil && HasRules(s.AdditionalProperties.Schema) {
		return true
	}
	for _, p := range s.Properties {
		if HasRules(p) {
			return true
		}
	}
	return false
}

// build compiles the rules of rulesOf (the node itself, or one of its allOf subschemas)
// against node s of CEL type t.
func build(rulesOf, s *crdschema.Schema, isRoot bool, t *apiservercel.DeclType, meta *metaSchemas) *node {
	compiled, err := Compile(meta.server, s, rulesOf.XValidations, t, StoredEnv)
	n := &node{schema: s, rules: rulesOf.XValidations, compiled: compiled, compileErr: err, isRoot: isRoot}
	var elem *apiservercel.DeclType
	if t != nil {
		elem = t.ElemType
	}
	if rulesOf.Items != nil && s.Items != nil {
		n.items = build(rulesOf.Items, s.Items, s.Items.XEmbeddedResource, elem, meta)
	}
	for k, vp := range rulesOf.Properties {
		np, ok := s.Properties[k]
		if !ok {
			continue
		}
		var ft *apiservercel.DeclType
		if escaped, ok := apiservercel.Escape(k); ok {
			if t == nil {
				continue
			}
			f, ok := t.Fields[escaped]
			if !ok {
				continue
			}
			ft = f.Type
		} else if ft = DeclType(meta.server, np, np.XEmbeddedResource); ft == nil {
			continue
		}
		if p := build(vp, np, np.XEmbeddedResource, ft, meta); p != nil {
			if n.properties == nil {
				n.properties = map[string]*node{}
			}
			n.properties[k] = p
		}
	}
	if ap := rulesOf.AdditionalProperties; ap != nil && ap.Schema != nil && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		n.additional = build(ap.Schema, s.AdditionalProperties.Schema, s.AdditionalProperties.Schema.XEmbeddedResource, elem, meta)
	}
	for _, sub := range rulesOf.AllOf {
		if a := build(sub, s, isRoot, t, meta); a != nil {
			n.allOf = append(n.allOf, a)
		}
	}
	if len(compiled) == 0 && err == nil && n.items == nil && n.additional == nil && len(n.properties) == 0 && len(n.allOf) == 0 {
		return nil
	}
	for _, c := range compiled {
		if c.UsesOldSelf {
			n.oldSelf = true
		}
	}
	if isRoot {
		n.withMeta = meta.of(s)
	} else {
		n.withMeta = s
	}
	return n
}

// Compiled returns the compiled rules of the root node (for tests and tools).
func (v *Validator) Compiled() []Compiled {
	if v == nil || v.root == nil {
		return nil
	}
	return v.root.compiled
}

// Validate runs every rule on obj; old is the stored object on an update (nil on a create),
// corr their correlation for ratcheting (nil: nothing is ratcheted). The errors come in the
// server's order (map members in key order where the server's is random); the warnings are
// the failures ratcheting let through.
func (v *Validator) Validate(obj, old map[string]any, corr *correlate.Node) (field.ErrorList, []string) {
	if v == nil || v.root == nil || obj == nil {
		return nil, nil
	}
	r := &run{meta: v.meta, typedValues: v.typedValues}
	var oldV any
	if old != nil {
		oldV = old
	}
	r.validate(v.root, nil, obj, oldV, ratchet{current: corr}, cellib.RuntimeCostBudget)
	return r.errs, r.warnings
}

type run struct {
	meta        *metaSchemas
	typedValues bool
	errs        field.ErrorList
	warnings    []string
}

// ratchet is where a node is in the correlation of the update: its own counterpart, if any,
// and its nearest ancestor's.
type ratchet struct{ current, parent *correlate.Node }

func (r ratchet) unchanged() bool {
	if r.current != nil {
		return r.current.Equal()
	}
	return r.parent.Equal()
}

func (r ratchet) key(field string) ratchet {
	if r.current == nil {
		return r
	}
	if r.parent == nil && (field == "apiVersion" || field == "kind") {
		return ratchet{}
	}
	return ratchet{current: r.current.Key(field), parent: r.current}
}

func (r ratchet) index(i int) ratchet {
	if r.current == nil {
		return r
	}
	return ratchet{current: r.current.Index(i), parent: r.current}
}

// validate runs a node's rules, its allOf subschemas' rules, then its members' and items'.
// It returns the budget left (negative: validation stopped).
func (r *run) validate(n *node, p *field.Path, obj, old any, rc ratchet, budget int64) int64 {
	if n == nil || obj == nil {
		return budget
	}
	budget = r.expressions(n, p, obj, old, rc, budget)
	if budget < 0 {
		return budget
	}
	for _, a := range n.allOf {
		budget = r.validate(a, p, obj, old, ratchet{parent: rc.parent}, budget)
		if budget < 0 {
			return budget
		}
	}
	switch x := obj.(type) {
	case []any:
		oldList, _ := old.([]any)
		if n.items != nil {
			oldItems := correlate.NewKeyedList(n.schema, oldList)
			for i, item := range x {
				budget = r.validate(n.items, p.Index(i), item, oldItems.Get(item), rc.index(i), budget)
				if budget < 0 {
					return budget
				}
			}
		}
	case map[string]any:
		oldMap, _ := old.(map[string]any)
		correlatable := n.schema.XMapType == nil || *n.schema.XMapType == "granular" || *n.schema.XMapType == "atomic"
		oldOf := func(k string) any {
			if correlatable && oldMap != nil {
				return oldMap[k]
			}
			return nil
		}
		keys := unstructured.SortedKeys(x)
		if n.additional != nil {
			for _, k := range keys {
				budget = r.validate(n.additional, p.Key(k), x[k], oldOf(k), rc.key(k), budget)
				if budget < 0 {
					return budget
				}
			}
		}
		if n.properties != nil {
			for _, k := range keys {
				sub, ok := n.properties[k]
				if !ok {
					continue
				}
				budget = r.validate(sub, p.Child(k), x[k], oldOf(k), rc.key(k), budget)
				if budget < 0 {
					return budget
				}
			}
		}
	}
	return budget
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map, reflect.Pointer, reflect.Interface, reflect.Slice:
		return rv.IsNil()
	}
	return false
}

func (r *run) expressions(n *node, p *field.Path, obj, old any, rc ratchet, budget int64) int64 {
	s := n.schema
	if isNil(old) {
		old = nil
	}
	if n.compileErr != nil {
		r.errs = append(r.errs, field.Invalid(p, s.Type, fmt.Sprintf("rule compiler initialization error: %v", n.compileErr)))
		return budget
	}
	if len(n.compiled) == 0 {
		return budget
	}
	if budget <= 0 {
		r.errs = append(r.errs, field.Invalid(p, s.Type, "validation failed due to running out of cost budget, no further validation rules will be run"))
		return -1
	}
	sts := n.withMeta
	act, optAct := r.activations(n, sts, obj, old)
	for i, c := range n.compiled {
		rule := n.rules[i]
		if c.Err != nil {
			r.errs = append(r.errs, field.Invalid(p, sts.Type, fmt.Sprintf("rule compile error: %v", c.Err)))
			continue
		}
		if c.Program == nil {
			continue
		}
		optional := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
		if c.UsesOldSelf && old == nil && !optional {
			continue
		}
		ruleAct := act
		if optional {
			ruleAct = optAct
		}
		result, details, err := c.Program.ContextEval(context.Background(), ruleAct)
		if details == nil {
			r.errs = append(r.errs, field.InternalError(p, fmt.Errorf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleName(rule))))
			return -1
		}
		cost := details.ActualCost()
		if cost == nil {
			r.errs = append(r.errs, field.Invalid(p, sts.Type, fmt.Sprintf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleName(rule))))
			return -1
		}
		if *cost > math.MaxInt64 || int64(*cost) > budget {
			r.errs = append(r.errs, field.Invalid(p, sts.Type, "validation failed due to running out of cost budget, no further validation rules will be run"))
			return -1
		}
		budget -= int64(*cost)
		if err != nil {
			switch {
			case strings.HasPrefix(err.Error(), "no such overload"):
				r.errs = append(r.errs, field.Invalid(p, sts.Type, fmt.Sprintf("'%v': call arguments did not match a supported operator, function or macro signature for rule: %v", err, ruleName(rule))))
			case strings.HasPrefix(err.Error(), "operation cancelled: actual cost limit exceeded"):
				r.errs = append(r.errs, field.Invalid(p, sts.Type, fmt.Sprintf("'%v': no further validation rules will be run due to call cost exceeds limit for rule: %v", err, ruleName(rule))))
				return -1
			default:
				r.errs = append(r.errs, field.Invalid(p, sts.Type, fmt.Sprintf("%v evaluating rule: %v", err, ruleName(rule))))
			}
			continue
		}
		if result == types.True {
			continue
		}
		at := p
		if c.FieldPath != "" {
			at = at.Child(c.FieldPath)
		}
		add := func(e *field.Error) {
			if !c.UsesOldSelf && rc.unchanged() {
				r.warnings = append(r.warnings, e.Error())
			} else {
				r.errs = append(r.errs, e)
			}
		}
		detail, ok := "", false
		if c.Message != nil {
			msg, left, msgErr := messageExpression(c.Message, rule.MessageExpression, act, budget)
			switch {
			case msgErr == nil:
				detail, ok, budget = msg, true, left
			case msgErr.Type == apiservercel.ErrorTypeInternal:
				add(field.InternalError(at, msgErr))
				return -1
			case msgErr.Type == apiservercel.ErrorTypeInvalid:
				add(field.Invalid(at, sts.Type, msgErr.Error()))
				return -1
			default:
				budget = left
			}
		}
		if !ok {
			detail = ruleMessage(rule)
		}
		// 1.35 shows the value (none for an object or array) where 1.34 showed the
		// schema's type.
		var value any = sts.Type
		if r.typedValues {
			value = obj
			if sts.Type == "object" || sts.Type == "array" {
				value = field.OmitValueType{}
			}
		}
		add(errorForReason(at, value, detail, rule.Reason))
	}
	return budget
}

// activations are the rules' variables: self and oldSelf (when a rule uses it and there is an
// old value), and for optionalOldSelf rules oldSelf as an optional.
func (r *run) activations(n *node, sts *crdschema.Schema, obj, old any) (interpreter.Activation, interpreter.Activation) {
	self := toVal(obj, sts, r.meta)
	if !n.oldSelf {
		a := &activation{self: self}
		return a, a
	}
	a := &activation{self: self}
	opt := &activation{self: self, hasOldSelf: true, oldSelf: types.OptionalNone}
	if old != nil {
		a.oldSelf, a.hasOldSelf = toVal(old, sts, r.meta), true
		opt.oldSelf = types.OptionalOf(a.oldSelf)
	}
	return a, opt
}

type activation struct {
	self, oldSelf ref.Val
	hasOldSelf    bool
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case SelfVar:
		return a.self, true
	case OldSelfVar:
		return a.oldSelf, a.hasOldSelf
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

func messageExpression(prog cel.Program, src string, act interpreter.Activation, budget int64) (string, int64, *apiservercel.Error) {
	result, details, err := prog.ContextEval(context.Background(), act)
	if details == nil || details.ActualCost() == nil {
		return "", -1, internal(fmt.Sprintf("runtime cost could not be calculated for messageExpression: %q", src))
	}
	cost := *details.ActualCost()
	if cost > math.MaxInt64 || int64(cost) > budget {
		return "", -1, invalid("messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run")
	}
	left := budget - int64(cost)
	if err != nil {
		if strings.HasPrefix(err.Error(), "operation cancelled: actual cost limit exceeded") {
			return "", -1, invalid(fmt.Sprintf("no further validation rules will be run due to call cost exceeds limit for messageExpression: %q", src))
		}
		return "", left, &apiservercel.Error{Detail: fmt.Sprintf("messageExpression evaluation failed due to: %v", err.Error())}
	}
	msg, ok := result.Value().(string)
	if !ok {
		return "", left, &apiservercel.Error{Detail: "messageExpression failed to convert to string"}
	}
	msg = strings.TrimSpace(msg)
	switch {
	case len(msg) > cellib.MaxEvaluatedMessageExpressionSize:
		return "", left, &apiservercel.Error{Detail: fmt.Sprintf("messageExpression beyond allowable length of %d", cellib.MaxEvaluatedMessageExpressionSize)}
	case strings.Contains(msg, "\n"):
		return "", left, &apiservercel.Error{Detail: "messageExpression should not contain line breaks"}
	case msg == "":
		return "", left, &apiservercel.Error{Detail: "messageExpression should evaluate to a non-empty string"}
	}
	return msg, left, nil
}

func ruleMessage(r crdschema.Rule) string {
	if r.Message == "" {
		return fmt.Sprintf("failed rule: %s", ruleName(r))
	}
	return strings.TrimSpace(r.Message)
}

// ruleName is how errors name a rule: its message, or the rule itself.
func ruleName(r crdschema.Rule) string {
	if r.Message != "" {
		return strings.TrimSpace(r.Message)
	}
	return strings.TrimSpace(r.Rule)
}

func errorForReason(p *field.Path, value any, detail string, reason *string) *field.Error {
	if reason == nil {
		return field.Invalid(p, value, detail)
	}
	switch *reason {
	case "FieldValueForbidden":
		return field.Forbidden(p, detail)
	case "FieldValueRequired":
		return field.Required(p, detail)
	case "FieldValueDuplicate":
		return field.Duplicate(p, value)
	}
	return field.Invalid(p, value, detail)
}
