package admissionregistration

import (
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/admissionregistration"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"github.com/ssa-diff/ssa-diff/kube"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The words an enum field takes, sorted as the server lists them in NotSupported errors.
var (
	scopes               = []string{string(api.AllScopes), string(api.ClusterScope), string(api.NamespacedScope)}
	operations           = []string{string(api.OperationAll), string(api.Connect), string(api.Create), string(api.Delete), string(api.Update)}
	mutatingOperations   = []string{string(api.OperationAll), string(api.Connect), string(api.Create), string(api.Update)}
	failurePolicies      = []string{string(api.Fail), string(api.Ignore)}
	matchPolicies        = []string{string(api.Equivalent), string(api.Exact)}
	sideEffectClasses    = []string{string(api.SideEffectClassNone), string(api.SideEffectClassNoneOnDryRun), string(api.SideEffectClassSome), string(api.SideEffectClassUnknown)}
	noSideEffectClasses  = []string{string(api.SideEffectClassNone), string(api.SideEffectClassNoneOnDryRun)}
	reinvocationPolicies = []string{"IfNeeded", "Never"}
)

// reviewVersions are the AdmissionReview versions a webhook must accept one of.
var reviewVersions = []string{"v1", "v1beta1"}

// options are what an update relaxes: the rules a stored configuration already broke stay
// acceptable, and match conditions left as they were are not compiled again.
type options struct {
	skipMatchConditions     bool
	paramsInMatchConditions bool
	noSideEffects           bool
	knownReviewVersion      bool
	uniqueNames             bool
	looseSelectorValues     bool
	stored                  storedExpressions
	// server is the minor whose CEL environments compile the match conditions.
	server kube.Minor
}

// createOptions are the options of a create: every rule in force.
func createOptions(server kube.Minor) options {
	return options{noSideEffects: true, knownReviewVersion: true, uniqueNames: true, server: server}
}

// webhook is what the validating and mutating webhooks share.
type webhook struct {
	name                    string
	clientConfig            *api.WebhookClientConfig
	rules                   []api.RuleWithOperations
	failurePolicy           *api.FailurePolicyType
	matchPolicy             *api.MatchPolicyType
	namespaceSelector       *metav1.LabelSelector
	objectSelector          *metav1.LabelSelector
	sideEffects             *api.SideEffectClass
	timeoutSeconds          *int32
	admissionReviewVersions []string
	matchConditions         []api.MatchCondition
	// mutating: reinvocationPolicy is checked (set or not).
	mutating           bool
	reinvocationPolicy *api.ReinvocationPolicyType
}

func validatingHooks(hooks []api.ValidatingWebhook) []webhook {
	out := make([]webhook, len(hooks))
	for i := range hooks {
		h := &hooks[i]
		out[i] = webhook{h.Name, &h.ClientConfig, h.Rules, h.FailurePolicy, h.MatchPolicy, h.NamespaceSelector, h.ObjectSelector,
			h.SideEffects, h.TimeoutSeconds, h.AdmissionReviewVersions, h.MatchConditions, false, nil}
	}
	return out
}

func mutatingHooks(hooks []api.MutatingWebhook) []webhook {
	out := make([]webhook, len(hooks))
	for i := range hooks {
		h := &hooks[i]
		out[i] = webhook{h.Name, &h.ClientConfig, h.Rules, h.FailurePolicy, h.MatchPolicy, h.NamespaceSelector, h.ObjectSelector,
			h.SideEffects, h.TimeoutSeconds, h.AdmissionReviewVersions, h.MatchConditions, true, h.ReinvocationPolicy}
	}
	return out
}

// ValidateValidatingWebhookConfiguration checks a new ValidatingWebhookConfiguration.
func ValidateValidatingWebhookConfiguration(cfg *serverconfig.Config, c *api.ValidatingWebhookConfiguration) field.ErrorList {
	return validateWebhookConfiguration(&c.ObjectMeta, validatingHooks(c.Webhooks), createOptions(cfg.Minor))
}

// ValidateMutatingWebhookConfiguration checks a new MutatingWebhookConfiguration.
func ValidateMutatingWebhookConfiguration(cfg *serverconfig.Config, c *api.MutatingWebhookConfiguration) field.ErrorList {
	return validateWebhookConfiguration(&c.ObjectMeta, mutatingHooks(c.Webhooks), createOptions(cfg.Minor))
}

// ValidateValidatingWebhookConfigurationUpdate checks an update: what the stored
// configuration already broke (side effects, review versions, repeated names, selector
// values) stays acceptable, and unchanged match conditions are not compiled again.
func ValidateValidatingWebhookConfigurationUpdate(cfg *serverconfig.Config, c, old *api.ValidatingWebhookConfiguration) field.ErrorList {
	skip := len(c.Webhooks) == len(old.Webhooks)
	for i := range old.Webhooks {
		if skip && !reflect.DeepEqual(c.Webhooks[i].MatchConditions, old.Webhooks[i].MatchConditions) {
			skip = false
		}
	}
	return validateWebhookConfiguration(&c.ObjectMeta, validatingHooks(c.Webhooks), updateOptions(cfg.Minor, validatingHooks(old.Webhooks), skip))
}

// ValidateMutatingWebhookConfigurationUpdate is ValidateValidatingWebhookConfigurationUpdate
// for a MutatingWebhookConfiguration.
func ValidateMutatingWebhookConfigurationUpdate(cfg *serverconfig.Config, c, old *api.MutatingWebhookConfiguration) field.ErrorList {
	skip := len(c.Webhooks) == len(old.Webhooks)
	for i := range old.Webhooks {
		if skip && !reflect.DeepEqual(c.Webhooks[i].MatchConditions, old.Webhooks[i].MatchConditions) {
			skip = false
		}
	}
	return validateWebhookConfiguration(&c.ObjectMeta, mutatingHooks(c.Webhooks), updateOptions(cfg.Minor, mutatingHooks(old.Webhooks), skip))
}

// updateOptions derives an update's options from the stored webhooks.
func updateOptions(server kube.Minor, old []webhook, skipMatchConditions bool) options {
	o := options{skipMatchConditions: skipMatchConditions, noSideEffects: true, knownReviewVersion: true, uniqueNames: true, stored: newStoredExpressions(), server: server}
	names := map[string]bool{}
	strict := metav1validation.LabelSelectorValidationOptions{}
	for _, h := range old {
		if h.sideEffects == nil || !slices.Contains(noSideEffectClasses, string(*h.sideEffects)) {
			o.noSideEffects = false
		}
		if len(h.admissionReviewVersions) > 0 && !slices.ContainsFunc(h.admissionReviewVersions, isReviewVersion) {
			o.knownReviewVersion = false
		}
		if names[h.name] {
			o.uniqueNames = false
		}
		names[h.name] = true
		for _, s := range []*metav1.LabelSelector{h.namespaceSelector, h.objectSelector} {
			if s != nil && len(wellformed.ValidateLabelSelector(s, strict, nil)) > 0 {
				o.looseSelectorValues = true
			}
		}
		for _, mc := range h.matchConditions {
			o.stored.matchConditions[mc.Expression] = true
		}
	}
	return o
}

func isReviewVersion(v string) bool { return slices.Contains(reviewVersions, v) }

func validateWebhookConfiguration(meta *metav1.ObjectMeta, hooks []webhook, opts options) field.ErrorList {
	errs := apimachineryvalidation.ValidateObjectMetaAccessor(wellformed.Meta(meta), false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	names := map[string]bool{}
	for i := range hooks {
		p := field.NewPath("webhooks").Index(i)
		h := &hooks[i]
		errs = append(errs, validateWebhook(h, opts, p)...)
		errs = append(errs, validateReviewVersions(h.admissionReviewVersions, opts.knownReviewVersion, p.Child("admissionReviewVersions"))...)
		if opts.uniqueNames && h.name != "" {
			if names[h.name] {
				errs = append(errs, field.Duplicate(p.Child("name"), h.name))
			}
			names[h.name] = true
		}
	}
	return errs
}

func validateWebhook(h *webhook, opts options, p *field.Path) field.ErrorList {
	errs := validation.IsFullyQualifiedName(p.Child("name"), h.name)
	selectorOpts := metav1validation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: opts.looseSelectorValues}
	for i := range h.rules {
		errs = append(errs, validateRuleWithOperations(&h.rules[i], p.Child("rules").Index(i))...)
	}
	if h.failurePolicy != nil && !slices.Contains(failurePolicies, string(*h.failurePolicy)) {
		errs = append(errs, field.NotSupported(p.Child("failurePolicy"), *h.failurePolicy, failurePolicies))
	}
	if h.matchPolicy != nil && !slices.Contains(matchPolicies, string(*h.matchPolicy)) {
		errs = append(errs, field.NotSupported(p.Child("matchPolicy"), *h.matchPolicy, matchPolicies))
	}
	allowed := sideEffectClasses
	if opts.noSideEffects {
		allowed = noSideEffectClasses
	}
	if h.sideEffects == nil {
		errs = append(errs, field.Required(p.Child("sideEffects"), "must specify one of "+strings.Join(allowed, ", ")))
	} else if !slices.Contains(allowed, string(*h.sideEffects)) {
		errs = append(errs, field.NotSupported(p.Child("sideEffects"), *h.sideEffects, allowed))
	}
	if t := h.timeoutSeconds; t != nil && (*t > 30 || *t < 1) {
		errs = append(errs, field.Invalid(p.Child("timeoutSeconds"), *t, "the timeout value must be between 1 and 30 seconds"))
	}
	if h.namespaceSelector != nil {
		errs = append(errs, wellformed.ValidateLabelSelector(h.namespaceSelector, selectorOpts, p.Child("namespaceSelector"))...)
	}
	if h.objectSelector != nil {
		errs = append(errs, wellformed.ValidateLabelSelector(h.objectSelector, selectorOpts, p.Child("objectSelector"))...)
	}
	if h.mutating && h.reinvocationPolicy != nil && !slices.Contains(reinvocationPolicies, string(*h.reinvocationPolicy)) {
		errs = append(errs, field.NotSupported(p.Child("reinvocationPolicy"), *h.reinvocationPolicy, reinvocationPolicies))
	}
	cc := h.clientConfig
	switch {
	case (cc.URL == nil) == (cc.Service == nil):
		errs = append(errs, field.Required(p.Child("clientConfig"), "exactly one of url or service is required"))
	case cc.URL != nil:
		errs = append(errs, ValidateWebhookURL(p.Child("clientConfig").Child("url"), *cc.URL, true)...)
	default:
		s := cc.Service
		errs = append(errs, ValidateWebhookService(p.Child("clientConfig").Child("service"), s.Name, s.Namespace, s.Path, s.Port)...)
	}
	if !opts.skipMatchConditions {
		errs = append(errs, validateMatchConditions(h.matchConditions, opts, p.Child("matchConditions"))...)
	}
	return errs
}

// validateReviewVersions: at least one version, none repeated, each a DNS label, and (when
// required) one the server speaks.
func validateReviewVersions(versions []string, requireKnown bool, p *field.Path) field.ErrorList {
	if len(versions) == 0 {
		return field.ErrorList{field.Required(p, "must specify one of "+strings.Join(reviewVersions, ", "))}
	}
	var errs field.ErrorList
	seen := map[string]bool{}
	known := false
	for i, v := range versions {
		if seen[v] {
			errs = append(errs, field.Invalid(p.Index(i), v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, msg := range validation.IsDNS1035Label(v) {
			errs = append(errs, field.Invalid(p.Index(i), v, msg))
		}
		if isReviewVersion(v) {
			known = true
		}
	}
	if requireKnown && !known {
		errs = append(errs, field.Invalid(p, versions, "must include at least one of "+strings.Join(reviewVersions, ", ")))
	}
	return errs
}

func validateRuleWithOperations(r *api.RuleWithOperations, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(r.Operations) == 0 {
		errs = append(errs, field.Required(p.Child("operations"), ""))
	}
	if len(r.Operations) > 1 && slices.Contains(r.Operations, api.OperationAll) {
		errs = append(errs, field.Invalid(p.Child("operations"), r.Operations, "if '*' is present, must not specify other operations"))
	}
	for i, op := range r.Operations {
		if !slices.Contains(operations, string(op)) {
			errs = append(errs, field.NotSupported(p.Child("operations").Index(i), op, operations))
		}
	}
	return append(errs, validateRule(&r.Rule, p, true)...)
}

func validateRule(r *api.Rule, p *field.Path, allowSubresources bool) field.ErrorList {
	var errs field.ErrorList
	if len(r.APIGroups) == 0 {
		errs = append(errs, field.Required(p.Child("apiGroups"), ""))
	}
	if len(r.APIGroups) > 1 && slices.Contains(r.APIGroups, "*") {
		errs = append(errs, field.Invalid(p.Child("apiGroups"), r.APIGroups, "if '*' is present, must not specify other API groups"))
	}
	if len(r.APIVersions) == 0 {
		errs = append(errs, field.Required(p.Child("apiVersions"), ""))
	}
	if len(r.APIVersions) > 1 && slices.Contains(r.APIVersions, "*") {
		errs = append(errs, field.Invalid(p.Child("apiVersions"), r.APIVersions, "if '*' is present, must not specify other API versions"))
	}
	for i, v := range r.APIVersions {
		if v == "" {
			errs = append(errs, field.Required(p.Child("apiVersions").Index(i), ""))
		}
	}
	if allowSubresources {
		errs = append(errs, validateResources(r.Resources, p.Child("resources"))...)
	} else {
		errs = append(errs, validateResourcesNoSubresources(r.Resources, p.Child("resources"))...)
	}
	if r.Scope != nil && !slices.Contains(scopes, string(*r.Scope)) {
		errs = append(errs, field.NotSupported(p.Child("scope"), *r.Scope, scopes))
	}
	return errs
}

// validateResources checks resource/subresource words: "*/*" alone, "*" with subresources
// only, and no word a wildcard of the same resource or subresource already covers.
func validateResources(resources []string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(resources) == 0 {
		errs = append(errs, field.Required(p, ""))
	}
	allSubresourcesOf := map[string]bool{} // "x/*"
	allResourcesWith := map[string]bool{}  // "*/x"
	doubleWildcard, singleWildcard, plainResource := false, false, false
	for i, rs := range resources {
		if rs == "" {
			errs = append(errs, field.Required(p.Index(i), ""))
			continue
		}
		if rs == "*/*" {
			doubleWildcard = true
		}
		if rs == "*" {
			singleWildcard = true
		}
		res, sub, ok := strings.Cut(rs, "/")
		if !ok {
			plainResource = rs != "*"
			continue
		}
		if allSubresourcesOf[res] {
			errs = append(errs, field.Invalid(p.Index(i), rs, fmt.Sprintf("if '%s/*' is present, must not specify %s", res, rs)))
		}
		if allResourcesWith[sub] {
			errs = append(errs, field.Invalid(p.Index(i), rs, fmt.Sprintf("if '*/%s' is present, must not specify %s", sub, rs)))
		}
		if sub == "*" {
			allSubresourcesOf[res] = true
		}
		if res == "*" {
			allResourcesWith[sub] = true
		}
	}
	if len(resources) > 1 && doubleWildcard {
		errs = append(errs, field.Invalid(p, resources, "if '*/*' is present, must not specify other resources"))
	}
	if singleWildcard && plainResource {
		errs = append(errs, field.Invalid(p, resources, "if '*' is present, must not specify other resources without subresources"))
	}
	return errs
}

func validateResourcesNoSubresources(resources []string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(resources) == 0 {
		errs = append(errs, field.Required(p, ""))
	}
	for i, r := range resources {
		if r == "" {
			errs = append(errs, field.Required(p.Index(i), ""))
		}
		if strings.Contains(r, "/") {
			errs = append(errs, field.Invalid(p.Index(i), r, "must not specify subresources"))
		}
	}
	if len(resources) > 1 && slices.Contains(resources, "*") {
		errs = append(errs, field.Invalid(p, resources, "if '*' is present, must not specify other resources"))
	}
	return errs
}

// ValidateWebhookURL checks a webhook's URL as the server does (k8s.io/apiserver's webhook
// utilities): it parses, has a host, no user information, fragment or query, and (when
// httpsOnly) the https scheme.
func ValidateWebhookURL(p *field.Path, raw string, httpsOnly bool) field.ErrorList {
	const form = "; desired format: https://host[/path]"
	u, err := url.Parse(raw)
	if err != nil {
		return field.ErrorList{field.Required(p, "url must be a valid URL: "+err.Error()+form)}
	}
	var errs field.ErrorList
	if httpsOnly && u.Scheme != "https" {
		errs = append(errs, field.Invalid(p, u.Scheme, "'https' is the only allowed URL scheme"+form))
	}
	if u.Host == "" {
		errs = append(errs, field.Invalid(p, u.Host, "host must be specified"+form))
	}
	if u.User != nil {
		errs = append(errs, field.Invalid(p, u.User.String(), "user information is not permitted in the URL"))
	}
	if u.Fragment != "" {
		errs = append(errs, field.Invalid(p, u.Fragment, "fragments are not permitted in the URL"))
	}
	if u.RawQuery != "" {
		errs = append(errs, field.Invalid(p, u.RawQuery, "query parameters are not permitted in the URL"))
	}
	return errs
}

// ValidateWebhookService checks a webhook's service reference: name and namespace given, a
// valid port, and a path of DNS-subdomain segments.
func ValidateWebhookService(p *field.Path, namespace, name string, path *string, port int32) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	if namespace == "" {
		errs = append(errs, field.Required(p.Child("namespace"), ""))
	}
	if msgs := validation.IsValidPortNum(int(port)); msgs != nil {
		errs = append(errs, field.Invalid(p.Child("port"), port, "port is not valid: "+strings.Join(msgs, ", ")))
	}
	if path == nil || *path == "/" || *path == "" {
		return errs
	}
	pp := p.Child("path")
	if *path == "//" {
		return append(errs, field.Invalid(pp, *path, "segment[0] may not be empty"))
	}
	if !strings.HasPrefix(*path, "/") {
		errs = append(errs, field.Invalid(pp, *path, "must start with a '/'"))
	}
	rest := strings.TrimSuffix((*path)[1:], "/")
	for i, seg := range strings.Split(rest, "/") {
		if seg == "" {
			errs = append(errs, field.Invalid(pp, *path, fmt.Sprintf("segment[%d] may not be empty", i)))
			continue
		}
		for _, msg := range wellformed.IsDNS1123Subdomain(seg) {
			errs = append(errs, field.Invalid(pp, *path, fmt.Sprintf("segment[%d]: %v", i, msg)))
		}
	}
	return errs
}
