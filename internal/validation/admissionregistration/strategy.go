package admissionregistration

import (
	"fmt"
	"slices"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/admissionregistration"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Strategy is the validation of a kind of the admissionregistration.k8s.io group as its
// registry strategy runs it on the server cfg describes, or nil when it is not ported.
//
// Names with the static suffix (reserved from 1.36, for configurations loaded from
// manifests): with gate ManifestBasedAdmissionControlConfig (on from 1.37) a create is
// refused, without it warned of; an update is always warned of. With gate
// ExcludeAdmissionWebhookVirtualResources (new and on in 1.37), webhook rules naming the
// resources webhooks never see are warned of. The policies' authorization of paramKind and
// paramRef is not predicted: the writer is taken to be allowed to read them.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	name := func(obj any) string { return obj.(registry.Metadata).GetObjectMeta().GetName() }
	// Kubernetes 1.36 reserved the suffix (pkg/apis/admissionregistration/validation/
	// static_suffix.go and the six strategies in 1.36).
	reserved := cfg.AtLeast(36)
	refused := reserved && cfg.Enabled(features.ManifestBasedAdmissionControlConfig)
	withSuffix := func(validate func(obj any) field.ErrorList) func(obj any) field.ErrorList {
		return func(obj any) field.ErrorList {
			errs := validate(obj)
			if refused {
				errs = append(errs, validateStaticSuffix(name(obj), field.NewPath("metadata", "name"))...)
			}
			return errs
		}
	}
	suffixWarningOnCreate := func(obj any) []string {
		if !reserved || refused {
			return nil
		}
		return staticSuffixWarnings(name(obj))
	}
	suffixWarning := func(obj, old any) []string {
		if !reserved {
			return nil
		}
		return staticSuffixWarnings(name(obj))
	}
	excluded := func(hooks []webhook) []string {
		if !cfg.Enabled(features.ExcludeAdmissionWebhookVirtualResources) {
			return nil
		}
		return excludedRuleWarnings(hooks)
	}
	switch kind {
	case "ValidatingWebhookConfiguration":
		return &registry.Strategy{
			Validate: withSuffix(func(obj any) field.ErrorList {
				return ValidateValidatingWebhookConfiguration(cfg, obj.(*api.ValidatingWebhookConfiguration))
			}),
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateValidatingWebhookConfigurationUpdate(cfg, obj.(*api.ValidatingWebhookConfiguration), old.(*api.ValidatingWebhookConfiguration))
			},
			Declarative: registry.NoDeclarativeRules,
			WarningsOnCreate: func(obj any) []string {
				return append(suffixWarningOnCreate(obj), excluded(validatingHooks(obj.(*api.ValidatingWebhookConfiguration).Webhooks))...)
			},
			WarningsOnUpdate: func(obj, old any) []string {
				return append(suffixWarning(obj, old), excluded(validatingHooks(obj.(*api.ValidatingWebhookConfiguration).Webhooks))...)
			},
		}
	case "MutatingWebhookConfiguration":
		return &registry.Strategy{
			Validate: withSuffix(func(obj any) field.ErrorList {
				return ValidateMutatingWebhookConfiguration(cfg, obj.(*api.MutatingWebhookConfiguration))
			}),
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateMutatingWebhookConfigurationUpdate(cfg, obj.(*api.MutatingWebhookConfiguration), old.(*api.MutatingWebhookConfiguration))
			},
			Declarative: registry.NoDeclarativeRules,
			WarningsOnCreate: func(obj any) []string {
				return append(suffixWarningOnCreate(obj), excluded(mutatingHooks(obj.(*api.MutatingWebhookConfiguration).Webhooks))...)
			},
			WarningsOnUpdate: func(obj, old any) []string {
				return append(suffixWarning(obj, old), excluded(mutatingHooks(obj.(*api.MutatingWebhookConfiguration).Webhooks))...)
			},
		}
	case "ValidatingAdmissionPolicy":
		return &registry.Strategy{
			Validate: withSuffix(func(obj any) field.ErrorList {
				return ValidateValidatingAdmissionPolicy(cfg, obj.(*api.ValidatingAdmissionPolicy))
			}),
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateValidatingAdmissionPolicyUpdate(cfg, obj.(*api.ValidatingAdmissionPolicy), old.(*api.ValidatingAdmissionPolicy))
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateValidatingAdmissionPolicyStatus(&obj.(*api.ValidatingAdmissionPolicy).Status, field.NewPath("status"))
			},
			// Its declarative rules (the status conditions) are alpha.
			Declarative:      registry.NoDeclarativeRules,
			WarningsOnCreate: suffixWarningOnCreate,
			WarningsOnUpdate: suffixWarning,
		}
	case "ValidatingAdmissionPolicyBinding":
		return &registry.Strategy{
			Validate: withSuffix(func(obj any) field.ErrorList {
				return ValidateValidatingAdmissionPolicyBinding(obj.(*api.ValidatingAdmissionPolicyBinding))
			}),
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateValidatingAdmissionPolicyBinding(obj.(*api.ValidatingAdmissionPolicyBinding))
			},
			Declarative:      bindingDeclarative,
			WarningsOnCreate: suffixWarningOnCreate,
			WarningsOnUpdate: suffixWarning,
		}
	case "MutatingAdmissionPolicy":
		return &registry.Strategy{
			Validate: withSuffix(func(obj any) field.ErrorList {
				return ValidateMutatingAdmissionPolicy(cfg, obj.(*api.MutatingAdmissionPolicy))
			}),
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateMutatingAdmissionPolicyUpdate(cfg, obj.(*api.MutatingAdmissionPolicy), old.(*api.MutatingAdmissionPolicy))
			},
			Declarative:      registry.NoDeclarativeRules,
			WarningsOnCreate: suffixWarningOnCreate,
			WarningsOnUpdate: suffixWarning,
		}
	case "MutatingAdmissionPolicyBinding":
		return &registry.Strategy{
			Validate: withSuffix(func(obj any) field.ErrorList {
				return ValidateMutatingAdmissionPolicyBinding(obj.(*api.MutatingAdmissionPolicyBinding))
			}),
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateMutatingAdmissionPolicyBinding(obj.(*api.MutatingAdmissionPolicyBinding))
			},
			Declarative:      registry.NoDeclarativeRules,
			WarningsOnCreate: suffixWarningOnCreate,
			WarningsOnUpdate: suffixWarning,
		}
	}
	return nil
}

// bindingDeclarative is the declarative validation 1.37 enforces on a
// ValidatingAdmissionPolicyBinding (beta): a policy name and at least one validation
// action, checked where a write changes them.
func bindingDeclarative(obj, old any) field.ErrorList {
	spec := &obj.(*api.ValidatingAdmissionPolicyBinding).Spec
	var oldSpec *api.ValidatingAdmissionPolicyBindingSpec
	if old != nil {
		oldSpec = &old.(*api.ValidatingAdmissionPolicyBinding).Spec
		if apiequality.Semantic.DeepEqual(spec, oldSpec) {
			return nil
		}
	}
	p := field.NewPath("spec")
	var errs field.ErrorList
	if spec.PolicyName == "" && (oldSpec == nil || oldSpec.PolicyName != "") {
		errs = append(errs, field.Required(p.Child("policyName"), "").MarkBeta())
	}
	if len(spec.ValidationActions) == 0 && (oldSpec == nil || len(oldSpec.ValidationActions) != 0) {
		errs = append(errs, field.Required(p.Child("validationActions"), "").MarkBeta())
	}
	return errs
}

// staticSuffix ends the names reserved for configurations loaded from manifests.
const staticSuffix = ".static.k8s.io"

func validateStaticSuffix(name string, p *field.Path) field.ErrorList {
	if strings.HasSuffix(name, staticSuffix) {
		return field.ErrorList{field.Invalid(p, name, fmt.Sprintf("names ending with %q are reserved for static manifest-based configurations and cannot be managed via the API", staticSuffix))}
	}
	return nil
}

func staticSuffixWarnings(name string) []string {
	if strings.HasSuffix(name, staticSuffix) {
		return []string{fmt.Sprintf("metadata.name: names ending with %q are reserved for static manifest-based configurations and cannot be managed via the API", staticSuffix)}
	}
	return nil
}

// excludedResources are the resources admission webhooks never see (reviews that are not
// stored), by group and resource.
var excludedResources = [][2]string{
	{"authentication.k8s.io", "selfsubjectreviews"},
	{"authentication.k8s.io", "tokenreviews"},
	{"authorization.k8s.io", "localsubjectaccessreviews"},
	{"authorization.k8s.io", "selfsubjectaccessreviews"},
	{"authorization.k8s.io", "selfsubjectrulesreviews"},
	{"authorization.k8s.io", "subjectaccessreviews"},
}

// excludedRuleWarnings warns of each rule that names an excluded resource explicitly (a
// wildcard group or resource names none), once per resource, in the rule's order.
func excludedRuleWarnings(hooks []webhook) []string {
	var warnings []string
	for i := range hooks {
		rp := field.NewPath("webhooks").Index(i).Child("rules")
		for j, r := range hooks[i].rules {
			if slices.Contains(r.APIGroups, "*") || slices.Contains(r.Resources, "*") {
				continue
			}
			var seen [][2]string
			for _, g := range r.APIGroups {
				for _, res := range r.Resources {
					gr := [2]string{g, res}
					if slices.Contains(excludedResources, gr) && !slices.Contains(seen, gr) {
						seen = append(seen, gr)
						warnings = append(warnings, fmt.Sprintf("%s: %s.%s is excluded from admission webhooks; this rule will have no effect", rp.Index(j), res, g))
					}
				}
			}
		}
	}
	return warnings
}
