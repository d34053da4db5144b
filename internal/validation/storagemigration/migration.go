package storagemigration

import (
	"fmt"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/storagemigration"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Strategy is the validation of a kind of the storagemigration.k8s.io group as its
// registry strategy runs it, or nil when it is not ported. 1.37 enforces none of its
// declarative rules (alpha).
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	if kind != "StorageVersionMigration" {
		return nil
	}
	return &registry.Strategy{
		Validate: func(obj any) field.ErrorList {
			return ValidateStorageVersionMigration(obj.(*api.StorageVersionMigration))
		},
		ValidateUpdate: func(obj, old any) field.ErrorList {
			return ValidateStorageVersionMigrationUpdate(obj.(*api.StorageVersionMigration), old.(*api.StorageVersionMigration))
		},
		ValidateStatusUpdate: func(obj, old any) field.ErrorList {
			return ValidateStorageVersionMigrationStatusUpdate(obj.(*api.StorageVersionMigration), old.(*api.StorageVersionMigration))
		},
		Declarative: registry.NoDeclarativeRules,
	}
}

// ValidateStorageVersionMigration checks a new migration: metadata and the resource.
func ValidateStorageVersionMigration(m *api.StorageVersionMigration) field.ErrorList {
	errs := core.ValidateObjectMeta(&m.ObjectMeta, false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	r := m.Spec.Resource
	rp := field.NewPath("spec", "resource")
	if r.Resource == "" {
		errs = append(errs, field.Required(rp.Child("resource"), "resource is required to be set"))
	} else if msgs := validation.IsDNS1035Label(r.Resource); len(msgs) > 0 {
		errs = append(errs, field.Invalid(rp.Child("resource"), r.Resource, strings.Join(msgs, ",")))
	}
	if r.Group != "" {
		if msgs := wellformed.IsDNS1123Subdomain(r.Group); len(msgs) > 0 {
			errs = append(errs, field.Invalid(rp.Child("group"), r.Group, strings.Join(msgs, ",")))
		}
	}
	return errs
}

// ValidateStorageVersionMigrationUpdate checks an update through the main resource: the
// spec never changes.
func ValidateStorageVersionMigrationUpdate(m, old *api.StorageVersionMigration) field.ErrorList {
	errs := ValidateStorageVersionMigration(m)
	errs = append(errs, core.ValidateObjectMetaUpdate(&m.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	return append(errs, core.ValidateImmutableField(m.Spec, old.Spec, field.NewPath("spec"))...)
}

// ValidateStorageVersionMigrationStatusUpdate checks a write of /status.
func ValidateStorageVersionMigrationStatusUpdate(m, old *api.StorageVersionMigration) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&m.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	p := field.NewPath("status")
	rv := m.Status.ResourceVersion
	if rv != "" {
		// A resource version compares equal to itself only when it parses.
		if c, err := resourceversion.CompareResourceVersion(rv, rv); err != nil || c != 0 {
			if err == nil {
				err = fmt.Errorf("unable to compare resource versions, %s is not equal to %s", rv, rv)
			}
			errs = append(errs, field.Invalid(p.Child("resourceVersion"), rv, err.Error()))
		}
	}
	errs = append(errs, metav1validation.ValidateConditions(m.Status.Conditions, p.Child("conditions"))...)
	if old.Status.ResourceVersion != "" && old.Status.ResourceVersion != rv {
		errs = append(errs, field.Invalid(p.Child("resourceVersion"), rv, "field is immutable"))
	}
	cp := p.Child("conditions")
	if isTrue(m, api.MigrationSucceeded) && isTrue(m, api.MigrationFailed) {
		errs = append(errs, field.Invalid(cp, m.Status.Conditions, "Both success and failed conditions cannot be true at the same time"))
	}
	if isTrue(old, api.MigrationSucceeded) && !isTrue(m, api.MigrationSucceeded) {
		errs = append(errs, field.Invalid(cp, m.Status.Conditions, "Success condition cannot be set to false once it is true"))
	}
	if isTrue(old, api.MigrationFailed) && !isTrue(m, api.MigrationFailed) {
		errs = append(errs, field.Invalid(cp, m.Status.Conditions, "Failed condition cannot be set to false once it is true"))
	}
	return errs
}

// isTrue: the first condition of type t is there and True.
func isTrue(m *api.StorageVersionMigration, t api.MigrationConditionType) bool {
	c := meta.FindStatusCondition(m.Status.Conditions, string(t))
	return c != nil && c.Status == metav1.ConditionTrue
}
