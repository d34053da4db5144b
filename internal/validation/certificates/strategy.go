package certificates

import (
	"time"

	api "github.com/ssa-diff/ssa-diff/internal/api/certificates"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Strategy is the validation of a kind of the certificates.k8s.io group as its registry
// strategy runs it, or nil when it is not ported.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	switch kind {
	case "CertificateSigningRequest":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList {
				return ValidateCertificateSigningRequest(cfg, obj.(*api.CertificateSigningRequest))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateCertificateSigningRequestUpdate(cfg, obj.(*api.CertificateSigningRequest), old.(*api.CertificateSigningRequest), false)
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateCertificateSigningRequestUpdate(cfg, obj.(*api.CertificateSigningRequest), old.(*api.CertificateSigningRequest), true)
			},
			Declarative: csrDeclarative,
		}
	case "ClusterTrustBundle":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList {
				return ValidateClusterTrustBundle(obj.(*api.ClusterTrustBundle), true)
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateClusterTrustBundleUpdate(obj.(*api.ClusterTrustBundle), old.(*api.ClusterTrustBundle))
			},
			// Its declarative rules (the signer name given and immutable) are alpha.
			Declarative: registry.NoDeclarativeRules,
		}
	case "PodCertificateRequest":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				return ValidatePodCertificateRequest(obj.(*api.PodCertificateRequest))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidatePodCertificateRequestUpdate(obj.(*api.PodCertificateRequest), old.(*api.PodCertificateRequest))
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidatePodCertificateRequestStatusUpdate(obj.(*api.PodCertificateRequest), old.(*api.PodCertificateRequest), time.Now())
			},
			// Its declarative rules (the status conditions) are alpha.
			Declarative: registry.NoDeclarativeRules,
		}
	}
	return nil
}
