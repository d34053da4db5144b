package apps

import (
	"fmt"

	api "github.com/ssa-diff/ssa-diff/internal/api/apps"
	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// statefulSetOptions are what a StatefulSet's strategy relaxes on an update.
type statefulSetOptions struct {
	// allowInvalidServiceName: the service name is immutable, a stored invalid one stays.
	allowInvalidServiceName bool
	// skipPodTemplate: the stored spec is already invalid, its template is not checked.
	skipPodTemplate bool
	// skipClaimTemplates: the claim templates are immutable, stored ones are not checked.
	skipClaimTemplates bool
	// allowRecreate admits the Recreate update strategy (gate StatefulSetRecreateStrategy,
	// off in 1.37, on in 1.38, or a stored object that has it).
	allowRecreate bool
}

// ValidateStatefulSet checks a new StatefulSet on the server cfg describes: its metadata
// (the name a DNS label, as its pods' hostnames) and its spec.
func ValidateStatefulSet(cfg *serverconfig.Config, ss *api.StatefulSet, opts podOptions) field.ErrorList {
	errs := core.ValidateObjectMeta(&ss.ObjectMeta, true, wellformed.NameIsDNSLabel, field.NewPath("metadata"))
	// Kubernetes 1.32 checks no service name (1.33.13's ValidateStatefulSet added the DNS
	// label check of a new StatefulSet's serviceName).
	setOpts := statefulSetOptions{allowInvalidServiceName: !opts.Server.AtLeast(33), allowRecreate: recreateEnabled(cfg)}
	return append(errs, validateStatefulSetSpec(&ss.Spec, field.NewPath("spec"), opts, setOpts)...)
}

// recreateEnabled: the Recreate update strategy is admitted on the server cfg describes
// (gate StatefulSetRecreateStrategy: alpha in 1.37, beta and on in 1.38; recorded from
// 1.38.0-beta.0: the validation scenario workloads/StatefulSet/V1 unknown update strategy,
// whose message lists it).
func recreateEnabled(cfg *serverconfig.Config) bool {
	return cfg.Enabled(features.StatefulSetRecreateStrategy)
}

// ValidateStatefulSetUpdate checks an update of a StatefulSet on the server cfg describes
// (rules.md valid.update). The spec is checked as on a create (but its service name and
// claim templates, which cannot change, and its pod template when the stored spec is itself
// invalid); then each field that may not change and did is reported as immutable with its
// new value: the selector, the volume claim templates, the service name and the pod
// management policy.
func ValidateStatefulSetUpdate(cfg *serverconfig.Config, ss, old *api.StatefulSet, opts podOptions) field.ErrorList {
	// The name is not checked again: older servers accepted names pods cannot take.
	errs := core.ValidateObjectMetaUpdate(&ss.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	setOpts := statefulSetOptions{
		allowInvalidServiceName: true,
		skipClaimTemplates:      true,
		allowRecreate:           recreateEnabled(cfg) || old.Spec.UpdateStrategy.Type == api.RecreateStatefulSetStrategyType,
	}
	if len(validateStatefulSetSpec(&old.Spec, nil, opts, setOpts)) > 0 {
		setOpts.skipPodTemplate = true
	}
	spec := field.NewPath("spec")
	errs = append(errs, validateStatefulSetSpec(&ss.Spec, spec, opts, setOpts)...)
	if !cfg.AtLeast(37) {
		// Kubernetes 1.37 changed how a change of the fields that may not change is told:
		// one error per field. Before, one Forbidden error on the spec named the fields that
		// may change (pkg/apis/apps/validation/validation.go ValidateStatefulSetUpdate in
		// 1.34, 1.35, 1.36: the spec with those fields taken from the stored one must be
		// semantically equal to it; the fields left are exactly the four below).
		eq := equality.Semantic.DeepEqual
		changed := !eq(ss.Spec.Selector, old.Spec.Selector) || !eq(ss.Spec.VolumeClaimTemplates, old.Spec.VolumeClaimTemplates) ||
			ss.Spec.ServiceName != old.Spec.ServiceName || ss.Spec.PodManagementPolicy != old.Spec.PodManagementPolicy
		if !cfg.AtLeast(33) {
			// Kubernetes 1.32: revisionHistoryLimit may not change either, and the message
			// does not name it (ValidateStatefulSetUpdate of 1.32.13 does not take it from
			// the stored spec).
			if changed || !eq(ss.Spec.RevisionHistoryLimit, old.Spec.RevisionHistoryLimit) {
				errs = append(errs, field.Forbidden(spec, "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"))
			}
			return errs
		}
		if changed {
			errs = append(errs, field.Forbidden(spec, "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"))
		}
		return errs
	}
	immutable := func(cur, prev any, name string) {
		for _, e := range apimachineryvalidation.ValidateImmutableField(cur, prev, spec.Child(name)) {
			errs = append(errs, e.WithOrigin("immutable").MarkCoveredByDeclarative())
		}
	}
	immutable(ss.Spec.Selector, old.Spec.Selector, "selector")
	immutable(ss.Spec.VolumeClaimTemplates, old.Spec.VolumeClaimTemplates, "volumeClaimTemplates")
	immutable(ss.Spec.ServiceName, old.Spec.ServiceName, "serviceName")
	immutable(ss.Spec.PodManagementPolicy, old.Spec.PodManagementPolicy, "podManagementPolicy")
	return errs
}

// ValidateStatefulSetStatusUpdate checks a write of a StatefulSet's status (status before
// metadata, as the server orders them).
func ValidateStatefulSetStatusUpdate(ss, old *api.StatefulSet) field.ErrorList {
	p := field.NewPath("status")
	errs := validateStatefulSetStatus(&ss.Status, p)
	errs = append(errs, core.ValidateObjectMetaUpdate(&ss.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	if core.IsDecremented(ss.Status.CollisionCount, old.Status.CollisionCount) {
		errs = append(errs, field.Invalid(p.Child("collisionCount"), collisionCount(ss.Status.CollisionCount), "cannot be decremented"))
	}
	return errs
}

func validateStatefulSetSpec(spec *api.StatefulSetSpec, fldPath *field.Path, opts podOptions, setOpts statefulSetOptions) field.ErrorList {
	var errs field.ErrorList
	switch spec.PodManagementPolicy {
	case "":
		errs = append(errs, field.Required(fldPath.Child("podManagementPolicy"), ""))
	case api.OrderedReadyPodManagement, api.ParallelPodManagement:
	default:
		errs = append(errs, field.Invalid(fldPath.Child("podManagementPolicy"), spec.PodManagementPolicy,
			fmt.Sprintf("must be '%s' or '%s'", api.OrderedReadyPodManagement, api.ParallelPodManagement)))
	}
	errs = append(errs, validateStatefulSetUpdateStrategy(&spec.UpdateStrategy, fldPath.Child("updateStrategy"), setOpts.allowRecreate)...)
	if p := spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		rp := fldPath.Child("persistentVolumeClaimRetentionPolicy")
		errs = append(errs, claimRetention(p.WhenDeleted, rp.Child("whenDeleted"))...)
		errs = append(errs, claimRetention(p.WhenScaled, rp.Child("whenScaled"))...)
	}
	if !setOpts.skipClaimTemplates {
		opts := core.ValidationOptionsForPersistentVolumeClaimCreate(opts.Server)
		for i := range spec.VolumeClaimTemplates {
			errs = append(errs, core.ValidatePersistentVolumeClaimSpec(&spec.VolumeClaimTemplates[i].Spec, fldPath.Child("volumeClaimTemplates").Index(i).Child("spec"), opts)...)
		}
	}
	errs = append(errs, nonnegative(fldPath, counter{"replicas", spec.Replicas}, counter{"minReadySeconds", spec.MinReadySeconds})...)
	if spec.Ordinals != nil {
		// One path element with a dot in its name, as the server writes it.
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(spec.Ordinals.Start), fldPath.Child("ordinals.start"))...)
	}
	if !setOpts.allowInvalidServiceName && spec.ServiceName != "" {
		errs = append(errs, core.ValidateDNS1123Label(spec.ServiceName, fldPath.Child("serviceName"))...)
	}
	if spec.Selector == nil {
		errs = append(errs, field.Required(fldPath.Child("selector"), "").MarkCoveredByDeclarative())
	} else {
		errs = append(errs, wellformed.ValidateLabelSelector(spec.Selector, metav1validation.LabelSelectorValidationOptions{}, fldPath.Child("selector"))...)
		if len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
			errs = append(errs, field.Invalid(fldPath.Child("selector"), spec.Selector, "empty selector is invalid for statefulset"))
		}
	}
	if selector, err := metav1.LabelSelectorAsSelector(spec.Selector); err != nil {
		errs = append(errs, field.Invalid(fldPath.Child("selector"), spec.Selector, ""))
	} else {
		errs = append(errs, validateStatefulSetTemplate(statefulSetPodTemplate(spec), selector, fldPath.Child("template"), opts, setOpts)...)
	}
	return append(errs, alwaysRestarting(&spec.Template.Spec, fldPath.Child("template", "spec"), "StatefulSet")...)
}

// statefulSetPodTemplate is the template as the StatefulSet's pods will have it: the
// controller sets each pod's hostname and subdomain itself, and mounts a claim of each
// volume claim template in place of a template volume of the same name (the claims first,
// in no particular order, then the template's other volumes). The spec is not changed.
func statefulSetPodTemplate(spec *api.StatefulSetSpec) *coreapi.PodTemplateSpec {
	tpl := &spec.Template
	if tpl.Spec.Subdomain == "" && tpl.Spec.Hostname == "" && len(spec.VolumeClaimTemplates) == 0 {
		return tpl
	}
	out := *tpl
	out.Spec.Subdomain = ""
	out.Spec.Hostname = ""
	if len(spec.VolumeClaimTemplates) > 0 {
		claims := make(map[string]coreapi.Volume, len(spec.VolumeClaimTemplates))
		for _, c := range spec.VolumeClaimTemplates {
			claims[c.Name] = coreapi.Volume{Name: c.Name, VolumeSource: coreapi.VolumeSource{
				PersistentVolumeClaim: &coreapi.PersistentVolumeClaimVolumeSource{ClaimName: c.Name},
			}}
		}
		volumes := make([]coreapi.Volume, 0, len(claims)+len(tpl.Spec.Volumes))
		for _, v := range claims {
			volumes = append(volumes, v)
		}
		for _, v := range tpl.Spec.Volumes {
			if _, ok := claims[v.Name]; !ok {
				volumes = append(volumes, v)
			}
		}
		out.Spec.Volumes = volumes
	}
	return &out
}

// validateStatefulSetTemplate checks a StatefulSet's pod template: the selector selects its
// labels, then (unless skipped) the template, and always its labels and annotations.
func validateStatefulSetTemplate(tpl *coreapi.PodTemplateSpec, selector labels.Selector, fldPath *field.Path, opts podOptions, setOpts statefulSetOptions) field.ErrorList {
	var errs field.ErrorList
	if !selector.Empty() && !selector.Matches(labels.Set(tpl.Labels)) {
		errs = append(errs, field.Invalid(fldPath.Child("metadata", "labels"), tpl.Labels, "`selector` does not match template `labels`"))
	}
	if !setOpts.skipPodTemplate {
		errs = append(errs, validatePodTemplateSpec(tpl, fldPath, opts)...)
	}
	// Labels and annotations are checked once more at the template's own level (paths
	// without "metadata"), as the server does.
	errs = append(errs, wellformed.ValidateLabels(tpl.Labels, fldPath.Child("labels"))...)
	errs = append(errs, core.ValidateAnnotations(tpl.Annotations, fldPath.Child("annotations"))...)
	return append(errs, validatePodSpecificAnnotations(tpl.Annotations, &tpl.Spec, fldPath.Child("annotations"), opts)...)
}

func validateStatefulSetUpdateStrategy(s *api.StatefulSetUpdateStrategy, fldPath *field.Path, allowRecreate bool) field.ErrorList {
	onlyRolling := func() field.ErrorList {
		if s.RollingUpdate == nil {
			return nil
		}
		return field.ErrorList{field.Invalid(fldPath.Child("rollingUpdate"), s.RollingUpdate,
			fmt.Sprintf("only allowed for updateStrategy '%s'", api.RollingUpdateStatefulSetStrategyType))}
	}
	switch {
	case s.Type == "":
		return field.ErrorList{field.Required(fldPath, "")}
	case s.Type == api.OnDeleteStatefulSetStrategyType:
		return onlyRolling()
	case s.Type == api.RollingUpdateStatefulSetStrategyType:
		if s.RollingUpdate != nil {
			return validateRollingUpdateStatefulSet(s.RollingUpdate, fldPath.Child("rollingUpdate"))
		}
		return nil
	case s.Type == api.RecreateStatefulSetStrategyType && allowRecreate:
		return onlyRolling()
	}
	msg := fmt.Sprintf("must be '%s' or '%s'", api.RollingUpdateStatefulSetStrategyType, api.OnDeleteStatefulSetStrategyType)
	if allowRecreate {
		msg = fmt.Sprintf("must be '%s', '%s', or '%s'", api.RollingUpdateStatefulSetStrategyType, api.OnDeleteStatefulSetStrategyType, api.RecreateStatefulSetStrategyType)
	}
	return field.ErrorList{field.Invalid(fldPath, *s, msg)}
}

// validateRollingUpdateStatefulSet: a partition not negative, and maxUnavailable (when set)
// well-formed, not zero, at most 100%.
func validateRollingUpdateStatefulSet(ru *api.RollingUpdateStatefulSetStrategy, fldPath *field.Path) field.ErrorList {
	errs := apimachineryvalidation.ValidateNonnegativeField(int64(ru.Partition), fldPath.Child("partition"))
	if ru.MaxUnavailable != nil {
		p := fldPath.Child("maxUnavailable")
		errs = append(errs, ValidatePositiveIntOrPercent(*ru.MaxUnavailable, p)...)
		if amount(*ru.MaxUnavailable) == 0 {
			errs = append(errs, field.Invalid(p, *ru.MaxUnavailable, "cannot be 0"))
		}
		errs = append(errs, IsNotMoreThan100Percent(*ru.MaxUnavailable, p)...)
	}
	return errs
}

func claimRetention(t api.PersistentVolumeClaimRetentionPolicyType, fldPath *field.Path) field.ErrorList {
	switch t {
	case api.RetainPersistentVolumeClaimRetentionPolicyType, api.DeletePersistentVolumeClaimRetentionPolicyType:
		return nil
	}
	return field.ErrorList{field.NotSupported(fldPath, t, []string{
		string(api.RetainPersistentVolumeClaimRetentionPolicyType), string(api.DeletePersistentVolumeClaimRetentionPolicyType)})}
}

func validateStatefulSetStatus(s *api.StatefulSetStatus, fldPath *field.Path) field.ErrorList {
	errs := nonnegative(fldPath, counter{"replicas", s.Replicas}, counter{"readyReplicas", s.ReadyReplicas},
		counter{"currentReplicas", s.CurrentReplicas}, counter{"updatedReplicas", s.UpdatedReplicas}, counter{"availableReplicas", s.AvailableReplicas})
	if s.ObservedGeneration != nil {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(*s.ObservedGeneration, fldPath.Child("observedGeneration"))...)
	}
	if s.CollisionCount != nil {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(*s.CollisionCount), fldPath.Child("collisionCount"))...)
	}
	const aboveReplicas = "cannot be greater than status.replicas"
	if s.ReadyReplicas > s.Replicas {
		errs = append(errs, field.Invalid(fldPath.Child("readyReplicas"), s.ReadyReplicas, aboveReplicas))
	}
	if s.CurrentReplicas > s.Replicas {
		errs = append(errs, field.Invalid(fldPath.Child("currentReplicas"), s.CurrentReplicas, aboveReplicas))
	}
	if s.UpdatedReplicas > s.Replicas {
		errs = append(errs, field.Invalid(fldPath.Child("updatedReplicas"), s.UpdatedReplicas, aboveReplicas))
	}
	if s.AvailableReplicas > s.Replicas {
		errs = append(errs, field.Invalid(fldPath.Child("availableReplicas"), s.AvailableReplicas, aboveReplicas))
	}
	if s.AvailableReplicas > s.ReadyReplicas {
		errs = append(errs, field.Invalid(fldPath.Child("availableReplicas"), s.AvailableReplicas, "cannot be greater than status.readyReplicas"))
	}
	return errs
}

// statefulSetDeclarative is a StatefulSet's declarative validation: its pod template's and,
// from Kubernetes 1.38, its spec's own rules, beta there (pkg/apis/apps/v1
// zz_generated.validations.go Validate_StatefulSetSpec of 1.38.0-beta.0; alpha in 1.37): the
// selector is required and, like the volume claim templates, the service name and the pod
// management policy, immutable. An enforced immutable error stands for the handwritten one
// (ValidateStatefulSetUpdate), told without the value: "spec.serviceName: Invalid value:
// null: field is immutable" (recorded: conformance/testdata/minors/1.38/
// statefulset-service-name-change). The rules run in the spec's field order, the template's
// after the selector's.
func statefulSetDeclarative(cfg *serverconfig.Config) func(obj, old any) field.ErrorList {
	tpl := templateDeclarative(func(obj any) *coreapi.PodTemplateSpec { return &obj.(*api.StatefulSet).Spec.Template })
	if !cfg.AtLeast(38) {
		return tpl
	}
	return func(obj, old any) field.ErrorList {
		ss := obj.(*api.StatefulSet)
		var o *api.StatefulSet
		if old != nil {
			o = old.(*api.StatefulSet)
		}
		spec := field.NewPath("spec")
		immutable := func(name string) *field.Error {
			return field.Invalid(spec.Child(name), nil, "field is immutable").WithOrigin("immutable").MarkBeta()
		}
		eq := equality.Semantic.DeepEqual
		var errs field.ErrorList
		if o == nil || !eq(ss.Spec.Selector, o.Spec.Selector) {
			if ss.Spec.Selector == nil {
				errs = append(errs, field.Required(spec.Child("selector"), "").MarkBeta())
			}
			if o != nil {
				errs = append(errs, immutable("selector"))
			}
		}
		errs = append(errs, tpl(obj, old)...)
		if o == nil {
			return errs
		}
		if !eq(ss.Spec.VolumeClaimTemplates, o.Spec.VolumeClaimTemplates) {
			errs = append(errs, immutable("volumeClaimTemplates"))
		}
		if ss.Spec.ServiceName != o.Spec.ServiceName {
			errs = append(errs, immutable("serviceName"))
		}
		if ss.Spec.PodManagementPolicy != o.Spec.PodManagementPolicy {
			errs = append(errs, immutable("podManagementPolicy"))
		}
		return errs
	}
}
