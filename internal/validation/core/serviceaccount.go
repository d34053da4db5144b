package core

import (
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
)

// ValidateServiceAccount checks a ServiceAccount: its metadata only (its name is a DNS
// subdomain). The strategy keeps only the names of the secrets it lists.
func ValidateServiceAccount(sa *api.ServiceAccount) field.ErrorList {
	return ValidateObjectMeta(&sa.ObjectMeta, true, apimachineryvalidation.ValidateServiceAccountName, field.NewPath("metadata"))
}

// ValidateServiceAccountUpdate checks an update of a ServiceAccount.
func ValidateServiceAccountUpdate(sa, old *api.ServiceAccount) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&sa.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, ValidateServiceAccount(sa)...)
}
