package resource

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateDeviceTaintRule checks a new DeviceTaintRule: metadata, the devices it selects
// and its taint.
func ValidateDeviceTaintRule(cfg *serverconfig.Config, r *api.DeviceTaintRule) field.ErrorList {
	errs := core.ValidateObjectMeta(&r.ObjectMeta, false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateTaintRuleSpec(cfg, &r.Spec, nil, field.NewPath("spec"))...)
}

// ValidateDeviceTaintRuleUpdate checks an update: the spec again (an unchanged taint
// effect is not checked again).
func ValidateDeviceTaintRuleUpdate(cfg *serverconfig.Config, r, old *api.DeviceTaintRule) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&r.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, validateTaintRuleSpec(cfg, &r.Spec, &old.Spec, field.NewPath("spec"))...)
}

// ValidateDeviceTaintRuleStatusUpdate checks a write of the status: its conditions.
func ValidateDeviceTaintRuleStatusUpdate(cfg *serverconfig.Config, r, old *api.DeviceTaintRule) field.ErrorList {
	p := field.NewPath("status", "conditions")
	errs := core.ValidateObjectMetaUpdate(&r.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, metav1validation.ValidateConditions(r.Status.Conditions, p)...)
	if n := len(r.Status.Conditions); n > api.DeviceTaintRuleStatusMaxConditions {
		errs = append(errs, field.TooMany(p, n, api.DeviceTaintRuleStatusMaxConditions))
	}
	return errs
}

func validateTaintRuleSpec(cfg *serverconfig.Config, spec, old *api.DeviceTaintRuleSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s := spec.DeviceSelector; s != nil {
		p := fldPath.Child("deviceSelector")
		if s.Driver != nil {
			errs = append(errs, validateDriverName(cfg, *s.Driver, p.Child("driver"), driverCover{})...)
		}
		if s.Pool != nil {
			errs = append(errs, validatePoolName(cfg, *s.Pool, p.Child("pool"))...)
		}
		if s.Device != nil {
			errs = append(errs, validateDeviceName(*s.Device, p.Child("device"))...)
		}
	}
	var oldTaint *api.DeviceTaint
	if old != nil {
		oldTaint = &old.Taint
	}
	return append(errs, validateDeviceTaint(cfg, spec.Taint, oldTaint, fldPath.Child("taint"))...)
}

// deviceTaintRuleDeclarative: the beta rule of a rule's taint, a required known effect.
func deviceTaintRuleDeclarative(obj, oldObj any) field.ErrorList {
	r := obj.(*api.DeviceTaintRule)
	op := dvOp(oldObj != nil)
	e := r.Spec.Taint.Effect
	if oldObj != nil {
		o := oldObj.(*api.DeviceTaintRule)
		if semanticallyEqual(r.Spec, o.Spec) || semanticallyEqual(r.Spec.Taint, o.Spec.Taint) || o.Spec.Taint.Effect == e {
			return nil
		}
	}
	p := field.NewPath("spec", "taint", "effect")
	if e == "" {
		return field.ErrorList{field.Required(p, "").MarkBeta()}
	}
	return validateEnum(p, e, op)
}
