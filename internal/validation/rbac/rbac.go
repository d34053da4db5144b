package rbac

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/rbac"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/validate/content"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// nameProblems: the names of roles and bindings, and the role a binding refers to, only
// have to be usable as a URL path segment.
func nameProblems(name string, _ bool) []string {
	return content.IsPathSegmentName(name)
}

// ValidateRole checks a Role: its metadata and rules (no non-resource URLs in a namespace).
func ValidateRole(role *api.Role) field.ErrorList {
	errs := core.ValidateObjectMeta(&role.ObjectMeta, true, nameProblems, field.NewPath("metadata"))
	for i, rule := range role.Rules {
		errs = append(errs, ValidatePolicyRule(rule, true, field.NewPath("rules").Index(i))...)
	}
	return errs
}

// ValidateRoleUpdate checks an update of a Role on the server cfg describes.
func ValidateRoleUpdate(cfg *serverconfig.Config, role, old *api.Role) field.ErrorList {
	errs := createdFirst(cfg, func() field.ErrorList { return ValidateRole(role) })
	errs = append(errs, ValidateRole(role)...)
	return append(errs, core.ValidateObjectMetaUpdate(&role.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
}

// ValidateClusterRole checks a ClusterRole: its metadata, rules and aggregation selectors;
// allowInvalidLabelValue keeps selector values the stored object already had.
func ValidateClusterRole(role *api.ClusterRole, allowInvalidLabelValue bool) field.ErrorList {
	errs := core.ValidateObjectMeta(&role.ObjectMeta, false, nameProblems, field.NewPath("metadata"))
	for i, rule := range role.Rules {
		errs = append(errs, ValidatePolicyRule(rule, false, field.NewPath("rules").Index(i))...)
	}
	if agg := role.AggregationRule; agg != nil {
		fldPath := field.NewPath("aggregationRule", "clusterRoleSelectors")
		if len(agg.ClusterRoleSelectors) == 0 {
			errs = append(errs, field.Required(fldPath, "at least one clusterRoleSelector required if aggregationRule is non-nil"))
		}
		opts := metav1validation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: allowInvalidLabelValue}
		for i := range agg.ClusterRoleSelectors {
			sel := &agg.ClusterRoleSelectors[i]
			errs = append(errs, wellformed.ValidateLabelSelector(sel, opts, fldPath.Index(i))...)
			if _, err := metav1.LabelSelectorAsSelector(sel); err != nil {
				// The server prints the selector it failed to build: none.
				errs = append(errs, field.Invalid(fldPath.Index(i), nil, "invalid label selector."))
			}
		}
	}
	return errs
}

// ValidateClusterRoleUpdate checks an update of a ClusterRole on the server cfg describes:
// an invalid label value in the stored aggregation selectors stays accepted.
func ValidateClusterRoleUpdate(cfg *serverconfig.Config, role, old *api.ClusterRole) field.ErrorList {
	allowInvalid := hasInvalidLabelValueInSelectors(old)
	errs := createdFirst(cfg, func() field.ErrorList { return ValidateClusterRole(role, allowInvalid) })
	errs = append(errs, ValidateClusterRole(role, allowInvalid)...)
	return append(errs, core.ValidateObjectMetaUpdate(&role.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
}

func hasInvalidLabelValueInSelectors(role *api.ClusterRole) bool {
	if role.AggregationRule == nil {
		return false
	}
	for i := range role.AggregationRule.ClusterRoleSelectors {
		if len(wellformed.ValidateLabelSelector(&role.AggregationRule.ClusterRoleSelectors[i], metav1validation.LabelSelectorValidationOptions{}, nil)) > 0 {
			return true
		}
	}
	return false
}

// ValidatePolicyRule checks a rule: verbs, and either non-resource URLs (cluster-wide
// rules only, alone) or API groups and resources.
func ValidatePolicyRule(rule api.PolicyRule, namespaced bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(rule.Verbs) == 0 {
		errs = append(errs, field.Required(fldPath.Child("verbs"), "verbs must contain at least one value").MarkCoveredByDeclarative())
	}
	if len(rule.NonResourceURLs) > 0 {
		if namespaced {
			errs = append(errs, field.Invalid(fldPath.Child("nonResourceURLs"), rule.NonResourceURLs, "namespaced rules cannot apply to non-resource URLs"))
		}
		if len(rule.APIGroups) > 0 || len(rule.Resources) > 0 || len(rule.ResourceNames) > 0 {
			errs = append(errs, field.Invalid(fldPath.Child("nonResourceURLs"), rule.NonResourceURLs, "rules cannot apply to both regular resources and non-resource URLs"))
		}
		return errs
	}
	if len(rule.APIGroups) == 0 {
		errs = append(errs, field.Required(fldPath.Child("apiGroups"), "resource rules must supply at least one api group"))
	}
	if len(rule.Resources) == 0 {
		errs = append(errs, field.Required(fldPath.Child("resources"), "resource rules must supply at least one resource"))
	}
	return errs
}

// ValidateRoleBinding checks a RoleBinding: it refers to a Role or a ClusterRole of the
// RBAC group, and its subjects.
func ValidateRoleBinding(rb *api.RoleBinding) field.ErrorList {
	errs := core.ValidateObjectMeta(&rb.ObjectMeta, true, nameProblems, field.NewPath("metadata"))
	errs = append(errs, validateRoleRef(rb.RoleRef, []string{"Role", "ClusterRole"})...)
	for i, s := range rb.Subjects {
		errs = append(errs, ValidateSubject(s, true, field.NewPath("subjects").Index(i))...)
	}
	return errs
}

// ValidateRoleBindingUpdate checks an update of a RoleBinding on the server cfg describes:
// its roleRef cannot change (rules.md valid.update).
func ValidateRoleBindingUpdate(cfg *serverconfig.Config, rb, old *api.RoleBinding) field.ErrorList {
	errs := createdFirst(cfg, func() field.ErrorList { return ValidateRoleBinding(rb) })
	errs = append(errs, ValidateRoleBinding(rb)...)
	errs = append(errs, core.ValidateObjectMetaUpdate(&rb.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	return append(errs, roleRefImmutable(cfg, rb.RoleRef, old.RoleRef)...)
}

// ValidateClusterRoleBinding checks a ClusterRoleBinding: it refers to a ClusterRole, and
// its ServiceAccount subjects name their namespace.
func ValidateClusterRoleBinding(crb *api.ClusterRoleBinding) field.ErrorList {
	errs := core.ValidateObjectMeta(&crb.ObjectMeta, false, nameProblems, field.NewPath("metadata"))
	errs = append(errs, validateRoleRef(crb.RoleRef, []string{"ClusterRole"})...)
	for i, s := range crb.Subjects {
		errs = append(errs, ValidateSubject(s, false, field.NewPath("subjects").Index(i))...)
	}
	return errs
}

// ValidateClusterRoleBindingUpdate checks an update of a ClusterRoleBinding on the server
// cfg describes: its roleRef cannot change (rules.md valid.update).
func ValidateClusterRoleBindingUpdate(cfg *serverconfig.Config, crb, old *api.ClusterRoleBinding) field.ErrorList {
	errs := createdFirst(cfg, func() field.ErrorList { return ValidateClusterRoleBinding(crb) })
	errs = append(errs, ValidateClusterRoleBinding(crb)...)
	errs = append(errs, core.ValidateObjectMetaUpdate(&crb.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	return append(errs, roleRefImmutable(cfg, crb.RoleRef, old.RoleRef)...)
}

// createdFirst is what the strategies of the group prepend to an update's validation:
// Kubernetes 1.35 changed them to the update validation alone. 1.34 validated the new
// object as a create first, though the update validation starts with that too
// (pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/strategy.go
// ValidateUpdate in 1.34): every error is listed twice.
func createdFirst(cfg *serverconfig.Config, create func() field.ErrorList) field.ErrorList {
	if cfg.AtLeast(35) {
		return nil
	}
	return create()
}

// roleRefImmutable is the error of a changed roleRef, printed as the internal RoleRef.
func roleRefImmutable(cfg *serverconfig.Config, ref, old api.RoleRef) field.ErrorList {
	if !cfg.AtLeast(37) {
		// Kubernetes 1.37 changed the message to the immutable fields' one
		// (pkg/apis/rbac/validation/validation.go ValidateRoleBindingUpdate,
		// ValidateClusterRoleBindingUpdate in 1.34, 1.35, 1.36).
		if ref != old {
			return field.ErrorList{field.Invalid(field.NewPath("roleRef"), ref, "cannot change roleRef")}
		}
		return nil
	}
	return apimachineryvalidation.ValidateImmutableField(ref, old, field.NewPath("roleRef")).WithOrigin("immutable").MarkCoveredByDeclarative()
}

func validateRoleRef(ref api.RoleRef, kinds []string) field.ErrorList {
	var errs field.ErrorList
	fldPath := field.NewPath("roleRef")
	if ref.APIGroup != api.GroupName {
		errs = append(errs, field.NotSupported(fldPath.Child("apiGroup"), ref.APIGroup, []string{api.GroupName}))
	}
	known := false
	for _, k := range kinds {
		known = known || ref.Kind == k
	}
	if !known {
		errs = append(errs, field.NotSupported(fldPath.Child("kind"), ref.Kind, kinds))
	}
	if ref.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), "").MarkCoveredByDeclarative())
	} else {
		for _, msg := range nameProblems(ref.Name, false) {
			errs = append(errs, field.Invalid(fldPath.Child("name"), ref.Name, msg))
		}
	}
	return errs
}

// ValidateSubject checks a subject: a ServiceAccount (in the core group, with a namespace
// in a cluster-wide binding), a User or a Group (of the RBAC group).
func ValidateSubject(s api.Subject, namespaced bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), "").MarkCoveredByDeclarative())
	}
	switch s.Kind {
	case api.ServiceAccountKind:
		if s.Name != "" {
			for _, msg := range wellformed.NameIsDNSSubdomain(s.Name, false) {
				errs = append(errs, field.Invalid(fldPath.Child("name"), s.Name, msg))
			}
		}
		if s.APIGroup != "" {
			errs = append(errs, field.NotSupported(fldPath.Child("apiGroup"), s.APIGroup, []string{""}))
		}
		if !namespaced && s.Namespace == "" {
			errs = append(errs, field.Required(fldPath.Child("namespace"), ""))
		}
	case api.UserKind, api.GroupKind:
		if s.APIGroup != api.GroupName {
			errs = append(errs, field.NotSupported(fldPath.Child("apiGroup"), s.APIGroup, []string{api.GroupName}))
		}
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("kind"), s.Kind, []string{api.ServiceAccountKind, api.UserKind, api.GroupKind}))
	}
	return errs
}
