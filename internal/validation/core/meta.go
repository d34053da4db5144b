package core

import (
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateObjectMeta is the metadata validation of the core group's kinds: apimachinery's
// (ValidateObjectMeta is ValidateObjectMetaAccessor of the same metadata; well-formed labels
// and annotations are not checked again: wellformed.Meta), plus the group's rule for
// finalizer names.
func ValidateObjectMeta(meta *metav1.ObjectMeta, namespaced bool, nameFn apimachineryvalidation.ValidateNameFunc, fldPath *field.Path) field.ErrorList {
	errs := apimachineryvalidation.ValidateObjectMetaAccessor(wellformed.Meta(meta), namespaced, nameFn, fldPath)
	return append(errs, finalizerNames(meta.Finalizers, fldPath.Child("finalizers"))...)
}

// ValidateObjectMetaUpdate is the metadata validation of an update of the core group's
// kinds: apimachinery's, plus the group's rule for finalizer names.
func ValidateObjectMetaUpdate(meta, old *metav1.ObjectMeta, fldPath *field.Path) field.ErrorList {
	errs := apimachineryvalidation.ValidateObjectMetaAccessorUpdate(wellformed.Meta(meta), old, fldPath)
	return append(errs, finalizerNames(meta.Finalizers, fldPath.Child("finalizers"))...)
}

// standardFinalizers are the finalizer names that need no domain prefix.
var standardFinalizers = &lazySet[string]{items: []string{
	string(api.FinalizerKubernetes),
	metav1.FinalizerOrphanDependents,
	metav1.FinalizerDeleteDependents,
}}

// finalizerNames: a finalizer without a "/" must be one of the standard ones.
func finalizerNames(finalizers []string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, f := range finalizers {
		if !strings.Contains(f, "/") && !standardFinalizers.get().Has(f) {
			errs = append(errs, field.Invalid(fldPath.Index(i), f, "name is neither a standard finalizer name nor is it fully qualified"))
		}
	}
	return errs
}

// ValidateObjectMetaWithOpts is ValidateObjectMeta with a name rule that returns field
// errors (marked, for instance, as covered by declarative validation).
func ValidateObjectMetaWithOpts(meta *metav1.ObjectMeta, namespaced bool, nameFn apimachineryvalidation.ValidateNameFuncWithErrors, fldPath *field.Path) field.ErrorList {
	errs := apimachineryvalidation.ValidateObjectMetaAccessorWithOpts(wellformed.Meta(meta), namespaced, nameFn, fldPath)
	return append(errs, finalizerNames(meta.Finalizers, fldPath.Child("finalizers"))...)
}
