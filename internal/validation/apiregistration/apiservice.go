package apiregistration

import (
	"context"
	"fmt"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/apiregistration"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// betaEnabled: the DeclarativeValidationBeta gate is on by default in 1.37.
const betaEnabled = true

// Strategy is the validation of a kind of the apiregistration.k8s.io group as the
// aggregator's registry strategy runs it, or nil when it is not ported.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	if kind != "APIService" {
		return nil
	}
	return &registry.Strategy{
		Validate: func(obj any) field.ErrorList {
			return ValidateAPIService(obj.(*api.APIService))
		},
		ValidateUpdate: func(obj, old any) field.ErrorList {
			return ValidateAPIServiceUpdate(obj.(*api.APIService), old.(*api.APIService))
		},
		ValidateStatusUpdate: func(obj, old any) field.ErrorList {
			return ValidateAPIServiceStatusUpdate(obj.(*api.APIService), old.(*api.APIService))
		},
	}
}

// ValidateAPIService checks an APIService (on create, and again on every update).
func ValidateAPIService(s *api.APIService) field.ErrorList {
	want := s.Spec.Version + "." + s.Spec.Group
	name := func(name string, _ bool) []string {
		if msgs := content.IsPathSegmentName(name); len(msgs) > 0 {
			return msgs
		}
		if name != want {
			return []string{fmt.Sprintf("must be `spec.version+\".\"+spec.group`: %q", want)}
		}
		return nil
	}
	errs := metavalidation.ValidateObjectMetaDeclaratively(context.Background(), operation.Create, &s.ObjectMeta, nil, false, name, field.NewPath("metadata"), betaEnabled)

	spec := &s.Spec
	p := field.NewPath("spec")
	switch {
	case spec.Group == "" && spec.Version != "v1":
		errs = append(errs, field.Required(p.Child("group"), "only v1 may have an empty group and it better be legacy kube"))
	case spec.Group != "":
		for _, msg := range wellformed.IsDNS1123Subdomain(spec.Group) {
			errs = append(errs, field.Invalid(p.Child("group"), spec.Group, msg))
		}
	}
	for _, msg := range validation.IsDNS1035Label(spec.Version) {
		errs = append(errs, field.Invalid(p.Child("version"), spec.Version, msg))
	}
	if spec.GroupPriorityMinimum <= 0 || spec.GroupPriorityMinimum > 20000 {
		errs = append(errs, field.Invalid(p.Child("groupPriorityMinimum"), spec.GroupPriorityMinimum, "must be positive and less than 20000"))
	}
	if spec.VersionPriority <= 0 || spec.VersionPriority > 1000 {
		errs = append(errs, field.Invalid(p.Child("versionPriority"), spec.VersionPriority, "must be positive and less than 1000"))
	}

	if spec.Service == nil {
		// Served by kube-apiserver itself: nothing to dial, so nothing to trust.
		if len(spec.CABundle) > 0 {
			errs = append(errs, field.Invalid(p.Child("caBundle"), fmt.Sprintf("%d bytes", len(spec.CABundle)), "local APIServices may not have a caBundle"))
		}
		if spec.InsecureSkipTLSVerify {
			errs = append(errs, field.Invalid(p.Child("insecureSkipTLSVerify"), spec.InsecureSkipTLSVerify, "local APIServices may not have insecureSkipTLSVerify"))
		}
		return errs
	}
	sp := p.Child("service")
	if spec.Service.Namespace == "" {
		errs = append(errs, field.Required(sp.Child("namespace"), ""))
	}
	if spec.Service.Name == "" {
		errs = append(errs, field.Required(sp.Child("name"), ""))
	}
	if msgs := validation.IsValidPortNum(int(spec.Service.Port)); msgs != nil {
		errs = append(errs, field.Invalid(sp.Child("port"), spec.Service.Port, "port is not valid: "+strings.Join(msgs, ", ")))
	}
	if spec.InsecureSkipTLSVerify && len(spec.CABundle) > 0 {
		errs = append(errs, field.Invalid(p.Child("insecureSkipTLSVerify"), spec.InsecureSkipTLSVerify, "may not be true if caBundle is present"))
	}
	return errs
}

// ValidateAPIServiceUpdate checks an update through the main resource: the metadata update
// rules, then the whole object as on create.
func ValidateAPIServiceUpdate(s, old *api.APIService) field.ErrorList {
	errs := metadataUpdate(s, old)
	return append(errs, ValidateAPIService(s)...)
}

// ValidateAPIServiceStatusUpdate checks a write of /status: the metadata update rules and
// each condition's status.
func ValidateAPIServiceStatusUpdate(s, old *api.APIService) field.ErrorList {
	errs := metadataUpdate(s, old)
	cp := field.NewPath("status", "conditions")
	for i, c := range s.Status.Conditions {
		switch c.Status {
		case api.ConditionTrue, api.ConditionFalse, api.ConditionUnknown:
		default:
			errs = append(errs, field.NotSupported(cp.Index(i).Child("status"), c.Status,
				[]string{string(api.ConditionTrue), string(api.ConditionFalse), string(api.ConditionUnknown)}))
		}
	}
	return errs
}

func metadataUpdate(s, old *api.APIService) field.ErrorList {
	return metavalidation.ValidateObjectMetaDeclaratively(context.Background(), operation.Update, &s.ObjectMeta, &old.ObjectMeta, false, nil, field.NewPath("metadata"), betaEnabled)
}
