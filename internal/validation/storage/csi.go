package storage

import (
	"fmt"
	"math"

	apicore "github.com/ssa-diff/ssa-diff/internal/api/core"
	api "github.com/ssa-diff/ssa-diff/internal/api/storage"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Limits of a CSINode's drivers and a VolumeAttachment's status.
const (
	maxNodeIDLength           = 256
	maxAttachmentMetadataSize = 256 * (1 << 10)
	maxVolumeErrorMessage     = 1024
	// maxVolumeErrorMessageReported is the limit a too long error message is reported
	// with before 1.37: the attachment metadata's (the check is maxVolumeErrorMessage's).
	maxVolumeErrorMessageReported = maxAttachmentMetadataSize
	minTokenExpiration            = 600 // ten minutes
	maxStorageHealthReason        = 256
	maxStorageHealthMessage       = 1024
	maxStorageHealthCondition     = 16
)

// fsGroupPolicies are the supported fsGroupPolicy values, in sorted order.
var fsGroupPolicies = []string{string(api.FileFSGroupPolicy), string(api.NoneFSGroupPolicy), string(api.ReadWriteOnceWithFSTypeFSGroupPolicy)}

// ValidateCSIDriver checks a CSIDriver on the server cfg describes: its metadata and spec.
func ValidateCSIDriver(cfg *serverconfig.Config, d *api.CSIDriver) field.ErrorList {
	errs := core.ValidateObjectMeta(&d.ObjectMeta, false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateCSIDriverSpec(cfg, &d.Spec, field.NewPath("spec"))...)
}

// ValidateCSIDriverUpdate checks an update of a CSIDriver on the server cfg describes:
// attachRequired and the volume lifecycle modes cannot change (rules.md valid.update).
func ValidateCSIDriverUpdate(cfg *serverconfig.Config, d, old *api.CSIDriver) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&d.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateCSIDriverSpec(cfg, &d.Spec, field.NewPath("spec"))...)
	errs = append(errs, apimachineryvalidation.ValidateImmutableField(d.Spec.AttachRequired, old.Spec.AttachRequired, field.NewPath("spec", attachRequiredName(cfg)))...)
	return append(errs, immutable(d.Spec.VolumeLifecycleModes, old.Spec.VolumeLifecycleModes, field.NewPath("spec", "volumeLifecycleModes"))...)
}

// attachRequiredName is the name the server gives spec.attachRequired in its errors: up to
// 1.37 "attachedRequired" (pkg/apis/storage/validation); 1.38 names it right (recorded from
// 1.38.0-beta.0: the validation scenario groups/CSIDriver/V2 attachRequired is immutable).
func attachRequiredName(cfg *serverconfig.Config) string {
	if cfg.AtLeast(38) {
		return "attachRequired"
	}
	return "attachedRequired"
}

// csiDriverDeclarative is a CSIDriver's declarative validation: from 1.38 the beta rule that
// its volume lifecycle modes are immutable (alpha in 1.37), told as null (recorded: the
// validation scenario groups/CSIDriver/V2 lifecycle modes are immutable).
func csiDriverDeclarative(cfg *serverconfig.Config) func(obj, old any) field.ErrorList {
	return func(obj, old any) field.ErrorList {
		if !cfg.AtLeast(38) || old == nil || equality.Semantic.DeepEqual(obj.(*api.CSIDriver).Spec.VolumeLifecycleModes, old.(*api.CSIDriver).Spec.VolumeLifecycleModes) {
			return nil
		}
		return field.ErrorList{immutableChanged(field.NewPath("spec", "volumeLifecycleModes"))}
	}
}

func validateCSIDriverSpec(cfg *serverconfig.Config, spec *api.CSIDriverSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	required := func(set bool, name string) {
		if !set {
			errs = append(errs, field.Required(fldPath.Child(name), ""))
		}
	}
	required(spec.AttachRequired != nil, attachRequiredName(cfg))
	required(spec.PodInfoOnMount != nil, "podInfoOnMount")
	required(spec.StorageCapacity != nil, "storageCapacity")
	if p := spec.FSGroupPolicy; p != nil && *p != api.FileFSGroupPolicy && *p != api.NoneFSGroupPolicy && *p != api.ReadWriteOnceWithFSTypeFSGroupPolicy {
		errs = append(errs, field.NotSupported(fldPath.Child("fsGroupPolicy"), p, fsGroupPolicies))
	}
	errs = append(errs, validateTokenRequests(spec.TokenRequests, fldPath.Child("tokenRequests"))...)
	for _, m := range spec.VolumeLifecycleModes {
		if m != api.VolumeLifecyclePersistent && m != api.VolumeLifecycleEphemeral {
			errs = append(errs, field.NotSupported(fldPath.Child("volumeLifecycleModes"), m, []string{string(api.VolumeLifecyclePersistent), string(api.VolumeLifecycleEphemeral)}))
		}
	}
	// seLinuxMount is required with gate SELinuxMountReadWriteOncePod (on in every supported
	// minor), preventPodSchedulingIfMissing with VolumeLimitScaling (on from 1.37).
	required(spec.SELinuxMount != nil || !cfg.Enabled(features.SELinuxMountReadWriteOncePod), "seLinuxMount")
	if p := spec.NodeAllocatableUpdatePeriodSeconds; p != nil && *p < 10 {
		errs = append(errs, field.Invalid(fldPath.Child("nodeAllocatableUpdatePeriodSeconds"), *p, "must be greater than or equal to 10 seconds"))
	}
	if spec.ServiceAccountTokenInSecrets != nil && len(spec.TokenRequests) == 0 {
		errs = append(errs, field.Invalid(fldPath.Child("serviceAccountTokenInSecrets"), spec.ServiceAccountTokenInSecrets, "serviceAccountTokenInSecrets is set but no tokenRequests are specified"))
	}
	required(spec.PreventPodSchedulingIfMissing != nil || !cfg.Enabled(features.VolumeLimitScaling), "preventPodSchedulingIfMissing")
	return errs
}

// validateTokenRequests: audiences are distinct; expirations last ten minutes to 2^32
// seconds.
func validateTokenRequests(requests []api.TokenRequest, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	audiences := map[string]bool{}
	for i, r := range requests {
		p := fldPath.Index(i)
		if audiences[r.Audience] {
			errs = append(errs, field.Duplicate(p.Child("audience"), r.Audience))
			continue
		}
		audiences[r.Audience] = true
		if r.ExpirationSeconds == nil {
			continue
		}
		if *r.ExpirationSeconds < minTokenExpiration {
			errs = append(errs, field.Invalid(p.Child("expirationSeconds"), *r.ExpirationSeconds, "may not specify a duration less than 10 minutes"))
		}
		if *r.ExpirationSeconds > 1<<32 {
			errs = append(errs, field.Invalid(p.Child("expirationSeconds"), *r.ExpirationSeconds, "may not specify a duration larger than 2^32 seconds"))
		}
	}
	return errs
}

// ValidateCSINode checks a CSINode: named as its node, with distinct, valid drivers.
func ValidateCSINode(cfg *serverconfig.Config, n *api.CSINode) field.ErrorList {
	errs := core.ValidateObjectMeta(&n.ObjectMeta, false, core.ValidateNodeName, field.NewPath("metadata"))
	fldPath := field.NewPath("spec", "drivers")
	names := sets.New[string]()
	for i, d := range n.Spec.Drivers {
		errs = append(errs, validateCSINodeDriver(cfg, d, names, fldPath.Index(i))...)
	}
	return errs
}

func validateCSINodeDriver(cfg *serverconfig.Config, d api.CSINodeDriver, names sets.Set[string], fldPath *field.Path) field.ErrorList {
	errs := core.ValidateCSIDriverName(cfg, d.Name, fldPath.Child("name"))
	if d.NodeID == "" {
		errs = append(errs, field.Required(fldPath.Child("nodeID"), d.NodeID))
	}
	if len(d.NodeID) > maxNodeIDLength {
		errs = append(errs, field.Invalid(fldPath.Child("nodeID"), d.NodeID, fmt.Sprintf("must be %d characters or less", maxNodeIDLength)))
	}
	if a := d.Allocatable; a != nil && a.Count != nil {
		errs = append(errs, core.ValidateNonnegativeField(int64(*a.Count), fldPath.Child("allocatable", "count"))...)
	}
	if names.Has(d.Name) {
		errs = append(errs, field.Duplicate(fldPath.Child("name"), d.Name))
	}
	names.Insert(d.Name)
	keys := sets.New[string]()
	for _, k := range d.TopologyKeys {
		if k == "" {
			errs = append(errs, field.Required(fldPath, k))
		}
		if keys.Has(k) {
			errs = append(errs, field.Duplicate(fldPath, k))
		}
		keys.Insert(k)
		errs = append(errs, core.ValidateQualifiedName(k, fldPath)...)
	}
	return errs
}

// ValidateCSINodeUpdate checks an update of a CSINode on the server cfg describes: a driver
// that stays keeps its node ID and topology keys, and its allocatable count unless gate
// MutableCSINodeAllocatableCount (on from 1.35) lets it change (rules.md valid.update).
func ValidateCSINodeUpdate(cfg *serverconfig.Config, n, old *api.CSINode) field.ErrorList {
	var errs field.ErrorList
	if !cfg.AtLeast(36) {
		// Kubernetes 1.36 changed the strategy's ValidateUpdate to the update checks alone;
		// before, it validated the new object as a create first, which the update checks
		// start with too (pkg/registry/storage/csinode/strategy.go ValidateUpdate in 1.34,
		// 1.35): every error is listed twice.
		errs = ValidateCSINode(cfg, n)
	}
	errs = append(errs, ValidateCSINode(cfg, n)...)
	mutableCount := cfg.Enabled(features.MutableCSINodeAllocatableCount)
	for _, od := range old.Spec.Drivers {
		for _, nd := range n.Spec.Drivers {
			if od.Name != nd.Name {
				continue
			}
			oldCopy, newCopy := od, nd
			if mutableCount {
				oldCopy.Allocatable, newCopy.Allocatable = nil, nil
			}
			// Kubernetes 1.32 reports a changed driver at the path "CSINodeDriver" (1.32.13's
			// ValidateCSINodeUpdate), 1.33 at spec.drivers.
			p := field.NewPath("spec", "drivers")
			if !cfg.AtLeast(33) {
				p = field.NewPath("CSINodeDriver")
			}
			errs = append(errs, apimachineryvalidation.ValidateImmutableField(&newCopy, &oldCopy, p)...)
		}
	}
	return errs
}

// ValidateCSINodeStatusUpdate checks an update of a CSINode's status: the storage health
// it reports, one entry per driver.
func ValidateCSINodeStatusUpdate(cfg *serverconfig.Config, n, old *api.CSINode) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&n.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	fldPath := field.NewPath("status", "storageHealth")
	seen := sets.New[string]()
	for i, h := range n.Status.StorageHealth {
		p := fldPath.Index(i)
		if seen.Has(h.Name) {
			errs = append(errs, field.Duplicate(p, h.Name))
		}
		seen.Insert(h.Name)
		errs = append(errs, validateStorageHealth(cfg, h, p)...)
	}
	return errs
}

// The storage health statuses and access modes, in sorted order.
var (
	healthStatuses    = []api.StorageHealthStatusType{api.StorageDegraded, api.StorageUnreachable}
	healthAccessModes = []apicore.PersistentVolumeAccessMode{apicore.ReadOnlyMany, apicore.ReadWriteMany, apicore.ReadWriteOnce, apicore.ReadWriteOncePod}
)

func validateStorageHealth(cfg *serverconfig.Config, h api.StorageHealth, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if h.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), ""))
	} else {
		errs = append(errs, core.ValidateCSIDriverName(cfg, h.Name, fldPath.Child("name"))...)
	}
	if len(h.HealthConditions) > maxStorageHealthCondition {
		return append(errs, field.TooMany(fldPath.Child("healthConditions"), len(h.HealthConditions), maxStorageHealthCondition))
	}
	for i, c := range h.HealthConditions {
		p := fldPath.Child("healthConditions").Index(i)
		if c.Status != api.StorageDegraded && c.Status != api.StorageUnreachable {
			errs = append(errs, field.NotSupported(p.Child("status"), c.Status, healthStatuses))
		}
		if c.Reason == "" {
			errs = append(errs, field.Required(p.Child("reason"), ""))
		} else {
			for _, msg := range metav1validation.IsValidConditionReason(c.Reason) {
				errs = append(errs, field.Invalid(p.Child("reason"), c.Reason, msg))
			}
			if len(c.Reason) > maxStorageHealthReason {
				errs = append(errs, field.TooLong(p.Child("reason"), c.Reason, maxStorageHealthReason))
			}
		}
		if len(c.Message) > maxStorageHealthMessage {
			errs = append(errs, field.TooLong(p.Child("message"), c.Message, maxStorageHealthMessage))
		}
		if m := c.AccessMode; m != nil && *m != apicore.ReadWriteOnce && *m != apicore.ReadOnlyMany && *m != apicore.ReadWriteMany && *m != apicore.ReadWriteOncePod {
			errs = append(errs, field.NotSupported(p.Child("accessMode"), *m, healthAccessModes))
		}
		if m := c.VolumeMode; m != nil && *m != apicore.PersistentVolumeFilesystem && *m != apicore.PersistentVolumeBlock {
			errs = append(errs, field.NotSupported(p.Child("volumeMode"), *m, []apicore.PersistentVolumeMode{apicore.PersistentVolumeFilesystem, apicore.PersistentVolumeBlock}))
		}
	}
	return errs
}

// ValidateVolumeAttachment checks a new VolumeAttachment on the server cfg describes: its
// attacher (a CSI driver name), a source that is either a PV name or an inline PV spec, a
// node name, and its status.
func ValidateVolumeAttachment(cfg *serverconfig.Config, va *api.VolumeAttachment) field.ErrorList {
	if !cfg.AtLeast(36) {
		// Kubernetes 1.36 moved the checks of the attacher's driver name and of the PV name
		// into the validation every write runs. Before, that one only required an attacher,
		// and a create then checked both, after the status (pkg/registry/storage/
		// volumeattachment/strategy.go Validate, pkg/apis/storage/validation/validation.go
		// ValidateVolumeAttachmentV1 in 1.34, 1.35): an empty attacher is Required twice.
		errs := validateVolumeAttachment(cfg, va)
		errs = append(errs, core.ValidateCSIDriverName(cfg, va.Spec.Attacher, field.NewPath("spec.attacher"))...)
		return append(errs, persistentVolumeName(va)...)
	}
	return append(validateVolumeAttachment(cfg, va), persistentVolumeName(va)...)
}

// validateVolumeAttachment is the validation of a VolumeAttachment every write runs but the
// PV name's.
func validateVolumeAttachment(cfg *serverconfig.Config, va *api.VolumeAttachment) field.ErrorList {
	errs := core.ValidateObjectMeta(&va.ObjectMeta, false, core.ValidateClassName, field.NewPath("metadata"))
	spec := field.NewPath("spec")
	// Kubernetes 1.36 checks the attacher's driver name here; before, this only required one.
	if cfg.AtLeast(36) {
		errs = append(errs, attacherName(cfg, va.Spec.Attacher, spec.Child("attacher"))...)
	} else if va.Spec.Attacher == "" {
		errs = append(errs, field.Required(spec.Child("attacher"), ""))
	}
	src, srcPath := &va.Spec.Source, spec.Child("source")
	switch {
	case src.InlineVolumeSpec == nil && src.PersistentVolumeName == nil:
		errs = append(errs, field.Required(srcPath, "must specify exactly one of inlineVolumeSpec and persistentVolumeName"))
	case src.InlineVolumeSpec != nil && src.PersistentVolumeName != nil:
		errs = append(errs, field.Forbidden(srcPath, "must specify exactly one of inlineVolumeSpec and persistentVolumeName"))
	case src.PersistentVolumeName != nil:
		if *src.PersistentVolumeName == "" {
			errs = append(errs, field.Required(srcPath.Child("persistentVolumeName"), "must specify non empty persistentVolumeName"))
		}
	default:
		errs = append(errs, core.ValidatePersistentVolumeSpec(src.InlineVolumeSpec, "", true, srcPath.Child("inlineVolumeSpec"), core.PersistentVolumeSpecValidationOptions{Server: cfg})...)
	}
	for _, msg := range core.ValidateNodeName(va.Spec.NodeName, false) {
		errs = append(errs, field.Invalid(spec.Child("nodeName"), va.Spec.NodeName, msg))
	}
	status := field.NewPath("status")
	size := 0
	for k, v := range va.Status.AttachmentMetadata {
		size += len(k) + len(v)
	}
	if size > maxAttachmentMetadataSize {
		errs = append(errs, field.TooLong(status.Child("attachmentMetadata"), "", maxAttachmentMetadataSize))
	}
	errs = append(errs, validateVolumeError(cfg, va.Status.AttachError, status.Child("attachError"))...)
	return append(errs, validateVolumeError(cfg, va.Status.DetachError, status.Child("detachError"))...)
}

// persistentVolumeName checks the PV name of a VolumeAttachment's source.
func persistentVolumeName(va *api.VolumeAttachment) field.ErrorList {
	var errs field.ErrorList
	if n := va.Spec.Source.PersistentVolumeName; n != nil {
		for _, msg := range core.ValidatePersistentVolumeName(*n, false) {
			errs = append(errs, field.Invalid(field.NewPath("spec.source.persistentVolumeName"), *n, msg))
		}
	}
	return errs
}

// attacherName is the driver-name check of an attacher, its errors marked as the ones the
// beta declarative rules report too.
func attacherName(cfg *serverconfig.Config, name string, fldPath *field.Path) field.ErrorList {
	errs := core.ValidateCSIDriverName(cfg, name, fldPath)
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeTooLong:
			e.WithOrigin("maxLength")
		case field.ErrorTypeInvalid:
			e.WithOrigin("format=k8s-long-name-caseless")
		}
		e.MarkCoveredByDeclarative()
	}
	return errs
}

func validateVolumeError(cfg *serverconfig.Config, e *api.VolumeError, fldPath *field.Path) field.ErrorList {
	if e == nil {
		return nil
	}
	var errs field.ErrorList
	if len(e.Message) > maxVolumeErrorMessage {
		// Kubernetes 1.37 reports the limit checked (pkg/apis/storage/validation/validation.go
		// validateVolumeError in 1.34, 1.35, 1.36: the attachment metadata's).
		reported := maxVolumeErrorMessage
		if !cfg.AtLeast(37) {
			reported = maxVolumeErrorMessageReported
		}
		errs = append(errs, field.TooLong(fldPath.Child("message"), "", reported))
	}
	if e.ErrorCode != nil && *e.ErrorCode < 0 {
		errs = append(errs, field.Invalid(fldPath.Child("errorCode"), *e.ErrorCode, validation.InclusiveRangeError(0, math.MaxInt32)))
	}
	return errs
}

// ValidateVolumeAttachmentUpdate checks an update of a VolumeAttachment (or of its status)
// on the server cfg describes: the new object is valid and its spec does not change
// (rules.md valid.update).
func ValidateVolumeAttachmentUpdate(cfg *serverconfig.Config, va, old *api.VolumeAttachment) field.ErrorList {
	var errs field.ErrorList
	if !cfg.AtLeast(35) {
		// Kubernetes 1.35 changed the strategy's ValidateUpdate to the update checks alone;
		// 1.34 validated the new object first, which the update checks start with too
		// (pkg/registry/storage/volumeattachment/strategy.go ValidateUpdate in 1.34).
		errs = validateVolumeAttachment(cfg, va)
	}
	errs = append(errs, validateVolumeAttachment(cfg, va)...)
	if cfg.AtLeast(36) {
		errs = append(errs, persistentVolumeName(va)...)
	}
	return append(errs, immutable(va.Spec, old.Spec, field.NewPath("spec"))...)
}

// ValidateCSIStorageCapacity checks a CSIStorageCapacity: its node topology selector, its
// class name and a capacity that is not negative; allowInvalidLabelValue keeps selector
// values the stored object already had.
func ValidateCSIStorageCapacity(c *api.CSIStorageCapacity, allowInvalidLabelValue bool) field.ErrorList {
	errs := core.ValidateObjectMeta(&c.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	opts := metav1validation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: allowInvalidLabelValue}
	errs = append(errs, wellformed.ValidateLabelSelector(c.NodeTopology, opts, field.NewPath("nodeTopology"))...)
	for _, msg := range core.ValidateClassName(c.StorageClassName, false) {
		errs = append(errs, field.Invalid(field.NewPath("storageClassName"), c.StorageClassName, msg))
	}
	if c.Capacity != nil {
		errs = append(errs, core.ValidateNonnegativeQuantity(*c.Capacity, field.NewPath("capacity"))...)
	}
	return errs
}

// ValidateCSIStorageCapacityUpdate checks an update of a CSIStorageCapacity: the new object
// is valid and its topology and class do not change (rules.md valid.update).
func ValidateCSIStorageCapacityUpdate(c, old *api.CSIStorageCapacity) field.ErrorList {
	stored := old.NodeTopology != nil && len(wellformed.ValidateLabelSelector(old.NodeTopology, metav1validation.LabelSelectorValidationOptions{}, nil)) > 0
	errs := ValidateCSIStorageCapacity(c, stored)
	errs = append(errs, core.ValidateObjectMetaUpdate(&c.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	if !equality.Semantic.DeepEqual(c.NodeTopology, old.NodeTopology) {
		errs = append(errs, field.Invalid(field.NewPath("nodeTopology"), c.NodeTopology, "field is immutable"))
	}
	if c.StorageClassName != old.StorageClassName {
		errs = append(errs, field.Invalid(field.NewPath("storageClassName"), c.StorageClassName, "field is immutable"))
	}
	return errs
}

// ValidateVolumeAttributesClass checks a VolumeAttributesClass: a driver name and at least
// one parameter.
func ValidateVolumeAttributesClass(c *api.VolumeAttributesClass) field.ErrorList {
	errs := core.ValidateObjectMeta(&c.ObjectMeta, false, core.ValidateClassName, field.NewPath("metadata"))
	errs = append(errs, validateProvisioner(c.DriverName, field.NewPath("driverName"))...)
	return append(errs, validateParameters(c.Parameters, false, field.NewPath("parameters"))...)
}

// ValidateVolumeAttributesClassUpdate checks an update of a VolumeAttributesClass on the
// server cfg describes: neither the driver nor the parameters may change (rules.md
// valid.update), and the new object is valid.
func ValidateVolumeAttributesClassUpdate(cfg *serverconfig.Config, c, old *api.VolumeAttributesClass) field.ErrorList {
	var errs field.ErrorList
	if !cfg.AtLeast(35) {
		// Kubernetes 1.35 changed the strategy's ValidateUpdate to the update checks alone;
		// 1.34 validated the new object first, which the update checks end with too
		// (pkg/registry/storage/volumeattributesclass/strategy.go ValidateUpdate in 1.34).
		errs = ValidateVolumeAttributesClass(c)
	}
	errs = append(errs, core.ValidateObjectMetaUpdate(&c.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	if c.DriverName != old.DriverName {
		errs = append(errs, field.Forbidden(field.NewPath("driverName"), "updates to driverName are forbidden."))
	}
	if !mapsIdentical(c.Parameters, old.Parameters) {
		errs = append(errs, field.Forbidden(field.NewPath("parameters"), "updates to parameters are forbidden."))
	}
	return append(errs, ValidateVolumeAttributesClass(c)...)
}

// mapsIdentical compares as reflect.DeepEqual does: a nil map differs from an empty one.
func mapsIdentical(a, b map[string]string) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
