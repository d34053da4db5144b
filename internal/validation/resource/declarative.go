package resource

import (
	"context"

	api "github.com/ssa-diff/ssa-diff/internal/api/resource"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The declarative validation 1.37 enforces for the group: beta rules only (the standard
// ones sit on fields behind gates that are off). An update skips every field it leaves as
// it was; items of lists without keys are never matched with old ones.

var dvCtx = context.Background()

// dvOp is the operation declarative validation runs as.
func dvOp(old bool) operation.Operation {
	if old {
		return operation.Operation{Type: operation.Update}
	}
	return operation.Operation{Type: operation.Create}
}

// unchanged: an update leaves the value as it was (compared as the server does).
func unchanged[T any](v T, old *T) bool {
	return old != nil && equality.Semantic.DeepEqual(v, *old)
}

// oldField is f of old, nil when there is no old object.
func oldField[O, T any](old *O, f func(*O) *T) *T {
	if old == nil {
		return nil
	}
	return f(old)
}

// dvName: a name, when set, is a DNS subdomain.
func dvName(meta *metav1.ObjectMeta, old *metav1.ObjectMeta, op operation.Operation) field.ErrorList {
	if unchanged(*meta, old) || meta.Name == "" {
		return nil
	}
	return validate.LongName(dvCtx, op, field.NewPath("metadata", "name"), &meta.Name, nil).MarkBeta()
}

// dvMaxItems: a list of at most max items (nothing more is checked of a longer one).
func dvMaxItems[T any](items []T, max int, fldPath *field.Path) field.ErrorList {
	return validate.MaxItems(dvCtx, operation.Operation{}, fldPath, items, nil, max).MarkBeta()
}

// dvOpaque: an opaque configuration's driver is required, a DNS subdomain in any case of
// at most 63 characters.
func dvConfiguration(c *api.DeviceConfiguration, fldPath *field.Path, op operation.Operation) field.ErrorList {
	if c.Opaque == nil {
		return nil
	}
	p := fldPath.Child("opaque", "driver")
	d := &c.Opaque.Driver
	if *d == "" {
		return field.ErrorList{field.Required(p, "").MarkBeta()}
	}
	//lint:ignore SA1019 the server's declarative validation of driver names calls it
	errs := validate.LongNameCaseless(dvCtx, op, p, d, nil).MarkBeta()
	return append(errs, validate.MaxLength(dvCtx, op, p, d, nil, 63).MarkBeta()...)
}

func deviceClassDeclarative(obj, oldObj any) field.ErrorList {
	c := obj.(*api.DeviceClass)
	var old *api.DeviceClass
	if oldObj != nil {
		old = oldObj.(*api.DeviceClass)
	}
	op := dvOp(old != nil)
	errs := dvName(&c.ObjectMeta, oldField(old, func(o *api.DeviceClass) *metav1.ObjectMeta { return &o.ObjectMeta }), op)
	oldSpec := oldField(old, func(o *api.DeviceClass) *api.DeviceClassSpec { return &o.Spec })
	if unchanged(c.Spec, oldSpec) {
		return errs
	}
	spec, fldPath := &c.Spec, field.NewPath("spec")
	if !unchanged(spec.Selectors, oldField(oldSpec, func(o *api.DeviceClassSpec) *[]api.DeviceSelector { return &o.Selectors })) {
		errs = append(errs, dvMaxItems(spec.Selectors, 32, fldPath.Child("selectors"))...)
	}
	if !unchanged(spec.Config, oldField(oldSpec, func(o *api.DeviceClassSpec) *[]api.DeviceClassConfiguration { return &o.Config })) {
		p := fldPath.Child("config")
		if e := dvMaxItems(spec.Config, 32, p); e != nil {
			errs = append(errs, e...)
		} else {
			for i := range spec.Config {
				errs = append(errs, dvConfiguration(&spec.Config[i].DeviceConfiguration, p.Index(i), op)...)
			}
		}
	}
	if n := spec.ExtendedResourceName; n != nil {
		if o := oldField(oldSpec, func(o *api.DeviceClassSpec) **string { return &o.ExtendedResourceName }); o == nil || *o == nil || **o != *n {
			errs = append(errs, validate.ExtendedResourceName(dvCtx, op, fldPath.Child("extendedResourceName"), n, nil).MarkBeta()...)
		}
	}
	return errs
}
