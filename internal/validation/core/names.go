package core

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The name rules of the core group's fields: each error carries the origin declarative
// validation matches it by.

// ValidateDNS1123Label: value is an RFC 1123 label.
func ValidateDNS1123Label(value string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range wellformed.IsDNS1123Label(value) {
		errs = append(errs, field.Invalid(fldPath, value, msg).WithOrigin("format=k8s-short-name"))
	}
	return errs
}

// ValidateQualifiedName: value is a qualified name ([prefix/]name).
func ValidateQualifiedName(value string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range wellformed.IsQualifiedName(value) {
		errs = append(errs, field.Invalid(fldPath, value, msg).WithOrigin("format=qualified-name"))
	}
	return errs
}

// ValidateDNS1123SubdomainWithUnderScore: value is an RFC 1123 subdomain that may hold
// underscores.
func ValidateDNS1123SubdomainWithUnderScore(value string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsDNS1123SubdomainWithUnderscore(value) {
		errs = append(errs, field.Invalid(fldPath, value, msg).WithOrigin("format=k8s-dns-subdomain-with-underscore"))
	}
	return errs
}

// ValidateDNS1123Subdomain: value is an RFC 1123 subdomain.
func ValidateDNS1123Subdomain(value string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range wellformed.IsDNS1123Subdomain(value) {
		errs = append(errs, field.Invalid(fldPath, value, msg).WithOrigin("format=k8s-long-name"))
	}
	return errs
}

// The object-name rules of the kinds the pod template refers to.
var (
	ValidatePodName                   = wellformed.NameIsDNSSubdomain
	ValidateNodeName                  = wellformed.NameIsDNSSubdomain
	ValidateNamespaceName             = wellformed.NameIsDNSLabel
	ValidateSecretName                = wellformed.NameIsDNSSubdomain
	ValidateConfigMapName             = wellformed.NameIsDNSSubdomain
	ValidateServiceAccountName        = wellformed.NameIsDNSSubdomain
	ValidateClassName                 = wellformed.NameIsDNSSubdomain
	ValidatePriorityClassName         = wellformed.NameIsDNSSubdomain
	ValidateResourceClaimName         = wellformed.NameIsDNSSubdomain
	ValidateResourceClaimTemplateName = wellformed.NameIsDNSSubdomain
	ValidatePodGroupName              = wellformed.NameIsDNSSubdomain
	ValidatePersistentVolumeName      = wellformed.NameIsDNSSubdomain
)

// ValidateRuntimeClassName: a RuntimeClass name, a DNS subdomain.
func ValidateRuntimeClassName(name string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range wellformed.NameIsDNSSubdomain(name, false) {
		errs = append(errs, field.Invalid(fldPath, name, msg))
	}
	return errs
}

// IsKubernetesSignerName: the signer's domain is kubernetes.io or below it.
func IsKubernetesSignerName(signerName string) bool {
	host, _, _ := strings.Cut(signerName, "/")
	return host == "kubernetes.io" || strings.HasSuffix(host, ".kubernetes.io")
}

// ValidateSignerName: a signer name is "<domain with a dot>/<path of subdomains>", 571
// characters at most.
func ValidateSignerName(fldPath *field.Path, signerName string) field.ErrorList {
	if signerName == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	parts := strings.Split(signerName, "/")
	if len(parts) != 2 {
		return field.ErrorList{field.Invalid(fldPath, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")}
	}
	var errs field.ErrorList
	domain, path := parts[0], parts[1]
	if len(domain) > validation.DNS1123SubdomainMaxLength {
		errs = append(errs, field.TooLong(fldPath, "", validation.DNS1123SubdomainMaxLength))
	}
	labels := strings.Split(domain, ".")
	for _, l := range labels {
		msgs := wellformed.IsDNS1123Label(l)
		for _, msg := range msgs {
			errs = append(errs, field.Invalid(fldPath, domain, fmt.Sprintf("validating label %q: %s", l, msg)))
		}
		if len(msgs) > 0 {
			break
		}
	}
	if len(labels) < 2 {
		errs = append(errs, field.Invalid(fldPath, domain, "should be a domain with at least two segments separated by dots"))
	}
	for _, l := range strings.Split(path, ".") {
		msgs := wellformed.IsDNS1123Subdomain(l)
		for _, msg := range msgs {
			errs = append(errs, field.Invalid(fldPath, path, fmt.Sprintf("validating label %q: %s", l, msg)))
		}
		if len(msgs) > 0 {
			break
		}
	}
	maxLen := validation.DNS1123SubdomainMaxLength + (validation.DNS1123SubdomainMaxLength + validation.DNS1123LabelMaxLength + 1) + 1
	if len(signerName) > maxLen {
		errs = append(errs, field.TooLong(fldPath, "", maxLen))
	}
	return errs
}

// clusterTrustBundleNameProblems are the problems of a ClusterTrustBundle name: one tied
// to a signer is "<signer with : for />:<subdomain>", one without has no ":".
func clusterTrustBundleNameProblems(name string) []string {
	cut := strings.LastIndex(name, ":")
	if cut < 0 {
		return wellformed.NameIsDNSSubdomain(name, false)
	}
	signer := strings.ReplaceAll(name[:cut], ":", "/")
	if signer == "" {
		// A name starting with ":" refers to no signer.
		if strings.Contains(name, ":") {
			return []string{`ClusterTrustBundle without signer name must not have ":" in its name`}
		}
	}
	prefix := strings.ReplaceAll(signer, "/", ":") + ":"
	if !strings.HasPrefix(name, prefix) {
		return []string{fmt.Sprintf("ClusterTrustBundle for signerName %s must be named with prefix %s", signer, prefix)}
	}
	return wellformed.NameIsDNSSubdomain(strings.TrimPrefix(name, prefix), false)
}

// ValidateAnnotations: annotation keys and their total size.
func ValidateAnnotations(annotations map[string]string, fldPath *field.Path) field.ErrorList {
	return wellformed.ValidateAnnotations(annotations, fldPath)
}

// ValidateHasLabel: the metadata has label key with the expected value.
func ValidateHasLabel(meta metav1.ObjectMeta, fldPath *field.Path, key, expected string) field.ErrorList {
	v, ok := meta.Labels[key]
	switch {
	case !ok:
		return field.ErrorList{field.Required(fldPath.Child("labels").Key(key), fmt.Sprintf("must be '%s'", expected))}
	case v != expected:
		return field.ErrorList{field.Invalid(fldPath.Child("labels").Key(key), meta.Labels, fmt.Sprintf("must be '%s'", expected))}
	}
	return nil
}

// IsDecremented: update is below old, or unset where old was set.
func IsDecremented(update, old *int32) bool {
	if update == nil && old != nil {
		return true
	}
	if update == nil || old == nil {
		return false
	}
	return *update < *old
}
