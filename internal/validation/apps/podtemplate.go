package apps

import (
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
)

// The pod template's own validation is package core's; the workloads call it with the
// options their strategy derives from the new and old templates.

// podOptions are the pod validation options of a write.
type podOptions = core.PodValidationOptions

// podOptionsFor are the options of a write of tpl over old (nil on a create).
var podOptionsFor = core.GetValidationOptionsFromPodTemplate

var (
	validatePodTemplateSpec        = core.ValidatePodTemplateSpec
	validatePodSpecificAnnotations = core.ValidatePodSpecificAnnotations
	// declarativePodTemplate is the declarative validation 1.37 enforces on a pod
	// template (old is nil on a create; an unchanged template is skipped).
	declarativePodTemplate = core.ValidatePodTemplateSpecDeclarative
)
