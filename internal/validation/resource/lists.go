package resource

import (
	"slices"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// listOption says which part of a list's handwritten checks a declarative rule covers: its
// errors are marked so and dropped when the beta rule reports the same.
type listOption int

const (
	coveredItems listOption = iota
	coveredSize
	coveredUniqueness
)

// eachItem validates the items of a list.
func eachItem[T any](items []T, check func(T, *field.Path) field.ErrorList, fldPath *field.Path, opts ...listOption) field.ErrorList {
	var errs field.ErrorList
	for i, item := range items {
		e := check(item, fldPath.Index(i))
		if slices.Contains(opts, coveredItems) {
			e = e.MarkCoveredByDeclarative()
		}
		errs = append(errs, e...)
	}
	return errs
}

// tooMany is the error of a list longer than max (a negative max: no limit); the server
// then checks nothing else of the list.
func tooMany(n, max int, fldPath *field.Path, opts []listOption) field.ErrorList {
	if max < 0 || n <= max {
		return nil
	}
	e := field.TooMany(fldPath, n, max).WithOrigin("maxItems")
	if slices.Contains(opts, coveredSize) {
		e = e.MarkCoveredByDeclarative()
	}
	return field.ErrorList{e}
}

// list checks a list's length, then each item.
func list[T any](items []T, max int, check func(T, *field.Path) field.ErrorList, fldPath *field.Path, opts ...listOption) field.ErrorList {
	if errs := tooMany(len(items), max, fldPath, opts); errs != nil {
		return errs
	}
	return eachItem(items, check, fldPath, opts...)
}

// set is list plus the uniqueness of each item's key: a repeated key is a Duplicate at the
// repeating item.
func set[T any, K comparable](items []T, max int, check func(T, *field.Path) field.ErrorList, key func(T) K, fldPath *field.Path, opts ...listOption) field.ErrorList {
	if errs := tooMany(len(items), max, fldPath, opts); errs != nil {
		return errs
	}
	errs := eachItem(items, check, fldPath, opts...)
	seen := sets.New[K]()
	for i, item := range items {
		k := key(item)
		if !seen.Has(k) {
			seen.Insert(k)
			continue
		}
		e := field.Duplicate(fldPath.Index(i), k)
		if slices.Contains(opts, coveredUniqueness) {
			e = e.MarkCoveredByDeclarative()
		}
		errs = append(errs, e)
	}
	return errs
}

func itself(s string) string { return s }
