package apps

import (
	"encoding/json"

	api "github.com/ssa-diff/ssa-diff/internal/api/apps"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateControllerRevision checks a new ControllerRevision: metadata, a revision not
// negative, and data that is a JSON object.
func ValidateControllerRevision(r *api.ControllerRevision) field.ErrorList {
	errs := validateControllerRevisionFields(r)
	data := field.NewPath("data")
	var v any
	if r.Data.Raw == nil {
		return append(errs, field.Required(data, "data is mandatory"))
	}
	if err := json.Unmarshal(r.Data.Raw, &v); err != nil {
		return append(errs, field.Invalid(data, "<value omitted>", "error parsing data: "+err.Error()))
	}
	switch v.(type) {
	case nil:
		errs = append(errs, field.Required(data, "data is mandatory"))
	case map[string]any:
	default:
		errs = append(errs, field.Required(data, "data must be a valid JSON object"))
	}
	return errs
}

// ValidateControllerRevisionUpdate checks an update of a ControllerRevision: its data never
// changes.
func ValidateControllerRevisionUpdate(r, old *api.ControllerRevision) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&r.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateControllerRevisionFields(r)...)
	return append(errs, apimachineryvalidation.ValidateImmutableField(r.Data, old.Data, field.NewPath("data"))...)
}

func validateControllerRevisionFields(r *api.ControllerRevision) field.ErrorList {
	errs := core.ValidateObjectMeta(&r.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, apimachineryvalidation.ValidateNonnegativeField(r.Revision, field.NewPath("revision"))...)
}
