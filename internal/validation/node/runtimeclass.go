package node

import (
	"context"
	"fmt"

	apicore "github.com/ssa-diff/ssa-diff/internal/api/core"
	api "github.com/ssa-diff/ssa-diff/internal/api/node"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateRuntimeClass checks a RuntimeClass on the server cfg describes: its handler,
// overhead and scheduling.
func ValidateRuntimeClass(cfg *serverconfig.Config, rc *api.RuntimeClass) field.ErrorList {
	errs := apimachineryvalidation.ValidateObjectMetaAccessor(wellformed.Meta(&rc.ObjectMeta), false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	handler := field.NewPath("handler")
	// Kubernetes 1.36 made an empty handler Required; before, it failed the DNS label check
	// (pkg/apis/node/validation/validation.go ValidateRuntimeClass in 1.34, 1.35). 1.38 left
	// the handler to declarative validation alone (ValidateRuntimeClass of 1.38.0-beta.0
	// checks none): an update changing it to an invalid one is told immutable, not also
	// malformed (recorded: the validation scenario groups/RuntimeClass/V2 handler changed to
	// an invalid one).
	switch {
	case cfg.AtLeast(38):
	case rc.Handler == "" && cfg.AtLeast(36):
		errs = append(errs, field.Required(handler, "").MarkCoveredByDeclarative())
	default:
		for _, msg := range wellformed.NameIsDNSLabel(rc.Handler, false) {
			errs = append(errs, field.Invalid(handler, rc.Handler, msg).MarkCoveredByDeclarative().WithOrigin("format=k8s-short-name"))
		}
	}
	if rc.Overhead != nil {
		req := &apicore.ResourceRequirements{Limits: rc.Overhead.PodFixed}
		errs = append(errs, core.ValidateContainerResourceRequirements(req, nil, field.NewPath("overhead"), core.PodValidationOptions{Server: cfg})...)
	}
	if s := rc.Scheduling; s != nil {
		p := field.NewPath("scheduling")
		if s.NodeSelector != nil {
			errs = append(errs, wellformed.ValidateLabels(s.NodeSelector, p.Child("nodeSelector"))...)
		}
		errs = append(errs, validateTolerations(cfg, s.Tolerations, p.Child("tolerations"))...)
	}
	return errs
}

// validateTolerations: the pod spec's rules for tolerations, and no two alike in key,
// operator, value and effect.
func validateTolerations(cfg *serverconfig.Config, tolerations []apicore.Toleration, fldPath *field.Path) field.ErrorList {
	each := fldPath
	if !cfg.AtLeast(35) {
		// Kubernetes 1.35 fixed the path of a toleration's errors: 1.34 named the list
		// twice, scheduling.tolerations.tolerations[i] (pkg/apis/node/validation/
		// validation.go validateTolerations in 1.34).
		each = fldPath.Child("tolerations")
	}
	errs := core.ValidateTolerations(tolerations, each, core.PodValidationOptions{Server: cfg}, true)
	seen := map[apicore.Toleration]bool{}
	for i, t := range tolerations {
		key := apicore.Toleration{Key: t.Key, Operator: t.Operator, Value: t.Value, Effect: t.Effect}
		if seen[key] {
			errs = append(errs, field.Duplicate(fldPath.Index(i), t))
		}
		seen[key] = true
	}
	return errs
}

// ValidateRuntimeClassUpdate checks an update of a RuntimeClass on the server cfg describes:
// the new object is valid and its handler does not change (rules.md valid.update).
func ValidateRuntimeClassUpdate(cfg *serverconfig.Config, rc, old *api.RuntimeClass) field.ErrorList {
	errs := ValidateRuntimeClass(cfg, rc)
	errs = append(errs, apimachineryvalidation.ValidateObjectMetaAccessorUpdate(wellformed.Meta(&rc.ObjectMeta), &old.ObjectMeta, field.NewPath("metadata"))...)
	immutable := apimachineryvalidation.ValidateImmutableField(rc.Handler, old.Handler, field.NewPath("handler"))
	return append(errs, immutable.MarkCoveredByDeclarative().WithOrigin("immutable")...)
}

// runtimeClassDeclarative: the beta rules on the handler, skipped when an update keeps it:
// immutable, required, a DNS label.
func runtimeClassDeclarative(obj, old any) field.ErrorList {
	rc := obj.(*api.RuntimeClass)
	fldPath := field.NewPath("handler")
	var errs field.ErrorList
	if old != nil {
		if rc.Handler == old.(*api.RuntimeClass).Handler {
			return nil
		}
		errs = append(errs, field.Invalid(fldPath, nil, "field is immutable").WithOrigin("immutable").MarkBeta())
	}
	if rc.Handler == "" {
		errs = append(errs, field.Required(fldPath, "").MarkBeta())
	}
	if len(errs) > 0 {
		return errs
	}
	return validate.ShortName(context.Background(), operation.Operation{Type: operation.Create}, fldPath, &rc.Handler, nil).MarkBeta()
}

// runtimeClassWarnings: deprecated node labels in the scheduling node selector.
func runtimeClassWarnings(obj any) []string {
	rc := obj.(*api.RuntimeClass)
	if rc.Scheduling == nil {
		return nil
	}
	var warnings []string
	for k := range rc.Scheduling.NodeSelector {
		if msg, ok := core.NodeLabelDeprecatedMessage(k); ok {
			warnings = append(warnings, fmt.Sprintf("%s: %s", field.NewPath("scheduling", "nodeSelector"), msg))
		}
	}
	return warnings
}

// Strategy is the validation of a kind of the node.k8s.io group as its registry strategy
// runs it, or nil when it is not ported.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	if kind != "RuntimeClass" {
		return nil
	}
	return &registry.Strategy{
		Validate: func(obj any) field.ErrorList { return ValidateRuntimeClass(cfg, obj.(*api.RuntimeClass)) },
		ValidateUpdate: func(obj, old any) field.ErrorList {
			return ValidateRuntimeClassUpdate(cfg, obj.(*api.RuntimeClass), old.(*api.RuntimeClass))
		},
		Declarative:      runtimeClassDeclarative,
		WarningsOnCreate: runtimeClassWarnings,
		WarningsOnUpdate: func(obj, _ any) []string { return runtimeClassWarnings(obj) },
	}
}
