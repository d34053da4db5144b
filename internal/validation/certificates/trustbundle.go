package certificates

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"sort"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/certificates"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// trustBundleName is the name rule of a ClusterTrustBundle: with a signer, the signer's
// name (its "/" as ":") and ":" before a DNS subdomain; without, a DNS subdomain with no
// ":".
func trustBundleName(signer string) apimachineryvalidation.ValidateNameFunc {
	return func(name string, prefix bool) []string {
		if signer == "" {
			if strings.Contains(name, ":") {
				return []string{`ClusterTrustBundle without signer name must not have ":" in its name`}
			}
			return wellformed.NameIsDNSSubdomain(name, prefix)
		}
		want := strings.ReplaceAll(signer, "/", ":") + ":"
		if !strings.HasPrefix(name, want) {
			return []string{fmt.Sprintf("ClusterTrustBundle for signerName %s must be named with prefix %s", signer, want)}
		}
		return wellformed.NameIsDNSSubdomain(strings.TrimPrefix(name, want), prefix)
	}
}

// ValidateClusterTrustBundle checks a ClusterTrustBundle; parseBundle false skips the PEM
// bundle (an update that leaves it unchanged).
func ValidateClusterTrustBundle(b *api.ClusterTrustBundle, parseBundle bool) field.ErrorList {
	errs := core.ValidateObjectMeta(&b.ObjectMeta, false, trustBundleName(b.Spec.SignerName), field.NewPath("metadata"))
	if b.Spec.SignerName != "" {
		errs = append(errs, core.ValidateSignerName(field.NewPath("spec", "signerName"), b.Spec.SignerName)...)
	}
	if parseBundle {
		errs = append(errs, validateTrustBundle(field.NewPath("spec", "trustBundle"), b.Spec.TrustBundle)...)
	}
	return errs
}

// ValidateClusterTrustBundleUpdate checks an update: the bundle is parsed only when it
// changes, and the signer name never changes (a handwritten rule still in force: its
// declarative twin is alpha).
func ValidateClusterTrustBundleUpdate(b, old *api.ClusterTrustBundle) field.ErrorList {
	errs := ValidateClusterTrustBundle(b, b.Spec.TrustBundle != old.Spec.TrustBundle)
	errs = append(errs, core.ValidateObjectMetaUpdate(&b.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	immutable := core.ValidateImmutableField(b.Spec.SignerName, old.Spec.SignerName, field.NewPath("spec", "signerName"))
	return append(errs, immutable.WithOrigin("immutable").MarkAlpha().MarkCoveredByDeclarative()...)
}

// validateTrustBundle: at most 1 MiB of CERTIFICATE blocks without headers, each a CA
// certificate, none twice, at least one.
func validateTrustBundle(p *field.Path, in string) field.ErrorList {
	if len(in) > api.MaxTrustBundleSize {
		return field.ErrorList{field.TooLong(p, "", api.MaxTrustBundleSize)}
	}
	const omitted = "<value omitted>"
	var errs field.ErrorList
	seen := map[string][]int{}
	var order []string
	rest := []byte(in)
	for i := 0; ; i++ {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			errs = append(errs, field.Invalid(p, omitted, fmt.Sprintf("entry %d has bad block type: %v", i, b.Type)))
			continue
		}
		if len(b.Headers) != 0 {
			errs = append(errs, field.Invalid(p, omitted, fmt.Sprintf("entry %d has PEM block headers", i)))
			continue
		}
		cert, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			errs = append(errs, field.Invalid(p, omitted, fmt.Sprintf("entry %d does not parse as X.509", i)))
			continue
		}
		if !cert.IsCA {
			errs = append(errs, field.Invalid(p, omitted, fmt.Sprintf("entry %d does not have the CA bit set", i)))
			continue
		}
		if !cert.BasicConstraintsValid {
			errs = append(errs, field.Invalid(p, omitted, fmt.Sprintf("entry %d has invalid basic constraints", i)))
			continue
		}
		if _, ok := seen[string(b.Bytes)]; !ok {
			order = append(order, string(b.Bytes))
		}
		seen[string(b.Bytes)] = append(seen[string(b.Bytes)], i)
	}
	if len(errs) != 0 {
		return errs
	}
	if len(seen) == 0 {
		return field.ErrorList{field.Invalid(p, omitted, "at least one trust anchor must be provided")}
	}
	// The server ranges over a map here: repeated anchors come in any order.
	sort.Strings(order)
	for _, k := range order {
		if idx := seen[k]; len(idx) > 1 {
			errs = append(errs, field.Invalid(p, omitted, fmt.Sprintf("duplicate trust anchor (indices %v)", idx)))
		}
	}
	return errs
}
