package resource

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
)

// Strategy is the validation of a kind of the resource.k8s.io group as its registry
// strategy runs it, or nil when it is not ported.
func Strategy(kind string) *registry.Strategy {
	switch kind {
	case "DeviceClass":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateDeviceClass(obj.(*api.DeviceClass)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateDeviceClassUpdate(obj.(*api.DeviceClass), old.(*api.DeviceClass))
			},
			Declarative: deviceClassDeclarative,
		}
	}
	return nil
}
