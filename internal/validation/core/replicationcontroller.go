package core

import (
	"context"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// PodTemplate and ReplicationController.

// ValidatePodTemplate checks a PodTemplate: metadata and template.
func ValidatePodTemplate(t *api.PodTemplate, opts PodValidationOptions) field.ErrorList {
	errs := ValidateObjectMeta(&t.ObjectMeta, true, ValidatePodName, field.NewPath("metadata"))
	return append(errs, ValidatePodTemplateSpec(&t.Template, field.NewPath("template"), opts)...)
}

// ValidatePodTemplateUpdate checks an update of a PodTemplate (its template may change).
func ValidatePodTemplateUpdate(t, old *api.PodTemplate, opts PodValidationOptions) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&t.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, ValidatePodTemplateSpec(&t.Template, field.NewPath("template"), opts)...)
}

// ValidateReplicationController checks a new ReplicationController. Its name, replicas
// and minReadySeconds errors are covered by declarative validation (beta in 1.37): the
// 1.37 registry reports the declarative ones instead, after the others.
func ValidateReplicationController(rc *api.ReplicationController, opts PodValidationOptions) field.ErrorList {
	if !opts.Server.AtLeast(35) {
		// Kubernetes 1.35 checked the name with validate.LongName, through
		// ValidateObjectMetaWithOpts, which leaves generateName alone
		// (pkg/apis/core/validation/validation.go ValidateReplicationController,
		// v1.34.4:6703 → v1.35.4:6969-6973): 1.34's ValidateObjectMeta with
		// NameIsDNSSubdomain checks generateName as a name prefix too. The name's
		// messages are the same.
		errs := ValidateObjectMeta(&rc.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
		return append(errs, ValidateReplicationControllerSpec(&rc.Spec, nil, field.NewPath("spec"), opts)...)
	}
	longName := func(p *field.Path, name string) field.ErrorList {
		return validate.LongName(context.Background(), operation.Operation{}, p, &name, nil).MarkCoveredByDeclarative()
	}
	errs := ValidateObjectMetaWithOpts(&rc.ObjectMeta, true, longName, field.NewPath("metadata"))
	return append(errs, ValidateReplicationControllerSpec(&rc.Spec, nil, field.NewPath("spec"), opts)...)
}

// ValidateReplicationControllerUpdate checks an update of a ReplicationController.
func ValidateReplicationControllerUpdate(rc, old *api.ReplicationController, opts PodValidationOptions) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&rc.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, ValidateReplicationControllerSpec(&rc.Spec, &old.Spec, field.NewPath("spec"), opts)...)
}

// ValidateReplicationControllerStatusUpdate checks an update through /status.
func ValidateReplicationControllerStatusUpdate(rc, old *api.ReplicationController) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&rc.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, ValidateReplicationControllerStatus(rc.Status, field.NewPath("status"))...)
}

// ValidateReplicationControllerStatus: counts are non-negative and none exceeds
// replicas (available not above ready).
func ValidateReplicationControllerStatus(s api.ReplicationControllerStatus, p *field.Path) field.ErrorList {
	errs := ValidateNonnegativeField(int64(s.Replicas), p.Child("replicas"))
	errs = append(errs, ValidateNonnegativeField(int64(s.FullyLabeledReplicas), p.Child("fullyLabeledReplicas"))...)
	errs = append(errs, ValidateNonnegativeField(int64(s.ReadyReplicas), p.Child("readyReplicas"))...)
	errs = append(errs, ValidateNonnegativeField(int64(s.AvailableReplicas), p.Child("availableReplicas"))...)
	errs = append(errs, ValidateNonnegativeField(s.ObservedGeneration, p.Child("observedGeneration"))...)
	const aboveReplicas = "cannot be greater than status.replicas"
	if s.FullyLabeledReplicas > s.Replicas {
		errs = append(errs, field.Invalid(p.Child("fullyLabeledReplicas"), s.FullyLabeledReplicas, aboveReplicas))
	}
	if s.ReadyReplicas > s.Replicas {
		errs = append(errs, field.Invalid(p.Child("readyReplicas"), s.ReadyReplicas, aboveReplicas))
	}
	if s.AvailableReplicas > s.Replicas {
		errs = append(errs, field.Invalid(p.Child("availableReplicas"), s.AvailableReplicas, aboveReplicas))
	}
	if s.AvailableReplicas > s.ReadyReplicas {
		errs = append(errs, field.Invalid(p.Child("availableReplicas"), s.AvailableReplicas, "cannot be greater than readyReplicas"))
	}
	return errs
}

// ValidateNonEmptySelector: the selector selects something.
func ValidateNonEmptySelector(selector map[string]string, fldPath *field.Path) field.ErrorList {
	if labels.Set(selector).AsSelector().Empty() {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return nil
}

// ValidatePodTemplateSpecForRC: a template whose labels the selector matches, valid, that
// always restarts and has no deadline.
func ValidatePodTemplateSpecForRC(t *api.PodTemplateSpec, selector map[string]string, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	if t == nil {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	var errs field.ErrorList
	if s := labels.Set(selector).AsSelector(); !s.Empty() && !s.Matches(labels.Set(t.Labels)) {
		errs = append(errs, field.Invalid(fldPath.Child("metadata", "labels"), t.Labels, "`selector` does not match template `labels`"))
	}
	errs = append(errs, ValidatePodTemplateSpec(t, fldPath, opts)...)
	if t.Spec.RestartPolicy != api.RestartPolicyAlways {
		errs = append(errs, field.NotSupported(fldPath.Child("spec", "restartPolicy"), t.Spec.RestartPolicy, []api.RestartPolicy{api.RestartPolicyAlways}))
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Forbidden(fldPath.Child("spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in ReplicationController is not Supported"))
	}
	return errs
}

// ValidateReplicationControllerSpec checks the spec (old is nil on a create).
func ValidateReplicationControllerSpec(spec, old *api.ReplicationControllerSpec, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	errs := ValidateNonnegativeField(int64(spec.MinReadySeconds), fldPath.Child("minReadySeconds")).MarkCoveredByDeclarative()
	errs = append(errs, ValidateNonEmptySelector(spec.Selector, fldPath.Child("selector"))...)
	if spec.Replicas == nil {
		errs = append(errs, field.Required(fldPath.Child("replicas"), "").MarkCoveredByDeclarative())
	} else {
		errs = append(errs, ValidateNonnegativeField(int64(*spec.Replicas), fldPath.Child("replicas")).MarkCoveredByDeclarative()...)
	}
	return append(errs, ValidatePodTemplateSpecForRC(spec.Template, spec.Selector, fldPath.Child("template"), opts)...)
}

// nonConvertibleFields: a stored controller whose annotations record fields lost in
// conversion refuses an update of its selector, and reports the others.
func nonConvertibleFields(rc, old *api.ReplicationController) field.ErrorList {
	var errs field.ErrorList
	for key, value := range old.Annotations {
		if !strings.HasPrefix(key, api.NonConvertibleAnnotationPrefix) {
			continue
		}
		parts := strings.Split(key, "/")
		if len(parts) != 2 {
			continue
		}
		broken := parts[1]
		if strings.Contains(broken, "selector") {
			if !equality.Semantic.DeepEqual(old.Spec.Selector, rc.Spec.Selector) {
				errs = append(errs, field.Invalid(field.NewPath("spec").Child("selector"), rc.Spec.Selector, "cannot update non-convertible selector"))
			}
			continue
		}
		errs = append(errs, &field.Error{Type: field.ErrorTypeNotFound, BadValue: value, Field: broken, Detail: "unknown non-convertible field"})
	}
	return errs
}

// replicationControllerDeclarative is the declarative validation 1.37 enforces for a
// ReplicationController (beta): the name a DNS subdomain, replicas set and not negative,
// minReadySeconds not negative; unchanged values are not checked again on update.
func replicationControllerDeclarative(obj, oldObj any) field.ErrorList {
	rc := obj.(*api.ReplicationController)
	var old *api.ReplicationController
	if oldObj != nil {
		old = oldObj.(*api.ReplicationController)
	}
	ctx := context.Background()
	op := operation.Operation{Type: operation.Create}
	if old != nil {
		op.Type = operation.Update
	}
	var errs field.ErrorList
	metaPath := field.NewPath("metadata")
	// The managedFields entries compared here are without their fields (validation decodes
	// with api.DecodeToValidate): a change of those alone changes no name, all this checks.
	if old == nil || !equality.Semantic.DeepEqual(rc.ObjectMeta, old.ObjectMeta) {
		if rc.Name != "" && (old == nil || rc.Name != old.Name) {
			errs = append(errs, validate.LongName(ctx, op, metaPath.Child("name"), &rc.Name, nil).MarkBeta()...)
		}
	}
	if old != nil && equality.Semantic.DeepEqual(rc.Spec, old.Spec) {
		return errs
	}
	specPath := field.NewPath("spec")
	if old == nil || !int32PtrEqual(rc.Spec.Replicas, old.Spec.Replicas) {
		if rc.Spec.Replicas == nil {
			errs = append(errs, field.ErrorList{field.Required(specPath.Child("replicas"), "")}.MarkBeta()...)
		} else {
			errs = append(errs, validate.Minimum(ctx, op, specPath.Child("replicas"), rc.Spec.Replicas, nil, 0).MarkBeta()...)
		}
	}
	if old == nil || rc.Spec.MinReadySeconds != old.Spec.MinReadySeconds {
		errs = append(errs, validate.Minimum(ctx, op, specPath.Child("minReadySeconds"), &rc.Spec.MinReadySeconds, nil, 0).MarkBeta()...)
	}
	var oldTemplate *api.PodTemplateSpec
	if old != nil {
		oldTemplate = old.Spec.Template
	}
	return append(errs, ValidatePodTemplateSpecDeclarative(rc.Spec.Template, oldTemplate, specPath.Child("template"))...)
}

func int32PtrEqual(a, b *int32) bool {
	return a == b || (a != nil && b != nil && *a == *b)
}
