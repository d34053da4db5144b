package apps

import (
	"strconv"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidatePositiveIntOrPercent checks an integer-or-percent knob: a string must be a
// percentage ("25%"), an integer must not be negative.
func ValidatePositiveIntOrPercent(v intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch v.Type {
	case intstr.String:
		for _, msg := range validation.IsValidPercent(v.StrVal) {
			errs = append(errs, field.Invalid(fldPath, v, msg))
		}
	case intstr.Int:
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(v.IntValue()), fldPath)...)
	default:
		// The server's format string doubles the percent sign and never formats it.
		errs = append(errs, field.Invalid(fldPath, v, "must be an integer or percentage (e.g '5%%')"))
	}
	return errs
}

// IsNotMoreThan100Percent refuses a percentage above 100%; integers pass.
func IsNotMoreThan100Percent(v intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	if n, ok := percent(v); ok && n > 100 {
		return field.ErrorList{field.Invalid(fldPath, v, "must not be greater than 100%")}
	}
	return nil
}

// percent is the number of a well-formed percentage.
func percent(v intstr.IntOrString) (int, bool) {
	if v.Type != intstr.String || len(validation.IsValidPercent(v.StrVal)) != 0 {
		return 0, false
	}
	n, _ := strconv.Atoi(v.StrVal[:len(v.StrVal)-1])
	return n, true
}

// amount is a knob's number: the percentage's, or the integer (a string that is no
// percentage counts as its integer value, as intstr reads it).
func amount(v intstr.IntOrString) int {
	if n, ok := percent(v); ok {
		return n
	}
	return v.IntValue()
}
