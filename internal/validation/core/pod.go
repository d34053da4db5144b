package core

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Pod: create and update through the main resource.

// validatePodMetadataAndSpec is what a pod is checked for on create and update: its
// metadata, pod annotations, spec, and the rules templates are spared (service account
// tokens need a service account, a non-negative grace period, images without
// surrounding whitespace).
func validatePodMetadataAndSpec(pod *api.Pod, opts PodValidationOptions) field.ErrorList {
	metaPath, specPath := field.NewPath("metadata"), field.NewPath("spec")
	errs := ValidateObjectMeta(&pod.ObjectMeta, true, ValidatePodName, metaPath)
	errs = append(errs, ValidatePodSpecificAnnotations(pod.Annotations, &pod.Spec, metaPath.Child("annotations"), opts)...)
	errs = append(errs, ValidatePodSpec(&pod.Spec, &pod.ObjectMeta, specPath, opts)...)
	if pod.Spec.ServiceAccountName == "" {
		for vi, v := range pod.Spec.Volumes {
			if v.Projected == nil {
				continue
			}
			for si, s := range v.Projected.Sources {
				if s.ServiceAccountToken != nil {
					p := specPath.Child("volumes").Index(vi).Child("projected").Child("sources").Index(si).Child("serviceAccountToken")
					errs = append(errs, field.Forbidden(p, "must not be specified when serviceAccountName is not set"))
				}
			}
		}
	}
	if g := pod.Spec.TerminationGracePeriodSeconds; g != nil {
		errs = append(errs, ValidateNonnegativeField(*g, specPath.Child("terminationGracePeriodSeconds"))...)
	}
	errs = append(errs, validateContainersOnlyForPod(pod.Spec.Containers, specPath.Child("containers"))...)
	return append(errs, validateContainersOnlyForPod(pod.Spec.InitContainers, specPath.Child("initContainers"))...)
}

// ValidatePodCreate checks a new pod: no ephemeral containers yet, no node while
// scheduling gates remain, annotations agreeing with the profile fields.
func ValidatePodCreate(pod *api.Pod, opts PodValidationOptions) field.ErrorList {
	errs := validatePodMetadataAndSpec(pod, opts)
	specPath := field.NewPath("spec")
	if len(pod.Spec.EphemeralContainers) > 0 {
		errs = append(errs, field.Forbidden(specPath.Child("ephemeralContainers"), "cannot be set on create"))
	}
	if pod.Spec.NodeName != "" && len(pod.Spec.SchedulingGates) != 0 {
		errs = append(errs, field.Forbidden(specPath.Child("nodeName"), "cannot be set until all schedulingGates have been cleared"))
	}
	errs = append(errs, validateSeccompAnnotationsAndFields(pod.Annotations, &pod.Spec, specPath)...)
	return append(errs, validateAppArmorAnnotationsAndFieldsMatchOnCreate(pod.Annotations, &pod.Spec, specPath)...)
}

// ValidatePodSpecificAnnotationUpdates: AppArmor and mirror-pod annotations may not be
// added, changed or removed; the pod annotations are checked as on create.
func ValidatePodSpecificAnnotationUpdates(newPod, oldPod *api.Pod, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	for k, oldValue := range oldPod.Annotations {
		if v, ok := newPod.Annotations[k]; ok && v == oldValue {
			continue
		}
		if strings.HasPrefix(k, appArmorBetaContainerPrefix) {
			errs = append(errs, field.Forbidden(fldPath.Key(k), "may not remove or update AppArmor annotations"))
		}
		if k == api.MirrorPodAnnotationKey {
			errs = append(errs, field.Forbidden(fldPath.Key(k), "may not remove or update mirror pod annotation"))
		}
	}
	for k := range newPod.Annotations {
		if _, ok := oldPod.Annotations[k]; ok {
			continue
		}
		if strings.HasPrefix(k, appArmorBetaContainerPrefix) {
			errs = append(errs, field.Forbidden(fldPath.Key(k), "may not add AppArmor annotations"))
		}
		if k == api.MirrorPodAnnotationKey {
			errs = append(errs, field.Forbidden(fldPath.Key(k), "may not add mirror pod annotation"))
		}
	}
	return append(errs, ValidatePodSpecificAnnotations(newPod.Annotations, &newPod.Spec, fldPath, opts)...)
}

// ValidateContainerUpdates: the same number of containers, each with an image without
// surrounding whitespace. stop: the lists differ in length, nothing more is checked.
func ValidateContainerUpdates(newContainers, oldContainers []api.Container, fldPath *field.Path) (field.ErrorList, bool) {
	if len(newContainers) != len(oldContainers) {
		return field.ErrorList{field.Forbidden(fldPath, "pod updates may not add or remove containers")}, true
	}
	var errs field.ErrorList
	for i, c := range newContainers {
		if c.Image == "" {
			errs = append(errs, field.Required(fldPath.Index(i).Child("image"), ""))
		}
		if len(strings.TrimSpace(c.Image)) != len(c.Image) {
			errs = append(errs, field.Invalid(fldPath.Index(i).Child("image"), c.Image, "must not have leading or trailing whitespace"))
		}
	}
	return errs, false
}

const updatablePodSpecFields = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`," +
	"`spec.tolerations` (only additions to existing tolerations)," +
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

// ValidatePodUpdate checks an update of a pod: only images, a shrinking deadline, added
// tolerations, removed scheduling gates (and, while gated, added node constraints) may
// change; the refusal carries a diff of the internal specs.
func ValidatePodUpdate(newPod, oldPod *api.Pod, opts PodValidationOptions) field.ErrorList {
	metaPath, specPath := field.NewPath("metadata"), field.NewPath("spec")
	errs := ValidateObjectMetaUpdate(&newPod.ObjectMeta, &oldPod.ObjectMeta, metaPath)
	errs = append(errs, validatePodMetadataAndSpec(newPod, opts)...)
	errs = append(errs, ValidatePodSpecificAnnotationUpdates(newPod, oldPod, metaPath.Child("annotations"), opts)...)
	cErrs, stop := ValidateContainerUpdates(newPod.Spec.Containers, oldPod.Spec.Containers, specPath.Child("containers"))
	errs = append(errs, cErrs...)
	if stop {
		return errs
	}
	cErrs, stop = ValidateContainerUpdates(newPod.Spec.InitContainers, oldPod.Spec.InitContainers, specPath.Child("initContainers"))
	errs = append(errs, cErrs...)
	if stop {
		return errs
	}
	deadlinePath := specPath.Child("activeDeadlineSeconds")
	if d := newPod.Spec.ActiveDeadlineSeconds; d != nil {
		if *d < 0 || *d > math.MaxInt32 {
			return append(errs, field.Invalid(deadlinePath, *d, validation.InclusiveRangeError(0, math.MaxInt32)))
		}
		if old := oldPod.Spec.ActiveDeadlineSeconds; old != nil && *old < *d {
			return append(errs, field.Invalid(deadlinePath, *d, "must be less than or equal to previous value"))
		}
	} else if oldPod.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Invalid(deadlinePath, newPod.Spec.ActiveDeadlineSeconds, "must not update from a positive integer to nil value"))
	}
	errs = append(errs, validateOnlyAddedTolerations(newPod.Spec.Tolerations, oldPod.Spec.Tolerations, specPath.Child("tolerations"), opts)...)
	errs = append(errs, validateOnlyDeletedSchedulingGates(newPod.Spec.SchedulingGates, oldPod.Spec.SchedulingGates, specPath.Child("schedulingGates"))...)
	if equality.Semantic.DeepEqual(newPod.Spec, oldPod.Spec) {
		return errs
	}
	// What may change is set back to the old values before comparing.
	munged := newPod.Spec
	munged.Containers = withOldImages(newPod.Spec.Containers, oldPod.Spec.Containers)
	munged.InitContainers = withOldImages(newPod.Spec.InitContainers, oldPod.Spec.InitContainers)
	munged.ActiveDeadlineSeconds = nil
	if d := oldPod.Spec.ActiveDeadlineSeconds; d != nil {
		v := *d
		munged.ActiveDeadlineSeconds = &v
	}
	munged.SchedulingGates = oldPod.Spec.SchedulingGates
	munged.Tolerations = oldPod.Spec.Tolerations
	if old := oldPod.Spec.TerminationGracePeriodSeconds; old != nil && *old < 0 && munged.TerminationGracePeriodSeconds != nil && *munged.TerminationGracePeriodSeconds == 1 {
		munged.TerminationGracePeriodSeconds = old
	}
	if len(oldPod.Spec.SchedulingGates) > 0 {
		errs = append(errs, mungeGatedNodeConstraints(&munged, &oldPod.Spec, specPath)...)
	}
	if !equality.Semantic.DeepEqual(munged, oldPod.Spec) {
		errs = append(errs, field.Forbidden(specPath, fmt.Sprintf("pod updates may not change fields other than %s\n%v", updatablePodSpecFields, diff.Diff(oldPod.Spec, munged))))
	}
	return errs
}

// withOldImages copies the containers with the old containers' images (nil when empty).
func withOldImages(containers, old []api.Container) []api.Container {
	var out []api.Container
	for i, c := range containers {
		c.Image = old[i].Image
		out = append(out, c)
	}
	return out
}

// mungeGatedNodeConstraints: a gated pod may add node selector entries and node
// affinity requirements; the additions are checked and set back to the old values.
func mungeGatedNodeConstraints(munged, old *api.PodSpec, specPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !equality.Semantic.DeepEqual(munged.NodeSelector, old.NodeSelector) {
		for k, v := range old.NodeSelector {
			if nv, ok := munged.NodeSelector[k]; !ok || nv != v {
				errs = append(errs, field.Invalid(specPath.Child("nodeSelector"), munged.NodeSelector, "only additions to spec.nodeSelector are allowed (no mutations or deletions)"))
				break
			}
		}
		munged.NodeSelector = old.NodeSelector
	}
	var oldNA, newNA *api.NodeAffinity
	if old.Affinity != nil {
		oldNA = old.Affinity.NodeAffinity
	}
	if munged.Affinity != nil {
		newNA = munged.Affinity.NodeAffinity
	}
	if equality.Semantic.DeepEqual(oldNA, newNA) {
		return errs
	}
	errs = append(errs, validateNodeAffinityMutation(specPath.Child("affinity").Child("nodeAffinity"), newNA, oldNA)...)
	switch {
	case munged.Affinity == nil && oldNA == nil:
	case munged.Affinity == nil:
		munged.Affinity = &api.Affinity{NodeAffinity: oldNA}
	case old.Affinity == nil && munged.Affinity.PodAntiAffinity == nil && munged.Affinity.PodAffinity == nil:
		munged.Affinity = nil
	default:
		a := *munged.Affinity
		a.NodeAffinity = oldNA
		munged.Affinity = &a
	}
	return errs
}

func validateNodeAffinityMutation(p *field.Path, newNA, oldNA *api.NodeAffinity) field.ErrorList {
	if oldNA == nil || oldNA.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return nil
	}
	oldTerms := oldNA.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	var newTerms []api.NodeSelectorTerm
	if newNA != nil && newNA.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		newTerms = newNA.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	}
	termsPath := p.Child("requiredDuringSchedulingIgnoredDuringExecution").Child("nodeSelectorTerms")
	if len(oldTerms) > 0 && len(oldTerms) != len(newTerms) {
		return field.ErrorList{field.Invalid(termsPath, newTerms, "no additions/deletions to non-empty NodeSelectorTerms list are allowed")}
	}
	var errs field.ErrorList
	for i := range oldTerms {
		if !termHasOnlyAdditions(newTerms[i], oldTerms[i]) {
			errs = append(errs, field.Invalid(termsPath.Index(i), newTerms[i], "only additions are allowed (no mutations or deletions)"))
		}
	}
	return errs
}

func termHasOnlyAdditions(newTerm, oldTerm api.NodeSelectorTerm) bool {
	if len(oldTerm.MatchExpressions) == 0 && len(oldTerm.MatchFields) == 0 &&
		(len(newTerm.MatchExpressions) > 0 || len(newTerm.MatchFields) > 0) {
		return false
	}
	if l := len(oldTerm.MatchExpressions); l > 0 && (len(newTerm.MatchExpressions) < l || !equality.Semantic.DeepEqual(newTerm.MatchExpressions[:l], oldTerm.MatchExpressions)) {
		return false
	}
	if l := len(oldTerm.MatchFields); l > 0 && (len(newTerm.MatchFields) < l || !equality.Semantic.DeepEqual(newTerm.MatchFields[:l], oldTerm.MatchFields)) {
		return false
	}
	return true
}

// validateOnlyAddedTolerations: each old toleration is still there (its
// tolerationSeconds aside); the new list is checked as on create.
func validateOnlyAddedTolerations(newTolerations, oldTolerations []api.Toleration, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	for _, old := range oldTolerations {
		found := false
		for _, n := range newTolerations {
			o := old
			o.TolerationSeconds = n.TolerationSeconds
			if reflect.DeepEqual(o, n) {
				found = true
				break
			}
		}
		if !found {
			return field.ErrorList{field.Forbidden(fldPath, "existing toleration can not be modified except its tolerationSeconds")}
		}
	}
	return ValidateTolerations(newTolerations, fldPath, opts, true)
}

// validateOnlyDeletedSchedulingGates: no gate that the old pod did not have (reported in
// map order).
func validateOnlyDeletedSchedulingGates(newGates, oldGates []api.PodSchedulingGate, fldPath *field.Path) field.ErrorList {
	if len(newGates) == 0 {
		return nil
	}
	added := make(map[string]int, len(newGates))
	for i, g := range newGates {
		added[g.Name] = i
	}
	for _, g := range oldGates {
		delete(added, g.Name)
	}
	var errs field.ErrorList
	for name, i := range added {
		errs = append(errs, field.Forbidden(fldPath.Index(i).Child("name"), fmt.Sprintf("only deletion is allowed, but found new scheduling gate '%s'", name)))
	}
	return errs
}
