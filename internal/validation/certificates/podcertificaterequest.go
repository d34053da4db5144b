package certificates

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/mail"
	"strings"
	"time"

	api "github.com/ssa-diff/ssa-diff/internal/api/certificates"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

var (
	pkixPath         = field.NewPath("spec", "pkixPublicKey")
	stubPath         = field.NewPath("spec", "stubPKCS10Request")
	chainPath        = field.NewPath("status", "certificateChain")
	notBeforePath    = field.NewPath("status", "notBefore")
	notAfterPath     = field.NewPath("status", "notAfter")
	beginRefreshPath = field.NewPath("status", "beginRefreshAt")
)

// ValidatePodCertificateRequest checks a new PodCertificateRequest.
func ValidatePodCertificateRequest(r *api.PodCertificateRequest) field.ErrorList {
	errs := core.ValidateObjectMeta(&r.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	spec := &r.Spec
	p := field.NewPath("spec")
	errs = append(errs, core.ValidateSignerName(p.Child("signerName"), spec.SignerName)...)
	if spec.UnverifiedUserAnnotations != nil {
		up := p.Child("unverifiedUserAnnotations")
		for k := range spec.UnverifiedUserAnnotations {
			errs = append(errs, validation.IsDomainPrefixedKey(up, strings.ToLower(k))...)
		}
		if apimachineryvalidation.ValidateAnnotationsSize(spec.UnverifiedUserAnnotations) != nil {
			errs = append(errs, field.TooLong(up, "", apimachineryvalidation.TotalAnnotationSizeLimitB))
		}
	}
	for _, msg := range wellformed.NameIsDNSSubdomain(spec.PodName, false) {
		errs = append(errs, field.Invalid(p.Child("podName"), spec.PodName, msg))
	}
	errs = append(errs, uidRule(p.Child("podUID"), spec.PodUID)...)
	for _, msg := range wellformed.NameIsDNSSubdomain(spec.ServiceAccountName, false) {
		errs = append(errs, field.Invalid(p.Child("serviceAccountName"), spec.ServiceAccountName, msg))
	}
	errs = append(errs, uidRule(p.Child("serviceAccountUID"), spec.ServiceAccountUID)...)
	for _, msg := range wellformed.NameIsDNSSubdomain(string(spec.NodeName), false) {
		errs = append(errs, field.Invalid(p.Child("nodeName"), spec.NodeName, msg))
	}
	errs = append(errs, uidRule(p.Child("nodeUID"), spec.NodeUID)...)
	mp := p.Child("maxExpirationSeconds")
	if spec.MaxExpirationSeconds == nil {
		return append(errs, field.Required(mp, "must be set"))
	}
	limit := api.MaxMaxExpirationSeconds
	if core.IsKubernetesSignerName(spec.SignerName) {
		// Kubernetes' own signers issue for a day at most.
		limit = api.KubernetesMaxMaxExpirationSeconds
	}
	if m := *spec.MaxExpirationSeconds; m < api.MinMaxExpirationSeconds || m > int32(limit) {
		errs = append(errs, field.Invalid(mp, spec.MaxExpirationSeconds, fmt.Sprintf("must be in the range [%d, %d]", api.MinMaxExpirationSeconds, limit)))
	}
	// certificates.k8s.io/v1 serves neither pkixPublicKey nor proofOfPossession: a request
	// made through it names its key with a stub PKCS#10 request.
	if len(spec.StubPKCS10Request) == 0 || len(spec.PKIXPublicKey) != 0 || len(spec.ProofOfPossession) != 0 {
		return append(errs, field.Invalid(p, field.OmitValueType{}, "exactly one of (stubPKCS10Request) or (pkixPublicKey, proofOfPossession) must be set"))
	}
	return append(errs, validateStubRequest(spec.StubPKCS10Request)...)
}

func uidRule[T ~string](p *field.Path, uid T) field.ErrorList {
	var errs field.ErrorList
	if len(uid) == 0 {
		errs = append(errs, field.Invalid(p, uid, "must not be empty"))
	}
	if len(uid) > 128 {
		errs = append(errs, field.TooLong(p, uid, 128))
	}
	return errs
}

// acceptedCurve: P-256, P-384 or P-521.
func acceptedCurve(c elliptic.Curve) bool {
	return c == elliptic.P256() || c == elliptic.P384() || c == elliptic.P521()
}

// validateStubRequest: at most 10 KiB, a PKCS#10 request whose key is Ed25519, ECDSA on an
// accepted curve or RSA of 3072 or 4096 bits, and whose signature holds.
func validateStubRequest(der []byte) field.ErrorList {
	if len(der) > api.MaxStubPKCS10RequestSize {
		return field.ErrorList{field.TooLong(stubPath, der, api.MaxStubPKCS10RequestSize)}
	}
	req, err := x509.ParseCertificateRequest(der)
	if err != nil {
		return field.ErrorList{field.Invalid(stubPath, field.OmitValueType{}, "must be a valid PKCS#10 CSR")}
	}
	switch pub := req.PublicKey.(type) {
	case ed25519.PublicKey:
	case *ecdsa.PublicKey:
		if !acceptedCurve(pub.Curve) {
			return field.ErrorList{field.Invalid(stubPath, "curve "+pub.Curve.Params().Name, "elliptic public keys must use curve P256, P384, or P521")}
		}
	case *rsa.PublicKey:
		if bits := pub.Size() * 8; bits != 3072 && bits != 4096 {
			return field.ErrorList{field.Invalid(stubPath, fmt.Sprintf("%d-bit modulus", bits), "RSA keys must have modulus size 3072 or 4096")}
		}
	default:
		return field.ErrorList{field.Invalid(stubPath, field.OmitValueType{}, "unknown public key type; supported types are Ed25519, ECDSA, and RSA")}
	}
	if err := req.CheckSignature(); err != nil {
		return field.ErrorList{field.Invalid(stubPath, field.OmitValueType{}, "invalid signature")}
	}
	return nil
}

// ValidatePodCertificateRequestUpdate checks an update through the main resource: the
// spec never changes.
func ValidatePodCertificateRequestUpdate(r, old *api.PodCertificateRequest) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&r.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, core.ValidateImmutableField(r.Spec, old.Spec, field.NewPath("spec"))...)
}

var terminalTypes = []string{api.PodCertificateRequestConditionTypeIssued, api.PodCertificateRequestConditionTypeDenied, api.PodCertificateRequestConditionTypeFailed}

func hasCondition(r *api.PodCertificateRequest, t string) bool {
	for _, c := range r.Status.Conditions {
		if c.Type == t && c.Status == metav1.ConditionTrue {
			return true
		}
	}
	return false
}

func terminal(r *api.PodCertificateRequest) bool {
	return hasCondition(r, api.PodCertificateRequestConditionTypeIssued) || hasCondition(r, api.PodCertificateRequestConditionTypeDenied) ||
		hasCondition(r, api.PodCertificateRequestConditionTypeFailed)
}

func semanticallyEqual(a, b any, p *field.Path, detail string) field.ErrorList {
	if !apiequality.Semantic.DeepEqual(a, b) {
		return field.ErrorList{field.Invalid(p, field.OmitValueType{}, detail)}
	}
	return nil
}

// ValidatePodCertificateRequestStatusUpdate checks a write of /status at time now: one
// terminal condition at most, always True; a terminal request's status never changes
// again; denying or failing sets conditions only; issuing sets a chain whose leaf was
// issued to the requested key, with its timestamps.
func ValidatePodCertificateRequestStatusUpdate(r, old *api.PodCertificateRequest, now time.Time) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&r.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	if len(errs) > 0 {
		return errs
	}
	known := 0
	for i, c := range r.Status.Conditions {
		cp := field.NewPath("status", "conditions", fmt.Sprintf("[%d]", i))
		switch c.Type {
		case api.PodCertificateRequestConditionTypeIssued, api.PodCertificateRequestConditionTypeDenied, api.PodCertificateRequestConditionTypeFailed:
			if known++; known > 1 {
				errs = append(errs, field.Invalid(cp.Child("type"), c.Type, `There may be at most one condition with type "Issued", "Denied", or "Failed"`))
			}
			if c.Status != metav1.ConditionTrue {
				errs = append(errs, field.NotSupported(cp.Child("status"), c.Status, []metav1.ConditionStatus{metav1.ConditionTrue}))
			}
		default:
			errs = append(errs, field.NotSupported(cp.Child("type"), c.Type, terminalTypes))
		}
	}
	errs = append(errs, metav1validation.ValidateConditions(r.Status.Conditions, field.NewPath("status", "conditions"))...)
	if len(errs) > 0 {
		return errs
	}
	sp := field.NewPath("status")
	switch {
	case terminal(old):
		return semanticallyEqual(r.Status, old.Status, sp, "immutable after PodCertificateRequest is issued, denied, or failed")
	case hasCondition(r, api.PodCertificateRequestConditionTypeDenied) || hasCondition(r, api.PodCertificateRequestConditionTypeFailed):
		return semanticallyEqual(r.Status, api.PodCertificateRequestStatus{Conditions: r.Status.Conditions}, sp,
			"non-condition status fields must be empty when denying or failing the PodCertificateRequest")
	case hasCondition(r, api.PodCertificateRequestConditionTypeIssued):
		return validateIssued(r, old, now)
	}
	return semanticallyEqual(r.Status, old.Status, sp, `status is immutable unless transitioning to "Issued", "Denied", or "Failed"`)
}

func validateIssued(r, old *api.PodCertificateRequest, now time.Time) field.ErrorList {
	chain := r.Status.CertificateChain
	if len(chain) > api.MaxCertificateChainSize {
		return field.ErrorList{field.TooLong(chainPath, chain, api.MaxCertificateChainSize)}
	}
	leafBlock, rest := pem.Decode([]byte(chain))
	if leafBlock == nil {
		return field.ErrorList{field.Invalid(chainPath, chain, "issued certificate chain must contain at least one certificate")}
	}
	if leafBlock.Type != "CERTIFICATE" {
		return field.ErrorList{field.Invalid(chainPath, chain, "issued certificate chain must consist entirely of CERTIFICATE PEM blocks")}
	}
	leaf, err := x509.ParseCertificate(leafBlock.Bytes)
	if err != nil {
		return field.ErrorList{field.Invalid(chainPath, chain, "leaf certificate does not parse as valid X.509")}
	}
	var errs field.ErrorList
	for _, name := range leaf.DNSNames {
		if name == "" {
			errs = append(errs, field.Invalid(chainPath, name, "leaf certificate should not contain empty DNSName"))
		}
		if strings.Contains(name, "..") {
			errs = append(errs, field.Invalid(chainPath, name, "leaf certificate's DNSName should not contain '..'"))
		}
		if strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") {
			errs = append(errs, field.Invalid(chainPath, name, "leaf certificate's DNSName should not start or end with '.'"))
		}
	}
	for _, addr := range leaf.EmailAddresses {
		if _, err := mail.ParseAddress(addr); err != nil {
			errs = append(errs, field.Invalid(chainPath, addr, "leaf certificate should not contain invalid EmailAddress"))
		}
	}
	var want crypto.PublicKey
	if len(old.Spec.StubPKCS10Request) != 0 {
		req, err := x509.ParseCertificateRequest(old.Spec.StubPKCS10Request)
		if err != nil {
			return append(errs, field.Invalid(stubPath, field.OmitValueType{}, "must be a valid PKCS#10 CSR"))
		}
		want = req.PublicKey
	} else if want, err = x509.ParsePKIXPublicKey(old.Spec.PKIXPublicKey); err != nil {
		return append(errs, field.Invalid(pkixPath, field.OmitValueType{}, "must be a valid PKIX-serialized public key"))
	}
	if k, ok := want.(interface{ Equal(crypto.PublicKey) bool }); ok {
		switch want.(type) {
		case ed25519.PublicKey, *rsa.PublicKey, *ecdsa.PublicKey:
			if !k.Equal(leaf.PublicKey) {
				return append(errs, field.Invalid(chainPath, chain, "leaf certificate was not issued to the requested public key"))
			}
		}
	}
	s := &r.Status
	if s.NotBefore == nil {
		errs = append(errs, field.Required(notBeforePath, "must be present and consistent with the issued certificate"))
	}
	if s.NotAfter == nil {
		errs = append(errs, field.Required(notAfterPath, "must be present and consistent with the issued certificate"))
	}
	if s.BeginRefreshAt == nil {
		errs = append(errs, field.Required(beginRefreshPath, "must be present and in the range [notbefore+10min, notafter-10min]"))
	}
	if len(errs) > 0 {
		return errs
	}
	switch {
	case !s.NotBefore.Time.Equal(leaf.NotBefore):
		return field.ErrorList{field.Invalid(notBeforePath, s.NotBefore.Time, "must be set to the NotBefore time encoded in the leaf certificate")}
	case !(s.NotBefore.Time.After(now.Add(-5*time.Minute)) && s.NotBefore.Time.Before(now.Add(5*time.Minute))):
		return field.ErrorList{field.Invalid(notBeforePath, s.NotBefore.Time, "must be set to within 5 minutes of kube-apiserver's current time")}
	case !s.NotAfter.Time.Equal(leaf.NotAfter):
		return field.ErrorList{field.Invalid(notAfterPath, s.NotAfter.Time, "must be set to the NotAfter time encoded in the leaf certificate")}
	}
	lifetime := leaf.NotAfter.Sub(leaf.NotBefore)
	switch {
	case lifetime < time.Hour:
		return field.ErrorList{field.Invalid(chainPath, lifetime, "leaf certificate lifetime must be >= 1 hour")}
	case lifetime > time.Duration(*r.Spec.MaxExpirationSeconds)*time.Second:
		return field.ErrorList{field.Invalid(chainPath, lifetime, fmt.Sprintf("leaf certificate lifetime must be <= spec.maxExpirationSeconds (%v)", *r.Spec.MaxExpirationSeconds))}
	case s.BeginRefreshAt.Time.Before(s.NotBefore.Time.Add(10 * time.Minute)):
		return field.ErrorList{field.Invalid(beginRefreshPath, s.BeginRefreshAt.Time, "must be at least 10 minutes after status.notBefore")}
	case s.BeginRefreshAt.Time.After(s.NotAfter.Time.Add(-10 * time.Minute)):
		return field.ErrorList{field.Invalid(beginRefreshPath, s.BeginRefreshAt.Time, "must be at least 10 minutes before status.notAfter")}
	}
	for {
		var b *pem.Block
		if b, rest = pem.Decode(rest); b == nil {
			return nil
		}
		if b.Type != "CERTIFICATE" {
			return field.ErrorList{field.Invalid(chainPath, chain, "issued certificate chain must consist entirely of CERTFICATE PEM blocks")}
		}
		if _, err := x509.ParseCertificate(b.Bytes); err != nil {
			return field.ErrorList{field.Invalid(chainPath, chain, "intermediate certificate does not parse as valid X.509")}
		}
	}
}
