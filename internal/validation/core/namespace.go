package core

import (
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateNamespace checks a Namespace: its metadata (its name is a DNS-1123 label) and the
// names of its spec finalizers. (The strategy restores those on an update, and adds
// "kubernetes" on a create.)
func ValidateNamespace(ns *api.Namespace) field.ErrorList {
	errs := ValidateObjectMeta(&ns.ObjectMeta, false, wellformed.NameIsDNSLabel, field.NewPath("metadata"))
	for _, f := range ns.Spec.Finalizers {
		// The server names the list, not the entry.
		errs = append(errs, namespaceFinalizer(string(f), field.NewPath("spec", "finalizers"))...)
	}
	return errs
}

// ValidateNamespaceUpdate checks an update of a Namespace through the main resource, after
// ValidateNamespace.
func ValidateNamespaceUpdate(ns, old *api.Namespace) field.ErrorList {
	return ValidateObjectMetaUpdate(&ns.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
}

// ValidateNamespaceStatusUpdate checks an update through /status: the phase follows the
// deletion timestamp.
func ValidateNamespaceStatusUpdate(ns, old *api.Namespace) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&ns.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	// The server spells the field "Phase".
	phase := field.NewPath("status", "Phase")
	if ns.DeletionTimestamp.IsZero() {
		if ns.Status.Phase != api.NamespaceActive {
			errs = append(errs, field.Invalid(phase, ns.Status.Phase, "may only be 'Active' if `deletionTimestamp` is empty"))
		}
	} else if ns.Status.Phase != api.NamespaceTerminating {
		errs = append(errs, field.Invalid(phase, ns.Status.Phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"))
	}
	return errs
}

// namespaceFinalizer: a qualified name, and one of the standard finalizers unless it has a
// domain prefix.
func namespaceFinalizer(name string, fldPath *field.Path) field.ErrorList {
	errs := apimachineryvalidation.ValidateFinalizerName(name, fldPath)
	if !strings.Contains(name, "/") && !standardFinalizers.get().Has(name) {
		errs = append(errs, field.Invalid(fldPath, name, "name is neither a standard finalizer name nor is it fully qualified"))
	}
	return errs
}
