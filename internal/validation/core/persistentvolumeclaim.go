package core

import (
	"fmt"
	"reflect"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	unversionedvalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// PersistentVolumeClaim, and the claim spec that ephemeral volumes and StatefulSet claim
// templates embed.

// PersistentVolumeClaimSpecValidationOptions are the server's switches for a claim spec.
type PersistentVolumeClaimSpecValidationOptions struct {
	// EnableRecoverFromExpansionFailure allows shrinking a request down to the capacity.
	EnableRecoverFromExpansionFailure bool
	// AllowInvalidLabelValueInSelector keeps a selector the stored claim already had.
	AllowInvalidLabelValueInSelector bool
	// AllowInvalidAPIGroupInDataSourceOrRef keeps data source groups of a stored claim.
	AllowInvalidAPIGroupInDataSourceOrRef bool
	// EnableVolumeAttributesClass checks volumeAttributesClassName.
	EnableVolumeAttributesClass bool
}

// ValidationOptionsForPersistentVolumeClaimCreate are the options of the server cfg for a
// new claim (its RecoverVolumeExpansionFailure and VolumeAttributesClass gates).
func ValidationOptionsForPersistentVolumeClaimCreate(cfg *serverconfig.Config) PersistentVolumeClaimSpecValidationOptions {
	return PersistentVolumeClaimSpecValidationOptions{
		EnableRecoverFromExpansionFailure: cfg.Enabled(features.RecoverVolumeExpansionFailure),
		EnableVolumeAttributesClass:       cfg.Enabled(features.VolumeAttributesClass),
	}
}

// ValidationOptionsForPersistentVolumeClaim are the options of the server cfg for a claim
// written over oldPvc (nil on a create): what the stored claim already has stays allowed.
func ValidationOptionsForPersistentVolumeClaim(cfg *serverconfig.Config, pvc, oldPvc *api.PersistentVolumeClaim) PersistentVolumeClaimSpecValidationOptions {
	opts := ValidationOptionsForPersistentVolumeClaimCreate(cfg)
	if oldPvc == nil {
		return opts
	}
	old := &oldPvc.Spec
	opts.AllowInvalidAPIGroupInDataSourceOrRef = (old.DataSource != nil && old.DataSource.APIGroup != nil) ||
		(old.DataSourceRef != nil && old.DataSourceRef.APIGroup != nil)
	if old.VolumeAttributesClassName != nil {
		opts.EnableVolumeAttributesClass = true
	}
	if len(wellformed.ValidateLabelSelector(old.Selector, unversionedvalidation.LabelSelectorValidationOptions{}, nil)) > 0 {
		opts.AllowInvalidLabelValueInSelector = true
	}
	if oldPvc.Status.AllocatedResources != nil || oldPvc.Status.AllocatedResourceStatuses != nil {
		opts.EnableRecoverFromExpansionFailure = true
	}
	return opts
}

// ValidationOptionsForPersistentVolumeClaimTemplate are the options of the server cfg for
// a claim template written over oldTemplate (nil when new).
func ValidationOptionsForPersistentVolumeClaimTemplate(cfg *serverconfig.Config, template, oldTemplate *api.PersistentVolumeClaimTemplate) PersistentVolumeClaimSpecValidationOptions {
	opts := PersistentVolumeClaimSpecValidationOptions{EnableVolumeAttributesClass: cfg.Enabled(features.VolumeAttributesClass)}
	if oldTemplate != nil && len(wellformed.ValidateLabelSelector(oldTemplate.Spec.Selector, unversionedvalidation.LabelSelectorValidationOptions{}, nil)) > 0 {
		opts.AllowInvalidLabelValueInSelector = true
	}
	return opts
}

// ValidatePersistentVolumeClaimTemplate checks a claim template: labels and annotations
// only in its metadata, and the spec.
func ValidatePersistentVolumeClaimTemplate(t *api.PersistentVolumeClaimTemplate, fldPath *field.Path, opts PersistentVolumeClaimSpecValidationOptions) field.ErrorList {
	errs := ValidateTemplateObjectMeta(&t.ObjectMeta, fldPath.Child("metadata"))
	return append(errs, ValidatePersistentVolumeClaimSpec(&t.Spec, fldPath.Child("spec"), opts)...)
}

var templateMetaFields = &lazySet[string]{items: []string{"Annotations", "Labels"}}

// ValidateTemplateObjectMeta: the metadata of an embedded template has valid labels and
// annotations and nothing else.
func ValidateTemplateObjectMeta(meta *metav1.ObjectMeta, fldPath *field.Path) field.ErrorList {
	errs := wellformed.ValidateAnnotations(meta.Annotations, fldPath.Child("annotations"))
	errs = append(errs, wellformed.ValidateLabels(meta.Labels, fldPath.Child("labels"))...)
	return append(errs, validateFieldAllowList(*meta, templateMetaFields.get(), "cannot be set", fldPath)...)
}

var (
	supportedAccessModes = &lazySet[api.PersistentVolumeAccessMode]{items: []api.PersistentVolumeAccessMode{api.ReadWriteOnce, api.ReadOnlyMany, api.ReadWriteMany, api.ReadWriteOncePod}}
	supportedVolumeModes = &lazySet[api.PersistentVolumeMode]{items: []api.PersistentVolumeMode{api.PersistentVolumeBlock, api.PersistentVolumeFilesystem}}
)

// validateAccessModes: known modes, and ReadWriteOncePod alone.
func validateAccessModes(modes []api.PersistentVolumeAccessMode, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	rwop, other := false, false
	for _, m := range modes {
		if !supportedAccessModes.get().Has(m) {
			errs = append(errs, field.NotSupported(fldPath, m, sets.List(supportedAccessModes.get())))
		}
		if m == api.ReadWriteOncePod {
			rwop = true
		} else if supportedAccessModes.get().Has(m) {
			other = true
		}
	}
	if rwop && other {
		errs = append(errs, field.Forbidden(fldPath, "may not use ReadWriteOncePod with other access modes"))
	}
	return errs
}

// ValidatePersistentVolumeClaimSpec checks a claim spec.
func ValidatePersistentVolumeClaimSpec(spec *api.PersistentVolumeClaimSpec, fldPath *field.Path, opts PersistentVolumeClaimSpecValidationOptions) field.ErrorList {
	var errs field.ErrorList
	if len(spec.AccessModes) == 0 {
		errs = append(errs, field.Required(fldPath.Child("accessModes"), "at least 1 access mode is required"))
	}
	if spec.Selector != nil {
		errs = append(errs, wellformed.ValidateLabelSelector(spec.Selector,
			unversionedvalidation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: opts.AllowInvalidLabelValueInSelector},
			fldPath.Child("selector"))...)
	}
	errs = append(errs, validateAccessModes(spec.AccessModes, fldPath.Child("accessModes"))...)
	storagePath := fldPath.Child("resources").Key(string(api.ResourceStorage))
	if storage, ok := spec.Resources.Requests[api.ResourceStorage]; !ok {
		errs = append(errs, field.Required(storagePath, ""))
	} else if e := ValidatePositiveQuantityValue(storage, storagePath); len(e) > 0 {
		errs = append(errs, e...)
	} else {
		errs = append(errs, ValidateResourceQuantityValue(api.ResourceStorage, storage, storagePath)...)
	}
	if spec.StorageClassName != nil && *spec.StorageClassName != "" {
		for _, msg := range ValidateClassName(*spec.StorageClassName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("storageClassName"), *spec.StorageClassName, msg))
		}
	}
	if spec.VolumeMode != nil && !supportedVolumeModes.get().Has(*spec.VolumeMode) {
		errs = append(errs, field.NotSupported(fldPath.Child("volumeMode"), *spec.VolumeMode, sets.List(supportedVolumeModes.get())))
	}
	if ds := spec.DataSource; ds != nil {
		errs = append(errs, validateDataSource(ds.Name, ds.Kind, ds.APIGroup, fldPath.Child("dataSource"), opts.AllowInvalidAPIGroupInDataSourceOrRef)...)
	}
	if ref := spec.DataSourceRef; ref != nil {
		p := fldPath.Child("dataSourceRef")
		errs = append(errs, validateDataSource(ref.Name, ref.Kind, ref.APIGroup, p, opts.AllowInvalidAPIGroupInDataSourceOrRef)...)
		if ref.Namespace != nil && *ref.Namespace != "" {
			for _, msg := range ValidateNamespaceName(*ref.Namespace, false) {
				errs = append(errs, field.Invalid(p.Child("namespace"), *ref.Namespace, msg))
			}
		}
	}
	if ref := spec.DataSourceRef; ref != nil && ref.Namespace != nil && *ref.Namespace != "" {
		if spec.DataSource != nil {
			errs = append(errs, field.Invalid(fldPath, fldPath.Child("dataSource"), "may not be specified when dataSourceRef.namespace is specified"))
		}
	} else if spec.DataSource != nil && spec.DataSourceRef != nil {
		ds, ref := spec.DataSource, spec.DataSourceRef
		if !reflect.DeepEqual(ds.APIGroup, ref.APIGroup) || ds.Kind != ref.Kind || ds.Name != ref.Name {
			errs = append(errs, field.Invalid(fldPath, fldPath.Child("dataSource"), "must match dataSourceRef"))
		}
	}
	if c := spec.VolumeAttributesClassName; c != nil && *c != "" && opts.EnableVolumeAttributesClass {
		for _, msg := range ValidateClassName(*c, false) {
			errs = append(errs, field.Invalid(fldPath.Child("volumeAttributesClassName"), *c, msg))
		}
	}
	return errs
}

// validateDataSource checks a dataSource or dataSourceRef's name, kind and group.
func validateDataSource(name, kind string, apiGroup *string, fldPath *field.Path, allowInvalidGroup bool) field.ErrorList {
	errs := requiredString(name, fldPath.Child("name"))
	errs = append(errs, requiredString(kind, fldPath.Child("kind"))...)
	group := ""
	if apiGroup != nil {
		group = *apiGroup
	}
	if group == "" && kind != "PersistentVolumeClaim" {
		errs = append(errs, field.Invalid(fldPath, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
	}
	if group != "" && !allowInvalidGroup {
		for _, msg := range wellformed.IsDNS1123Subdomain(group) {
			errs = append(errs, field.Invalid(fldPath.Child("apiGroup"), group, msg))
		}
	}
	return errs
}

// ValidatePersistentVolumeClaim checks a claim: metadata and spec.
func ValidatePersistentVolumeClaim(pvc *api.PersistentVolumeClaim, opts PersistentVolumeClaimSpecValidationOptions) field.ErrorList {
	errs := ValidateObjectMeta(&pvc.ObjectMeta, true, ValidatePersistentVolumeName, field.NewPath("metadata"))
	return append(errs, ValidatePersistentVolumeClaimSpec(&pvc.Spec, field.NewPath("spec"), opts)...)
}

// ValidatePersistentVolumeClaimUpdate checks an update of a claim: its spec is immutable
// except the volume name once, the storage class coming from the beta annotation or from
// nil, and the storage request and attributes class of a bound claim (rules.md valid.update). The
// refusal carries a unified diff of the two internal specs, as the server prints it.
func ValidatePersistentVolumeClaimUpdate(newPvc, oldPvc *api.PersistentVolumeClaim, opts PersistentVolumeClaimSpecValidationOptions) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&newPvc.ObjectMeta, &oldPvc.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, ValidatePersistentVolumeClaim(newPvc, opts)...)
	oldSpec, newSpec := oldPvc.Spec, newPvc.Spec
	if oldPvc.Spec.VolumeName == "" {
		oldSpec.VolumeName = newSpec.VolumeName
	}
	if storageClassUpgradeFromAnnotation(oldPvc.Annotations, newPvc.Annotations, oldSpec.StorageClassName, newSpec.StorageClassName) {
		newSpec.StorageClassName = nil
	} else {
		const annotation = api.BetaStorageClassAnnotation
		if newPvc.Annotations[annotation] != oldPvc.Annotations[annotation] {
			errs = append(errs, field.Invalid(field.NewPath("metadata").Child("annotations", annotation), newPvc.Annotations[annotation], fieldImmutableErrorMsg))
		}
		if storageClassUpgradeFromNil(oldPvc.Annotations, oldPvc.Spec.StorageClassName, newPvc.Spec.StorageClassName) {
			newSpec.StorageClassName = oldSpec.StorageClassName
		}
	}
	bound := newPvc.Status.Phase == api.ClaimBound
	if bound && newSpec.Resources.Requests != nil {
		requests := make(api.ResourceList, len(newSpec.Resources.Requests)+1)
		for k, v := range newSpec.Resources.Requests {
			requests[k] = v
		}
		requests[api.ResourceStorage] = oldPvc.Spec.Resources.Requests[api.ResourceStorage]
		newSpec.Resources.Requests = requests
	}
	if bound {
		newSpec.VolumeAttributesClassName = oldSpec.VolumeAttributesClassName
	}
	oldSize := oldPvc.Spec.Resources.Requests[api.ResourceStorage]
	newSize := newPvc.Spec.Resources.Requests[api.ResourceStorage]
	statusSize := oldPvc.Status.Capacity[api.ResourceStorage]
	if !equality.Semantic.DeepEqual(newSpec, oldSpec) {
		errs = append(errs, field.Forbidden(field.NewPath("spec"), fmt.Sprintf("spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n%v", diff.Diff(oldSpec, newSpec))))
	}
	if newSize.Cmp(oldSize) < 0 {
		storagePath := field.NewPath("spec", "resources", "requests", "storage")
		switch {
		case !opts.EnableRecoverFromExpansionFailure:
			errs = append(errs, field.Forbidden(storagePath, "field can not be less than previous value"))
		case newSize.Cmp(statusSize) <= 0:
			errs = append(errs, field.Forbidden(storagePath, "field can not be less than status.capacity"))
		}
	}
	errs = append(errs, ValidateImmutableField(newPvc.Spec.VolumeMode, oldPvc.Spec.VolumeMode, field.NewPath("volumeMode"))...)
	if !equality.Semantic.DeepEqual(oldPvc.Spec.VolumeAttributesClassName, newPvc.Spec.VolumeAttributesClassName) && opts.EnableVolumeAttributesClass &&
		oldPvc.Status.CurrentVolumeAttributesClassName != nil {
		p := field.NewPath("spec", "volumeAttributesClassName")
		switch {
		case newPvc.Spec.VolumeAttributesClassName == nil:
			errs = append(errs, field.Forbidden(p, "update to nil is forbidden when status.currentVolumeAttributesClassName is not nil"))
		case *newPvc.Spec.VolumeAttributesClassName == "":
			errs = append(errs, field.Forbidden(p, "update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil"))
		}
	}
	return errs
}

// storageClassUpgradeFromAnnotation: the old claim named its class only in the beta
// annotation and the new one moves the same class to the field.
func storageClassUpgradeFromAnnotation(oldAnnotations, newAnnotations map[string]string, oldName, newName *string) bool {
	oldClass, oldSet := oldAnnotations[api.BetaStorageClassAnnotation]
	newClass, newSet := newAnnotations[api.BetaStorageClassAnnotation]
	return oldSet && oldName == nil && newName != nil && *newName == oldClass && (!newSet || newClass == oldClass)
}

// storageClassUpgradeFromNil: a class may be set where there was none, agreeing with the
// old beta annotation if any.
func storageClassUpgradeFromNil(oldAnnotations map[string]string, oldName, newName *string) bool {
	oldClass, oldSet := oldAnnotations[api.BetaStorageClassAnnotation]
	return newName != nil && oldName == nil && (!oldSet || *newName == oldClass)
}

var resizeStatuses = &lazySet[api.ClaimResourceStatus]{items: []api.ClaimResourceStatus{api.PersistentVolumeClaimControllerResizeInProgress, api.PersistentVolumeClaimControllerResizeInfeasible,
	api.PersistentVolumeClaimNodeResizePending, api.PersistentVolumeClaimNodeResizeInProgress, api.PersistentVolumeClaimNodeResizeInfeasible}}

// validatePersistentVolumeClaimResourceKey: a qualified name, "storage" if native.
func validatePersistentVolumeClaimResourceKey(value string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range wellformed.IsQualifiedName(value) {
		errs = append(errs, field.Invalid(fldPath, value, msg))
	}
	if len(errs) != 0 {
		return errs
	}
	if isNativeResource(api.ResourceName(value)) && api.ResourceName(value) != api.ResourceStorage {
		errs = append(errs, field.NotSupported(fldPath, value, []api.ResourceName{api.ResourceStorage}))
	}
	return errs
}

// ValidatePersistentVolumeClaimStatusUpdate checks an update through /status.
func ValidatePersistentVolumeClaimStatusUpdate(newPvc, oldPvc *api.PersistentVolumeClaim, opts PersistentVolumeClaimSpecValidationOptions) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&newPvc.ObjectMeta, &oldPvc.ObjectMeta, field.NewPath("metadata"))
	if newPvc.ResourceVersion == "" {
		errs = append(errs, field.Required(field.NewPath("resourceVersion"), ""))
	}
	if len(newPvc.Spec.AccessModes) == 0 {
		errs = append(errs, field.Required(field.NewPath("Spec", "accessModes"), ""))
	}
	capPath := field.NewPath("status", "capacity")
	for r, q := range newPvc.Status.Capacity {
		errs = append(errs, validateBasicResource(q, capPath.Key(string(r)))...)
	}
	if hs := newPvc.Status.HealthStatus; hs != nil {
		errs = append(errs, validateVolumeHealthConditions(hs.HealthConditions, field.NewPath("status", "healthStatus", "healthConditions"))...)
	}
	if opts.EnableRecoverFromExpansionFailure {
		statusPath := field.NewPath("status", "allocatedResourceStatuses")
		for k, v := range newPvc.Status.AllocatedResourceStatuses {
			errs = append(errs, validatePersistentVolumeClaimResourceKey(string(k), statusPath)...)
			if !resizeStatuses.get().Has(v) {
				errs = append(errs, field.NotSupported(statusPath, k, sets.List(resizeStatuses.get())))
			}
		}
		allocPath := field.NewPath("status", "allocatedResources")
		for r, q := range newPvc.Status.AllocatedResources {
			if e := validatePersistentVolumeClaimResourceKey(string(r), allocPath); len(e) > 0 {
				errs = append(errs, e...)
				continue
			}
			if e := validateBasicResource(q, allocPath.Key(string(r))); len(e) > 0 {
				errs = append(errs, e...)
			} else {
				errs = append(errs, ValidateResourceQuantityValue(api.ResourceStorage, q, allocPath.Key(string(r)))...)
			}
		}
	}
	return errs
}

// validateVolumeHealthConditions: a reason, when set, is a valid condition reason.
func validateVolumeHealthConditions(conditions []api.VolumeHealthCondition, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, c := range conditions {
		if c.Reason == "" {
			continue
		}
		for _, msg := range unversionedvalidation.IsValidConditionReason(c.Reason) {
			errs = append(errs, field.Invalid(fldPath.Index(i).Child("reason"), c.Reason, msg))
		}
	}
	return errs
}
