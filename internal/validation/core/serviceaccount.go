package core

import (
	"fmt"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateServiceAccount checks a ServiceAccount: its metadata only (its name is a DNS
// subdomain). The strategy keeps only the names of the secrets it lists.
func ValidateServiceAccount(sa *api.ServiceAccount) field.ErrorList {
	return ValidateObjectMeta(&sa.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
}

// ValidateServiceAccountUpdate checks an update of a ServiceAccount.
func ValidateServiceAccountUpdate(sa, old *api.ServiceAccount) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&sa.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, ValidateServiceAccount(sa)...)
}

// enforceMountableSecrets is the annotation that limits the secrets a ServiceAccount's pods
// may mount to those it lists.
const enforceMountableSecrets = "kubernetes.io/enforce-mountable-secrets"

// serviceAccountWarnings: setting the enforce-mountable-secrets annotation is deprecated
// (no warning when the stored object had it already; old is nil on a create).
func serviceAccountWarnings(sa, old *api.ServiceAccount) []string {
	if old != nil {
		if _, ok := old.Annotations[enforceMountableSecrets]; ok {
			return nil
		}
	}
	if _, ok := sa.Annotations[enforceMountableSecrets]; ok {
		return []string{fmt.Sprintf("metadata.annotations[%s]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets", enforceMountableSecrets)}
	}
	return nil
}
