package storage

import (
	"strings"

	apicore "github.com/ssa-diff/ssa-diff/internal/api/core"
	api "github.com/ssa-diff/ssa-diff/internal/api/storage"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Limits of a provisioner's parameters.
const (
	maxParametersSize  = 256 * (1 << 10)
	maxParametersCount = 512
)

// The reclaim policies and binding modes a class may have, in sorted order.
var (
	reclaimPolicies = []string{string(apicore.PersistentVolumeReclaimDelete), string(apicore.PersistentVolumeReclaimRetain)}
	bindingModes    = []string{string(api.VolumeBindingImmediate), string(api.VolumeBindingWaitForFirstConsumer)}
)

// ValidateStorageClass checks a StorageClass: metadata, provisioner, parameters, reclaim
// policy, binding mode and allowed topologies.
func ValidateStorageClass(sc *api.StorageClass) field.ErrorList {
	errs := core.ValidateObjectMeta(&sc.ObjectMeta, false, core.ValidateClassName, field.NewPath("metadata"))
	errs = append(errs, validateProvisioner(sc.Provisioner, field.NewPath("provisioner"))...)
	errs = append(errs, validateParameters(sc.Parameters, true, field.NewPath("parameters"))...)
	if p := sc.ReclaimPolicy; p != nil && *p != "" && *p != apicore.PersistentVolumeReclaimDelete && *p != apicore.PersistentVolumeReclaimRetain {
		errs = append(errs, field.NotSupported(field.NewPath("reclaimPolicy"), p, reclaimPolicies))
	}
	switch m := sc.VolumeBindingMode; {
	case m == nil:
		errs = append(errs, field.Required(field.NewPath("volumeBindingMode"), ""))
	case *m != api.VolumeBindingImmediate && *m != api.VolumeBindingWaitForFirstConsumer:
		errs = append(errs, field.NotSupported(field.NewPath("volumeBindingMode"), m, bindingModes))
	}
	return append(errs, validateAllowedTopologies(sc.AllowedTopologies, field.NewPath("allowedTopologies"))...)
}

// ValidateStorageClassUpdate checks what an update of a StorageClass may not change:
// parameters, provisioner, reclaim policy and binding mode (rules.md valid.update).
func ValidateStorageClassUpdate(sc, old *api.StorageClass) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&sc.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, immutable(sc.Parameters, old.Parameters, field.NewPath("parameters"))...)
	errs = append(errs, immutable(sc.Provisioner, old.Provisioner, field.NewPath("provisioner"))...)
	errs = append(errs, immutable(sc.ReclaimPolicy, old.ReclaimPolicy, field.NewPath("reclaimPolicy"))...)
	return append(errs, immutable(sc.VolumeBindingMode, old.VolumeBindingMode, field.NewPath("volumeBindingMode"))...)
}

// immutable is the handwritten error of a changed immutable field that a beta declarative
// rule also reports.
func immutable(v, old any, fldPath *field.Path) field.ErrorList {
	return apimachineryvalidation.ValidateImmutableField(v, old, fldPath).WithOrigin("immutable").MarkCoveredByDeclarative()
}

// validateProvisioner: a provisioner (or a VolumeAttributesClass's driver) is required and,
// in lower case, a qualified name.
func validateProvisioner(p string, fldPath *field.Path) field.ErrorList {
	if p == "" {
		return field.ErrorList{field.Required(fldPath, p).MarkCoveredByDeclarative()}
	}
	return core.ValidateQualifiedName(strings.ToLower(p), fldPath)
}

// validateParameters: at most 512 parameters of 256 KiB in all, no empty key; at least one
// when allowEmpty is false.
func validateParameters(params map[string]string, allowEmpty bool, fldPath *field.Path) field.ErrorList {
	if len(params) > maxParametersCount {
		return field.ErrorList{field.TooLong(fldPath, "", maxParametersCount)}
	}
	var errs field.ErrorList
	size := 0
	for k, v := range params {
		if k == "" {
			errs = append(errs, field.Invalid(fldPath, k, "field can not be empty."))
		}
		size += len(k) + len(v)
	}
	if size > maxParametersSize {
		errs = append(errs, field.TooLong(fldPath, "", maxParametersSize))
	}
	if !allowEmpty && len(params) == 0 {
		errs = append(errs, field.Required(fldPath, "must contain at least one key/value pair"))
	}
	return errs
}

// validateAllowedTopologies: each term is valid, and no term repeats another. The server
// starts its list of seen terms with as many empty entries as there are terms, so a term
// without expressions is reported once for each of them too.
func validateAllowedTopologies(terms []apicore.TopologySelectorTerm, fldPath *field.Path) field.ErrorList {
	if len(terms) == 0 {
		return nil
	}
	var errs field.ErrorList
	seen := make([]map[string]sets.Set[string], len(terms), 2*len(terms))
	for i, term := range terms {
		byKey, termErrs := core.ValidateTopologySelectorTerm(term, fldPath.Index(i))
		errs = append(errs, termErrs...)
		for _, s := range seen {
			if equality.Semantic.DeepEqual(byKey, s) {
				errs = append(errs, field.Duplicate(fldPath.Index(i).Child("matchLabelExpressions"), ""))
			}
		}
		seen = append(seen, byKey)
	}
	return errs
}
