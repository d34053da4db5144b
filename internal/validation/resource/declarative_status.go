package resource

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// dvClaimStatus: the beta rules of a claim's status on an update through /status.
func dvClaimStatus(st, old *api.ResourceClaimStatus, fldPath *field.Path, op operation.Operation) field.ErrorList {
	var errs field.ErrorList
	if a := st.Allocation; a != nil && !unchanged(a, &old.Allocation) {
		p := fldPath.Child("allocation")
		if e := validate.UpdatePointer(dvCtx, op, p, a, old.Allocation, dvUpdateNoModify).MarkBeta(); len(e) > 0 {
			errs = append(errs, e...)
		} else {
			var oldDevices *api.DeviceAllocationResult
			if old.Allocation != nil {
				oldDevices = &old.Allocation.Devices
			}
			errs = append(errs, dvDeviceAllocation(&a.Devices, oldDevices, p.Child("devices"), op)...)
		}
	}
	if p := fldPath.Child("reservedFor"); len(st.ReservedFor) > 0 && !skip(op, st.ReservedFor, &old.ReservedFor) {
		if e := dvMaxItems(st.ReservedFor, 256, p); e != nil {
			errs = append(errs, e...)
		} else {
			errs = append(errs, unique(st.ReservedFor, p, func(a, b *api.ResourceClaimConsumerReference) bool { return a.UID == b.UID })...)
		}
	}
	if p := fldPath.Child("devices"); len(st.Devices) > 0 && !skip(op, st.Devices, &old.Devices) {
		sameDevice := func(a, b *api.AllocatedDeviceStatus) bool { return deviceStatusID(*a) == deviceStatusID(*b) }
		errs = append(errs, unique(st.Devices, p, sameDevice)...)
		for i := range st.Devices {
			d := &st.Devices[i]
			o := lookup(old.Devices, d, sameDevice)
			if o != nil && semanticallyEqual(*d, *o) {
				continue
			}
			errs = append(errs, dvDeviceStatus(d, o, p.Index(i), op)...)
		}
	}
	return errs
}

func dvDeviceAllocation(d, old *api.DeviceAllocationResult, fldPath *field.Path, op operation.Operation) field.ErrorList {
	if old != nil && skip(op, *d, old) {
		return nil
	}
	var errs field.ErrorList
	if p := fldPath.Child("results"); len(d.Results) > 0 && !(old != nil && skip(op, d.Results, &old.Results)) {
		if e := dvMaxItems(d.Results, 32, p); e != nil {
			errs = append(errs, e...)
		} else {
			for i := range d.Results {
				errs = append(errs, dvAllocationResult(&d.Results[i], p.Index(i), op)...)
			}
		}
	}
	if p := fldPath.Child("config"); len(d.Config) > 0 && !(old != nil && skip(op, d.Config, &old.Config)) {
		if e := dvMaxItems(d.Config, 64, p); e != nil {
			errs = append(errs, e...)
		} else {
			for i := range d.Config {
				c := &d.Config[i]
				q := p.Index(i)
				if c.Source == "" {
					errs = append(errs, field.Required(q.Child("source"), "").MarkBeta())
				} else {
					errs = append(errs, validate.Enum(dvCtx, op, q.Child("source"), &c.Source, nil, dvAllocationSources, nil).MarkBeta()...)
				}
				errs = append(errs, dvRequestRefs(c.Requests, q.Child("requests"))...)
				errs = append(errs, dvConfiguration(&c.DeviceConfiguration, q, op)...)
			}
		}
	}
	return errs
}

func dvAllocationResult(r *api.DeviceRequestAllocationResult, fldPath *field.Path, op operation.Operation) field.ErrorList {
	var errs field.ErrorList
	if p := fldPath.Child("driver"); r.Driver == "" {
		errs = append(errs, field.Required(p, "").MarkBeta())
	} else {
		//lint:ignore SA1019 the server's declarative validation of driver names calls it
		errs = append(errs, validate.LongNameCaseless(dvCtx, op, p, &r.Driver, nil).MarkBeta()...)
		errs = append(errs, validate.MaxLength(dvCtx, op, p, &r.Driver, nil, 63).MarkBeta()...)
	}
	if p := fldPath.Child("pool"); r.Pool == "" {
		errs = append(errs, field.Required(p, "").MarkBeta())
	} else {
		errs = append(errs, validate.ResourcePoolName(dvCtx, op, p, &r.Pool, nil).MarkBeta()...)
	}
	if len(r.Tolerations) > 0 {
		for i := range r.Tolerations {
			errs = append(errs, dvToleration(&r.Tolerations[i], fldPath.Child("tolerations").Index(i), op)...)
		}
	}
	if len(r.BindingConditions) > 0 {
		errs = append(errs, dvMaxItems(r.BindingConditions, 4, fldPath.Child("bindingConditions"))...)
	}
	if len(r.BindingFailureConditions) > 0 {
		errs = append(errs, dvMaxItems(r.BindingFailureConditions, 4, fldPath.Child("bindingFailureConditions"))...)
	}
	if r.ShareID != nil {
		errs = append(errs, validate.UUID(dvCtx, op, fldPath.Child("shareID"), r.ShareID, nil).MarkBeta()...)
	}
	return errs
}

func dvDeviceStatus(d, old *api.AllocatedDeviceStatus, fldPath *field.Path, op operation.Operation) field.ErrorList {
	var errs field.ErrorList
	if d.ShareID != nil && !(old != nil && old.ShareID != nil && *old.ShareID == *d.ShareID) {
		errs = append(errs, validate.UUID(dvCtx, op, fldPath.Child("shareID"), d.ShareID, nil).MarkBeta()...)
	}
	n := d.NetworkData
	if n == nil || (old != nil && unchanged(n, &old.NetworkData)) {
		return errs
	}
	var on *api.NetworkDeviceData
	if old != nil {
		on = old.NetworkData
	}
	p := fldPath.Child("networkData")
	if n.InterfaceName != "" && (on == nil || on.InterfaceName != n.InterfaceName) {
		errs = append(errs, validate.MaxBytes(dvCtx, op, p.Child("interfaceName"), &n.InterfaceName, nil, 256).MarkBeta()...)
	}
	if q := p.Child("ips"); len(n.IPs) > 0 && !(on != nil && skip(op, n.IPs, &on.IPs)) {
		if e := dvMaxItems(n.IPs, 16, q); e != nil {
			errs = append(errs, e...)
		} else {
			errs = append(errs, unique(n.IPs, q, func(a, b *string) bool { return *a == *b })...)
		}
	}
	if n.HardwareAddress != "" && (on == nil || on.HardwareAddress != n.HardwareAddress) {
		errs = append(errs, validate.MaxBytes(dvCtx, op, p.Child("hardwareAddress"), &n.HardwareAddress, nil, 128).MarkBeta()...)
	}
	return errs
}
