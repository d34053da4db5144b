package core

import (
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"k8s.io/apimachinery/pkg/util/validation/field"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
)

// Strategy is the validation of a kind of the core group as its registry strategy runs it,
// or nil when it is not ported.
func Strategy(kind string) *registry.Strategy {
	switch kind {
	case "ConfigMap":
		return &registry.Strategy{
			Namespaced: true,
			Validate:   func(obj any) field.ErrorList { return ValidateConfigMap(obj.(*api.ConfigMap)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateConfigMapUpdate(obj.(*api.ConfigMap), old.(*api.ConfigMap))
			},
			Declarative: registry.NoDeclarativeRules,
		}
	}
	return nil
}
