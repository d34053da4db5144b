package batch

import (
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
)

// The pod template's own validation is package core's; a Job calls it with the options its
// strategy derives from the new and old templates.

// podOptions are the pod validation options of a write.
type podOptions = core.PodValidationOptions

// podOptionsFor are the options of a write of tpl over old (nil on a create).
var podOptionsFor = core.GetValidationOptionsFromPodTemplate

var (
	validatePodTemplateSpec = core.ValidatePodTemplateSpec
	// declarativePodTemplate is the declarative validation 1.37 enforces on a pod
	// template (old is nil on a create; an unchanged template is skipped).
	declarativePodTemplate = core.ValidatePodTemplateSpecDeclarative
)
