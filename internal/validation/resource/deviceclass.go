package resource

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"

	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// deviceClassName: a class is named by a DNS subdomain, the error covered by the beta
// declarative rule on metadata.name.
func deviceClassName(fldPath *field.Path, name string) field.ErrorList {
	return validate.LongName(context.Background(), operation.Operation{}, fldPath, &name, nil).MarkCoveredByDeclarative()
}

// ValidateDeviceClass checks a new DeviceClass: metadata, selectors, configuration and the
// extended resource name.
func ValidateDeviceClass(cfg *serverconfig.Config, c *api.DeviceClass) field.ErrorList {
	errs := core.ValidateObjectMetaWithOpts(&c.ObjectMeta, false, deviceClassName, field.NewPath("metadata"))
	return append(errs, validateDeviceClassSpec(cfg, &c.Spec, nil, field.NewPath("spec"))...)
}

// ValidateDeviceClassUpdate checks an update: the same rules but for the selectors and the
// configuration the update leaves exactly as they were, which are not checked again.
func ValidateDeviceClassUpdate(cfg *serverconfig.Config, c, old *api.DeviceClass) field.ErrorList {
	if !cfg.AtLeast(35) {
		// 1.34's strategy validated the new class as a create first — every selector
		// compiled, stored or not — then as an update (pkg/registry/resource/deviceclass/
		// strategy.go ValidateUpdate in 1.34).
		errs := ValidateDeviceClass(cfg, c)
		errs = append(errs, core.ValidateObjectMetaUpdate(&c.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
		return append(errs, validateDeviceClassSpec(cfg, &c.Spec, &old.Spec, field.NewPath("spec"))...)
	}
	errs := core.ValidateObjectMetaWithOpts(&c.ObjectMeta, false, deviceClassName, field.NewPath("metadata"))
	errs = append(errs, core.ValidateObjectMetaUpdate(&c.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	return append(errs, validateDeviceClassSpec(cfg, &c.Spec, &old.Spec, field.NewPath("spec"))...)
}

func validateDeviceClassSpec(cfg *serverconfig.Config, spec, old *api.DeviceClassSpec, fldPath *field.Path) field.ErrorList {
	// Selectors (and configurations) identical to the stored ones, in the same order, count
	// as stored: their expressions are not compiled again.
	stored := old != nil && equality.Semantic.DeepEqual(spec.Selectors, old.Selectors)
	errs := list(spec.Selectors, api.DeviceSelectorsMaxSize, func(s api.DeviceSelector, p *field.Path) field.ErrorList {
		return validateSelector(cfg, s, p, stored)
	}, fldPath.Child("selectors"), coveredSize)
	stored = old != nil && equality.Semantic.DeepEqual(spec.Config, old.Config)
	errs = append(errs, list(spec.Config, api.DeviceConfigMaxSize, func(c api.DeviceClassConfiguration, p *field.Path) field.ErrorList {
		return validateDeviceConfiguration(cfg, c.DeviceConfiguration, p, stored)
	}, fldPath.Child("config"), coveredSize)...)
	if n := spec.ExtendedResourceName; n != nil && !isExtendedResourceName(*n) {
		errs = append(errs, field.Invalid(fldPath.Child("extendedResourceName"), *n, "must be a valid extended resource name").
			MarkCoveredByDeclarative().WithOrigin("format=k8s-extended-resource-name"))
	}
	return errs
}

// validateSelector: a selector has a CEL expression, compiled unless stored.
func validateSelector(cfg *serverconfig.Config, s api.DeviceSelector, fldPath *field.Path, stored bool) field.ErrorList {
	if s.CEL == nil {
		return field.ErrorList{field.Required(fldPath.Child("cel"), "")}
	}
	if stored {
		return nil
	}
	return validateSelectorExpression(cfg, s.CEL.Expression, fldPath.Child("cel", "expression"))
}

// validateDeviceConfiguration: a configuration is opaque, for a driver, with parameters.
func validateDeviceConfiguration(cfg *serverconfig.Config, c api.DeviceConfiguration, fldPath *field.Path, stored bool) field.ErrorList {
	if c.Opaque == nil {
		return field.ErrorList{field.Required(fldPath.Child("opaque"), "")}
	}
	fldPath = fldPath.Child("opaque")
	errs := validateDriverName(cfg, c.Opaque.Driver, fldPath.Child("driver"), coveredDriver)
	return append(errs, validateRawExtension(cfg, c.Opaque.Parameters, fldPath.Child("parameters"), stored, api.OpaqueParametersMaxLength)...)
}

// validateRawExtension: opaque data is a JSON object, of at most max bytes unless stored.
func validateRawExtension(cfg *serverconfig.Config, raw runtime.RawExtension, fldPath *field.Path, stored bool, max int) field.ErrorList {
	var v any
	switch {
	case len(raw.Raw) == 0:
		return field.ErrorList{field.Required(fldPath, "")}
	case !stored && len(raw.Raw) > max:
		return field.ErrorList{field.TooLong(fldPath, "", max)}
	}
	if err := json.Unmarshal(raw.Raw, &v); err != nil {
		return field.ErrorList{field.Invalid(fldPath, "<value omitted>", fmt.Sprintf("error parsing data as JSON: %v", err.Error()))}
	}
	if v == nil {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	if _, ok := v.(map[string]any); !ok {
		return field.ErrorList{field.Invalid(fldPath, "<value omitted>", "must be a valid JSON object")}
	}
	return nil
}

// isExtendedResourceName: a domain-prefixed name outside kubernetes.io, not a quota name, and
// a qualified name once the quota prefix is put in front.
func isExtendedResourceName(name string) bool {
	if !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/") || strings.HasPrefix(name, "requests.") {
		return false
	}
	return len(wellformed.IsQualifiedName("requests."+name)) == 0
}
