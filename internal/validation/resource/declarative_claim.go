package resource

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The beta declarative rules of a claim's spec and status. Each function takes the value
// and, on an update, the old value it is correlated with (nil: none), and skips what is
// unchanged. Lists of requests and subrequests are matched with the old items by name,
// allocated device statuses by device; other lists are not matched.

var (
	dvAllocationModes      = sets.New(api.DeviceAllocationModeAll, api.DeviceAllocationModeExactCount)
	dvTolerationOperators  = sets.New(api.DeviceTolerationOpEqual, api.DeviceTolerationOpExists)
	dvTaintEffects         = sets.New(api.DeviceTaintEffectNoSchedule, api.DeviceTaintEffectNoExecute, api.DeviceTaintEffectNone)
	dvAllocationSources    = sets.New(api.AllocationConfigSourceClaim, api.AllocationConfigSourceClass)
	dvUpdateNoModify       = validate.NoModify
	dvSemanticDeepEqualReq = func(a, b *api.DeviceRequest) bool { return semanticallyEqual(*a, *b) }
)

// skip: an update leaves the value as it was.
func skip[T any](op operation.Operation, v T, old *T) bool {
	return op.Type == operation.Update && unchanged(v, old)
}

func dvDeviceClaim(dc, old *api.DeviceClaim, fldPath *field.Path, op operation.Operation) field.ErrorList {
	if skip(op, *dc, old) {
		return nil
	}
	var errs field.ErrorList
	var oldReqs []api.DeviceRequest
	if old != nil {
		oldReqs = old.Requests
	}
	if p := fldPath.Child("requests"); !(old != nil && skip(op, dc.Requests, &old.Requests)) && len(dc.Requests) > 0 {
		if e := dvMaxItems(dc.Requests, 32, p); e != nil {
			errs = append(errs, e...)
		} else {
			byName := func(a, b *api.DeviceRequest) bool { return a.Name == b.Name }
			errs = append(errs, unique(dc.Requests, p, byName)...)
			for i := range dc.Requests {
				o := lookup(oldReqs, &dc.Requests[i], byName)
				if op.Type == operation.Update && o != nil && dvSemanticDeepEqualReq(&dc.Requests[i], o) {
					continue
				}
				errs = append(errs, dvDeviceRequest(&dc.Requests[i], o, p.Index(i), op)...)
			}
		}
	}
	if p := fldPath.Child("constraints"); !(old != nil && skip(op, dc.Constraints, &old.Constraints)) && len(dc.Constraints) > 0 {
		if e := dvMaxItems(dc.Constraints, 32, p); e != nil {
			errs = append(errs, e...)
		} else {
			for i, c := range dc.Constraints {
				q := p.Index(i)
				errs = append(errs, dvRequestRefs(c.Requests, q.Child("requests"))...)
				if c.MatchAttribute != nil {
					errs = append(errs, validate.ResourceFullyQualifiedName(dvCtx, op, q.Child("matchAttribute"), c.MatchAttribute, nil).MarkBeta()...)
				}
				if c.DistinctAttribute != nil {
					errs = append(errs, validate.ResourceFullyQualifiedName(dvCtx, op, q.Child("distinctAttribute"), c.DistinctAttribute, nil).MarkBeta()...)
				}
			}
		}
	}
	if p := fldPath.Child("config"); !(old != nil && skip(op, dc.Config, &old.Config)) && len(dc.Config) > 0 {
		if e := dvMaxItems(dc.Config, 32, p); e != nil {
			errs = append(errs, e...)
		} else {
			for i := range dc.Config {
				c := &dc.Config[i]
				errs = append(errs, dvRequestRefs(c.Requests, p.Index(i).Child("requests"))...)
				errs = append(errs, dvConfiguration(&c.DeviceConfiguration, p.Index(i), op)...)
			}
		}
	}
	return errs
}

// lookup is the old item match pairs with v, nil when there is none.
func lookup[T any](old []T, v *T, match func(a, b *T) bool) *T {
	for i := range old {
		if match(v, &old[i]) {
			return &old[i]
		}
	}
	return nil
}

// dvRequestRefs: at most 32 request references, none repeated.
func dvRequestRefs(refs []string, fldPath *field.Path) field.ErrorList {
	if len(refs) == 0 {
		return nil
	}
	if e := dvMaxItems(refs, 32, fldPath); e != nil {
		return e
	}
	return unique(refs, fldPath, func(a, b *string) bool { return *a == *b })
}

func dvDeviceRequest(r, old *api.DeviceRequest, fldPath *field.Path, op operation.Operation) field.ErrorList {
	var errs field.ErrorList
	var oldExactly *api.ExactDeviceRequest
	var oldFirst []api.DeviceSubRequest
	if old != nil {
		oldExactly, oldFirst = old.Exactly, old.FirstAvailable
	}
	if r.Exactly != nil && !(old != nil && op.Type == operation.Update && unchanged(r.Exactly, &oldExactly)) {
		e := r.Exactly
		p := fldPath.Child("exactly")
		var o *api.ExactDeviceRequest
		if old != nil {
			o = oldExactly
		}
		errs = append(errs, dvSelectors(e.Selectors, oldSelectors(o, nil), p.Child("selectors"), op)...)
		errs = append(errs, dvAllocationMode(e.AllocationMode, oldMode(o, nil), p.Child("allocationMode"), op)...)
		errs = append(errs, dvTolerationList(e.Tolerations, oldTolerations(o, nil), p.Child("tolerations"), op)...)
	}
	p := fldPath.Child("firstAvailable")
	if len(r.FirstAvailable) == 0 || (old != nil && skip(op, r.FirstAvailable, &oldFirst)) {
		return errs
	}
	if e := dvMaxItems(r.FirstAvailable, 8, p); e != nil {
		return append(errs, e...)
	}
	byName := func(a, b *api.DeviceSubRequest) bool { return a.Name == b.Name }
	errs = append(errs, unique(r.FirstAvailable, p, byName)...)
	for i := range r.FirstAvailable {
		s := &r.FirstAvailable[i]
		o := lookup(oldFirst, s, byName)
		if op.Type == operation.Update && o != nil && semanticallyEqual(*s, *o) {
			continue
		}
		q := p.Index(i)
		if o == nil || s.DeviceClassName != o.DeviceClassName {
			if s.DeviceClassName == "" {
				errs = append(errs, field.Required(q.Child("deviceClassName"), "").MarkBeta())
			} else {
				errs = append(errs, validate.LongName(dvCtx, op, q.Child("deviceClassName"), &s.DeviceClassName, nil).MarkBeta()...)
			}
		}
		errs = append(errs, dvSelectors(s.Selectors, oldSelectors(nil, o), q.Child("selectors"), op)...)
		errs = append(errs, dvAllocationMode(s.AllocationMode, oldMode(nil, o), q.Child("allocationMode"), op)...)
		errs = append(errs, dvTolerationList(s.Tolerations, oldTolerations(nil, o), q.Child("tolerations"), op)...)
	}
	return errs
}

// The old values of a request's fields, from the exact request or the subrequest that is
// correlated with it (nil when neither is).
func oldSelectors(e *api.ExactDeviceRequest, s *api.DeviceSubRequest) *[]api.DeviceSelector {
	switch {
	case e != nil:
		return &e.Selectors
	case s != nil:
		return &s.Selectors
	}
	return nil
}

func oldMode(e *api.ExactDeviceRequest, s *api.DeviceSubRequest) *api.DeviceAllocationMode {
	switch {
	case e != nil:
		return &e.AllocationMode
	case s != nil:
		return &s.AllocationMode
	}
	return nil
}

func oldTolerations(e *api.ExactDeviceRequest, s *api.DeviceSubRequest) *[]api.DeviceToleration {
	switch {
	case e != nil:
		return &e.Tolerations
	case s != nil:
		return &s.Tolerations
	}
	return nil
}

func dvSelectors(s []api.DeviceSelector, old *[]api.DeviceSelector, fldPath *field.Path, op operation.Operation) field.ErrorList {
	if len(s) == 0 || skip(op, s, old) {
		return nil
	}
	return dvMaxItems(s, 32, fldPath)
}

func dvAllocationMode(m api.DeviceAllocationMode, old *api.DeviceAllocationMode, fldPath *field.Path, op operation.Operation) field.ErrorList {
	if m == "" || (old != nil && op.Type == operation.Update && *old == m) {
		return nil
	}
	return validate.Enum(dvCtx, op, fldPath, &m, nil, dvAllocationModes, nil).MarkBeta()
}

func dvTolerationList(ts []api.DeviceToleration, old *[]api.DeviceToleration, fldPath *field.Path, op operation.Operation) field.ErrorList {
	if len(ts) == 0 || skip(op, ts, old) {
		return nil
	}
	var errs field.ErrorList
	for i := range ts {
		errs = append(errs, dvToleration(&ts[i], fldPath.Index(i), op)...)
	}
	return errs
}

// dvToleration: a label-key key, a required known operator, a known effect.
func dvToleration(t *api.DeviceToleration, fldPath *field.Path, op operation.Operation) field.ErrorList {
	var errs field.ErrorList
	if t.Key != "" {
		errs = append(errs, validate.LabelKey(dvCtx, op, fldPath.Child("key"), &t.Key, nil).MarkBeta()...)
	}
	if t.Operator == "" {
		errs = append(errs, field.Required(fldPath.Child("operator"), "").MarkBeta())
	} else {
		errs = append(errs, validate.Enum(dvCtx, op, fldPath.Child("operator"), &t.Operator, nil, dvTolerationOperators, nil).MarkBeta()...)
	}
	if t.Effect != "" {
		errs = append(errs, validate.Enum(dvCtx, op, fldPath.Child("effect"), &t.Effect, nil, dvTaintEffects, nil).MarkBeta()...)
	}
	return errs
}

func resourceClaimTemplateDeclarative(obj, oldObj any) field.ErrorList {
	t := obj.(*api.ResourceClaimTemplate)
	var old *api.DeviceClaim
	if oldObj != nil {
		o := oldObj.(*api.ResourceClaimTemplate)
		if semanticallyEqual(t.Spec, o.Spec) {
			return nil
		}
		old = &o.Spec.Spec.Devices
	}
	return dvDeviceClaim(&t.Spec.Spec.Devices, old, field.NewPath("spec", "spec", "devices"), dvOp(oldObj != nil))
}

func resourceClaimDeclarative(obj, oldObj any) field.ErrorList {
	c := obj.(*api.ResourceClaim)
	if oldObj == nil {
		return dvDeviceClaim(&c.Spec.Devices, nil, field.NewPath("spec", "devices"), dvOp(false))
	}
	o := oldObj.(*api.ResourceClaim)
	op := dvOp(true)
	var errs field.ErrorList
	if !semanticallyEqual(c.Spec, o.Spec) {
		errs = append(errs, validate.Immutable(dvCtx, op, field.NewPath("spec"), &c.Spec, &o.Spec).MarkBeta()...)
	}
	if !semanticallyEqual(c.Status, o.Status) {
		errs = append(errs, dvClaimStatus(&c.Status, &o.Status, field.NewPath("status"), op)...)
	}
	return errs
}
