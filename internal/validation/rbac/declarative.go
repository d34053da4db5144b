package rbac

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/rbac"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The declarative validation 1.37 enforces for the group (beta): a rule has verbs, a
// subject has a name, a roleRef has a name. An update that leaves a list unchanged skips
// it; a changed list is checked whole (items are not paired with the stored ones). An
// update that changes the roleRef only gets the alpha immutability error, which 1.37 does
// not enforce, and its name is not checked then. From Kubernetes 1.38 that immutability is
// beta (pkg/apis/rbac/v1 zz_generated.validations.go of 1.38.0-beta.0): enforced, it stands
// for the handwritten error, told as "roleRef: Invalid value: null: field is immutable"
// (recorded from 1.38.0-beta.0: the validation scenarios groups/RoleBinding/V2 roleRef is
// immutable, groups/ClusterRoleBinding/V2 roleRef is immutable).

func rulesDeclarative(rules, old []api.PolicyRule, updating bool) field.ErrorList {
	if updating && equality.Semantic.DeepEqual(rules, old) {
		return nil
	}
	var errs field.ErrorList
	for i, rule := range rules {
		if len(rule.Verbs) == 0 {
			errs = append(errs, field.Required(field.NewPath("rules").Index(i).Child("verbs"), "").MarkBeta())
		}
	}
	return errs
}

func bindingDeclarative(cfg *serverconfig.Config, subjects, oldSubjects []api.Subject, ref, oldRef api.RoleRef, updating bool) field.ErrorList {
	var errs field.ErrorList
	if !updating || !equality.Semantic.DeepEqual(subjects, oldSubjects) {
		for i, s := range subjects {
			if s.Name == "" {
				errs = append(errs, field.Required(field.NewPath("subjects").Index(i).Child("name"), "").MarkBeta())
			}
		}
	}
	if updating {
		if ref == oldRef {
			return errs
		}
		immutable := field.Invalid(field.NewPath("roleRef"), nil, "field is immutable").WithOrigin("immutable")
		// 1.38 promotes the declarative roleRef rule to beta (recorded from 1.38.0-beta.0).
		if cfg.AtLeast(38) {
			return append(errs, immutable.MarkBeta())
		}
		return append(errs, immutable.MarkAlpha())
	}
	if ref.Name == "" {
		errs = append(errs, field.Required(field.NewPath("roleRef", "name"), "").MarkBeta())
	}
	return errs
}

func roleDeclarative(obj, old any) field.ErrorList {
	role := obj.(*api.Role)
	if old == nil {
		return rulesDeclarative(role.Rules, nil, false)
	}
	return rulesDeclarative(role.Rules, old.(*api.Role).Rules, true)
}

func clusterRoleDeclarative(obj, old any) field.ErrorList {
	role := obj.(*api.ClusterRole)
	if old == nil {
		return rulesDeclarative(role.Rules, nil, false)
	}
	return rulesDeclarative(role.Rules, old.(*api.ClusterRole).Rules, true)
}

func roleBindingDeclarative(cfg *serverconfig.Config) func(obj, old any) field.ErrorList {
	return func(obj, old any) field.ErrorList {
		rb := obj.(*api.RoleBinding)
		if old == nil {
			return bindingDeclarative(cfg, rb.Subjects, nil, rb.RoleRef, api.RoleRef{}, false)
		}
		o := old.(*api.RoleBinding)
		return bindingDeclarative(cfg, rb.Subjects, o.Subjects, rb.RoleRef, o.RoleRef, true)
	}
}

func clusterRoleBindingDeclarative(cfg *serverconfig.Config) func(obj, old any) field.ErrorList {
	return func(obj, old any) field.ErrorList {
		crb := obj.(*api.ClusterRoleBinding)
		if old == nil {
			return bindingDeclarative(cfg, crb.Subjects, nil, crb.RoleRef, api.RoleRef{}, false)
		}
		o := old.(*api.ClusterRoleBinding)
		return bindingDeclarative(cfg, crb.Subjects, o.Subjects, crb.RoleRef, o.RoleRef, true)
	}
}
