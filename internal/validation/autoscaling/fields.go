package autoscaling

import (
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
)

// dns1123Label refuses a value that is no DNS-1123 label, as core's validation words it.
func dns1123Label(value string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsDNS1123Label(value) {
		errs = append(errs, field.Invalid(fldPath, value, msg).WithOrigin("format=k8s-short-name"))
	}
	return errs
}

// validateContainerResourceName is core's check of a container resource's name (the podspec
// port): a stand-in that checks nothing until it lands.
func validateContainerResourceName(name coreapi.ResourceName, fldPath *field.Path) field.ErrorList {
	return nil
}
