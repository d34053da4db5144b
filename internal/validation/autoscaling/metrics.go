package autoscaling

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/autoscaling"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateMetricSpec: a known source type, whose source (and only it) is filled and valid.
func validateMetricSpec(m *api.MetricSpec, fldPath *field.Path, opts refOptions) field.ErrorList {
	var errs field.ErrorList
	if m.Type == "" {
		errs = append(errs, field.Required(fldPath.Child("type"), "must specify a metric source type"))
	}
	if !has(metricSources, string(m.Type)) {
		errs = append(errs, field.NotSupported(fldPath.Child("type"), m.Type, metricSources))
	}
	// The sources filled, in the order the server looks at them; only the first is
	// checked.
	var present []string
	add := func(name string, check func() field.ErrorList) {
		present = append(present, name)
		if len(present) == 1 {
			errs = append(errs, check()...)
		}
	}
	if m.Object != nil {
		add("object", func() field.ErrorList { return validateObjectSource(m.Object, fldPath.Child("object"), opts) })
	}
	if m.External != nil {
		add("external", func() field.ErrorList { return validateExternalSource(m.External, fldPath.Child("external")) })
	}
	if m.Pods != nil {
		add("pods", func() field.ErrorList { return validatePodsSource(m.Pods, fldPath.Child("pods")) })
	}
	if m.Resource != nil {
		add("resource", func() field.ErrorList { return validateResourceSource(m.Resource, fldPath.Child("resource")) })
	}
	if m.ContainerResource != nil {
		add("containerResource", func() field.ErrorList {
			return validateContainerResourceSource(m.ContainerResource, fldPath.Child("containerResource"))
		})
	}
	var expected string
	missing := func(name string, set bool) {
		if !set {
			errs = append(errs, field.Required(fldPath.Child(name), "must populate information for the given metric source"))
		}
		expected = name
	}
	switch m.Type {
	case api.ObjectMetricSourceType:
		missing("object", m.Object != nil)
	case api.PodsMetricSourceType:
		missing("pods", m.Pods != nil)
	case api.ResourceMetricSourceType:
		missing("resource", m.Resource != nil)
	case api.ExternalMetricSourceType:
		missing("external", m.External != nil)
	case api.ContainerResourceMetricSourceType:
		missing("containerResource", m.ContainerResource != nil)
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("type"), m.Type, metricSources))
	}
	if len(present) != 1 {
		// The server ranges over a set here: these come in any order.
		for _, name := range present {
			if name != expected {
				errs = append(errs, field.Forbidden(fldPath.Child(name), "must populate the given metric source only"))
			}
		}
	}
	return errs
}

func validateObjectSource(src *api.ObjectMetricSource, fldPath *field.Path, opts refOptions) field.ErrorList {
	errs := validateReference(&src.DescribedObject, fldPath.Child("describedObject"), opts)
	errs = append(errs, validateMetricIdentifier(&src.Metric, fldPath.Child("metric"))...)
	errs = append(errs, validateMetricTarget(&src.Target, fldPath.Child("target"))...)
	if src.Target.Value == nil && src.Target.AverageValue == nil {
		errs = append(errs, field.Required(fldPath.Child("target", "averageValue"), "must set either a target value or averageValue"))
	}
	return errs
}

func validateExternalSource(src *api.ExternalMetricSource, fldPath *field.Path) field.ErrorList {
	errs := validateMetricIdentifier(&src.Metric, fldPath.Child("metric"))
	errs = append(errs, validateMetricTarget(&src.Target, fldPath.Child("target"))...)
	if src.Target.Value == nil && src.Target.AverageValue == nil {
		errs = append(errs, field.Required(fldPath.Child("target", "averageValue"), "must set either a target value for metric or a per-pod target"))
	}
	if src.Target.Value != nil && src.Target.AverageValue != nil {
		errs = append(errs, field.Forbidden(fldPath.Child("target", "value"), "may not set both a target value for metric and a per-pod target"))
	}
	return errs
}

func validatePodsSource(src *api.PodsMetricSource, fldPath *field.Path) field.ErrorList {
	errs := validateMetricIdentifier(&src.Metric, fldPath.Child("metric"))
	errs = append(errs, validateMetricTarget(&src.Target, fldPath.Child("target"))...)
	if src.Target.AverageValue == nil {
		errs = append(errs, field.Required(fldPath.Child("target", "averageValue"), "must specify a positive target averageValue"))
	}
	return errs
}

func validateContainerResourceSource(src *api.ContainerResourceMetricSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if src.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), "must specify a resource name"))
	} else {
		errs = append(errs, core.ValidateContainerResourceName(src.Name, fldPath.Child("name"))...)
	}
	if src.Container == "" {
		errs = append(errs, field.Required(fldPath.Child("container"), "must specify a container"))
	} else {
		errs = append(errs, core.ValidateDNS1123Label(src.Container, fldPath.Child("container"))...)
	}
	errs = append(errs, validateMetricTarget(&src.Target, fldPath.Child("target"))...)
	return append(errs, utilizationOrValue(&src.Target, fldPath.Child("target"))...)
}

func validateResourceSource(src *api.ResourceMetricSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if src.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), "must specify a resource name"))
	}
	errs = append(errs, validateMetricTarget(&src.Target, fldPath.Child("target"))...)
	return append(errs, utilizationOrValue(&src.Target, fldPath.Child("target"))...)
}

// utilizationOrValue: a resource target is a utilization or an average value, one of them.
func utilizationOrValue(t *api.MetricTarget, fldPath *field.Path) field.ErrorList {
	switch {
	case t.AverageUtilization == nil && t.AverageValue == nil:
		return field.ErrorList{field.Required(fldPath.Child("averageUtilization"), "must set either a target raw value or a target utilization")}
	case t.AverageUtilization != nil && t.AverageValue != nil:
		return field.ErrorList{field.Forbidden(fldPath.Child("averageValue"), "may not set both a target raw value and a target utilization")}
	}
	return nil
}

// validateMetricTarget: a target type, and whichever values are set positive.
func validateMetricTarget(t *api.MetricTarget, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.Type == "" {
		errs = append(errs, field.Required(fldPath.Child("type"), "must specify a metric target type"))
	}
	if t.Type != api.UtilizationMetricType && t.Type != api.ValueMetricType && t.Type != api.AverageValueMetricType {
		errs = append(errs, field.Invalid(fldPath.Child("type"), t.Type, "must be either Utilization, Value, or AverageValue"))
	}
	if t.Value != nil && t.Value.Sign() != 1 {
		errs = append(errs, field.Invalid(fldPath.Child("value"), t.Value, "must be positive"))
	}
	if t.AverageValue != nil && t.AverageValue.Sign() != 1 {
		errs = append(errs, field.Invalid(fldPath.Child("averageValue"), t.AverageValue, "must be positive"))
	}
	if t.AverageUtilization != nil && *t.AverageUtilization < 1 {
		errs = append(errs, field.Invalid(fldPath.Child("averageUtilization"), t.AverageUtilization, "must be greater than 0"))
	}
	return errs
}

func validateMetricIdentifier(id *api.MetricIdentifier, fldPath *field.Path) field.ErrorList {
	if id.Name == "" {
		return field.ErrorList{field.Required(fldPath.Child("name"), "must specify a metric name")}
	}
	var errs field.ErrorList
	for _, msg := range content.IsPathSegmentName(id.Name) {
		errs = append(errs, field.Invalid(fldPath.Child("name"), id.Name, msg))
	}
	return errs
}
