package scheduling

import (
	"fmt"
	"strings"

	apicore "github.com/ssa-diff/ssa-diff/internal/api/core"
	api "github.com/ssa-diff/ssa-diff/internal/api/scheduling"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// systemClass is a priority class the cluster creates at bootstrap: its name is reserved
// with this value and globalDefault.
type systemClass struct {
	name          string
	value         int32
	globalDefault bool
}

var systemClasses = []systemClass{
	{name: api.SystemNodeCritical, value: api.SystemCriticalPriority + 1000},
	{name: api.SystemClusterCritical, value: api.SystemCriticalPriority},
}

// systemClassProblem is why a class with the system prefix is not one of the system
// classes, or "" when it is one exactly.
func systemClassProblem(name string, value int32, globalDefault bool) string {
	for _, c := range systemClasses {
		if c.name != name {
			continue
		}
		if c.value != value {
			return fmt.Sprintf("value of %v PriorityClass must be %v", c.name, c.value)
		}
		if c.globalDefault != globalDefault {
			return fmt.Sprintf("globalDefault of %v PriorityClass must be %v", c.name, c.globalDefault)
		}
		return ""
	}
	return fmt.Sprintf("%v is not a known system priority class", name)
}

// ValidatePriorityClass checks a PriorityClass: a name with the system prefix is one of
// the system classes as they are; any other class's value is at most one billion.
func ValidatePriorityClass(pc *api.PriorityClass) field.ErrorList {
	errs := core.ValidateObjectMeta(&pc.ObjectMeta, false, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	if strings.HasPrefix(pc.Name, api.SystemPriorityClassPrefix) {
		if problem := systemClassProblem(pc.Name, pc.Value, pc.GlobalDefault); problem != "" {
			errs = append(errs, field.Forbidden(field.NewPath("metadata", "name"), "priority class names with '"+api.SystemPriorityClassPrefix+"' prefix are reserved for system use only. error: "+problem))
		}
	} else if pc.Value > api.HighestUserDefinablePriority {
		errs = append(errs, field.Forbidden(field.NewPath("value"), fmt.Sprintf("maximum allowed value of a user defined priority is %v", api.HighestUserDefinablePriority)))
	}
	if p := pc.PreemptionPolicy; p != nil {
		switch *p {
		case apicore.PreemptLowerPriority, apicore.PreemptNever:
		case "":
			errs = append(errs, field.Required(field.NewPath("preemptionPolicy"), ""))
		default:
			errs = append(errs, field.NotSupported(field.NewPath("preemptionPolicy"), p, []apicore.PreemptionPolicy{apicore.PreemptLowerPriority, apicore.PreemptNever}))
		}
	}
	return errs
}

// ValidatePriorityClassUpdate checks an update of a PriorityClass on the server cfg
// describes: its value and preemption policy cannot change (rules.md valid.update). Up to
// 1.37 a changed value is Forbidden ("may not be changed in an update."); 1.38 reports it
// as immutable with the new value, covered by a declarative rule still alpha there
// (pkg/apis/scheduling/validation of 1.38.0-beta.0; recorded: the validation scenario
// groups/PriorityClass/V2 value cannot change).
func ValidatePriorityClassUpdate(cfg *serverconfig.Config, pc, old *api.PriorityClass) field.ErrorList {
	errs := core.ValidateObjectMetaUpdate(&pc.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	switch {
	case cfg.AtLeast(38):
		errs = append(errs, apimachineryvalidation.ValidateImmutableField(pc.Value, old.Value, field.NewPath("value")).WithOrigin("immutable").MarkCoveredByDeclarative()...)
	case pc.Value != old.Value:
		errs = append(errs, field.Forbidden(field.NewPath("value"), "may not be changed in an update."))
	}
	return append(errs, apimachineryvalidation.ValidateImmutableField(pc.PreemptionPolicy, old.PreemptionPolicy, field.NewPath("preemptionPolicy"))...)
}

// Strategy is the validation of a kind of the scheduling.k8s.io group as its registry
// strategy runs it, or nil when it is not ported.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	if kind != "PriorityClass" {
		return nil
	}
	return &registry.Strategy{
		Validate: func(obj any) field.ErrorList { return ValidatePriorityClass(obj.(*api.PriorityClass)) },
		ValidateUpdate: func(obj, old any) field.ErrorList {
			return ValidatePriorityClassUpdate(cfg, obj.(*api.PriorityClass), old.(*api.PriorityClass))
		},
		Declarative: registry.NoDeclarativeRules,
	}
}
