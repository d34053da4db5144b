package certificates

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"slices"

	api "github.com/ssa-diff/ssa-diff/internal/api/certificates"
	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// usages are the key usages the server knows, sorted by value: written in that order (data
// the linker lays out; TestUsagesAreTheKeyUsagesSorted holds it to the constants) rather
// than sorted at every start.
var usages = []string{
	string(api.UsageAny), string(api.UsageCertSign), string(api.UsageClientAuth), string(api.UsageCodeSigning),
	string(api.UsageContentCommitment), string(api.UsageCRLSign), string(api.UsageDataEncipherment), string(api.UsageDecipherOnly),
	string(api.UsageDigitalSignature), string(api.UsageEmailProtection), string(api.UsageEncipherOnly), string(api.UsageIPsecEndSystem),
	string(api.UsageIPsecTunnel), string(api.UsageIPsecUser), string(api.UsageKeyAgreement), string(api.UsageKeyEncipherment),
	string(api.UsageMicrosoftSGC), string(api.UsageNetscapeSGC), string(api.UsageOCSPSigning), string(api.UsageSMIME),
	string(api.UsageServerAuth), string(api.UsageSigning), string(api.UsageTimestamping),
}

var (
	allStatuses = []string{string(coreapi.ConditionFalse), string(coreapi.ConditionTrue), string(coreapi.ConditionUnknown)}
	trueOnly    = []string{string(coreapi.ConditionTrue)}
)

// csrOptions are what a write may do that others may not, and what the stored request
// already broke (left acceptable).
type csrOptions struct {
	settingApproval, settingCertificate                            bool
	bothApprovedAndDenied, legacySigner, duplicateTypes, emptyType bool
	arbitraryCertificate, unknownUsages, duplicateUsages           bool
	// exclusiveAtType: Kubernetes 1.33 and older name the condition's type where Approved
	// and Denied meet (status.conditions[1].type); 1.34 names the list, as its declarative
	// rule does.
	exclusiveAtType bool
}

func csrOptionsFor(cfg *serverconfig.Config, csr, old *api.CertificateSigningRequest) csrOptions {
	// Kubernetes 1.34 moved the Approved-and-Denied error to the list.
	o := csrOptions{exclusiveAtType: !cfg.AtLeast(34)}
	if old == nil {
		return o
	}
	types := map[api.RequestConditionType]bool{}
	for _, c := range old.Status.Conditions {
		if types[c.Type] {
			o.duplicateTypes = true
		}
		types[c.Type] = true
		if c.Type == "" {
			o.emptyType = true
		}
	}
	o.bothApprovedAndDenied = types[api.CertificateApproved] && types[api.CertificateDenied]
	o.legacySigner = old.Spec.SignerName == api.LegacyUnknownSignerName
	o.arbitraryCertificate = bytes.Equal(csr.Status.Certificate, old.Status.Certificate) || validateCertificate(old.Status.Certificate) != nil
	seen := map[api.KeyUsage]bool{}
	for _, u := range old.Spec.Usages {
		if !slices.Contains(usages, string(u)) {
			o.unknownUsages = true
		}
		if seen[u] {
			o.duplicateUsages = true
		}
		seen[u] = true
	}
	return o
}

// parseCSR reads a PEM certificate request and checks its signature.
func checkRequest(pemBytes []byte) error {
	block, _ := pem.Decode(pemBytes)
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return errors.New("PEM block type must be CERTIFICATE REQUEST")
	}
	csr, err := x509.ParseCertificateRequest(block.Bytes)
	if err != nil {
		return err
	}
	return csr.CheckSignature()
}

// validateCertificate: empty, or CERTIFICATE blocks without headers, each holding
// certificates.
func validateCertificate(data []byte) error {
	if len(data) == 0 {
		return nil
	}
	blocks := 0
	for {
		block, rest := pem.Decode(data)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			return fmt.Errorf("only CERTIFICATE PEM blocks are allowed, found %q", block.Type)
		}
		if len(block.Headers) != 0 {
			return fmt.Errorf("no PEM block headers are permitted")
		}
		blocks++
		certs, err := x509.ParseCertificates(block.Bytes)
		if err != nil {
			return err
		}
		if len(certs) == 0 {
			return fmt.Errorf("found CERTIFICATE PEM block containing 0 certificates")
		}
		data = rest
	}
	if blocks == 0 {
		return fmt.Errorf("must contain at least one CERTIFICATE PEM block")
	}
	return nil
}

// anyName accepts any request name.
func anyName(string, bool) []string { return nil }

func validateCSR(csr *api.CertificateSigningRequest, opts csrOptions) field.ErrorList {
	errs := core.ValidateObjectMeta(&csr.ObjectMeta, false, anyName, field.NewPath("metadata"))
	p := field.NewPath("spec")
	if err := checkRequest(csr.Spec.Request); err != nil {
		errs = append(errs, field.Invalid(p.Child("request"), csr.Spec.Request, fmt.Sprintf("%v", err)))
	}
	if len(csr.Spec.Usages) == 0 {
		errs = append(errs, field.Required(p.Child("usages"), ""))
	}
	if !opts.unknownUsages {
		for i, u := range csr.Spec.Usages {
			if !slices.Contains(usages, string(u)) {
				errs = append(errs, field.NotSupported(p.Child("usages").Index(i), u, usages))
			}
		}
	}
	if !opts.duplicateUsages {
		seen := map[api.KeyUsage]bool{}
		for i, u := range csr.Spec.Usages {
			if seen[u] {
				errs = append(errs, field.Duplicate(p.Child("usages").Index(i), u))
			}
			seen[u] = true
		}
	}
	if !opts.legacySigner && csr.Spec.SignerName == api.LegacyUnknownSignerName {
		errs = append(errs, field.Invalid(p.Child("signerName"), csr.Spec.SignerName, "the legacy signerName is not allowed via this API version"))
	} else {
		errs = append(errs, core.ValidateSignerName(p.Child("signerName"), csr.Spec.SignerName)...)
	}
	if e := csr.Spec.ExpirationSeconds; e != nil && *e < 600 {
		errs = append(errs, field.Invalid(p.Child("expirationSeconds"), *e, "may not specify a duration less than 600 seconds (10 minutes)"))
	}
	errs = append(errs, validateCSRConditions(field.NewPath("status", "conditions"), csr, opts)...)
	if !opts.arbitraryCertificate {
		if err := validateCertificate(csr.Status.Certificate); err != nil {
			errs = append(errs, field.Invalid(field.NewPath("status", "certificate"), "<certificate data>", err.Error()))
		}
	}
	return errs
}

func validateCSRConditions(p *field.Path, csr *api.CertificateSigningRequest, opts csrOptions) field.ErrorList {
	errs := field.ErrorList{}
	seen := map[api.RequestConditionType]bool{}
	approved, denied := false, false
	for i, c := range csr.Status.Conditions {
		ip := p.Index(i)
		if !opts.emptyType && c.Type == "" {
			errs = append(errs, field.Required(ip.Child("type"), ""))
		}
		allowed := allStatuses
		if c.Type == api.CertificateApproved || c.Type == api.CertificateDenied || c.Type == api.CertificateFailed {
			allowed = trueOnly
		}
		switch {
		case c.Status == "":
			errs = append(errs, field.Required(ip.Child("status"), ""))
		case !slices.Contains(allowed, string(c.Status)):
			errs = append(errs, field.NotSupported(ip.Child("status"), c.Status, allowed))
		}
		if !opts.bothApprovedAndDenied {
			exclusive := false
			switch c.Type {
			case api.CertificateApproved:
				approved, exclusive = true, denied
			case api.CertificateDenied:
				denied, exclusive = true, approved
			}
			if exclusive && opts.exclusiveAtType {
				errs = append(errs, field.Invalid(ip.Child("type"), c.Type, "Approved and Denied conditions are mutually exclusive"))
			} else if exclusive {
				errs = append(errs, field.Invalid(p, c.Type, "Approved and Denied conditions are mutually exclusive").WithOrigin("zeroOrOneOf").MarkCoveredByDeclarative())
			}
		}
		if !opts.duplicateTypes {
			if seen[c.Type] {
				errs = append(errs, field.Duplicate(ip.Child("type"), c.Type))
			}
			seen[c.Type] = true
		}
	}
	return errs
}

// ValidateCertificateSigningRequest checks a new CertificateSigningRequest.
func ValidateCertificateSigningRequest(cfg *serverconfig.Config, csr *api.CertificateSigningRequest) field.ErrorList {
	return validateCSR(csr, csrOptionsFor(cfg, csr, nil))
}

// ValidateCertificateSigningRequestUpdate checks an update through the main resource (or,
// with status, through /status, which may set the certificate).
func ValidateCertificateSigningRequestUpdate(cfg *serverconfig.Config, csr, old *api.CertificateSigningRequest, status bool) field.ErrorList {
	opts := csrOptionsFor(cfg, csr, old)
	opts.settingCertificate = status
	errs := validateCSR(csr, opts)
	metaErrs := core.ValidateObjectMetaUpdate(&csr.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	cp := field.NewPath("status", "conditions")
	for _, t := range []api.RequestConditionType{api.CertificateApproved, api.CertificateDenied, api.CertificateFailed} {
		if len(conditionsOf(csr, t)) < len(conditionsOf(old, t)) {
			errs = append(errs, field.Forbidden(cp, fmt.Sprintf("updates may not remove a condition of type %q", t)))
		}
	}
	if !opts.settingApproval {
		for _, t := range []api.RequestConditionType{api.CertificateApproved, api.CertificateDenied} {
			oldC, newC := conditionsOf(old, t), conditionsOf(csr, t)
			switch {
			case len(newC) < len(oldC):
			case len(newC) > len(oldC):
				errs = append(errs, field.Forbidden(cp, fmt.Sprintf("updates may not add a condition of type %q", t)))
			case !apiequality.Semantic.DeepEqual(oldC, newC):
				errs = append(errs, field.Forbidden(cp, fmt.Sprintf("updates may not modify a condition of type %q\n%v", t, diff.Diff(oldC, newC))))
			}
		}
	}
	if !bytes.Equal(csr.Status.Certificate, old.Status.Certificate) {
		if !opts.settingCertificate {
			errs = append(errs, field.Forbidden(field.NewPath("status", "certificate"), "updates may not set certificate content"))
		} else if len(old.Status.Certificate) > 0 {
			errs = append(errs, field.Forbidden(field.NewPath("status", "certificate"), "updates may not modify existing certificate content"))
		}
	}
	return append(errs, metaErrs...)
}

func conditionsOf(csr *api.CertificateSigningRequest, t api.RequestConditionType) []api.CertificateSigningRequestCondition {
	var out []api.CertificateSigningRequestCondition
	for _, c := range csr.Status.Conditions {
		if c.Type == t {
			out = append(out, c)
		}
	}
	return out
}

// approvalUnion is the declarative rule on a request's conditions: Approved and Denied
// are never both there.
var approvalUnion = validate.NewUnionMembership(validate.NewUnionMember(`conditions[{"type": "Approved"}]`), validate.NewUnionMember(`conditions[{"type": "Denied"}]`))

// csrDeclarative is the declarative validation 1.37 enforces on a request (beta), checked
// where a write changes the conditions.
func csrDeclarative(obj, old any) field.ErrorList {
	op := operation.Operation{Type: operation.Create}
	conds := obj.(*api.CertificateSigningRequest).Status.Conditions
	var oldConds []api.CertificateSigningRequestCondition
	if old != nil {
		op.Type = operation.Update
		o := old.(*api.CertificateSigningRequest)
		if apiequality.Semantic.DeepEqual(&obj.(*api.CertificateSigningRequest).Status, &o.Status) ||
			apiequality.Semantic.DeepEqual(conds, o.Status.Conditions) {
			return nil
		}
		oldConds = o.Status.Conditions
	}
	if len(conds) == 0 {
		return nil
	}
	has := func(t api.RequestConditionType) func([]api.CertificateSigningRequestCondition) bool {
		return func(list []api.CertificateSigningRequestCondition) bool {
			return slices.ContainsFunc(list, func(c api.CertificateSigningRequestCondition) bool { return c.Type == t })
		}
	}
	return validate.ZeroOrOneOfUnion(context.Background(), op, field.NewPath("status", "conditions"), conds, oldConds, approvalUnion,
		has(api.CertificateApproved), has(api.CertificateDenied)).MarkBeta()
}
