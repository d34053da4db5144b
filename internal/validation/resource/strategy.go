package resource

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// normalization is how the claim strategies pair handwritten errors with the declarative
// ones that cover them: the request fields older versions kept flat (and a slice's device
// fields kept under "basic") are rewritten to their v1 place first.
var normalization = sync.OnceValue(func() []field.NormalizationRule {
	return []field.NormalizationRule{
		{Regexp: regexp.MustCompile(`spec\.devices\.requests\[(\d+)\]\.(deviceClassName|selectors|allocationMode|count|adminAccess|tolerations|derivedAttributes)`),
			Replacement: "spec.devices.requests[$1].exactly.$2"},
		{Regexp: regexp.MustCompile(`spec\.spec\.devices\.requests\[(\d+)\]\.(deviceClassName|selectors|allocationMode|count|adminAccess|tolerations|derivedAttributes)`),
			Replacement: "spec.spec.devices.requests[$1].exactly.$2"},
		{Regexp: regexp.MustCompile(`spec\.devices\[(\d+)\]\.basic\.`), Replacement: "spec.devices[$1]."},
	}
})

// Strategy is the validation of a kind of the resource.k8s.io group as its registry
// strategy runs it, or nil when it is not ported.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	switch kind {
	case "DeviceClass":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateDeviceClass(cfg, obj.(*api.DeviceClass)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateDeviceClassUpdate(cfg, obj.(*api.DeviceClass), old.(*api.DeviceClass))
			},
			Declarative: deviceClassDeclarative,
		}
	case "ResourceClaimTemplate":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				t := obj.(*api.ResourceClaimTemplate)
				dropDisabledClaimFields(cfg, &t.Spec.Spec, nil)
				adminAccessInSpec(cfg, t.Spec.Spec.Devices.Requests, t.Namespace)
				return ValidateResourceClaimTemplate(cfg, t)
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				t, o := obj.(*api.ResourceClaimTemplate), old.(*api.ResourceClaimTemplate)
				dropDisabledClaimFields(cfg, &t.Spec.Spec, &o.Spec.Spec)
				derivedAttributesNotPredicted(&t.Spec.Spec)
				return append(ValidateResourceClaimTemplate(cfg, t), ValidateResourceClaimTemplateUpdate(cfg, t, o)...)
			},
			Declarative:        resourceClaimTemplateDeclarative,
			NormalizationRules: normalization(),
		}
	case "ResourceClaim":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				c := obj.(*api.ResourceClaim)
				dropDisabledClaimFields(cfg, &c.Spec, nil)
				adminAccessInSpec(cfg, c.Spec.Devices.Requests, c.Namespace)
				return ValidateResourceClaim(cfg, c)
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				c, o := obj.(*api.ResourceClaim), old.(*api.ResourceClaim)
				dropDisabledClaimFields(cfg, &c.Spec, &o.Spec)
				return ValidateResourceClaimUpdate(cfg, c, o)
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				c, o := obj.(*api.ResourceClaim), old.(*api.ResourceClaim)
				dropDisabledStatusFields(cfg, c, o)
				adminAccessInStatus(cfg, c, o)
				return ValidateResourceClaimStatusUpdate(cfg, c, o)
			},
			Declarative:        resourceClaimDeclarative,
			NormalizationRules: normalization(),
		}
	case "DeviceTaintRule":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateDeviceTaintRule(cfg, obj.(*api.DeviceTaintRule)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateDeviceTaintRuleUpdate(cfg, obj.(*api.DeviceTaintRule), old.(*api.DeviceTaintRule))
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateDeviceTaintRuleStatusUpdate(cfg, obj.(*api.DeviceTaintRule), old.(*api.DeviceTaintRule))
			},
			Declarative: deviceTaintRuleDeclarative,
		}
	case "ResourceSlice":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList {
				s := obj.(*api.ResourceSlice)
				dropDisabledSliceFields(cfg, s, nil)
				return ValidateResourceSlice(cfg, s)
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				s, o := obj.(*api.ResourceSlice), old.(*api.ResourceSlice)
				dropDisabledSliceFields(cfg, s, o)
				return ValidateResourceSliceUpdate(cfg, s, o)
			},
			Declarative:        resourceSliceDeclarative,
			NormalizationRules: normalization(),
			WarningsOnCreate:   func(obj any) []string { return sliceWarnings(cfg, obj.(*api.ResourceSlice)) },
			WarningsOnUpdate:   func(obj, _ any) []string { return sliceWarnings(cfg, obj.(*api.ResourceSlice)) },
		}
	}
	return nil
}

// sliceWarnings: a driver name in upper case works but should not be. Kubernetes 1.35
// added the warning (pkg/registry/resource/resourceslice/strategy.go WarningsOnCreate); 1.34
// warns of nothing.
func sliceWarnings(cfg *serverconfig.Config, s *api.ResourceSlice) []string {
	if !cfg.AtLeast(35) {
		return nil
	}
	if d := s.Spec.Driver; d != strings.ToLower(d) {
		return []string{fmt.Sprintf("spec.driver: driver names should be lowercase; %q contains uppercase characters", d)}
	}
	return nil
}

// dropDisabledSliceFields clears what the server cfg drops from a slice before it
// validates: the fields of the gates it has off (list attributes, a partition type
// attribute, counter compatibility groups, node allocatable resources, skipped node
// operations; off by default at every supported minor), each unless the stored slice
// already uses it. What is left of the last four is validated by rules not ported: such
// writes are not predicted.
func dropDisabledSliceFields(cfg *serverconfig.Config, s, old *api.ResourceSlice) {
	var o api.ResourceSliceSpec
	if old != nil {
		o = old.Spec
	}
	spec := &s.Spec
	if !cfg.Enabled(features.DRAListTypeAttributes) && !sliceUses(&o, func(d *api.Device) bool {
		for _, a := range d.Attributes {
			if a.BoolValues != nil || a.IntValues != nil || a.StringValues != nil || a.VersionValues != nil {
				return true
			}
		}
		return false
	}) {
		for i := range spec.Devices {
			for k, a := range spec.Devices[i].Attributes {
				if a.BoolValues != nil || a.IntValues != nil || a.StringValues != nil || a.VersionValues != nil {
					a.BoolValues, a.IntValues, a.StringValues, a.VersionValues = nil, nil, nil, nil
					spec.Devices[i].Attributes[k] = a
				}
			}
		}
	}
	if !cfg.Enabled(features.DRAPartitionableDevicesType) && o.PartitionTypeAttribute == nil {
		spec.PartitionTypeAttribute = nil
	}
	if !cfg.Enabled(features.DRAOptionalNodeOperations) && len(o.SkipNodeOperations) == 0 {
		spec.SkipNodeOperations = nil
	}
	groups := func(d *api.Device) bool {
		for _, c := range d.ConsumesCounters {
			if len(c.CompatibilityGroups) > 0 {
				return true
			}
		}
		return false
	}
	if !cfg.Enabled(features.DRADeviceCompatibilityGroups) && !sliceUses(&o, groups) {
		for i := range spec.Devices {
			for j := range spec.Devices[i].ConsumesCounters {
				spec.Devices[i].ConsumesCounters[j].CompatibilityGroups = nil
			}
		}
	}
	allocatable := func(d *api.Device) bool { return len(d.NodeAllocatableResources) > 0 }
	if !cfg.Enabled(features.DRANodeAllocatableResources) && !sliceUses(&o, allocatable) {
		for i := range spec.Devices {
			spec.Devices[i].NodeAllocatableResources = nil
		}
	}
	if spec.PartitionTypeAttribute != nil || len(spec.SkipNodeOperations) > 0 || sliceUses(spec, groups) || sliceUses(spec, allocatable) {
		panic(registry.NotPredicted{Reason: "the validation of a slice's partition type attribute, skipped node operations, counter compatibility groups or node allocatable resources (alpha) is not ported"})
	}
}

func sliceUses(spec *api.ResourceSliceSpec, uses func(*api.Device) bool) bool {
	for i := range spec.Devices {
		if uses(&spec.Devices[i]) {
			return true
		}
	}
	return false
}

// derivedAttributesNotPredicted: derived attributes (alpha) that a stored template already
// has are validated by rules not ported.
func derivedAttributesNotPredicted(spec *api.ResourceClaimSpec) {
	if usesDerivedAttributes(spec) {
		panic(registry.NotPredicted{Reason: "the validation of derived attributes (alpha, DRADerivedAttributes) is not ported"})
	}
}

// dropDisabledStatusFields clears what the status strategy of the server cfg drops before
// it validates: the node operations a result skips unless DRAOptionalNodeOperations is on
// (off by default at every supported minor) or the stored allocation has some, and the
// status of devices the write deallocates.
func dropDisabledStatusFields(cfg *serverconfig.Config, c, old *api.ResourceClaim) {
	if a := c.Status.Allocation; a != nil && !cfg.Enabled(features.DRAOptionalNodeOperations) && !skipsNodeOperations(old.Status.Allocation) {
		for i := range a.Devices.Results {
			a.Devices.Results[i].SkipNodeOperations = nil
		}
	}
	if skipsNodeOperations(c.Status.Allocation) {
		panic(registry.NotPredicted{Reason: "the validation of skipped node operations (alpha, DRAOptionalNodeOperations) is not ported"})
	}
	if old.Status.Allocation == nil || len(c.Status.Devices) == 0 {
		return
	}
	gone := map[sharedDeviceID]bool{}
	for _, r := range old.Status.Allocation.Devices.Results {
		gone[makeSharedDeviceID(r.Driver, r.Pool, r.Device, r.ShareID)] = true
	}
	if a := c.Status.Allocation; a != nil {
		for _, r := range a.Devices.Results {
			delete(gone, makeSharedDeviceID(r.Driver, r.Pool, r.Device, r.ShareID))
		}
	}
	if len(gone) == 0 {
		return
	}
	kept := c.Status.Devices[:0:0]
	for _, d := range c.Status.Devices {
		if !gone[deviceStatusID(d)] {
			kept = append(kept, d)
		}
	}
	c.Status.Devices = kept
}

func skipsNodeOperations(a *api.AllocationResult) bool {
	if a == nil {
		return false
	}
	for _, r := range a.Devices.Results {
		if len(r.SkipNodeOperations) > 0 {
			return true
		}
	}
	return false
}
