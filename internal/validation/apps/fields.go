package apps

import (
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// collisionCount is the value a "cannot be decremented" error prints.
func collisionCount(n *int32) int32 {
	if n == nil {
		return 0
	}
	return *n
}

// counter is a named count of a status.
type counter struct {
	name  string
	value int32
}

// nonnegative checks counters, in the order given.
func nonnegative(fldPath *field.Path, counters ...counter) field.ErrorList {
	var errs field.ErrorList
	for _, c := range counters {
		errs = append(errs, apimachineryvalidation.ValidateNonnegativeField(int64(c.value), fldPath.Child(c.name))...)
	}
	return errs
}
