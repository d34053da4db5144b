package resource

import (
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateResourceClaim checks a new ResourceClaim: metadata and the device claim.
func ValidateResourceClaim(cfg *serverconfig.Config, c *api.ResourceClaim) field.ErrorList {
	errs := core.ValidateObjectMeta(&c.ObjectMeta, true, core.ValidateResourceClaimName, field.NewPath("metadata"))
	return append(errs, validateDeviceClaim(cfg, &c.Spec.Devices, field.NewPath("spec", "devices"), false)...)
}

// ValidateResourceClaimUpdate checks an update through the main resource: the spec is
// immutable, and only that is checked of it (rules.md valid.update).
func ValidateResourceClaimUpdate(cfg *serverconfig.Config, c, old *api.ResourceClaim) field.ErrorList {
	if !cfg.AtLeast(35) {
		// Kubernetes 1.35 checks an update's spec for immutability alone. 1.34's strategy
		// validated the new claim as a create first, and its update checks the spec again
		// after the immutability, its expressions taken as stored (pkg/registry/resource/
		// resourceclaim/strategy.go ValidateUpdate, pkg/apis/resource/validation/
		// validation.go ValidateResourceClaimUpdate in 1.34).
		errs := ValidateResourceClaim(cfg, c)
		errs = append(errs, core.ValidateObjectMetaUpdate(&c.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
		errs = append(errs, apimachineryvalidation.ValidateImmutableField(c.Spec, old.Spec, field.NewPath("spec"))...)
		return append(errs, validateDeviceClaim(cfg, &c.Spec.Devices, field.NewPath("spec", "devices"), true)...)
	}
	errs := core.ValidateObjectMeta(&c.ObjectMeta, true, core.ValidateResourceClaimName, field.NewPath("metadata"))
	errs = append(errs, core.ValidateObjectMetaUpdate(&c.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	return append(errs, apimachineryvalidation.ValidateImmutableField(c.Spec, old.Spec, field.NewPath("spec")).WithOrigin("immutable").MarkCoveredByDeclarative()...)
}

// ValidateResourceClaimTemplate checks a ResourceClaimTemplate: metadata, the claims'
// metadata and their spec.
func ValidateResourceClaimTemplate(cfg *serverconfig.Config, t *api.ResourceClaimTemplate) field.ErrorList {
	errs := core.ValidateObjectMeta(&t.ObjectMeta, true, core.ValidateResourceClaimTemplateName, field.NewPath("metadata"))
	spec := field.NewPath("spec")
	errs = append(errs, core.ValidateTemplateObjectMeta(&t.Spec.ObjectMeta, spec.Child("metadata"))...)
	return append(errs, validateDeviceClaim(cfg, &t.Spec.Spec.Devices, spec.Child("spec", "devices"), false)...)
}

// ValidateResourceClaimTemplateUpdate checks what an update may not change: the spec.
func ValidateResourceClaimTemplateUpdate(cfg *serverconfig.Config, t, old *api.ResourceClaimTemplate) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&t.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, apimachineryvalidation.ValidateImmutableField(t.Spec, old.Spec, field.NewPath("spec"))...)
	if !cfg.AtLeast(35) {
		// 1.34 checked the spec again after the immutability, its expressions taken as
		// stored (pkg/apis/resource/validation/validation.go ValidateResourceClaimTemplateUpdate
		// in 1.34).
		spec := field.NewPath("spec")
		errs = append(errs, core.ValidateTemplateObjectMeta(&t.Spec.ObjectMeta, spec.Child("metadata"))...)
		errs = append(errs, validateDeviceClaim(cfg, &t.Spec.Spec.Devices, spec.Child("spec", "devices"), true)...)
	}
	return errs
}

// requestNames are the names a claim's requests give, each with the names of its
// subrequests (nil for a request of exactly one kind of device).
type requestNames map[string]sets.Set[string]

func gatherRequestNames(dc *api.DeviceClaim) requestNames {
	names := requestNames{}
	for _, r := range dc.Requests {
		if len(r.FirstAvailable) == 0 {
			names[r.Name] = nil
			continue
		}
		subs := sets.New[string]()
		for _, s := range r.FirstAvailable {
			subs.Insert(s.Name)
		}
		names[r.Name] = subs
	}
	return names
}

// has: ref names a request, or a request and one of its subrequests ("req/sub").
func (n requestNames) has(ref string) bool {
	parts := strings.Split(ref, "/")
	if len(parts) > 2 {
		return false
	}
	subs, ok := n[parts[0]]
	if !ok {
		return false
	}
	return len(parts) == 1 || subs.Has(parts[1])
}

const badRequestRef = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"

// validateRequestRef: a reference to a request (or subrequest) of the claim.
func validateRequestRef(cfg *serverconfig.Config, ref string, fldPath *field.Path, names requestNames) field.ErrorList {
	parts := strings.Split(ref, "/")
	if len(parts) > 2 {
		return field.ErrorList{field.Invalid(fldPath, ref, badRequestRef)}
	}
	var errs field.ErrorList
	for _, p := range parts {
		errs = append(errs, validateRequestName(p, fldPath)...)
	}
	if !names.has(ref) {
		errs = append(errs, field.Invalid(fldPath, ref, badRequestRef))
	}
	return errs
}

// validateRequestRefs: a list of request references without repeats.
func validateRequestRefs(cfg *serverconfig.Config, refs []string, fldPath *field.Path, names requestNames) field.ErrorList {
	return set(cfg, refs, api.DeviceRequestsMaxSize, func(ref string, p *field.Path) field.ErrorList {
		return validateRequestRef(cfg, ref, p, names)
	}, itself, fldPath, coveredSize, coveredUniqueness)
}

// validateDeviceClaim checks the requests, constraints and configuration of a claim;
// stored: the claim is already stored (its expressions are not compiled again).
func validateDeviceClaim(cfg *serverconfig.Config, dc *api.DeviceClaim, fldPath *field.Path, stored bool) field.ErrorList {
	names := gatherRequestNames(dc)
	errs := set(cfg, dc.Requests, api.DeviceRequestsMaxSize, func(r api.DeviceRequest, p *field.Path) field.ErrorList {
		return validateDeviceRequest(cfg, r, p, stored)
	}, func(r api.DeviceRequest) string { return r.Name }, fldPath.Child("requests"), coveredSize, coveredUniqueness, keyName)
	errs = append(errs, list(dc.Constraints, api.DeviceConstraintsMaxSize, func(c api.DeviceConstraint, p *field.Path) field.ErrorList {
		return validateDeviceConstraint(cfg, c, p, names)
	}, fldPath.Child("constraints"), coveredSize)...)
	return append(errs, list(dc.Config, api.DeviceConfigMaxSize, func(c api.DeviceClaimConfiguration, p *field.Path) field.ErrorList {
		e := validateRequestRefs(cfg, c.Requests, p.Child("requests"), names)
		return append(e, validateDeviceConfiguration(cfg, c.DeviceConfiguration, p, stored)...)
	}, fldPath.Child("config"), coveredSize)...)
}

// validateDeviceRequest: a named request, either for exactly one kind of device or a
// prioritized list of subrequests.
func validateDeviceRequest(cfg *serverconfig.Config, r api.DeviceRequest, fldPath *field.Path, stored bool) field.ErrorList {
	errs := validateRequestName(r.Name, fldPath.Child("name"))
	first, exactly := len(r.FirstAvailable) > 0, r.Exactly != nil
	switch {
	case !first && !exactly:
		errs = append(errs, field.Required(fldPath, "exactly one of `exactly` or `firstAvailable` is required"))
	case first && exactly:
		errs = append(errs, field.Invalid(fldPath, nil, "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set"))
	case first:
		errs = append(errs, set(cfg, r.FirstAvailable, api.FirstAvailableDeviceRequestMaxSize, func(s api.DeviceSubRequest, p *field.Path) field.ErrorList {
			return validateSubRequest(cfg, s, p, stored)
		}, func(s api.DeviceSubRequest) string { return s.Name }, fldPath.Child("firstAvailable"), coveredSize, coveredUniqueness, keyName)...)
	default:
		e := r.Exactly
		p := fldPath.Child("exactly")
		errs = append(errs, validateDeviceClassRef(cfg, e.DeviceClassName, p.Child("deviceClassName"))...)
		errs = append(errs, validateSelectors(cfg, e.Selectors, p.Child("selectors"), stored)...)
		errs = append(errs, validateAllocationMode(cfg, e.AllocationMode, e.Count, p.Child("allocationMode"), p.Child("count"))...)
		errs = append(errs, validateTolerations(cfg, e.Tolerations, p.Child("tolerations"))...)
	}
	return errs
}

func validateSubRequest(cfg *serverconfig.Config, s api.DeviceSubRequest, fldPath *field.Path, stored bool) field.ErrorList {
	errs := validateRequestName(s.Name, fldPath.Child("name"))
	errs = append(errs, validateDeviceClassRef(cfg, s.DeviceClassName, fldPath.Child("deviceClassName")).MarkCoveredByDeclarative()...)
	errs = append(errs, validateSelectors(cfg, s.Selectors, fldPath.Child("selectors"), stored)...)
	errs = append(errs, validateAllocationMode(cfg, s.AllocationMode, s.Count, fldPath.Child("allocationMode"), fldPath.Child("count"))...)
	return append(errs, validateTolerations(cfg, s.Tolerations, fldPath.Child("tolerations"))...)
}

// validateDeviceClassRef: the class a request names is required and a DNS subdomain.
func validateDeviceClassRef(cfg *serverconfig.Config, name string, fldPath *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return validateDeviceClassName(name, fldPath)
}

func validateSelectors(cfg *serverconfig.Config, selectors []api.DeviceSelector, fldPath *field.Path, stored bool) field.ErrorList {
	return list(selectors, api.DeviceSelectorsMaxSize, func(s api.DeviceSelector, p *field.Path) field.ErrorList {
		return validateSelector(cfg, s, p, stored)
	}, fldPath, coveredSize)
}

var allocationModes = []api.DeviceAllocationMode{api.DeviceAllocationModeAll, api.DeviceAllocationModeExactCount}

// validateAllocationMode: All takes no count, ExactCount a positive one.
func validateAllocationMode(cfg *serverconfig.Config, mode api.DeviceAllocationMode, count int64, modePath, countPath *field.Path) field.ErrorList {
	switch mode {
	case api.DeviceAllocationModeAll:
		if count != 0 {
			return field.ErrorList{field.Invalid(countPath, count, "must not be specified when allocationMode is 'All'")}
		}
	case api.DeviceAllocationModeExactCount:
		if count <= 0 {
			return field.ErrorList{field.Invalid(countPath, count, "must be greater than zero")}
		}
	default:
		return field.ErrorList{field.NotSupported(modePath, mode, allocationModes).MarkCoveredByDeclarative()}
	}
	return nil
}

func validateTolerations(cfg *serverconfig.Config, ts []api.DeviceToleration, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, t := range ts {
		errs = append(errs, validateToleration(cfg, t, fldPath.Index(i))...)
	}
	return errs
}

var (
	tolerationOperators = []api.DeviceTolerationOperator{api.DeviceTolerationOpEqual, api.DeviceTolerationOpExists}
	taintEffects        = sets.New(api.DeviceTaintEffectNoSchedule, api.DeviceTaintEffectNoExecute, api.DeviceTaintEffectNone)
)

// effectsOf are the taint effects the server of cfg knows: Kubernetes 1.35 added None
// (pkg/apis/resource/validation/validation.go validDeviceTaintEffects).
func effectsOf(cfg *serverconfig.Config) sets.Set[api.DeviceTaintEffect] {
	if !cfg.AtLeast(35) {
		return sets.New(api.DeviceTaintEffectNoSchedule, api.DeviceTaintEffectNoExecute)
	}
	return taintEffects
}

// validateToleration: a label-key key, an operator with a value that fits it, a known effect.
func validateToleration(cfg *serverconfig.Config, t api.DeviceToleration, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.Key != "" {
		errs = append(errs, metav1validation.ValidateLabelName(t.Key, fldPath.Child("key")).MarkCoveredByDeclarative()...)
	}
	switch t.Operator {
	case api.DeviceTolerationOpExists:
		if t.Value != "" {
			errs = append(errs, field.Invalid(fldPath.Child("value"), t.Value, "must be empty for operator `Exists`"))
		}
	case api.DeviceTolerationOpEqual:
		errs = append(errs, validateLabelValue(cfg, t.Value, fldPath.Child("value"))...)
	case "":
		errs = append(errs, field.Required(fldPath.Child("operator"), "").MarkCoveredByDeclarative())
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("operator"), t.Operator, tolerationOperators).MarkCoveredByDeclarative())
	}
	if effects := effectsOf(cfg); t.Effect != "" && !effects.Has(t.Effect) {
		errs = append(errs, field.NotSupported(fldPath.Child("effect"), t.Effect, sets.List(effects)).MarkCoveredByDeclarative())
	}
	return errs
}

// validateDeviceConstraint: the requests a constraint applies to, and the attribute it
// matches (or keeps distinct).
func validateDeviceConstraint(cfg *serverconfig.Config, c api.DeviceConstraint, fldPath *field.Path, names requestNames) field.ErrorList {
	errs := validateRequestRefs(cfg, c.Requests, fldPath.Child("requests"), names)
	switch {
	case c.MatchAttribute != nil:
		errs = append(errs, validateFullyQualifiedName(cfg, *c.MatchAttribute, fldPath.Child("matchAttribute")).MarkCoveredByDeclarative()...)
	case c.DistinctAttribute != nil:
		errs = append(errs, validateFullyQualifiedName(cfg, *c.DistinctAttribute, fldPath.Child("distinctAttribute")).MarkCoveredByDeclarative()...)
	case cfg.Enabled(features.DRAConsumableCapacity):
		// DRAConsumableCapacity (on by default from 1.36) words the error so.
		errs = append(errs, field.Required(fldPath, `exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set`))
	default:
		errs = append(errs, field.Required(fldPath.Child("matchAttribute"), ""))
	}
	return errs
}

// dropDisabledClaimFields clears what the server cfg drops from a claim spec before it
// validates: derived attributes unless DRADerivedAttributes is on (off by default at every
// supported minor) or the stored spec has some.
func dropDisabledClaimFields(cfg *serverconfig.Config, spec, old *api.ResourceClaimSpec) {
	if cfg.Enabled(features.DRADerivedAttributes) || old != nil && usesDerivedAttributes(old) {
		return
	}
	for i := range spec.Devices.Requests {
		r := &spec.Devices.Requests[i]
		if r.Exactly != nil {
			r.Exactly.DerivedAttributes = nil
		}
		for j := range r.FirstAvailable {
			r.FirstAvailable[j].DerivedAttributes = nil
		}
	}
}

func usesDerivedAttributes(spec *api.ResourceClaimSpec) bool {
	for _, r := range spec.Devices.Requests {
		if r.Exactly != nil && r.Exactly.DerivedAttributes != nil {
			return true
		}
		for _, s := range r.FirstAvailable {
			if s.DerivedAttributes != nil {
				return true
			}
		}
	}
	return false
}

// semanticallyEqual compares as the server does.
func semanticallyEqual(a, b any) bool { return equality.Semantic.DeepEqual(a, b) }

// sharedDeviceID identifies an allocated device, shared or not; the server prints it so.
type sharedDeviceID struct {
	Driver, Pool, Device, ShareID string
}

func makeSharedDeviceID(driver, pool, device string, share *types.UID) sharedDeviceID {
	id := sharedDeviceID{Driver: driver, Pool: pool, Device: device}
	if share != nil {
		id.ShareID = string(*share)
	}
	return id
}
