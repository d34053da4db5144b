package flowcontrol

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/flowcontrol"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Strategy is the validation of a kind of the flowcontrol.apiserver.k8s.io group as its
// registry strategy runs it, or nil when it is not ported. Both kinds are validated alike
// on create and update; /status checks the conditions only.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	switch kind {
	case "FlowSchema":
		v := func(obj any) field.ErrorList { return ValidateFlowSchema(obj.(*api.FlowSchema)) }
		return &registry.Strategy{
			Validate:       v,
			ValidateUpdate: func(obj, old any) field.ErrorList { return v(obj) },
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateFlowSchemaStatus(&obj.(*api.FlowSchema).Status, field.NewPath("status"))
			},
			// Its declarative rules (metadata) are alpha.
			Declarative: registry.NoDeclarativeRules,
		}
	case "PriorityLevelConfiguration":
		v := func(obj any) field.ErrorList {
			return ValidatePriorityLevelConfiguration(obj.(*api.PriorityLevelConfiguration))
		}
		return &registry.Strategy{
			Validate:       v,
			ValidateUpdate: func(obj, old any) field.ErrorList { return v(obj) },
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidatePriorityLevelConfigurationStatus(&obj.(*api.PriorityLevelConfiguration).Status, field.NewPath("status"))
			},
			Declarative: priorityLevelDeclarative,
		}
	}
	return nil
}
