// Package registry is the part of kube-apiserver's write path that runs a kind's validation:
// the order in which the generic registry calls the kind's strategy, the checks of object
// metadata it adds for every kind, and how declarative validation's errors join the
// handwritten ones. The kinds' own rules live in the group packages beside this one.
package registry

import (
	"context"

	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/objectmeta"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/validate"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Strategy is what a kind's registry strategy validates. Objects are pointers to the kind's
// internal type (package internal/api).
type Strategy struct {
	// Namespaced: objects of the kind live in a namespace.
	Namespaced bool
	// Validate is the strategy's validation of a new object.
	Validate func(obj any) field.ErrorList
	// ValidateUpdate is the strategy's validation of an update through the main resource.
	ValidateUpdate func(obj, old any) field.ErrorList
	// ValidateStatusUpdate is the status strategy's validation of an update through
	// /status; nil when the kind has no status subresource.
	ValidateStatusUpdate func(obj, old any) field.ErrorList
	// ValidateResizeUpdate is the resize strategy's validation of an update through a
	// Pod's /resize; nil for every other kind.
	ValidateResizeUpdate func(obj, old any) field.ErrorList
	// ValidateEphemeralContainersUpdate is the ephemeral containers strategy's validation
	// of an update through a Pod's /ephemeralcontainers; nil for every other kind.
	ValidateEphemeralContainersUpdate func(obj, old any) field.ErrorList
	// Declarative is the kind's declarative validation (old is nil on a create): every
	// error it finds, marked with its stability level. It is nil when the server's strategy
	// runs no declarative validation; a strategy that runs it has one even when 1.37
	// enforces none of its rules (it returns nil then), because joining the two lists also
	// drops the handwritten errors whose text repeats an earlier one. Only 1.37's registry
	// joins them (see declarative).
	Declarative func(obj, old any) field.ErrorList
	// NormalizationRules rewrite the fields of errors before handwritten ones are matched
	// with the declarative ones that cover them (the strategy's DeclarativeValidationConfig:
	// where the versioned type's paths differ from the internal type's); nil: none.
	NormalizationRules []field.NormalizationRule
	// BeginWrite is what the kind's REST storage does before the registry runs the strategy
	// (its BeginCreate and BeginUpdate hooks; old is nil on a create), in the cluster the
	// strategy was made for: it may fill in values the server allocates, and the errors it
	// finds refuse the write alone. nil: nothing.
	BeginWrite func(obj, old any) field.ErrorList
	// CannotPredict says, after BeginWrite found nothing, what the REST storage then checks
	// against state of the cluster a prediction cannot see (an address a Service asks for:
	// in the service range, not held by another Service): each a sentence saying what the
	// answer depends on. nil: nothing.
	CannotPredict func(obj, old any) []string
	// WarningsOnCreate and WarningsOnUpdate are the warnings the server returns; nil: none.
	WarningsOnCreate func(obj any) []string
	WarningsOnUpdate func(obj, old any) []string
	// WarningsOnStatusUpdate are the warnings of an update through /status (the status
	// strategy's own, most often none); nil: none.
	WarningsOnStatusUpdate func(obj, old any) []string
}

// Metadata gives the object metadata of an internal object.
type Metadata interface{ GetObjectMeta() metav1.Object }

// ValidateCreate is the validation of a create, in the server's order: the strategy's, then
// — only when it found nothing — the metadata checks every kind gets, then declarative
// validation joined in; the messages of apimachinery's checks are cfg's release's.
func ValidateCreate(cfg *serverconfig.Config, s *Strategy, obj any) field.ErrorList {
	errs := s.Validate(obj)
	if len(errs) == 0 {
		//lint:ignore SA1019 the server's generic registry validates names with it: its answers are the server's
		errs = append(errs, apimachineryvalidation.ValidateObjectMetaAccessor(wellformed.Meta(metaOf(obj)), s.Namespaced, path.ValidatePathSegmentName, field.NewPath("metadata"))...)
	}
	return objectmeta.Errors(cfg, declarative(cfg, s, obj, nil, errs))
}

// ValidateUpdate is the validation of an update through the main resource, or through
// subresource (status, a Pod's resize or ephemeralcontainers), in the server's order: the metadata checks every kind gets,
// the strategy's, then declarative validation joined in; the messages of apimachinery's
// checks are cfg's release's.
func ValidateUpdate(cfg *serverconfig.Config, s *Strategy, obj, old any, subresource string) field.ErrorList {
	// Labels and annotations found well formed once are not checked again by apimachinery.
	meta, oldMeta := wellformed.Meta(metaOf(obj)), metaOf(old)
	//lint:ignore SA1019 the server's generic registry validates names with it: its answers are the server's
	errs := apimachineryvalidation.ValidateObjectMetaAccessor(meta, s.Namespaced, path.ValidatePathSegmentName, field.NewPath("metadata"))
	errs = append(errs, apimachineryvalidation.ValidateObjectMetaAccessorUpdate(meta, oldMeta, field.NewPath("metadata"))...)
	switch subresource {
	case "status":
		errs = append(errs, s.ValidateStatusUpdate(obj, old)...)
	case "resize":
		errs = append(errs, s.ValidateResizeUpdate(obj, old)...)
	case "ephemeralcontainers":
		errs = append(errs, s.ValidateEphemeralContainersUpdate(obj, old)...)
	default:
		errs = append(errs, s.ValidateUpdate(obj, old)...)
	}
	return objectmeta.Errors(cfg, declarative(cfg, s, obj, old, errs))
}

// declarative joins declarative validation's errors to the handwritten ones: the enforced
// ones (standard, and beta with its gate on) are appended, and the handwritten errors an
// enforced beta error covers are dropped, as are those whose text repeats an earlier one.
func declarative(cfg *serverconfig.Config, s *Strategy, obj, old any, errs field.ErrorList) field.ErrorList {
	// Kubernetes 1.37 moved declarative validation into the generic registry (apiserver
	// pkg/registry/rest create.go, update.go, validate.go ValidateDeclarativelyWithMigrationChecks):
	// before it, the strategies that ran it used its errors only with
	// DeclarativeValidationTakeover (off in 1.34 and 1.35; deprecated in 1.36, where only
	// strategies calling WithDeclarativeEnforcement — none of a kind served by default —
	// enforce it), so the answer is the handwritten errors as they are: in their order, the
	// covered ones kept, duplicates too.
	//
	// Kubernetes 1.38 validates every kind's object metadata declaratively too, first
	// (objectmeta138.go): a kind whose own rules are not declarative runs it as well.
	if !cfg.AtLeast(37) || s.Declarative == nil && !cfg.AtLeast(38) {
		return errs
	}
	var decl field.ErrorList
	if cfg.AtLeast(38) {
		var oldMeta metav1.Object
		if old != nil {
			oldMeta = metaOf(old)
		}
		decl = objectMetaDeclarative(metaOf(obj), oldMeta)
		errs = objectMetaCovered(errs)
	}
	if s.Declarative != nil {
		decl = append(decl, s.Declarative(obj, old)...)
	}
	betaEnabled := cfg.Enabled(features.DeclarativeValidationBeta)
	errs = errs.MarkFromImperative()
	ctx := context.Background()
	enforced := validate.FilterEnforcedDeclarativeErrors(ctx, decl, betaEnabled)
	errs = validate.FilterCoveredHandwrittenErrors(ctx, errs, enforced, betaEnabled, s.NormalizationRules...)
	return append(errs, enforced...)
}

func metaOf(obj any) metav1.Object {
	return obj.(Metadata).GetObjectMeta()
}

// NoDeclarativeRules is the declarative validation of a kind whose strategy runs it but
// whose rules 1.37 does not enforce (alpha ones only, or none).
func NoDeclarativeRules(obj, old any) field.ErrorList { return nil }
