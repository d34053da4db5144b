package apps

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
)

// The pod template's own validation belongs to package core (the podspec port). Until it
// lands, these stand-ins let the workload rules be built and measured on their own: they
// check nothing.

// podOptions are the pod validation options a strategy derives from the new and old
// templates.
type podOptions struct {
	// AllowInvalidLabelValueInSelector tolerates label selectors an older server accepted.
	AllowInvalidLabelValueInSelector bool
}

// podOptionsFor are the options of a write of tpl over old (nil on a create).
func podOptionsFor(tpl, old *coreapi.PodTemplateSpec) podOptions { return podOptions{} }

// validatePodTemplateSpec is core's validation of a pod template.
func validatePodTemplateSpec(tpl *coreapi.PodTemplateSpec, fldPath *field.Path, opts podOptions) field.ErrorList {
	return nil
}

// validatePodSpecificAnnotations is core's validation of the annotations that configure a
// pod.
func validatePodSpecificAnnotations(annotations map[string]string, spec *coreapi.PodSpec, fldPath *field.Path, opts podOptions) field.ErrorList {
	return nil
}

// validatePVCTemplateSpec is core's validation of a PersistentVolumeClaim's spec as a
// create validates it.
func validatePVCTemplateSpec(spec *coreapi.PersistentVolumeClaimSpec, fldPath *field.Path) field.ErrorList {
	return nil
}

// declarativePodTemplate is the declarative validation 1.37 enforces on a pod template
// (old is nil on a create).
func declarativePodTemplate(tpl, old *coreapi.PodTemplateSpec, fldPath *field.Path) field.ErrorList {
	return nil
}
