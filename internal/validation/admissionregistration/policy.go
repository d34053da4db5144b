package admissionregistration

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	api "github.com/ssa-diff/ssa-diff/internal/api/admissionregistration"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"github.com/ssa-diff/ssa-diff/kube"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/validate/content"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

var (
	validationActions = []string{string(api.Audit), string(api.Deny), string(api.Warn)}
	policyReasons     = []string{string(metav1.StatusReasonForbidden), string(metav1.StatusReasonInvalid), string(metav1.StatusReasonRequestEntityTooLarge)}
	patchTypeWords    = []string{string(api.PatchTypeApplyConfiguration), string(api.PatchTypeJSONPatch)}
)

const (
	maxAuditAnnotations = 20
	// maxAuditValueExpression is the longest an audit annotation's valueExpression may be.
	maxAuditValueExpression = 5 * 1024
)

// policyOptions are what an update relaxes for a policy.
type policyOptions struct {
	skipMatchConditions bool
	stored              storedExpressions
	// server is the minor whose CEL environments compile the expressions.
	server kube.Minor
}

// ValidateValidatingAdmissionPolicy checks a new ValidatingAdmissionPolicy.
func ValidateValidatingAdmissionPolicy(cfg *serverconfig.Config, p *api.ValidatingAdmissionPolicy) field.ErrorList {
	return validateValidatingPolicy(p, policyOptions{stored: newStoredExpressions(), server: cfg.Minor})
}

// ValidateValidatingAdmissionPolicyUpdate checks an update of a ValidatingAdmissionPolicy:
// expressions the stored policy has compile in the stored environment, and its match
// conditions are not compiled again while they and paramKind are unchanged.
func ValidateValidatingAdmissionPolicyUpdate(cfg *serverconfig.Config, p, old *api.ValidatingAdmissionPolicy) field.ErrorList {
	stored := newStoredExpressions()
	for _, mc := range old.Spec.MatchConditions {
		stored.matchConditions[mc.Expression] = true
	}
	for _, v := range old.Spec.Validations {
		stored.validations[v.Expression] = true
		if v.MessageExpression != "" {
			stored.messages[v.MessageExpression] = true
		}
	}
	for _, a := range old.Spec.AuditAnnotations {
		stored.auditValues[a.ValueExpression] = true
	}
	skip := apiequality.Semantic.DeepEqual(p.Spec.ParamKind, old.Spec.ParamKind) && apiequality.Semantic.DeepEqual(p.Spec.MatchConditions, old.Spec.MatchConditions)
	return validateValidatingPolicy(p, policyOptions{skipMatchConditions: skip, stored: stored, server: cfg.Minor})
}

func validateValidatingPolicy(p *api.ValidatingAdmissionPolicy, opts policyOptions) field.ErrorList {
	errs := apimachineryvalidation.ValidateObjectMetaAccessor(wellformed.Meta(&p.ObjectMeta), false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateValidatingPolicySpec(p.Name, &p.Spec, opts, field.NewPath("spec"))...)
}

func validateValidatingPolicySpec(name string, spec *api.ValidatingAdmissionPolicySpec, opts policyOptions, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	compiler := newCompiler(opts.server, len(spec.Variables) > 0)
	errs = append(errs, validateFailurePolicy(spec.FailurePolicy, p)...)
	hasParams := spec.ParamKind != nil
	if hasParams {
		errs = append(errs, validateParamKind(*spec.ParamKind, p.Child("paramKind"))...)
	}
	errs = append(errs, validateMatchConstraints(spec.MatchConstraints, p)...)
	if !opts.skipMatchConditions {
		errs = append(errs, validateMatchConditions(spec.MatchConditions, options{paramsInMatchConditions: hasParams, stored: opts.stored, server: opts.server}, p.Child("matchConditions"))...)
	}
	for i := range spec.Variables {
		errs = append(errs, validateVariable(compiler, &spec.Variables[i], hasParams, opts, p.Child("variables").Index(i))...)
	}
	if len(spec.Validations) == 0 && len(spec.AuditAnnotations) == 0 {
		const detail = "validations or auditAnnotations must contain at least one item"
		return append(errs, field.Required(p.Child("validations"), detail), field.Required(p.Child("auditAnnotations"), detail))
	}
	for i := range spec.Validations {
		errs = append(errs, validateValidation(compiler, &spec.Validations[i], hasParams, opts, p.Child("validations").Index(i))...)
	}
	if spec.AuditAnnotations != nil {
		if len(spec.AuditAnnotations) > maxAuditAnnotations {
			errs = append(errs, field.Invalid(p.Child("auditAnnotations"), spec.AuditAnnotations, fmt.Sprintf("must not have more than %d auditAnnotations", maxAuditAnnotations)))
		}
		keys := map[string]bool{}
		for i := range spec.AuditAnnotations {
			a := &spec.AuditAnnotations[i]
			ip := p.Child("auditAnnotations").Index(i)
			errs = append(errs, validateAuditAnnotation(compiler, name, a, hasParams, opts, ip)...)
			if keys[a.Key] {
				errs = append(errs, field.Duplicate(ip.Child("key"), a.Key))
			}
			keys[a.Key] = true
		}
	}
	return errs
}

func validateFailurePolicy(fp *api.FailurePolicyType, p *field.Path) field.ErrorList {
	if fp == nil {
		return field.ErrorList{field.Required(p.Child("failurePolicy"), "")}
	}
	if !slices.Contains(failurePolicies, string(*fp)) {
		return field.ErrorList{field.NotSupported(p.Child("failurePolicy"), *fp, failurePolicies)}
	}
	return nil
}

// validateMatchConstraints: a policy's match constraints are required, and name at least
// one resource rule (which gives its expressions their types).
func validateMatchConstraints(mc *api.MatchResources, p *field.Path) field.ErrorList {
	if mc == nil {
		return field.ErrorList{field.Required(p.Child("matchConstraints"), "")}
	}
	errs := validateMatchResources(mc, p.Child("matchConstraints"))
	if len(mc.ResourceRules) == 0 {
		errs = append(errs, field.Required(p.Child("matchConstraints", "resourceRules"), ""))
	}
	return errs
}

// validateParamKind: apiVersion a group/version (the group a DNS subdomain, the version a
// DNS label), kind a DNS label in any case.
func validateParamKind(k api.ParamKind, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	av := p.Child("apiVersion")
	if k.APIVersion == "" {
		errs = append(errs, field.Required(av, ""))
	} else if group, version, err := parseGroupVersion(k.APIVersion); err != nil {
		errs = append(errs, field.Invalid(av, k.APIVersion, err.Error()))
	} else {
		if group != "" {
			if msgs := wellformed.IsDNS1123Subdomain(group); len(msgs) > 0 {
				errs = append(errs, field.Invalid(av, group, strings.Join(msgs, ",")))
			}
		}
		if version == "" {
			errs = append(errs, field.Invalid(av, k.APIVersion, "version must be specified"))
		} else if msgs := validation.IsDNS1035Label(version); len(msgs) > 0 {
			errs = append(errs, field.Invalid(av, version, strings.Join(msgs, ",")))
		}
	}
	if k.Kind == "" {
		errs = append(errs, field.Required(p.Child("kind"), ""))
	} else if msgs := validation.IsDNS1035Label(strings.ToLower(k.Kind)); len(msgs) > 0 {
		errs = append(errs, field.Invalid(p.Child("kind"), k.Kind, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
	}
	return errs
}

// parseGroupVersion splits "group/version" (or a bare version); "" and "/" are empty.
func parseGroupVersion(gv string) (group, version string, err error) {
	if gv == "" || gv == "/" {
		return "", "", nil
	}
	switch strings.Count(gv, "/") {
	case 0:
		return "", gv, nil
	case 1:
		g, v, _ := strings.Cut(gv, "/")
		return g, v, nil
	}
	return "", "", fmt.Errorf("unexpected GroupVersion string: %v", gv)
}

func validateMatchResources(mc *api.MatchResources, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if mc == nil {
		return nil
	}
	if mc.MatchPolicy == nil {
		errs = append(errs, field.Required(p.Child("matchPolicy"), ""))
	} else if !slices.Contains(matchPolicies, string(*mc.MatchPolicy)) {
		errs = append(errs, field.NotSupported(p.Child("matchPolicy"), *mc.MatchPolicy, matchPolicies))
	}
	strict := metav1validation.LabelSelectorValidationOptions{}
	if mc.NamespaceSelector == nil {
		errs = append(errs, field.Required(p.Child("namespaceSelector"), ""))
	} else {
		errs = append(errs, wellformed.ValidateLabelSelector(mc.NamespaceSelector, strict, p.Child("namespaceSelector"))...)
	}
	if mc.ObjectSelector == nil {
		errs = append(errs, field.Required(p.Child("objectSelector"), ""))
	} else {
		errs = append(errs, wellformed.ValidateLabelSelector(mc.ObjectSelector, strict, p.Child("objectSelector"))...)
	}
	for i := range mc.ResourceRules {
		errs = append(errs, validateNamedRule(&mc.ResourceRules[i], p.Child("resourceRules").Index(i))...)
	}
	for i := range mc.ExcludeResourceRules {
		errs = append(errs, validateNamedRule(&mc.ExcludeResourceRules[i], p.Child("excludeResourceRules").Index(i))...)
	}
	return errs
}

func validateNamedRule(r *api.NamedRuleWithOperations, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, name := range r.ResourceNames {
		for _, msg := range content.IsPathSegmentName(name) {
			errs = append(errs, field.Invalid(p.Child("resourceNames").Index(i), name, msg))
		}
		if seen[name] {
			errs = append(errs, field.Duplicate(p.Child("resourceNames").Index(i), name))
		}
		seen[name] = true
	}
	return append(errs, validateRuleWithOperations(&r.RuleWithOperations, p)...)
}

// celIdentifier: a CEL identifier that is not a reserved word.
var celIdentifier = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[_a-zA-Z][_a-zA-Z0-9]*$`) })
var celReserved = map[string]bool{"true": true, "false": true, "null": true, "in": true, "as": true, "break": true,
	"const": true, "continue": true, "else": true, "for": true, "function": true, "if": true, "import": true, "let": true,
	"loop": true, "package": true, "namespace": true, "return": true, "var": true, "void": true, "while": true}

// validateVariable: a name that is a CEL identifier, and an expression that compiles (then
// visible to the expressions after it).
func validateVariable(c *celCompiler, v *api.Variable, hasParams bool, opts policyOptions, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if strings.TrimSpace(v.Name) == "" {
		errs = append(errs, field.Required(p.Child("name"), "name is not specified"))
	} else if !celIdentifier().MatchString(v.Name) || celReserved[v.Name] {
		errs = append(errs, field.Invalid(p.Child("name"), v.Name, "must be a valid CEL identifier"))
	}
	if strings.TrimSpace(v.Expression) == "" {
		return append(errs, field.Required(p.Child("expression"), "expression is not specified"))
	}
	// A variable's expression is looked up among the stored validations (not variables).
	kind := envOf(opts.stored.validations, v.Expression)
	if err := c.addVariable(v.Name, v.Expression, decls{params: hasParams, authorizer: true}, kind); err != nil {
		errs = append(errs, celError(p.Child("expression"), v.Expression, err))
	}
	return errs
}

var lineBreaks = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[\n\r]+`) })

func validateValidation(c *celCompiler, v *api.Validation, hasParams bool, opts policyOptions, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if strings.TrimSpace(v.Expression) == "" {
		errs = append(errs, field.Required(p.Child("expression"), "expression is not specified"))
	} else if _, err := c.compile(v.Expression, decls{params: hasParams, authorizer: true}, envOf(opts.stored.validations, v.Expression), boolResult); err != nil {
		errs = append(errs, celError(p.Child("expression"), v.Expression, err))
	}
	trimmedMessageExpression := strings.TrimSpace(v.MessageExpression)
	if v.MessageExpression != "" && trimmedMessageExpression == "" {
		errs = append(errs, field.Invalid(p.Child("messageExpression"), v.MessageExpression, "must be non-empty if specified"))
	} else if trimmedMessageExpression != "" {
		// The message expression sees params as match conditions do (when the policy has a
		// paramKind), and no authorizer.
		d := decls{params: hasParams}
		if _, err := c.compile(v.MessageExpression, d, envOf(opts.stored.messages, v.MessageExpression), stringResult); err != nil {
			errs = append(errs, celError(p.Child("messageExpression"), v.MessageExpression, err))
		}
	}
	trimmedMessage := strings.TrimSpace(v.Message)
	if v.Message != "" && trimmedMessage == "" {
		errs = append(errs, field.Invalid(p.Child("message"), v.Message, "must be non-empty if specified"))
	} else if lineBreaks().MatchString(trimmedMessage) {
		detail := "must not contain line breaks"
		if opts.server < 34 {
			// Kubernetes 1.33 and older begin it with the field's name.
			detail = "message " + detail
		}
		errs = append(errs, field.Invalid(p.Child("message"), v.Message, detail))
	}
	if v.Reason != nil && !slices.Contains(policyReasons, string(*v.Reason)) {
		errs = append(errs, field.NotSupported(p.Child("reason"), *v.Reason, policyReasons))
	}
	return errs
}

func validateAuditAnnotation(c *celCompiler, policyName string, a *api.AuditAnnotation, hasParams bool, opts policyOptions, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if policyName != "" {
		errs = append(errs, core.ValidateQualifiedName(policyName+"/"+a.Key, p.Child("key"))...)
	} else {
		errs = append(errs, field.Invalid(p.Child("key"), a.Key, "requires metadata.name be non-empty"))
	}
	vp := p.Child("valueExpression")
	expr := strings.TrimSpace(a.ValueExpression)
	switch {
	case expr == "":
		errs = append(errs, field.Required(vp, "valueExpression is not specified"))
	case len(expr) > maxAuditValueExpression:
		errs = append(errs, field.Required(vp, fmt.Sprintf("must not exceed %d bytes in length", maxAuditValueExpression)))
	default:
		if _, err := c.compile(expr, decls{params: hasParams, authorizer: true}, envOf(opts.stored.auditValues, a.ValueExpression), annotationValue); err != nil {
			errs = append(errs, celError(vp, a.ValueExpression, err))
		}
	}
	return errs
}

// ValidateValidatingAdmissionPolicyStatus checks a status write: the type-checking warnings
// (each with a warning and a JSONPath field reference) and the conditions.
func ValidateValidatingAdmissionPolicyStatus(s *api.ValidatingAdmissionPolicyStatus, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.TypeChecking != nil {
		wp := p.Child("typeChecking").Child("expressionWarnings")
		for i := range s.TypeChecking.ExpressionWarnings {
			w := &s.TypeChecking.ExpressionWarnings[i]
			if w.Warning == "" {
				errs = append(errs, field.Required(wp.Index(i).Child("warning"), ""))
			}
			errs = append(errs, validateFieldRef(w.FieldRef, wp.Index(i).Child("fieldRef"))...)
		}
	}
	return append(errs, metav1validation.ValidateConditions(s.Conditions, p.Child("conditions"))...)
}

func validateFieldRef(ref string, p *field.Path) field.ErrorList {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	if err := checkJSONPath("{" + ref + "}"); err != nil {
		return field.ErrorList{field.Invalid(p, ref, fmt.Sprintf("invalid JSONPath: %v", err))}
	}
	return nil
}

// ValidateValidatingAdmissionPolicyBinding checks a ValidatingAdmissionPolicyBinding (the
// same on create and update).
func ValidateValidatingAdmissionPolicyBinding(b *api.ValidatingAdmissionPolicyBinding) field.ErrorList {
	errs := apimachineryvalidation.ValidateObjectMetaAccessor(wellformed.Meta(&b.ObjectMeta), false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	p := field.NewPath("spec")
	errs = append(errs, validatePolicyName(b.Spec.PolicyName, p, true)...)
	errs = append(errs, validateParamRef(b.Spec.ParamRef, p.Child("paramRef"))...)
	errs = append(errs, validateMatchResources(b.Spec.MatchResources, p.Child("matchResources"))...)
	return append(errs, validateValidationActions(b.Spec.ValidationActions, p.Child("validationActions"))...)
}

// validatePolicyName: a binding names its policy (covered: declarative validation checks
// it is given).
func validatePolicyName(name string, p *field.Path, covered bool) field.ErrorList {
	if name == "" {
		e := field.Required(p.Child("policyName"), "")
		if covered {
			e = e.MarkCoveredByDeclarative()
		}
		return field.ErrorList{e}
	}
	var errs field.ErrorList
	for _, msg := range wellformed.NameIsDNSSubdomain(name, false) {
		errs = append(errs, field.Invalid(p.Child("policyName"), name, msg))
	}
	return errs
}

func validateParamRef(r *api.ParamRef, p *field.Path) field.ErrorList {
	if r == nil {
		return nil
	}
	var errs field.ErrorList
	const exclusive = `name and selector are mutually exclusive`
	if r.Name != "" {
		for _, msg := range content.IsPathSegmentName(r.Name) {
			errs = append(errs, field.Invalid(p.Child("name"), r.Name, msg))
		}
		if r.Selector != nil {
			errs = append(errs, field.Forbidden(p.Child("name"), exclusive))
		}
	}
	if r.Selector != nil {
		errs = append(errs, wellformed.ValidateLabelSelector(r.Selector, metav1validation.LabelSelectorValidationOptions{}, p.Child("selector"))...)
		if r.Name != "" {
			errs = append(errs, field.Forbidden(p.Child("selector"), exclusive))
		}
	}
	if r.Name == "" && r.Selector == nil {
		errs = append(errs, field.Required(p, `one of name or selector must be specified`))
	}
	if a := r.ParameterNotFoundAction; a == nil || *a == "" {
		errs = append(errs, field.Required(p.Child("parameterNotFoundAction"), ""))
	} else if *a != api.DenyAction && *a != api.AllowAction {
		errs = append(errs, field.NotSupported(p.Child("parameterNotFoundAction"), a, []string{string(api.DenyAction), string(api.AllowAction)}))
	}
	return errs
}

func validateValidationActions(actions []api.ValidationAction, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[api.ValidationAction]bool{}
	for i, a := range actions {
		if !slices.Contains(validationActions, string(a)) {
			errs = append(errs, field.NotSupported(p.Index(i), a, validationActions))
		}
		if seen[a] {
			errs = append(errs, field.Duplicate(p.Index(i), a))
		}
		seen[a] = true
	}
	if seen[api.Deny] && seen[api.Warn] {
		errs = append(errs, field.Invalid(p, actions, "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"))
	}
	if len(seen) == 0 {
		errs = append(errs, field.Required(p, "at least one validation action is required").MarkCoveredByDeclarative())
	}
	return errs
}

// ValidateMutatingAdmissionPolicy checks a new MutatingAdmissionPolicy.
func ValidateMutatingAdmissionPolicy(cfg *serverconfig.Config, p *api.MutatingAdmissionPolicy) field.ErrorList {
	return validateMutatingPolicy(p, policyOptions{stored: newStoredExpressions(), server: cfg.Minor})
}

// ValidateMutatingAdmissionPolicyUpdate checks an update of a MutatingAdmissionPolicy.
func ValidateMutatingAdmissionPolicyUpdate(cfg *serverconfig.Config, p, old *api.MutatingAdmissionPolicy) field.ErrorList {
	stored := newStoredExpressions()
	for _, mc := range old.Spec.MatchConditions {
		stored.matchConditions[mc.Expression] = true
	}
	for _, m := range old.Spec.Mutations {
		if m.ApplyConfiguration != nil {
			stored.applyConfigurations[m.ApplyConfiguration.Expression] = true
		}
		if m.JSONPatch != nil {
			stored.jsonPatches[m.JSONPatch.Expression] = true
		}
	}
	skip := apiequality.Semantic.DeepEqual(p.Spec.ParamKind, old.Spec.ParamKind) && apiequality.Semantic.DeepEqual(p.Spec.MatchConditions, old.Spec.MatchConditions)
	return validateMutatingPolicy(p, policyOptions{skipMatchConditions: skip, stored: stored, server: cfg.Minor})
}

func validateMutatingPolicy(mp *api.MutatingAdmissionPolicy, opts policyOptions) field.ErrorList {
	errs := apimachineryvalidation.ValidateObjectMetaAccessor(wellformed.Meta(&mp.ObjectMeta), false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	spec := &mp.Spec
	p := field.NewPath("spec")
	compiler := newCompiler(opts.server, true)
	errs = append(errs, validateFailurePolicy(spec.FailurePolicy, p)...)
	hasParams := spec.ParamKind != nil
	if hasParams {
		errs = append(errs, validateParamKind(*spec.ParamKind, p.Child("paramKind"))...)
	}
	errs = append(errs, validateMatchConstraints(spec.MatchConstraints, p)...)
	if spec.MatchConstraints != nil {
		errs = append(errs, mutatingOperationsOnly(spec.MatchConstraints.ResourceRules, p.Child("matchConstraints", "resourceRules", "operations"))...)
	}
	if !opts.skipMatchConditions {
		errs = append(errs, validateMatchConditions(spec.MatchConditions, options{paramsInMatchConditions: hasParams, stored: opts.stored, server: opts.server}, p.Child("matchConditions"))...)
	}
	for i := range spec.Variables {
		errs = append(errs, validateVariable(compiler, &spec.Variables[i], hasParams, opts, p.Child("variables").Index(i))...)
	}
	if len(spec.Mutations) == 0 {
		errs = append(errs, field.Required(p.Child("mutations"), "mutations must contain at least one item"))
	}
	for i := range spec.Mutations {
		errs = append(errs, validateMutation(compiler, &spec.Mutations[i], hasParams, opts, p.Child("mutations").Index(i))...)
	}
	if spec.ReinvocationPolicy == "" {
		errs = append(errs, field.Required(p.Child("reinvocationPolicy"), ""))
	} else if !slices.Contains(reinvocationPolicies, string(spec.ReinvocationPolicy)) {
		errs = append(errs, field.NotSupported(p.Child("reinvocationPolicy"), spec.ReinvocationPolicy, reinvocationPolicies))
	}
	return errs
}

// mutatingOperationsOnly: a mutating policy or binding matches creates, updates and
// connects only (every operation reported at the same path).
func mutatingOperationsOnly(rules []api.NamedRuleWithOperations, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, r := range rules {
		for _, op := range r.RuleWithOperations.Operations {
			if !slices.Contains(mutatingOperations, string(op)) {
				errs = append(errs, field.NotSupported(p, op, mutatingOperations))
			}
		}
	}
	return errs
}

func validateMutation(c *celCompiler, m *api.Mutation, hasParams bool, opts policyOptions, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch m.PatchType {
	case "":
		errs = append(errs, field.Required(p.Child("patchType"), ""))
	case api.PatchTypeJSONPatch:
		if m.JSONPatch == nil {
			errs = append(errs, field.Required(p.Child("jsonPatch"), "must be specified when patchType is JSONPatch"))
		} else {
			// The server looks a JSON patch up among the stored apply configurations.
			errs = append(errs, validatePatchExpression(c, m.JSONPatch.Expression, hasParams, opts.stored.applyConfigurations, jsonPatchResult, p.Child("jsonPatch"))...)
		}
		if m.ApplyConfiguration != nil {
			errs = append(errs, field.Invalid(p.Child("applyConfiguration"), "{applyConfiguration}", "must not be specified when patchType is JSONPatch"))
		}
	case api.PatchTypeApplyConfiguration:
		if m.ApplyConfiguration == nil {
			errs = append(errs, field.Required(p.Child("applyConfiguration"), "must be specified when patchType is ApplyConfiguration"))
		} else {
			errs = append(errs, validatePatchExpression(c, m.ApplyConfiguration.Expression, hasParams, opts.stored.applyConfigurations, applyResult, p.Child("applyConfiguration"))...)
		}
		if m.JSONPatch != nil {
			errs = append(errs, field.Invalid(p.Child("jsonPatch"), "{jsonPatch}", "must not be specified when patchType is ApplyConfiguration"))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("patchType"), m.PatchType, patchTypeWords))
	}
	return errs
}

func validatePatchExpression(c *celCompiler, expression string, hasParams bool, stored map[string]bool, want resultTypes, p *field.Path) field.ErrorList {
	expr := strings.TrimSpace(expression)
	if expr == "" {
		return field.ErrorList{field.Required(p.Child("expression"), "")}
	}
	d := decls{params: hasParams, authorizer: true, patchTypes: true}
	if _, err := c.compile(expr, d, envOf(stored, expression), want); err != nil {
		return field.ErrorList{celError(p.Child("expression"), expr, err)}
	}
	return nil
}

// ValidateMutatingAdmissionPolicyBinding checks a MutatingAdmissionPolicyBinding (the same
// on create and update).
func ValidateMutatingAdmissionPolicyBinding(b *api.MutatingAdmissionPolicyBinding) field.ErrorList {
	errs := apimachineryvalidation.ValidateObjectMetaAccessor(wellformed.Meta(&b.ObjectMeta), false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	p := field.NewPath("spec")
	errs = append(errs, validatePolicyName(b.Spec.PolicyName, p, false)...)
	errs = append(errs, validateParamRef(b.Spec.ParamRef, p.Child("paramRef"))...)
	errs = append(errs, validateMatchResources(b.Spec.MatchResources, p.Child("matchResources"))...)
	if b.Spec.MatchResources != nil {
		errs = append(errs, mutatingOperationsOnly(b.Spec.MatchResources.ResourceRules, p.Child("matchResources", "resourceRules", "operations"))...)
	}
	return errs
}
