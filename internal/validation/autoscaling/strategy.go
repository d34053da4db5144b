package autoscaling

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/autoscaling"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Strategy is the validation of a kind of the autoscaling group as its registry strategy
// runs it, or nil when it is not ported.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	if kind != "HorizontalPodAutoscaler" {
		return nil
	}
	return &registry.Strategy{
		Namespaced: true,
		Validate: func(obj any) field.ErrorList {
			hpa := obj.(*api.HorizontalPodAutoscaler)
			return ValidateHorizontalPodAutoscaler(hpa, hpaOptionsFor(hpa, nil))
		},
		ValidateUpdate: func(obj, old any) field.ErrorList {
			hpa, o := obj.(*api.HorizontalPodAutoscaler), old.(*api.HorizontalPodAutoscaler)
			return ValidateHorizontalPodAutoscalerUpdate(hpa, o, hpaOptionsFor(hpa, o))
		},
		ValidateStatusUpdate: func(obj, old any) field.ErrorList {
			return ValidateHorizontalPodAutoscalerStatusUpdate(obj.(*api.HorizontalPodAutoscaler), old.(*api.HorizontalPodAutoscaler))
		},
		Declarative: func(obj, old any) field.ErrorList {
			var o *api.HorizontalPodAutoscaler
			if old != nil {
				o = old.(*api.HorizontalPodAutoscaler)
			}
			return declarative(obj.(*api.HorizontalPodAutoscaler), o)
		},
	}
}

// declarative is the declarative validation 1.37 enforces on a HorizontalPodAutoscaler
// (old is nil on a create): the beta bounds of minReplicas (0 at least, gate HPAScaleToZero
// being on) and maxReplicas (required, 1 at least), each skipped when an update leaves it
// unchanged.
func declarative(hpa, old *api.HorizontalPodAutoscaler) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	if m := hpa.Spec.MinReplicas; m != nil && (old == nil || old.Spec.MinReplicas == nil || *old.Spec.MinReplicas != *m) && *m < 0 {
		errs = append(errs, field.Invalid(spec.Child("minReplicas"), *m, content.MinError(int32(0))).WithOrigin("minimum").MarkBeta())
	}
	if m := hpa.Spec.MaxReplicas; old == nil || old.Spec.MaxReplicas != m {
		switch {
		case m == 0:
			errs = append(errs, field.Required(spec.Child("maxReplicas"), "").MarkBeta())
		case m < 1:
			errs = append(errs, field.Invalid(spec.Child("maxReplicas"), m, content.MinError(int32(1))).WithOrigin("minimum").MarkBeta())
		}
	}
	return errs
}
