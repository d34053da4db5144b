package apps

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/apps"
	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Strategy is the validation of a kind of the apps group as its registry strategy runs it,
// or nil when it is not ported. Every strategy of the group runs declarative validation:
// 1.37 enforces none of the group's own rules (they are alpha), only the pod template's.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	switch kind {
	case "Deployment":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				d := obj.(*api.Deployment)
				return ValidateDeployment(d, podOptionsFor(cfg, &d.Spec.Template, nil))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				d, o := obj.(*api.Deployment), old.(*api.Deployment)
				return ValidateDeploymentUpdate(d, o, podOptionsFor(cfg, &d.Spec.Template, &o.Spec.Template))
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateDeploymentStatusUpdate(obj.(*api.Deployment), old.(*api.Deployment))
			},
			Declarative:      templateDeclarative(func(obj any) *coreapi.PodTemplateSpec { return &obj.(*api.Deployment).Spec.Template }),
			WarningsOnCreate: func(obj any) []string { return deploymentWarningsOnCreate(cfg, obj.(*api.Deployment)) },
			WarningsOnUpdate: func(obj, old any) []string {
				return deploymentWarningsOnUpdate(cfg, obj.(*api.Deployment), old.(*api.Deployment))
			},
		}
	case "ReplicaSet":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				rs := obj.(*api.ReplicaSet)
				return ValidateReplicaSet(rs, podOptionsFor(cfg, &rs.Spec.Template, nil))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				rs, o := obj.(*api.ReplicaSet), old.(*api.ReplicaSet)
				opts := podOptionsFor(cfg, &rs.Spec.Template, &o.Spec.Template)
				if !cfg.AtLeast(34) {
					// Kubernetes 1.33's strategy checks the ReplicaSet as new first: an error
					// of the spec is reported twice (the message says it once, its causes
					// twice); 1.34 checks the update alone.
					return append(ValidateReplicaSet(rs, opts), ValidateReplicaSetUpdate(rs, o, opts)...)
				}
				return ValidateReplicaSetUpdate(rs, o, opts)
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateReplicaSetStatusUpdate(obj.(*api.ReplicaSet), old.(*api.ReplicaSet))
			},
			Declarative:      templateDeclarative(func(obj any) *coreapi.PodTemplateSpec { return &obj.(*api.ReplicaSet).Spec.Template }),
			WarningsOnCreate: func(obj any) []string { return replicaSetWarningsOnCreate(cfg, obj.(*api.ReplicaSet)) },
			WarningsOnUpdate: func(obj, old any) []string {
				return replicaSetWarningsOnUpdate(cfg, obj.(*api.ReplicaSet), old.(*api.ReplicaSet))
			},
		}
	case "StatefulSet":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				ss := obj.(*api.StatefulSet)
				return ValidateStatefulSet(cfg, ss, podOptionsFor(cfg, &ss.Spec.Template, nil))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				ss, o := obj.(*api.StatefulSet), old.(*api.StatefulSet)
				return ValidateStatefulSetUpdate(cfg, ss, o, podOptionsFor(cfg, &ss.Spec.Template, &o.Spec.Template))
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateStatefulSetStatusUpdate(obj.(*api.StatefulSet), old.(*api.StatefulSet))
			},
			Declarative:      statefulSetDeclarative(cfg),
			WarningsOnCreate: func(obj any) []string { return statefulSetWarningsOnCreate(cfg, obj.(*api.StatefulSet)) },
			WarningsOnUpdate: func(obj, old any) []string {
				return statefulSetWarningsOnUpdate(cfg, obj.(*api.StatefulSet), old.(*api.StatefulSet))
			},
		}
	case "DaemonSet":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				ds := obj.(*api.DaemonSet)
				return ValidateDaemonSet(ds, podOptionsFor(cfg, &ds.Spec.Template, nil))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				ds, o := obj.(*api.DaemonSet), old.(*api.DaemonSet)
				opts := podOptionsFor(cfg, &ds.Spec.Template, &o.Spec.Template)
				// A stored selector with label values an older server took stays acceptable.
				opts.AllowInvalidLabelValueInSelector = opts.AllowInvalidLabelValueInSelector || metav1validation.LabelSelectorHasInvalidLabelValue(o.Spec.Selector)
				if !cfg.AtLeast(34) {
					// Kubernetes 1.33's strategy checks the DaemonSet as new too.
					return validateDaemonSetUpdateBefore34(ds, o, opts)
				}
				return ValidateDaemonSetUpdate(ds, o, opts)
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateDaemonSetStatusUpdate(obj.(*api.DaemonSet), old.(*api.DaemonSet))
			},
			Declarative:      templateDeclarative(func(obj any) *coreapi.PodTemplateSpec { return &obj.(*api.DaemonSet).Spec.Template }),
			WarningsOnCreate: func(obj any) []string { return daemonSetWarningsOnCreate(cfg, obj.(*api.DaemonSet)) },
			WarningsOnUpdate: func(obj, old any) []string {
				return daemonSetWarningsOnUpdate(cfg, obj.(*api.DaemonSet), old.(*api.DaemonSet))
			},
		}
	case "ControllerRevision":
		return &registry.Strategy{
			Namespaced: true,
			Validate:   func(obj any) field.ErrorList { return ValidateControllerRevision(obj.(*api.ControllerRevision)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateControllerRevisionUpdate(obj.(*api.ControllerRevision), old.(*api.ControllerRevision))
			},
			Declarative: registry.NoDeclarativeRules,
		}
	}
	return nil
}

// templateDeclarative is the declarative validation of a workload whose template template
// finds: the pod template's, at spec.template.
func templateDeclarative(template func(obj any) *coreapi.PodTemplateSpec) func(obj, old any) field.ErrorList {
	return func(obj, old any) field.ErrorList {
		var oldTpl *coreapi.PodTemplateSpec
		if old != nil {
			oldTpl = template(old)
		}
		return declarativePodTemplate(template(obj), oldTpl, field.NewPath("spec", "template"))
	}
}
