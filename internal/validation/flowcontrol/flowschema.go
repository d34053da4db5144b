package flowcontrol

import (
	"fmt"
	"slices"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/flowcontrol"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The words fields take, sorted as the server lists them.
var (
	distinguisherMethods = []string{string(api.FlowDistinguisherMethodByNamespaceType), string(api.FlowDistinguisherMethodByUserType)}
	verbs                = []string{"create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"}
	subjectKinds         = []string{string(api.SubjectKindGroup), string(api.SubjectKindServiceAccount), string(api.SubjectKindUser)}
)

// ValidateFlowSchema checks a FlowSchema (the same on create and update): metadata, spec —
// a mandatory schema must keep the server's spec — and status.
func ValidateFlowSchema(fs *api.FlowSchema) field.ErrorList {
	errs := core.ValidateObjectMeta(&fs.ObjectMeta, false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	p := field.NewPath("spec")
	errs = append(errs, validateFlowSchemaSpec(fs.Name, &fs.Spec, p)...)
	if m, ok := mandatoryFlowSchemaSpec(fs.Name); ok && !apiequality.Semantic.DeepEqual(fs.Spec, m) {
		errs = append(errs, field.Invalid(p, fs.Spec, fmt.Sprintf("spec of '%s' must equal the fixed value", fs.Name)))
	}
	return append(errs, ValidateFlowSchemaStatus(&fs.Status, field.NewPath("status"))...)
}

func validateFlowSchemaSpec(name string, spec *api.FlowSchemaSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	mp := p.Child("matchingPrecedence")
	if spec.MatchingPrecedence <= 0 {
		errs = append(errs, field.Invalid(mp, spec.MatchingPrecedence, "must be a positive value"))
	}
	if spec.MatchingPrecedence > api.FlowSchemaMaxMatchingPrecedence {
		errs = append(errs, field.Invalid(mp, spec.MatchingPrecedence, fmt.Sprintf("must not be greater than %v", api.FlowSchemaMaxMatchingPrecedence)))
	}
	if spec.MatchingPrecedence == 1 && name != api.FlowSchemaNameExempt {
		errs = append(errs, field.Invalid(mp, spec.MatchingPrecedence, "only the schema named 'exempt' may have matchingPrecedence 1"))
	}
	if d := spec.DistinguisherMethod; d != nil && !slices.Contains(distinguisherMethods, string(d.Type)) {
		errs = append(errs, field.NotSupported(p.Child("distinguisherMethod").Child("type"), d, distinguisherMethods))
	}
	lp := p.Child("priorityLevelConfiguration").Child("name")
	if pl := spec.PriorityLevelConfiguration.Name; pl != "" {
		for _, msg := range wellformed.NameIsDNSSubdomain(pl, false) {
			errs = append(errs, field.Invalid(lp, pl, msg))
		}
	} else {
		errs = append(errs, field.Required(lp, "must reference a priority level"))
	}
	for i := range spec.Rules {
		errs = append(errs, validatePolicyRules(&spec.Rules[i], p.Child("rules").Index(i))...)
	}
	return errs
}

func validatePolicyRules(r *api.PolicyRulesWithSubjects, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(r.Subjects) == 0 {
		errs = append(errs, field.Required(p.Child("subjects"), "subjects must contain at least one value"))
	}
	for i := range r.Subjects {
		errs = append(errs, validateSubject(&r.Subjects[i], p.Child("subjects").Index(i))...)
	}
	if len(r.ResourceRules) == 0 && len(r.NonResourceRules) == 0 {
		errs = append(errs, field.Required(p, "at least one of resourceRules and nonResourceRules has to be non-empty"))
	}
	for i := range r.ResourceRules {
		errs = append(errs, validateResourceRule(&r.ResourceRules[i], p.Child("resourceRules").Index(i))...)
	}
	for i := range r.NonResourceRules {
		errs = append(errs, validateNonResourceRule(&r.NonResourceRules[i], p.Child("nonResourceRules").Index(i))...)
	}
	return errs
}

// validateSubject: the member the kind names is valid, the others are not set.
func validateSubject(s *api.Subject, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	forbidUser := func() {
		if s.User != nil {
			errs = append(errs, field.Forbidden(p.Child("user"), "user is forbidden when subject kind is not 'User'"))
		}
	}
	forbidGroup := func() {
		if s.Group != nil {
			errs = append(errs, field.Forbidden(p.Child("group"), "group is forbidden when subject kind is not 'Group'"))
		}
	}
	forbidServiceAccount := func() {
		if s.ServiceAccount != nil {
			errs = append(errs, field.Forbidden(p.Child("serviceAccount"), "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"))
		}
	}
	switch s.Kind {
	case api.SubjectKindServiceAccount:
		errs = append(errs, validateServiceAccountSubject(s.ServiceAccount, p.Child("serviceAccount"))...)
		forbidUser()
		forbidGroup()
	case api.SubjectKindUser:
		if s.User == nil {
			errs = append(errs, field.Required(p.Child("user"), "user is required when subject kind is 'User'"))
		} else if s.User.Name == "" {
			errs = append(errs, field.Required(p.Child("user").Child("name"), ""))
		}
		forbidServiceAccount()
		forbidGroup()
	case api.SubjectKindGroup:
		if s.Group == nil {
			errs = append(errs, field.Required(p.Child("group"), "group is required when subject kind is 'Group'"))
		} else if s.Group.Name == "" {
			errs = append(errs, field.Required(p.Child("group").Child("name"), ""))
		}
		forbidServiceAccount()
		forbidUser()
	default:
		errs = append(errs, field.NotSupported(p.Child("kind"), s.Kind, subjectKinds))
	}
	return errs
}

func validateServiceAccountSubject(s *api.ServiceAccountSubject, p *field.Path) field.ErrorList {
	if s == nil {
		return field.ErrorList{field.Required(p, "serviceAccount is required when subject kind is 'ServiceAccount'")}
	}
	var errs field.ErrorList
	if s.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else if s.Name != api.NameAll {
		for _, msg := range wellformed.NameIsDNSSubdomain(s.Name, false) {
			errs = append(errs, field.Invalid(p.Child("name"), s.Name, msg))
		}
	}
	if s.Namespace == "" {
		return append(errs, field.Required(p.Child("namespace"), "must specify namespace for service account"))
	}
	for _, msg := range wellformed.NameIsDNSLabel(s.Namespace, false) {
		errs = append(errs, field.Invalid(p.Child("namespace"), s.Namespace, msg))
	}
	return errs
}

// validateVerbs: at least one, "*" alone, or only verbs the server knows.
func validateVerbs(vs []string, p *field.Path) field.ErrorList {
	switch {
	case len(vs) == 0:
		return field.ErrorList{field.Required(p, "verbs must contain at least one value")}
	case slices.Contains(vs, "*"):
		if len(vs) > 1 {
			return field.ErrorList{field.Invalid(p, vs, "if '*' is present, must not specify other verbs")}
		}
	default:
		for _, v := range vs {
			if !slices.Contains(verbs, v) {
				return field.ErrorList{field.NotSupported(p, vs, verbs)}
			}
		}
	}
	return nil
}

func validateNonResourceRule(r *api.NonResourcePolicyRule, p *field.Path) field.ErrorList {
	errs := validateVerbs(r.Verbs, p.Child("verbs"))
	up := p.Child("nonResourceURLs")
	switch {
	case len(r.NonResourceURLs) == 0:
		errs = append(errs, field.Required(up, "nonResourceURLs must contain at least one value"))
	case slices.Contains(r.NonResourceURLs, "*"):
		if len(r.NonResourceURLs) > 1 {
			errs = append(errs, field.Invalid(up, r.NonResourceURLs, "if '*' is present, must not specify other non-resource URLs"))
		}
	default:
		for i, u := range r.NonResourceURLs {
			if e := validateNonResourceURL(u, up.Index(i)); e != nil {
				errs = append(errs, e)
			}
		}
	}
	return errs
}

// validateNonResourceURL: "/" or a path from the root, without spaces or empty segments,
// with "*" only as its last segment.
func validateNonResourceURL(u string, p *field.Path) *field.Error {
	switch {
	case u == "":
		return field.Invalid(p, u, "must not be empty")
	case u == "/":
		return nil
	case !strings.HasPrefix(u, "/"):
		return field.Invalid(p, u, "must start with slash")
	case strings.Contains(u, " "):
		return field.Invalid(p, u, "must not contain white-space")
	case strings.Contains(u, "//"):
		return field.Invalid(p, u, "must not contain double slash")
	}
	if n := strings.Count(u, "*"); n > 1 || (n == 1 && !strings.HasSuffix(u, "/*")) {
		return field.Invalid(p, u, "wildcard can only do suffix matching")
	}
	return nil
}

const namespaceIntro = "each member of this list must be '*' or a DNS-1123 label; "

func validateResourceRule(r *api.ResourcePolicyRule, p *field.Path) field.ErrorList {
	errs := validateVerbs(r.Verbs, p.Child("verbs"))
	if len(r.APIGroups) == 0 {
		errs = append(errs, field.Required(p.Child("apiGroups"), "resource rules must supply at least one api group"))
	} else if len(r.APIGroups) > 1 && slices.Contains(r.APIGroups, "*") {
		errs = append(errs, field.Invalid(p.Child("apiGroups"), r.APIGroups, "if '*' is present, must not specify other api groups"))
	}
	if len(r.Resources) == 0 {
		errs = append(errs, field.Required(p.Child("resources"), "resource rules must supply at least one resource"))
	} else if len(r.Resources) > 1 && slices.Contains(r.Resources, "*") {
		errs = append(errs, field.Invalid(p.Child("resources"), r.Resources, "if '*' is present, must not specify other resources"))
	}
	np := p.Child("namespaces")
	switch {
	case len(r.Namespaces) == 0 && !r.ClusterScope:
		errs = append(errs, field.Required(np, "resource rules that are not cluster scoped must supply at least one namespace"))
	case slices.Contains(r.Namespaces, "*"):
		if len(r.Namespaces) > 1 {
			errs = append(errs, field.Invalid(np, r.Namespaces, "if '*' is present, must not specify other namespaces"))
		}
	default:
		for i, ns := range r.Namespaces {
			for _, msg := range wellformed.NameIsDNSLabel(ns, false) {
				errs = append(errs, field.Invalid(np.Index(i), ns, namespaceIntro+msg))
			}
		}
	}
	return errs
}

// ValidateFlowSchemaStatus checks the conditions: each with a type, no type twice.
func ValidateFlowSchemaStatus(s *api.FlowSchemaStatus, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[api.FlowSchemaConditionType]bool{}
	for i, c := range s.Conditions {
		cp := p.Child("conditions").Index(i)
		if seen[c.Type] {
			errs = append(errs, field.Duplicate(cp.Child("type"), c.Type))
		}
		seen[c.Type] = true
		if c.Type == "" {
			errs = append(errs, field.Required(cp.Child("type"), ""))
		}
	}
	return errs
}
