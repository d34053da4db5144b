package resource

import (
	"slices"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"

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
	// keyName, keyUID, keyCounterSet and keyDeviceID name the field of an item its key is:
	// before 1.35 a repeated key was reported on that field of the item.
	keyName
	keyUID
	keyCounterSet
	keyDeviceID
)

// keyFields are the fields the key options name.
var keyFields = map[listOption]string{keyName: "name", keyUID: "uid", keyCounterSet: "counterSet", keyDeviceID: "deviceID"}

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
func set[T any, K comparable](cfg *serverconfig.Config, items []T, max int, check func(T, *field.Path) field.ErrorList, key func(T) K, fldPath *field.Path, opts ...listOption) field.ErrorList {
	if errs := tooMany(len(items), max, fldPath, opts); errs != nil {
		return errs
	}
	errs := eachItem(items, check, fldPath, opts...)
	// Kubernetes 1.35 reported a repeated key on the item; 1.34 on the item's field the
	// key is (pkg/apis/resource/validation/validation.go validateSet in 1.34).
	var child string
	if !cfg.AtLeast(35) {
		for _, o := range opts {
			if f, ok := keyFields[o]; ok {
				child = f
			}
		}
	}
	seen := sets.New[K]()
	for i, item := range items {
		k := key(item)
		if !seen.Has(k) {
			seen.Insert(k)
			continue
		}
		p := fldPath.Index(i)
		if child != "" {
			p = p.Child(child)
		}
		e := field.Duplicate(p, k)
		if slices.Contains(opts, coveredUniqueness) {
			e = e.MarkCoveredByDeclarative()
		}
		errs = append(errs, e)
	}
	return errs
}

func itself(s string) string { return s }
