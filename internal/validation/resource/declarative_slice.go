package resource

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The beta declarative rules of a ResourceSlice: each attribute holds exactly one value,
// counter sets and counters are named by DNS labels, taints have a known effect, and the
// lists are bounded. Devices are not matched with old ones; counter sets by name.

var attributeUnion = validate.NewUnionMembership(validate.NewUnionMember("int"), validate.NewUnionMember("bool"),
	validate.NewUnionMember("string"), validate.NewUnionMember("version"), validate.NewUnionMember("ints"),
	validate.NewUnionMember("bools"), validate.NewUnionMember("strings"), validate.NewUnionMember("versions"))

func resourceSliceDeclarative(obj, oldObj any) field.ErrorList {
	s := obj.(*api.ResourceSlice)
	op := dvOp(oldObj != nil)
	var old *api.ResourceSliceSpec
	if oldObj != nil {
		old = &oldObj.(*api.ResourceSlice).Spec
		if semanticallyEqual(s.Spec, *old) {
			return nil
		}
	}
	spec, fldPath := &s.Spec, field.NewPath("spec")
	var errs field.ErrorList
	if p := fldPath.Child("devices"); len(spec.Devices) > 0 && !(old != nil && skip(op, spec.Devices, &old.Devices)) {
		for i := range spec.Devices {
			errs = append(errs, dvDevice(&spec.Devices[i], p.Index(i), op)...)
		}
	}
	if p := fldPath.Child("sharedCounters"); len(spec.SharedCounters) > 0 && !(old != nil && skip(op, spec.SharedCounters, &old.SharedCounters)) {
		if e := dvMaxItems(spec.SharedCounters, 8, p); e != nil {
			return append(errs, e...)
		}
		byName := func(a, b *api.CounterSet) bool { return a.Name == b.Name }
		errs = append(errs, unique(spec.SharedCounters, p, byName)...)
		var oldSets []api.CounterSet
		if old != nil {
			oldSets = old.SharedCounters
		}
		for i := range spec.SharedCounters {
			c := &spec.SharedCounters[i]
			o := lookup(oldSets, c, byName)
			if op.Type == operation.Update && o != nil && semanticallyEqual(*c, *o) {
				continue
			}
			q := p.Index(i)
			if o == nil || o.Name != c.Name {
				errs = append(errs, dvShortName(c.Name, q.Child("name"), op)...)
			}
			var oc map[string]api.Counter
			if o != nil {
				oc = o.Counters
			}
			errs = append(errs, dvCounters(c.Counters, oc, o != nil, q.Child("counters"), op)...)
		}
	}
	return errs
}

// dvShortName: a required DNS label.
func dvShortName(name string, fldPath *field.Path, op operation.Operation) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(fldPath, "").MarkBeta()}
	}
	return validate.ShortName(dvCtx, op, fldPath, &name, nil).MarkBeta()
}

// dvCounters: a required map of counters named by DNS labels (keys an update keeps are not
// checked again).
func dvCounters(m, old map[string]api.Counter, correlated bool, fldPath *field.Path, op operation.Operation) field.ErrorList {
	if correlated && op.Type == operation.Update && semanticallyEqual(m, old) {
		return nil
	}
	if len(m) == 0 {
		return field.ErrorList{field.Required(fldPath, "").MarkBeta()}
	}
	return validate.EachMapKey(dvCtx, op, fldPath, m, old, validate.ShortName).MarkBeta()
}

func dvDevice(d *api.Device, fldPath *field.Path, op operation.Operation) field.ErrorList {
	var errs field.ErrorList
	for name := range d.Attributes {
		a := d.Attributes[name]
		errs = append(errs, validate.Union(dvCtx, op, fldPath.Child("attributes").Key(string(name)), &a, nil, attributeUnion,
			func(a *api.DeviceAttribute) bool { return a != nil && a.IntValue != nil },
			func(a *api.DeviceAttribute) bool { return a != nil && a.BoolValue != nil },
			func(a *api.DeviceAttribute) bool { return a != nil && a.StringValue != nil },
			func(a *api.DeviceAttribute) bool { return a != nil && a.VersionValue != nil },
			func(a *api.DeviceAttribute) bool { return a != nil && len(a.IntValues) != 0 },
			func(a *api.DeviceAttribute) bool { return a != nil && len(a.BoolValues) != 0 },
			func(a *api.DeviceAttribute) bool { return a != nil && len(a.StringValues) != 0 },
			func(a *api.DeviceAttribute) bool { return a != nil && len(a.VersionValues) != 0 }).MarkBeta()...)
	}
	if p := fldPath.Child("consumesCounters"); len(d.ConsumesCounters) > 0 {
		if e := dvMaxItems(d.ConsumesCounters, 2, p); e != nil {
			errs = append(errs, e...)
		} else {
			errs = append(errs, unique(d.ConsumesCounters, p, func(a, b *api.DeviceCounterConsumption) bool { return a.CounterSet == b.CounterSet })...)
			for i := range d.ConsumesCounters {
				c := &d.ConsumesCounters[i]
				errs = append(errs, dvShortName(c.CounterSet, p.Index(i).Child("counterSet"), op)...)
				errs = append(errs, dvCounters(c.Counters, nil, false, p.Index(i).Child("counters"), op)...)
			}
		}
	}
	for i := range d.Taints {
		p := fldPath.Child("taints").Index(i).Child("effect")
		if e := d.Taints[i].Effect; e == "" {
			errs = append(errs, field.Required(p, "").MarkBeta())
		} else {
			errs = append(errs, validateEnum(p, e, op)...)
		}
	}
	if len(d.BindingConditions) > 0 {
		errs = append(errs, dvMaxItems(d.BindingConditions, 4, fldPath.Child("bindingConditions"))...)
	}
	if len(d.BindingFailureConditions) > 0 {
		errs = append(errs, dvMaxItems(d.BindingFailureConditions, 4, fldPath.Child("bindingFailureConditions"))...)
	}
	return errs
}

// validateEnum: a known taint effect (beta).
func validateEnum(fldPath *field.Path, e api.DeviceTaintEffect, op operation.Operation) field.ErrorList {
	return validate.Enum(dvCtx, op, fldPath, &e, nil, dvTaintEffects, nil).MarkBeta()
}
