package rbac

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/rbac"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Strategy is the validation of a kind of the rbac.authorization.k8s.io group as its
// registry strategy runs it, or nil when it is not ported.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	switch kind {
	case "Role":
		return &registry.Strategy{
			Namespaced:     true,
			Validate:       func(obj any) field.ErrorList { return ValidateRole(obj.(*api.Role)) },
			ValidateUpdate: func(obj, old any) field.ErrorList { return ValidateRoleUpdate(cfg, obj.(*api.Role), old.(*api.Role)) },
			Declarative:    roleDeclarative,
		}
	case "ClusterRole":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateClusterRole(obj.(*api.ClusterRole), false) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateClusterRoleUpdate(cfg, obj.(*api.ClusterRole), old.(*api.ClusterRole))
			},
			Declarative: clusterRoleDeclarative,
		}
	case "RoleBinding":
		return &registry.Strategy{
			Namespaced: true,
			Validate:   func(obj any) field.ErrorList { return ValidateRoleBinding(obj.(*api.RoleBinding)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateRoleBindingUpdate(cfg, obj.(*api.RoleBinding), old.(*api.RoleBinding))
			},
			Declarative: roleBindingDeclarative(cfg),
		}
	case "ClusterRoleBinding":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateClusterRoleBinding(obj.(*api.ClusterRoleBinding)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateClusterRoleBindingUpdate(cfg, obj.(*api.ClusterRoleBinding), old.(*api.ClusterRoleBinding))
			},
			Declarative: clusterRoleBindingDeclarative(cfg),
		}
	}
	return nil
}
