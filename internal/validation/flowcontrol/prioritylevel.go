package flowcontrol

import (
	"context"
	"fmt"

	api "github.com/ssa-diff/ssa-diff/internal/api/flowcontrol"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/util/shufflesharding"
)

var (
	enablements        = []string{string(api.PriorityLevelEnablementExempt), string(api.PriorityLevelEnablementLimited)}
	limitResponseTypes = []string{string(api.LimitResponseTypeQueue), string(api.LimitResponseTypeReject)}
)

// maxQueues is the most queues a priority level may have.
const maxQueues = 10 * 1000 * 1000

// preserveZeroSharesAnnotation is an annotation of v1beta3 only, never stored.
const preserveZeroSharesAnnotation = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares"

// ValidatePriorityLevelConfiguration checks a PriorityLevelConfiguration written through
// flowcontrol.apiserver.k8s.io/v1 (the same on create and update): metadata, spec — a
// mandatory level must keep the server's spec, but for exempt's own settings — and status.
func ValidatePriorityLevelConfiguration(cfg *serverconfig.Config, pl *api.PriorityLevelConfiguration) field.ErrorList {
	errs := core.ValidateObjectMeta(&pl.ObjectMeta, false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	if _, ok := pl.Annotations[preserveZeroSharesAnnotation]; ok {
		errs = append(errs, field.Forbidden(field.NewPath("metadata").Child("annotations"), fmt.Sprintf("annotation '%s' is forbidden", preserveZeroSharesAnnotation)))
	}
	p := field.NewPath("spec")
	errs = append(errs, validatePriorityLevelSpec(cfg, &pl.Spec, pl.Name, p)...)
	errs = append(errs, validateMandatoryPriorityLevel(pl, p)...)
	return append(errs, ValidatePriorityLevelConfigurationStatus(&pl.Status, field.NewPath("status"))...)
}

func validateMandatoryPriorityLevel(pl *api.PriorityLevelConfiguration, p *field.Path) field.ErrorList {
	m, ok := mandatoryPriorityLevelSpec(pl.Name)
	if !ok {
		return nil
	}
	if pl.Name == api.PriorityLevelConfigurationNameExempt {
		// Only spec.exempt may differ from the server's.
		have := pl.Spec
		have.Exempt = m.Exempt
		if !apiequality.Semantic.DeepEqual(&m, &have) {
			return field.ErrorList{field.Invalid(p, pl.Spec, fmt.Sprintf("spec of '%s' except the 'spec.exempt' field must equal the fixed value", pl.Name))}
		}
		return nil
	}
	if !apiequality.Semantic.DeepEqual(pl.Spec, m) {
		return field.ErrorList{field.Invalid(p, pl.Spec, fmt.Sprintf("spec of '%s' must equal the fixed value", pl.Name))}
	}
	return nil
}

func validatePriorityLevelSpec(cfg *serverconfig.Config, spec *api.PriorityLevelConfigurationSpec, name string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if (name == api.PriorityLevelConfigurationNameExempt) != (spec.Type == api.PriorityLevelEnablementExempt) {
		detail := "must be 'Exempt' if and only if `name` is 'exempt'"
		if !cfg.AtLeast(34) {
			// Kubernetes 1.33 and older word it differently.
			detail = "type must be 'Exempt' if and only if name is 'exempt'"
		}
		errs = append(errs, field.Invalid(p.Child("type"), spec.Type, detail))
	}
	switch spec.Type {
	case api.PriorityLevelEnablementExempt:
		if spec.Limited != nil {
			errs = append(errs, field.Forbidden(p.Child("limited"), "must be nil if the type is not Limited").MarkCoveredByDeclarative())
		}
		if e := spec.Exempt; e != nil {
			ep := p.Child("exempt")
			if e.NominalConcurrencyShares != nil && *e.NominalConcurrencyShares < 0 {
				errs = append(errs, field.Invalid(ep.Child("nominalConcurrencyShares"), *e.NominalConcurrencyShares, "must be a non-negative integer"))
			}
			if e.LendablePercent != nil && (*e.LendablePercent < 0 || *e.LendablePercent > 100) {
				errs = append(errs, field.Invalid(ep.Child("lendablePercent"), *e.LendablePercent, "must be between 0 and 100, inclusive"))
			}
		}
	case api.PriorityLevelEnablementLimited:
		if spec.Exempt != nil {
			errs = append(errs, field.Forbidden(p.Child("exempt"), "must be nil if the type is Limited").MarkCoveredByDeclarative())
		}
		if spec.Limited == nil {
			errs = append(errs, field.Required(p.Child("limited"), "must not be empty when type is Limited").MarkCoveredByDeclarative())
		} else {
			errs = append(errs, validateLimited(cfg, spec.Limited, p.Child("limited"))...)
		}
	case "":
		// Kubernetes 1.36 made an empty type Required; before, it was not supported
		// (pkg/apis/flowcontrol/validation/validation.go ValidatePriorityLevelConfigurationSpec
		// and validateLimitResponse in 1.34, 1.35).
		if !cfg.AtLeast(36) {
			errs = append(errs, field.NotSupported(p.Child("type"), spec.Type, enablements))
			break
		}
		errs = append(errs, field.Required(p.Child("type"), "").MarkCoveredByDeclarative())
	default:
		errs = append(errs, field.NotSupported(p.Child("type"), spec.Type, enablements))
	}
	return errs
}

func validateLimited(cfg *serverconfig.Config, l *api.LimitedPriorityLevelConfiguration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if l.NominalConcurrencyShares < 0 {
		errs = append(errs, field.Invalid(p.Child("nominalConcurrencyShares"), l.NominalConcurrencyShares, "must be a non-negative integer"))
	}
	errs = append(errs, validateLimitResponse(cfg, &l.LimitResponse, p.Child("limitResponse"))...)
	if l.LendablePercent != nil && (*l.LendablePercent < 0 || *l.LendablePercent > 100) {
		errs = append(errs, field.Invalid(p.Child("lendablePercent"), *l.LendablePercent, "must be between 0 and 100, inclusive"))
	}
	if l.BorrowingLimitPercent != nil && *l.BorrowingLimitPercent < 0 {
		errs = append(errs, field.Invalid(p.Child("borrowingLimitPercent"), *l.BorrowingLimitPercent, "if specified, must be a non-negative integer"))
	}
	return errs
}

func validateLimitResponse(cfg *serverconfig.Config, lr *api.LimitResponse, p *field.Path) field.ErrorList {
	switch lr.Type {
	case api.LimitResponseTypeReject:
		if lr.Queuing != nil {
			return field.ErrorList{field.Forbidden(p.Child("queuing"), "must be nil if limited.limitResponse.type is not Limited").MarkCoveredByDeclarative()}
		}
	case api.LimitResponseTypeQueue:
		if lr.Queuing == nil {
			return field.ErrorList{field.Required(p.Child("queuing"), "must not be empty if limited.limitResponse.type is Limited").MarkCoveredByDeclarative()}
		}
		return validateQueuing(lr.Queuing, p.Child("queuing"))
	case "":
		// Kubernetes 1.36 says an empty type is Required (its declarative rule); 1.34 and
		// 1.35 said it is not one of the supported values.
		if !cfg.AtLeast(36) {
			return field.ErrorList{field.NotSupported(p.Child("type"), lr.Type, limitResponseTypes)}
		}
		return field.ErrorList{field.Required(p.Child("type"), "").MarkCoveredByDeclarative()}
	default:
		return field.ErrorList{field.NotSupported(p.Child("type"), lr.Type, limitResponseTypes)}
	}
	return nil
}

// validateQueuing: positive bounds, a hand no larger than the deck, and a deal shuffle
// sharding can hash.
func validateQueuing(q *api.QueuingConfiguration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if q.QueueLengthLimit <= 0 {
		errs = append(errs, field.Invalid(p.Child("queueLengthLimit"), q.QueueLengthLimit, "must be positive"))
	}
	if q.Queues <= 0 {
		errs = append(errs, field.Invalid(p.Child("queues"), q.Queues, "must be positive"))
	} else if q.Queues > maxQueues {
		errs = append(errs, field.Invalid(p.Child("queues"), q.Queues, fmt.Sprintf("must not be greater than %d", maxQueues)))
	}
	hp := p.Child("handSize")
	switch {
	case q.HandSize <= 0:
		errs = append(errs, field.Invalid(hp, q.HandSize, "must be positive"))
	case q.HandSize > q.Queues:
		errs = append(errs, field.Invalid(hp, q.HandSize, fmt.Sprintf("should not be greater than queues (%d)", q.Queues)))
	case shufflesharding.RequiredEntropyBits(int(q.Queues), int(q.HandSize)) > shufflesharding.MaxHashBits:
		errs = append(errs, field.Invalid(hp, q.HandSize, fmt.Sprintf("required entropy bits of deckSize %d and handSize %d should not be greater than %d", q.Queues, q.HandSize, shufflesharding.MaxHashBits)))
	}
	return errs
}

// ValidatePriorityLevelConfigurationStatus checks the conditions: each with a type, no
// type twice.
func ValidatePriorityLevelConfigurationStatus(s *api.PriorityLevelConfigurationStatus, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[api.PriorityLevelConfigurationConditionType]bool{}
	for i, c := range s.Conditions {
		cp := p.Child("conditions").Index(i)
		if seen[c.Type] {
			errs = append(errs, field.Duplicate(cp.Child("type"), c.Type))
		}
		seen[c.Type] = true
		if c.Type == "" {
			errs = append(errs, field.Required(cp.Child("type"), ""))
		}
	}
	return errs
}

// priorityLevelDeclarative is the declarative validation 1.37 enforces on a priority level
// (beta): the type given; limited set exactly when the type is Limited, exempt only when
// it is Exempt; a limit response's type given, queuing set exactly when it is Queue. Each
// rule is checked only where a write changes what it looks at.
func priorityLevelDeclarative(obj, old any) field.ErrorList {
	ctx := context.Background()
	op := operation.Operation{Type: operation.Create}
	spec := &obj.(*api.PriorityLevelConfiguration).Spec
	var oldSpec *api.PriorityLevelConfigurationSpec
	if old != nil {
		op.Type = operation.Update
		oldSpec = &old.(*api.PriorityLevelConfiguration).Spec
		if apiequality.Semantic.DeepEqual(spec, oldSpec) {
			return nil
		}
	}
	p := field.NewPath("spec")
	forbidden := func(ctx context.Context, op operation.Operation, p *field.Path, v, _ *api.ExemptPriorityLevelConfiguration) field.ErrorList {
		return validate.ForbiddenPointer(ctx, op, p, v, nil).MarkBeta()
	}
	errs := validate.Discriminated(ctx, op, p, spec, oldSpec, "exempt",
		func(s *api.PriorityLevelConfigurationSpec) *api.ExemptPriorityLevelConfiguration { return s.Exempt },
		func(s *api.PriorityLevelConfigurationSpec) api.PriorityLevelEnablement { return s.Type },
		validate.SemanticDeepEqual, forbidden,
		[]validate.DiscriminatedRule[*api.ExemptPriorityLevelConfiguration, api.PriorityLevelEnablement]{{Value: api.PriorityLevelEnablementExempt}})
	errs = append(errs, validate.Discriminated(ctx, op, p, spec, oldSpec, "limited",
		func(s *api.PriorityLevelConfigurationSpec) *api.LimitedPriorityLevelConfiguration { return s.Limited },
		func(s *api.PriorityLevelConfigurationSpec) api.PriorityLevelEnablement { return s.Type },
		validate.SemanticDeepEqual,
		func(ctx context.Context, op operation.Operation, p *field.Path, v, _ *api.LimitedPriorityLevelConfiguration) field.ErrorList {
			return validate.ForbiddenPointer(ctx, op, p, v, nil).MarkBeta()
		},
		[]validate.DiscriminatedRule[*api.LimitedPriorityLevelConfiguration, api.PriorityLevelEnablement]{{
			Value: api.PriorityLevelEnablementLimited,
			Validation: func(ctx context.Context, op operation.Operation, p *field.Path, v, _ *api.LimitedPriorityLevelConfiguration) field.ErrorList {
				return validate.RequiredPointer(ctx, op, p, v, nil).MarkBeta()
			},
		}})...)
	if spec.Type == "" && (oldSpec == nil || oldSpec.Type != "") {
		errs = append(errs, field.Required(p.Child("type"), "").MarkBeta())
	}
	if spec.Limited == nil {
		return errs
	}
	var oldLimited *api.LimitedPriorityLevelConfiguration
	if oldSpec != nil {
		oldLimited = oldSpec.Limited
	}
	if oldLimited != nil && apiequality.Semantic.DeepEqual(spec.Limited, oldLimited) {
		return errs
	}
	var oldResponse *api.LimitResponse
	if oldLimited != nil {
		oldResponse = &oldLimited.LimitResponse
		if apiequality.Semantic.DeepEqual(&spec.Limited.LimitResponse, oldResponse) {
			return errs
		}
	}
	return append(errs, limitResponseDeclarative(ctx, op, &spec.Limited.LimitResponse, oldResponse, p.Child("limited", "limitResponse"))...)
}

func limitResponseDeclarative(ctx context.Context, op operation.Operation, lr, old *api.LimitResponse, p *field.Path) field.ErrorList {
	errs := validate.Discriminated(ctx, op, p, lr, old, "queuing",
		func(r *api.LimitResponse) *api.QueuingConfiguration { return r.Queuing },
		func(r *api.LimitResponse) api.LimitResponseType { return r.Type },
		validate.DirectEqual,
		func(ctx context.Context, op operation.Operation, p *field.Path, v, _ *api.QueuingConfiguration) field.ErrorList {
			return validate.ForbiddenPointer(ctx, op, p, v, nil).MarkBeta()
		},
		[]validate.DiscriminatedRule[*api.QueuingConfiguration, api.LimitResponseType]{{
			Value: api.LimitResponseTypeQueue,
			Validation: func(ctx context.Context, op operation.Operation, p *field.Path, v, _ *api.QueuingConfiguration) field.ErrorList {
				return validate.RequiredPointer(ctx, op, p, v, nil).MarkBeta()
			},
		}})
	if lr.Type == "" && (old == nil || old.Type != "") {
		errs = append(errs, field.Required(p.Child("type"), "").MarkBeta())
	}
	return errs
}
