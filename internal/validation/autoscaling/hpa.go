package autoscaling

import (
	"errors"
	"fmt"

	api "github.com/ssa-diff/ssa-diff/internal/api/autoscaling"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/validate/content"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The limits of a behavior.
const (
	maxPeriodSeconds              int32 = 1800
	maxStabilizationWindowSeconds int32 = 3600
)

// The enumerations, in the sorted order the server lists them.
var (
	selectPolicies = []string{string(api.DisabledPolicySelect), string(api.MaxPolicySelect), string(api.MinPolicySelect)}
	policyTypes    = []string{string(api.PercentScalingPolicy), string(api.PodsScalingPolicy)}
	metricSources  = []string{string(api.ContainerResourceMetricSourceType), string(api.ExternalMetricSourceType),
		string(api.ObjectMetricSourceType), string(api.PodsMetricSourceType), string(api.ResourceMetricSourceType)}
)

func has(list []string, v string) bool {
	for _, e := range list {
		if e == v {
			return true
		}
	}
	return false
}

// refOptions say how strictly an object reference is checked.
type refOptions struct {
	// allowEmptyGroup admits an apiVersion of the core group ("v1").
	allowEmptyGroup bool
	// allowInvalidAPIVersion skips the apiVersion.
	allowInvalidAPIVersion bool
	// requiredCovered marks the kind's and name's "required" errors as covered by
	// declarative validation (the scale target's, whose rules are alpha: they stay).
	requiredCovered bool
}

// hpaOptions are what the strategy derives from the write.
type hpaOptions struct {
	minReplicasLowerBound int32
	scaleTargetRef        refOptions
	objectMetrics         refOptions
	// maxReplicasRequired: a maxReplicas of 0 is Required, a negative one below 1 (from
	// 1.36); else both are Invalid, "must be greater than 0".
	maxReplicasRequired bool
}

// hpaOptionsFor are the options of a write of hpa over old (nil on a create) on the server
// cfg describes.
func hpaOptionsFor(cfg *serverconfig.Config, hpa, old *api.HorizontalPodAutoscaler) hpaOptions {
	opts := hpaOptions{
		minReplicasLowerBound: 1,
		scaleTargetRef:        refOptions{requiredCovered: true},
		objectMetrics:         refOptions{allowEmptyGroup: true},
		// Kubernetes 1.36 changed the errors of a maxReplicas below 1
		// (pkg/apis/autoscaling/validation/validation.go validateHorizontalPodAutoscalerSpec
		// in 1.34, 1.35: one Invalid "must be greater than 0").
		maxReplicasRequired: cfg.AtLeast(36),
	}
	// With gate HPAScaleToZero (on by default from 1.37), or a stored HPA that has it,
	// minReplicas may be 0.
	if cfg.Enabled(features.HPAScaleToZero) || old != nil && old.Spec.MinReplicas != nil && *old.Spec.MinReplicas == 0 {
		opts.minReplicasLowerBound = 0
	}
	ref := &hpa.Spec.ScaleTargetRef
	switch {
	case !cfg.AtLeast(34):
		// Kubernetes 1.33 and older check no reference's apiVersion (1.34 began to).
		opts.scaleTargetRef.allowInvalidAPIVersion = true
		opts.objectMetrics.allowInvalidAPIVersion = true
	case old != nil && old.Spec.ScaleTargetRef.APIVersion == ref.APIVersion && old.Spec.ScaleTargetRef.Kind == ref.Kind:
		// An unchanged target keeps whatever apiVersion it was stored with.
		opts.scaleTargetRef.allowInvalidAPIVersion = true
	case ref.Kind == "ReplicationController":
		opts.scaleTargetRef.allowEmptyGroup = true
	}
	if old != nil {
		for _, m := range old.Spec.Metrics {
			if m.Type == api.ObjectMetricSourceType && m.Object != nil && apiVersionError(&m.Object.DescribedObject, opts.objectMetrics) != nil {
				// A stored invalid one relaxes every Object metric's.
				opts.objectMetrics.allowInvalidAPIVersion = true
				break
			}
		}
	}
	return opts
}

// ValidateHorizontalPodAutoscaler checks a new HorizontalPodAutoscaler: metadata (the name
// a DNS subdomain) and spec.
func ValidateHorizontalPodAutoscaler(hpa *api.HorizontalPodAutoscaler, opts hpaOptions) field.ErrorList {
	errs := core.ValidateObjectMeta(&hpa.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateSpec(&hpa.Spec, field.NewPath("spec"), opts)...)
}

// ValidateHorizontalPodAutoscalerUpdate checks an update: the spec as on a create, with the
// options the stored object gives.
func ValidateHorizontalPodAutoscalerUpdate(hpa, old *api.HorizontalPodAutoscaler, opts hpaOptions) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&hpa.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, validateSpec(&hpa.Spec, field.NewPath("spec"), opts)...)
}

// ValidateHorizontalPodAutoscalerStatusUpdate checks a write of the status: the conditions'
// observed generations and the replica counts are not negative.
func ValidateHorizontalPodAutoscalerStatusUpdate(hpa, old *api.HorizontalPodAutoscaler) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&hpa.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	p := field.NewPath("status")
	for i, c := range hpa.Status.Conditions {
		if c.ObservedGeneration != nil {
			errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(*c.ObservedGeneration, p.Child("conditions").Index(i).Child("observedGeneration"))...)
		}
	}
	errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(hpa.Status.CurrentReplicas), p.Child("currentReplicas"))...)
	return append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(hpa.Status.DesiredReplicas), p.Child("desiredReplicas"))...)
}

func validateSpec(spec *api.HorizontalPodAutoscalerSpec, fldPath *field.Path, opts hpaOptions) field.ErrorList {
	var errs field.ErrorList
	if spec.MinReplicas != nil && *spec.MinReplicas < opts.minReplicasLowerBound {
		errs = append(errs, field.Invalid(fldPath.Child("minReplicas"), *spec.MinReplicas,
			fmt.Sprintf("must be greater than or equal to %d", opts.minReplicasLowerBound)).WithOrigin("minimum").MarkCoveredByDeclarative())
	}
	switch {
	case !opts.maxReplicasRequired && spec.MaxReplicas < 1:
		errs = append(errs, field.Invalid(fldPath.Child("maxReplicas"), spec.MaxReplicas, "must be greater than 0"))
	case spec.MaxReplicas == 0:
		errs = append(errs, field.Required(fldPath.Child("maxReplicas"), "must be set and greater than 0").MarkCoveredByDeclarative())
	case spec.MaxReplicas < 0:
		errs = append(errs, field.Invalid(fldPath.Child("maxReplicas"), spec.MaxReplicas, "must be greater than or equal to 1").WithOrigin("minimum").MarkCoveredByDeclarative())
	}
	if spec.MinReplicas != nil && spec.MaxReplicas < *spec.MinReplicas {
		errs = append(errs, field.Invalid(fldPath.Child("maxReplicas"), spec.MaxReplicas, "must be greater than or equal to `minReplicas`"))
	}
	errs = append(errs, validateReference(&spec.ScaleTargetRef, fldPath.Child("scaleTargetRef"), opts.scaleTargetRef)...)
	errs = append(errs, validateMetrics(spec.Metrics, fldPath.Child("metrics"), spec.MinReplicas, opts.objectMetrics)...)
	if b := spec.Behavior; b != nil {
		errs = append(errs, validateScalingRules(b.ScaleUp, fldPath.Child("behavior", "scaleUp"))...)
		errs = append(errs, validateScalingRules(b.ScaleDown, fldPath.Child("behavior", "scaleDown"))...)
	}
	return errs
}

// validateReference checks a reference to an object: kind and name are path segments, the
// apiVersion parses and (unless allowed) names a group.
func validateReference(ref *api.CrossVersionObjectReference, fldPath *field.Path, opts refOptions) field.ErrorList {
	var errs field.ErrorList
	required := func(name string) {
		e := field.Required(fldPath.Child(name), "")
		if opts.requiredCovered {
			e = e.MarkCoveredByDeclarative()
		}
		errs = append(errs, e)
	}
	segment := func(name, value string) {
		for _, msg := range content.IsPathSegmentName(value) {
			errs = append(errs, field.Invalid(fldPath.Child(name), value, msg))
		}
	}
	if ref.Kind == "" {
		required("kind")
	} else {
		segment("kind", ref.Kind)
	}
	if ref.Name == "" {
		required("name")
	} else {
		segment("name", ref.Name)
	}
	if err := apiVersionError(ref, opts); err != nil {
		errs = append(errs, field.Invalid(fldPath.Child("apiVersion"), ref.APIVersion, err.Error()))
	}
	return errs
}

func apiVersionError(ref *api.CrossVersionObjectReference, opts refOptions) error {
	if opts.allowInvalidAPIVersion {
		return nil
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return err
	}
	if !opts.allowEmptyGroup && gv.Group == "" {
		return errors.New("apiVersion must specify API group")
	}
	return nil
}

func validateMetrics(metrics []api.MetricSpec, fldPath *field.Path, minReplicas *int32, opts refOptions) field.ErrorList {
	var errs field.ErrorList
	scalesToZero := false
	for i := range metrics {
		errs = append(errs, validateMetricSpec(&metrics[i], fldPath.Index(i), opts)...)
		if t := metrics[i].Type; t == api.ObjectMetricSourceType || t == api.ExternalMetricSourceType {
			scalesToZero = true
		}
	}
	if minReplicas != nil && *minReplicas == 0 && !scalesToZero {
		errs = append(errs, field.Forbidden(fldPath, "must specify at least one Object or External metric to support scaling to zero replicas"))
	}
	return errs
}

func validateScalingRules(rules *api.HPAScalingRules, fldPath *field.Path) field.ErrorList {
	if rules == nil {
		return nil
	}
	var errs field.ErrorList
	if w := rules.StabilizationWindowSeconds; w != nil {
		if *w < 0 {
			errs = append(errs, field.Invalid(fldPath.Child("stabilizationWindowSeconds"), w, "must be greater than or equal to zero"))
		}
		if *w > maxStabilizationWindowSeconds {
			errs = append(errs, field.Invalid(fldPath.Child("stabilizationWindowSeconds"), w, fmt.Sprintf("must be less than or equal to %v", maxStabilizationWindowSeconds)))
		}
	}
	if rules.SelectPolicy != nil && !has(selectPolicies, string(*rules.SelectPolicy)) {
		errs = append(errs, field.NotSupported(fldPath.Child("selectPolicy"), rules.SelectPolicy, selectPolicies))
	}
	policies := fldPath.Child("policies")
	if len(rules.Policies) == 0 {
		errs = append(errs, field.Required(policies, "must specify at least one Policy"))
	}
	for i, p := range rules.Policies {
		pp := policies.Index(i)
		if p.Type != api.PodsScalingPolicy && p.Type != api.PercentScalingPolicy {
			errs = append(errs, field.NotSupported(pp.Child("type"), p.Type, policyTypes))
		}
		if p.Value <= 0 {
			errs = append(errs, field.Invalid(pp.Child("value"), p.Value, "must be greater than zero"))
		}
		if p.PeriodSeconds <= 0 {
			errs = append(errs, field.Invalid(pp.Child("periodSeconds"), p.PeriodSeconds, "must be greater than zero"))
		}
		if p.PeriodSeconds > maxPeriodSeconds {
			errs = append(errs, field.Invalid(pp.Child("periodSeconds"), p.PeriodSeconds, fmt.Sprintf("must be less than or equal to %v", maxPeriodSeconds)))
		}
	}
	if rules.Tolerance != nil {
		errs = append(errs, core.ValidateNonnegativeQuantity(*rules.Tolerance, fldPath.Child("tolerance"))...)
	}
	return errs
}
