package resource

import (
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateResourceClaim checks a new ResourceClaim: metadata and the device claim.
func ValidateResourceClaim(c *api.ResourceClaim) field.ErrorList {
	errs := core.ValidateObjectMeta(&c.ObjectMeta, true, core.ValidateResourceClaimName, field.NewPath("metadata"))
	return append(errs, validateDeviceClaim(&c.Spec.Devices, field.NewPath("spec", "devices"), false)...)
}

// ValidateResourceClaimUpdate checks an update through the main resource: the spec is
// immutable, and only that is checked of it (rules.md valid.update).
func ValidateResourceClaimUpdate(c, old *api.ResourceClaim) field.ErrorList {
	errs := core.ValidateObjectMeta(&c.ObjectMeta, true, core.ValidateResourceClaimName, field.NewPath("metadata"))
	errs = append(errs, core.ValidateObjectMetaUpdate(&c.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	return append(errs, apimachineryvalidation.ValidateImmutableField(c.Spec, old.Spec, field.NewPath("spec")).WithOrigin("immutable").MarkCoveredByDeclarative()...)
}

// ValidateResourceClaimTemplate checks a ResourceClaimTemplate: metadata, the claims'
// metadata and their spec.
func ValidateResourceClaimTemplate(t *api.ResourceClaimTemplate) field.ErrorList {
	errs := core.ValidateObjectMeta(&t.ObjectMeta, true, core.ValidateResourceClaimTemplateName, field.NewPath("metadata"))
	spec := field.NewPath("spec")
	errs = append(errs, core.ValidateTemplateObjectMeta(&t.Spec.ObjectMeta, spec.Child("metadata"))...)
	return append(errs, validateDeviceClaim(&t.Spec.Spec.Devices, spec.Child("spec", "devices"), false)...)
}

// ValidateResourceClaimTemplateUpdate checks what an update may not change: the spec.
func ValidateResourceClaimTemplateUpdate(t, old *api.ResourceClaimTemplate) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&t.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, apimachineryvalidation.ValidateImmutableField(t.Spec, old.Spec, field.NewPath("spec"))...)
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
func validateRequestRef(ref string, fldPath *field.Path, names requestNames) field.ErrorList {
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
func validateRequestRefs(refs []string, fldPath *field.Path, names requestNames) field.ErrorList {
	return set(refs, api.DeviceRequestsMaxSize, func(ref string, p *field.Path) field.ErrorList {
		return validateRequestRef(ref, p, names)
	}, itself, fldPath, coveredSize, coveredUniqueness)
}

// validateDeviceClaim checks the requests, constraints and configuration of a claim;
// stored: the claim is already stored (its expressions are not compiled again).
func validateDeviceClaim(dc *api.DeviceClaim, fldPath *field.Path, stored bool) field.ErrorList {
	names := gatherRequestNames(dc)
	errs := set(dc.Requests, api.DeviceRequestsMaxSize, func(r api.DeviceRequest, p *field.Path) field.ErrorList {
		return validateDeviceRequest(r, p, stored)
	}, func(r api.DeviceRequest) string { return r.Name }, fldPath.Child("requests"), coveredSize, coveredUniqueness)
	errs = append(errs, list(dc.Constraints, api.DeviceConstraintsMaxSize, func(c api.DeviceConstraint, p *field.Path) field.ErrorList {
		return validateDeviceConstraint(c, p, names)
	}, fldPath.Child("constraints"), coveredSize)...)
	return append(errs, list(dc.Config, api.DeviceConfigMaxSize, func(c api.DeviceClaimConfiguration, p *field.Path) field.ErrorList {
		e := validateRequestRefs(c.Requests, p.Child("requests"), names)
		return append(e, validateDeviceConfiguration(c.DeviceConfiguration, p, stored)...)
	}, fldPath.Child("config"), coveredSize)...)
}

// validateDeviceRequest: a named request, either for exactly one kind of device or a
// prioritized list of subrequests.
func validateDeviceRequest(r api.DeviceRequest, fldPath *field.Path, stored bool) field.ErrorList {
	errs := validateRequestName(r.Name, fldPath.Child("name"))
	first, exactly := len(r.FirstAvailable) > 0, r.Exactly != nil
	switch {
	case !first && !exactly:
		errs = append(errs, field.Required(fldPath, "exactly one of `exactly` or `firstAvailable` is required"))
	case first && exactly:
		errs = append(errs, field.Invalid(fldPath, nil, "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set"))
	case first:
		errs = append(errs, set(r.FirstAvailable, api.FirstAvailableDeviceRequestMaxSize, func(s api.DeviceSubRequest, p *field.Path) field.ErrorList {
			return validateSubRequest(s, p, stored)
		}, func(s api.DeviceSubRequest) string { return s.Name }, fldPath.Child("firstAvailable"), coveredSize, coveredUniqueness)...)
	default:
		e := r.Exactly
		p := fldPath.Child("exactly")
		errs = append(errs, validateDeviceClassRef(e.DeviceClassName, p.Child("deviceClassName"))...)
		errs = append(errs, validateSelectors(e.Selectors, p.Child("selectors"), stored)...)
		errs = append(errs, validateAllocationMode(e.AllocationMode, e.Count, p.Child("allocationMode"), p.Child("count"))...)
		errs = append(errs, validateTolerations(e.Tolerations, p.Child("tolerations"))...)
	}
	return errs
}

func validateSubRequest(s api.DeviceSubRequest, fldPath *field.Path, stored bool) field.ErrorList {
	errs := validateRequestName(s.Name, fldPath.Child("name"))
	errs = append(errs, validateDeviceClassRef(s.DeviceClassName, fldPath.Child("deviceClassName")).MarkCoveredByDeclarative()...)
	errs = append(errs, validateSelectors(s.Selectors, fldPath.Child("selectors"), stored)...)
	errs = append(errs, validateAllocationMode(s.AllocationMode, s.Count, fldPath.Child("allocationMode"), fldPath.Child("count"))...)
	return append(errs, validateTolerations(s.Tolerations, fldPath.Child("tolerations"))...)
}

// validateDeviceClassRef: the class a request names is required and a DNS subdomain.
func validateDeviceClassRef(name string, fldPath *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return validateDeviceClassName(name, fldPath)
}

func validateSelectors(selectors []api.DeviceSelector, fldPath *field.Path, stored bool) field.ErrorList {
	return list(selectors, api.DeviceSelectorsMaxSize, func(s api.DeviceSelector, p *field.Path) field.ErrorList {
		return validateSelector(s, p, stored)
	}, fldPath, coveredSize)
}

var allocationModes = []api.DeviceAllocationMode{api.DeviceAllocationModeAll, api.DeviceAllocationModeExactCount}

// validateAllocationMode: All takes no count, ExactCount a positive one.
func validateAllocationMode(mode api.DeviceAllocationMode, count int64, modePath, countPath *field.Path) field.ErrorList {
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

func validateTolerations(ts []api.DeviceToleration, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, t := range ts {
		errs = append(errs, validateToleration(t, fldPath.Index(i))...)
	}
	return errs
}

var (
	tolerationOperators = []api.DeviceTolerationOperator{api.DeviceTolerationOpEqual, api.DeviceTolerationOpExists}
	taintEffects        = sets.New(api.DeviceTaintEffectNoSchedule, api.DeviceTaintEffectNoExecute, api.DeviceTaintEffectNone)
)

// validateToleration: a label-key key, an operator with a value that fits it, a known effect.
func validateToleration(t api.DeviceToleration, fldPath *field.Path) field.ErrorList {
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
		errs = append(errs, validateLabelValue(t.Value, fldPath.Child("value"))...)
	case "":
		errs = append(errs, field.Required(fldPath.Child("operator"), "").MarkCoveredByDeclarative())
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("operator"), t.Operator, tolerationOperators).MarkCoveredByDeclarative())
	}
	if t.Effect != "" && !taintEffects.Has(t.Effect) {
		errs = append(errs, field.NotSupported(fldPath.Child("effect"), t.Effect, sets.List(taintEffects)).MarkCoveredByDeclarative())
	}
	return errs
}

// validateDeviceConstraint: the requests a constraint applies to, and the attribute it
// matches (or keeps distinct).
func validateDeviceConstraint(c api.DeviceConstraint, fldPath *field.Path, names requestNames) field.ErrorList {
	errs := validateRequestRefs(c.Requests, fldPath.Child("requests"), names)
	switch {
	case c.MatchAttribute != nil:
		errs = append(errs, validateFullyQualifiedName(*c.MatchAttribute, fldPath.Child("matchAttribute")).MarkCoveredByDeclarative()...)
	case c.DistinctAttribute != nil:
		errs = append(errs, validateFullyQualifiedName(*c.DistinctAttribute, fldPath.Child("distinctAttribute")).MarkCoveredByDeclarative()...)
	default:
		// DRAConsumableCapacity (on by default in 1.37) words the error so.
		errs = append(errs, field.Required(fldPath, `exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set`))
	}
	return errs
}

// dropDisabledClaimFields clears what the server drops from a claim spec before it
// validates: derived attributes (DRADerivedAttributes, off in 1.37) unless the stored spec
// has some.
func dropDisabledClaimFields(spec, old *api.ResourceClaimSpec) {
	if old != nil && usesDerivedAttributes(old) {
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
