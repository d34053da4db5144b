package storage

import (
	"context"

	api "github.com/ssa-diff/ssa-diff/internal/api/storage"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The declarative validation 1.37 enforces for the group (beta): a StorageClass's
// provisioner is required, and it, the parameters, the reclaim policy and the binding mode
// are immutable; a VolumeAttachment's spec is immutable and its attacher a driver name of
// at most 63 characters. An update skips what it leaves unchanged.

// immutableChanged is the beta error of an immutable field an update changes.
func immutableChanged(fldPath *field.Path) *field.Error {
	return field.Invalid(fldPath, nil, "field is immutable").WithOrigin("immutable").MarkBeta()
}

// samePointee: two optional values are both unset or equal.
func samePointee[T comparable](a, b *T) bool {
	return a == b || (a != nil && b != nil && *a == *b)
}

func storageClassDeclarative(obj, old any) field.ErrorList {
	sc := obj.(*api.StorageClass)
	var errs field.ErrorList
	if old == nil {
		if sc.Provisioner == "" {
			errs = append(errs, field.Required(field.NewPath("provisioner"), "").MarkBeta())
		}
		return errs
	}
	o := old.(*api.StorageClass)
	if sc.Provisioner != o.Provisioner {
		if sc.Provisioner == "" {
			errs = append(errs, field.Required(field.NewPath("provisioner"), "").MarkBeta())
		}
		errs = append(errs, immutableChanged(field.NewPath("provisioner")))
	}
	if !equality.Semantic.DeepEqual(sc.Parameters, o.Parameters) {
		errs = append(errs, immutableChanged(field.NewPath("parameters")))
	}
	if !samePointee(sc.ReclaimPolicy, o.ReclaimPolicy) {
		errs = append(errs, immutableChanged(field.NewPath("reclaimPolicy")))
	}
	if !samePointee(sc.VolumeBindingMode, o.VolumeBindingMode) {
		errs = append(errs, immutableChanged(field.NewPath("volumeBindingMode")))
	}
	return errs
}

func volumeAttachmentDeclarative(obj, old any) field.ErrorList {
	va := obj.(*api.VolumeAttachment)
	spec := field.NewPath("spec")
	if old != nil {
		if equality.Semantic.DeepEqual(va.Spec, old.(*api.VolumeAttachment).Spec) {
			return nil
		}
		return field.ErrorList{immutableChanged(spec)}
	}
	fldPath := spec.Child("attacher")
	if va.Spec.Attacher == "" {
		return field.ErrorList{field.Required(fldPath, "").MarkBeta()}
	}
	ctx, op := context.Background(), operation.Operation{Type: operation.Create}
	//lint:ignore SA1019 the declarative validation of VolumeAttachment's attacher in kube-apiserver 1.37 calls it
	errs := validate.LongNameCaseless(ctx, op, fldPath, &va.Spec.Attacher, nil).MarkBeta()
	return append(errs, validate.MaxLength(ctx, op, fldPath, &va.Spec.Attacher, nil, 63).MarkBeta()...)
}
