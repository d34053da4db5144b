package resource

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"

	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/equality"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateResourceSlice checks a new ResourceSlice: metadata and spec.
func ValidateResourceSlice(cfg *serverconfig.Config, s *api.ResourceSlice) field.ErrorList {
	errs := core.ValidateObjectMeta(&s.ObjectMeta, false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateSliceSpec(cfg, &s.Spec, nil, field.NewPath("spec"))...)
}

// ValidateResourceSliceUpdate checks an update: the spec again (the capacity and taints of
// a device left as they were are not checked again), and the pool name, driver and node
// name, which are immutable (rules.md valid.update).
func ValidateResourceSliceUpdate(cfg *serverconfig.Config, s, old *api.ResourceSlice) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, validateSliceSpec(cfg, &s.Spec, &old.Spec, field.NewPath("spec"))...)
}

const (
	exactlyOneNodeSelection   = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required"
	perDeviceNodeSelectionMsg = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec"
	// attributeKeyMax is the longest attribute or capacity name (domain/ID) printed whole
	// in an error's path; longer ones are shortened in the middle.
	attributeKeyMax = api.DeviceMaxDomainLength + 1 + api.DeviceMaxIDLength
)

func validateSliceSpec(cfg *serverconfig.Config, spec, old *api.ResourceSliceSpec, fldPath *field.Path) field.ErrorList {
	errs := validateDriverName(cfg, spec.Driver, fldPath.Child("driver"), driverCover{})
	errs = append(errs, validatePoolName(cfg, spec.Pool.Name, fldPath.Child("pool", "name"))...)
	if spec.Pool.ResourceSliceCount <= 0 {
		errs = append(errs, field.Invalid(fldPath.Child("pool", "resourceSliceCount"), spec.Pool.ResourceSliceCount, "must be greater than zero"))
	}
	if spec.Pool.Generation < 0 {
		errs = append(errs, field.Invalid(fldPath.Child("pool", "generation"), spec.Pool.Generation, "must be greater than or equal to zero"))
	}
	if old != nil {
		errs = append(errs, apimachineryvalidation.ValidateImmutableField(spec.Pool.Name, old.Pool.Name, fldPath.Child("pool", "name"))...)
		errs = append(errs, apimachineryvalidation.ValidateImmutableField(spec.Driver, old.Driver, fldPath.Child("driver"))...)
		errs = append(errs, apimachineryvalidation.ValidateImmutableField(spec.NodeName, old.NodeName, fldPath.Child("nodeName"))...)
	}
	var set []string
	if n := spec.NodeName; n != nil {
		if *n != "" {
			set = append(set, "`nodeName`")
			errs = append(errs, validateNodeName(cfg, *n, fldPath.Child("nodeName"))...)
		} else {
			errs = append(errs, field.Invalid(fldPath.Child("nodeName"), *n, "must be either unset or set to a non-empty string"))
		}
	}
	if ns := spec.NodeSelector; ns != nil {
		set = append(set, "`nodeSelector`")
		errs = append(errs, core.ValidateNodeSelector(ns, false, fldPath.Child("nodeSelector"))...)
		if len(ns.NodeSelectorTerms) != 1 {
			errs = append(errs, field.Invalid(fldPath.Child("nodeSelector", "nodeSelectorTerms"), ns.NodeSelectorTerms, "must have exactly one node selector term"))
		}
	}
	if a := spec.AllNodes; a != nil {
		if *a {
			set = append(set, "`allNodes`")
		} else {
			errs = append(errs, field.Invalid(fldPath.Child("allNodes"), *a, "must be either unset or set to true"))
		}
	}
	if p := spec.PerDeviceNodeSelection; p != nil {
		if *p {
			set = append(set, "`perDeviceNodeSelection`")
		} else {
			errs = append(errs, field.Invalid(fldPath.Child("perDeviceNodeSelection"), *p, "must be either unset or set to true"))
		}
	}
	switch len(set) {
	case 0:
		errs = append(errs, field.Required(fldPath, exactlyOneNodeSelection))
	case 1:
	default:
		errs = append(errs, field.Invalid(fldPath, fmt.Sprintf("{%s}", strings.Join(set, ", ")), exactlyOneNodeSelection+", but multiple fields are set"))
	}
	if spec.SharedCounters != nil && spec.Devices != nil {
		errs = append(errs, field.Invalid(fldPath, "", "only one of `sharedCounters` or `devices` is allowed"))
	}
	maxDevices := api.ResourceSliceMaxDevices
	if advancedDevices(spec) {
		maxDevices = api.ResourceSliceMaxDevicesWithAdvancedFeatures
	}
	errs = append(errs, setOf(cfg, spec.Devices, maxDevices, func(d api.Device, p *field.Path) field.ErrorList {
		return validateDevice(cfg, d, lookupDevice(old, d.Name), p, spec.PerDeviceNodeSelection)
	}, func(d api.Device) string { return d.Name }, fldPath.Child("devices"), keyName)...)
	errs = append(errs, setOf(cfg, spec.SharedCounters, api.ResourceSliceMaxCounterSets, func(c api.CounterSet, p *field.Path) field.ErrorList {
		return validateCounterSet(cfg, c, p)
	}, func(c api.CounterSet) string { return c.Name }, fldPath.Child("sharedCounters"), coveredSize, coveredUniqueness, keyName)...)
	return errs
}

// setOf is set, spelled apart for readability where the items are devices and counters.
func setOf[T any, K comparable](cfg *serverconfig.Config, items []T, max int, check func(T, *field.Path) field.ErrorList, key func(T) K, fldPath *field.Path, opts ...listOption) field.ErrorList {
	return set(cfg, items, max, check, key, fldPath, opts...)
}

func validateNodeName(cfg *serverconfig.Config, name string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range core.ValidateNodeName(name, false) {
		errs = append(errs, field.Invalid(fldPath, name, msg))
	}
	return errs
}

// advancedDevices: some device has taints, consumes counters or has list attributes; a
// slice holds fewer devices then.
func advancedDevices(spec *api.ResourceSliceSpec) bool {
	for _, d := range spec.Devices {
		if len(d.Taints) > 0 || len(d.ConsumesCounters) > 0 {
			return true
		}
		for _, a := range d.Attributes {
			if a.BoolValues != nil || a.IntValues != nil || a.StringValues != nil || a.VersionValues != nil {
				return true
			}
		}
	}
	return false
}

func lookupDevice(spec *api.ResourceSliceSpec, name string) *api.Device {
	if spec == nil {
		return nil
	}
	for i := range spec.Devices {
		if spec.Devices[i].Name == name {
			return &spec.Devices[i]
		}
	}
	return nil
}

// validateCounterSet: a named set of counters.
func validateCounterSet(cfg *serverconfig.Config, c api.CounterSet, fldPath *field.Path) field.ErrorList {
	errs := validateCounterRef(cfg, c.Name, fldPath.Child("name"))
	return append(errs, validateCounters(cfg, c.Counters, api.ResourceSliceMaxCountersPerCounterSet, fldPath.Child("counters"))...)
}

// validateCounterRef: a required counter (set) name, a DNS label; covered by beta rules.
func validateCounterRef(cfg *serverconfig.Config, name string, fldPath *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(fldPath, "").MarkCoveredByDeclarative()}
	}
	return validateCounterName(name, fldPath).MarkCoveredByDeclarative()
}

// validateCounters: a required map of at most max counters named by DNS labels.
func validateCounters(cfg *serverconfig.Config, counters map[string]api.Counter, max int, fldPath *field.Path) field.ErrorList {
	if len(counters) == 0 {
		return field.ErrorList{field.Required(fldPath, "").MarkCoveredByDeclarative()}
	}
	if len(counters) > max {
		return field.ErrorList{field.TooMany(fldPath, len(counters), max)}
	}
	var errs field.ErrorList
	for _, name := range slices.Sorted(maps.Keys(counters)) { // key order, as for attributes
		p := keyPath(cfg, fldPath, fldPath.Key(shortenKey(name, validation.DNS1123LabelMaxLength)))
		errs = append(errs, validateCounterName(name, p).MarkCoveredByDeclarative()...)
	}
	return errs
}

// keyPath is where the errors of a map key are reported: Kubernetes 1.36 moved them from
// the key's path to the map's (pkg/apis/resource/validation/validation.go validateMap in
// 1.34, 1.35).
func keyPath(cfg *serverconfig.Config, mapPath, key *field.Path) *field.Path {
	if !cfg.AtLeast(36) {
		return key
	}
	return mapPath
}

// shortenKey shortens a long map key in the middle, as the server prints it in a path.
func shortenKey(key string, max int) string {
	if max < 16 {
		max = 16
	}
	if len(key) <= max {
		return key
	}
	keep := max - 3
	return key[:(keep+1)/2] + "..." + key[len(key)-keep/2:]
}

func validateDevice(cfg *serverconfig.Config, d api.Device, old *api.Device, fldPath *field.Path, perDevice *bool) field.ErrorList {
	multi := d.AllowMultipleAllocations != nil && *d.AllowMultipleAllocations
	errs := validateDeviceName(d.Name, fldPath.Child("name"))
	if n := len(d.Attributes) + len(d.Capacity); n > api.ResourceSliceMaxAttributesAndCapacitiesPerDevice {
		errs = append(errs, field.Invalid(fldPath, n, fmt.Sprintf("the total number of attributes and capacities must not exceed %d", api.ResourceSliceMaxAttributesAndCapacitiesPerDevice)))
	}
	if n := attributeValues(d); n > api.ResourceSliceMaxAttributeValuesPerDevice {
		errs = append(errs, field.Invalid(fldPath, n, fmt.Sprintf("the total number of attribute values must not exceed %d", api.ResourceSliceMaxAttributeValuesPerDevice)))
	}
	attrs := fldPath.Child("attributes")
	// In key order: the server ranges over the map (Go's order, so any order is one it
	// could answer), 1.37's declarative rules in key order.
	for _, name := range slices.Sorted(maps.Keys(d.Attributes)) {
		a := d.Attributes[name]
		p := attrs.Key(shortenKey(string(name), attributeKeyMax))
		errs = append(errs, validateQualifiedName(cfg, name, keyPath(cfg, attrs, p))...)
		errs = append(errs, validateDeviceAttribute(cfg, a, p)...)
	}
	if old == nil || !equality.Semantic.DeepEqual(old.Capacity, d.Capacity) {
		capPath := fldPath.Child("capacity")
		for _, name := range slices.Sorted(maps.Keys(d.Capacity)) {
			c := d.Capacity[name]
			p := capPath.Key(shortenKey(string(name), attributeKeyMax))
			errs = append(errs, validateQualifiedName(cfg, name, keyPath(cfg, capPath, p))...)
			if c.RequestPolicy == nil {
				continue
			}
			if !multi {
				errs = append(errs, field.Forbidden(p.Child("requestPolicy"), "allowMultipleAllocations must be true"))
				continue
			}
			errs = append(errs, validateRequestPolicy(cfg, c.Value, c.RequestPolicy, p.Child("requestPolicy"))...)
		}
	}
	if old == nil || !equality.Semantic.DeepEqual(old.Taints, d.Taints) {
		errs = append(errs, list(d.Taints, api.DeviceTaintsMaxLength, func(t api.DeviceTaint, p *field.Path) field.ErrorList {
			return validateDeviceTaint(cfg, t, nil, p)
		}, fldPath.Child("taints"))...)
	}
	errs = append(errs, set(cfg, d.ConsumesCounters, api.ResourceSliceMaxDeviceCounterConsumptionsPerDevice, func(c api.DeviceCounterConsumption, p *field.Path) field.ErrorList {
		e := validateCounterRef(cfg, c.CounterSet, p.Child("counterSet"))
		return append(e, validateCounters(cfg, c.Counters, api.ResourceSliceMaxCountersPerDeviceCounterConsumption, p.Child("counters"))...)
	}, func(c api.DeviceCounterConsumption) string { return c.CounterSet }, fldPath.Child("consumesCounters"), coveredSize, coveredUniqueness, keyCounterSet)...)
	if perDevice != nil && *perDevice {
		var set []string
		if n := d.NodeName; n != nil {
			if *n != "" {
				set = append(set, "`nodeName`")
				errs = append(errs, validateNodeName(cfg, *n, fldPath.Child("nodeName"))...)
			} else {
				errs = append(errs, field.Invalid(fldPath.Child("nodeName"), *n, "must not be empty"))
			}
		}
		if d.NodeSelector != nil {
			set = append(set, "`nodeSelector`")
			errs = append(errs, core.ValidateNodeSelector(d.NodeSelector, false, fldPath.Child("nodeSelector"))...)
		}
		if a := d.AllNodes; a != nil {
			if *a {
				set = append(set, "`allNodes`")
			} else {
				errs = append(errs, field.Invalid(fldPath.Child("allNodes"), *a, "must be either unset or set to true"))
			}
		}
		switch len(set) {
		case 0:
			errs = append(errs, field.Required(fldPath, perDeviceNodeSelectionMsg))
		case 1:
		default:
			errs = append(errs, field.Invalid(fldPath, fmt.Sprintf("{%s}", strings.Join(set, ", ")), perDeviceNodeSelectionMsg))
		}
	} else if d.NodeName != nil || d.NodeSelector != nil || d.AllNodes != nil {
		errs = append(errs, field.Invalid(fldPath, nil, "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec"))
	}
	return append(errs, validateBindingConditions(cfg, d.BindingConditions, d.BindingFailureConditions, fldPath)...)
}

// attributeValues counts the values of a device's attributes: one per scalar, each item
// of a list.
func attributeValues(d api.Device) int {
	n := 0
	for _, a := range d.Attributes {
		items := len(a.BoolValues) + len(a.IntValues) + len(a.StringValues) + len(a.VersionValues)
		if items == 0 {
			items = 1
		}
		n += items
	}
	return n
}

// validateDeviceTaint: a label-key key, a label value, and a known effect (checked again
// only when it changes).
func validateDeviceTaint(cfg *serverconfig.Config, t api.DeviceTaint, old *api.DeviceTaint, fldPath *field.Path) field.ErrorList {
	errs := metav1validation.ValidateLabelName(t.Key, fldPath.Child("key"))
	if t.Value != "" {
		errs = append(errs, validateLabelValue(cfg, t.Value, fldPath.Child("value"))...)
	}
	if old == nil || old.Effect != t.Effect {
		switch {
		case t.Effect == "":
			errs = append(errs, field.Required(fldPath.Child("effect"), "").MarkCoveredByDeclarative())
		case !effectsOf(cfg).Has(t.Effect):
			errs = append(errs, field.NotSupported(fldPath.Child("effect"), t.Effect, sets.List(effectsOf(cfg))).MarkCoveredByDeclarative())
		}
	}
	return errs
}

// semverPattern is the grammar of semver.org 2.0.0.
var semverPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
		`(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?` +
		`(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$`)
})

// validateDeviceAttribute: exactly one value, strings of at most 64 bytes, semantic
// versions, lists not empty.
func validateDeviceAttribute(cfg *serverconfig.Config, a api.DeviceAttribute, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	if a.BoolValue != nil {
		n++
	}
	if a.IntValue != nil {
		n++
	}
	if a.StringValue != nil {
		n++
		errs = append(errs, attributeString(cfg, *a.StringValue, fldPath.Child("string"))...)
	}
	if a.VersionValue != nil {
		n++
		errs = append(errs, attributeVersion(cfg, *a.VersionValue, fldPath.Child("version"))...)
	}
	if a.BoolValues != nil {
		n++
		if len(a.BoolValues) == 0 {
			errs = append(errs, field.Invalid(fldPath.Child("bools"), a.BoolValues, "must not be empty if specified"))
		}
	}
	if a.IntValues != nil {
		n++
		if len(a.IntValues) == 0 {
			errs = append(errs, field.Invalid(fldPath.Child("ints"), a.IntValues, "must not be empty if specified"))
		}
	}
	if a.StringValues != nil {
		n++
		if len(a.StringValues) == 0 {
			errs = append(errs, field.Invalid(fldPath.Child("strings"), a.StringValues, "must not be empty if specified"))
		}
		for i, s := range a.StringValues {
			errs = append(errs, attributeString(cfg, s, fldPath.Child("strings").Index(i)).WithOrigin("maxBytes").MarkCoveredByDeclarative()...)
		}
	}
	if a.VersionValues != nil {
		n++
		if len(a.VersionValues) == 0 {
			errs = append(errs, field.Invalid(fldPath.Child("versions"), a.VersionValues, "must not be empty if specified"))
		}
		for i, v := range a.VersionValues {
			errs = append(errs, attributeVersion(cfg, v, fldPath.Child("versions").Index(i))...)
		}
	}
	switch {
	case n == 0 && !cfg.AtLeast(35):
		// Kubernetes 1.35 made it Invalid (pkg/apis/resource/validation/validation.go
		// validateDeviceAttribute in 1.34: Required).
		errs = append(errs, field.Required(fldPath, "exactly one value must be specified"))
	case n == 0:
		errs = append(errs, field.Invalid(fldPath, "", "exactly one value must be specified").WithOrigin("union").MarkCoveredByDeclarative())
	case n == 1:
	default:
		errs = append(errs, field.Invalid(fldPath, a, "exactly one value must be specified").WithOrigin("union").MarkCoveredByDeclarative())
	}
	return errs
}

func attributeString(cfg *serverconfig.Config, s string, fldPath *field.Path) field.ErrorList {
	if len(s) > api.DeviceAttributeMaxValueLength {
		return field.ErrorList{field.TooLong(fldPath, "", api.DeviceAttributeMaxValueLength)}
	}
	return nil
}

// semverPattern18 is 1.38's grammar of a version attribute: semver.org 2.0.0 with each
// number (of the version and of a numeric pre-release identifier) at most 18 digits, so
// that it fits an int64 (pkg/apis/resource/validation of 1.38.0-beta.0).
var semverPattern18 = sync.OnceValue(func() *regexp.Regexp {
	const num = `(0|[1-9]\d{0,17})`
	const pre = `(` + num + `|\d*[a-zA-Z-][0-9a-zA-Z-]*)`
	return regexp.MustCompile(`^` + num + `\.` + num + `\.` + num + `(-` + pre + `(\.` + pre + `)*)?` +
		`(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$`)
})

// attributeVersion checks a version attribute on the server cfg describes: from 1.38 its
// numbers are at most 18 digits and the message says so (recorded from 1.38.0-beta.0: the
// validation scenario resource/ResourceSlice/V1 attribute with two values and a bad
// version).
func attributeVersion(cfg *serverconfig.Config, v string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case cfg.AtLeast(38):
		if !semverPattern18().MatchString(v) {
			errs = append(errs, field.Invalid(fldPath, v, "must be a string compatible with semver.org spec 2.0.0, with at most 18 digits in numbers"))
		}
	case !semverPattern().MatchString(v):
		errs = append(errs, field.Invalid(fldPath, v, "must be a string compatible with semver.org spec 2.0.0"))
	}
	if len(v) > api.DeviceAttributeMaxValueLength {
		errs = append(errs, field.TooLong(fldPath, "", api.DeviceAttributeMaxValueLength))
	}
	return errs
}

// validateRequestPolicy: the values a consumable capacity may be requested in — a list of
// values or a range, never both — with a default among them, all within the capacity.
func validateRequestPolicy(cfg *serverconfig.Config, capacity apiresource.Quantity, p *api.CapacityRequestPolicy, fldPath *field.Path) field.ErrorList {
	switch {
	case len(p.ValidValues) > 0 && p.ValidRange != nil:
		return field.ErrorList{field.Forbidden(fldPath, `exactly one policy can be specified, cannot specify "validValues" and "validRange" at the same time`)}
	case len(p.ValidValues) > 0:
		if p.Default == nil {
			return field.ErrorList{field.Required(fldPath.Child("default"), "required when validValues is defined")}
		}
		return validateValidValues(cfg, *p.Default, capacity, p.ValidValues, fldPath.Child("validValues"))
	case p.ValidRange != nil:
		if p.Default == nil {
			return field.ErrorList{field.Required(fldPath.Child("default"), "required when validRange is defined")}
		}
		return validateValidRange(cfg, *p.Default, capacity, *p.ValidRange, fldPath.Child("validRange"))
	}
	return nil
}

func validateValidValues(cfg *serverconfig.Config, def, capacity apiresource.Quantity, values []apiresource.Quantity, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := 0; i+1 < len(values); i++ {
		if values[i].Cmp(values[i+1]) > 0 {
			errs = append(errs, field.Invalid(fldPath.Index(i+1), values[i+1].String(), "values must be sorted in ascending order"))
		}
	}
	found := false
	// DRAFractionalCapacityRange is off for a 1.37 server (its default turns on only at
	// compatibility version 1.37): values are told apart by their integer value.
	errs = append(errs, set(cfg, values, api.CapacityRequestPolicyDiscreteMaxOptions, func(v apiresource.Quantity, p *field.Path) field.ErrorList {
		var e field.ErrorList
		if v.Cmp(capacity) > 0 {
			e = append(e, field.Invalid(p, v.String(), fmt.Sprintf("option is larger than capacity value: %s", capacity.String())))
		}
		if v.Cmp(def) == 0 {
			found = true
		}
		return e
	}, func(v apiresource.Quantity) string { return strconv.FormatInt(v.Value(), 10) }, fldPath)...)
	if !found {
		errs = append(errs, field.Invalid(fldPath, def.String(), "default value is not valid according to the requestPolicy"))
	}
	return errs
}

func validateValidRange(cfg *serverconfig.Config, def, capacity apiresource.Quantity, r api.CapacityRequestPolicyRange, fldPath *field.Path) field.ErrorList {
	if r.Min == nil {
		return field.ErrorList{field.Required(fldPath.Child("min"), "required when validRange is defined")}
	}
	var errs field.ErrorList
	if r.Min.Cmp(capacity) > 0 {
		errs = append(errs, field.Invalid(fldPath.Child("min"), r.Min.String(), fmt.Sprintf("min is larger than capacity value: %s", capacity.String())))
	}
	if def.Cmp(*r.Min) < 0 {
		errs = append(errs, field.Invalid(fldPath.Child("default"), def.String(), fmt.Sprintf("default is less than min: %s", r.Min.String())))
	}
	if r.Max != nil {
		if r.Min.Cmp(*r.Max) > 0 {
			errs = append(errs, field.Invalid(fldPath.Child("max"), r.Min.String(), fmt.Sprintf("min is larger than max: %s", r.Max.String())))
		}
		if r.Max.Cmp(capacity) > 0 {
			errs = append(errs, field.Invalid(fldPath.Child("max"), r.Max.String(), fmt.Sprintf("max is larger than capacity value: %s", capacity.String())))
		}
		if def.Cmp(*r.Max) > 0 {
			errs = append(errs, field.Invalid(fldPath.Child("default"), def.String(), fmt.Sprintf("default is more than max: %s", r.Max.String())))
		}
	}
	if r.Step == nil {
		return errs
	}
	if r.Step.Sign() <= 0 {
		return append(errs, field.Invalid(fldPath.Child("step"), r.Step.String(), "must be greater than zero"))
	}
	oneStep := r.Min.DeepCopy()
	oneStep.Add(*r.Step)
	if oneStep.Cmp(capacity) > 0 {
		errs = append(errs, field.Invalid(fldPath.Child("step"), r.Step.String(), fmt.Sprintf("one step %s is larger than capacity value: %s", oneStep.String(), capacity.String())))
	}
	unsafe := false
	for _, q := range []struct {
		v    *apiresource.Quantity
		name string
	}{{&def, "default"}, {r.Min, "min"}, {r.Max, "max"}, {r.Step, "step"}} {
		if q.v == nil {
			continue
		}
		if e := int64Range(*q.v, fldPath.Child(q.name)); e != nil {
			errs = append(errs, e...)
			unsafe = true
		}
	}
	if unsafe {
		return errs
	}
	errs = append(errs, stepMultiple(cfg, def, *r.Min, *r.Step, fldPath.Child("step"))...)
	if r.Max != nil {
		errs = append(errs, stepMultiple(cfg, *r.Max, *r.Min, *r.Step, fldPath.Child("step"))...)
	}
	return errs
}

func int64Range(q apiresource.Quantity, fldPath *field.Path) field.ErrorList {
	if q.Sign() < 0 {
		return field.ErrorList{field.Invalid(fldPath, q.String(), apimachineryvalidation.IsNegativeErrorMsg)}
	}
	if q.CmpInt64(1<<63-1) > 0 {
		return field.ErrorList{field.Invalid(fldPath, q.String(), "must not be larger than 9223372036854775807")}
	}
	return nil
}

// stepMultiple: value is min plus a whole number of steps (in integer values).
func stepMultiple(cfg *serverconfig.Config, value, min, step apiresource.Quantity, fldPath *field.Path) field.ErrorList {
	if (value.Value()-min.Value())%step.Value() != 0 {
		return field.ErrorList{field.Invalid(fldPath, value.String(), fmt.Sprintf("value is not a multiple of a given step (%s) from (%s)", step.String(), min.String()))}
	}
	return nil
}
