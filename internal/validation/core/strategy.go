package core

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Strategy is the validation of a kind of the core group as its registry strategy runs it,
// or nil when it is not ported.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	switch kind {
	case "ConfigMap":
		return &registry.Strategy{
			Namespaced: true,
			Validate:   func(obj any) field.ErrorList { return ValidateConfigMap(obj.(*api.ConfigMap)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateConfigMapUpdate(obj.(*api.ConfigMap), old.(*api.ConfigMap))
			},
			Declarative: registry.NoDeclarativeRules,
		}
	case "Service":
		return &registry.Strategy{
			Namespaced: true,
			Validate:   func(obj any) field.ErrorList { return ValidateServiceCreate(cfg, obj.(*api.Service)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateServiceUpdate(cfg, obj.(*api.Service), old.(*api.Service))
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateServiceStatusUpdate(cfg, obj.(*api.Service), old.(*api.Service))
			},
			BeginWrite: func(obj, old any) field.ErrorList {
				o, _ := old.(*api.Service)
				return ServiceBeginWrite(cfg, obj.(*api.Service), o)
			},
			CannotPredict: func(obj, old any) []string {
				o, _ := old.(*api.Service)
				return ServiceRequestedAddresses(obj.(*api.Service), o)
			},
			WarningsOnCreate: func(obj any) []string { return serviceWarnings(cfg, obj.(*api.Service), nil) },
			WarningsOnUpdate: func(obj, old any) []string {
				return serviceWarnings(cfg, obj.(*api.Service), old.(*api.Service))
			},
			WarningsOnStatusUpdate: func(obj, old any) []string { return serviceStatusWarnings(cfg, obj.(*api.Service)) },
			Declarative:            registry.NoDeclarativeRules,
		}
	case "Endpoints":
		return &registry.Strategy{
			Namespaced: true,
			Validate:   func(obj any) field.ErrorList { return ValidateEndpointsCreate(cfg, obj.(*api.Endpoints)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateEndpointsUpdate(cfg, obj.(*api.Endpoints), old.(*api.Endpoints))
			},
			WarningsOnCreate: func(obj any) []string { return endpointsWarnings(cfg, obj.(*api.Endpoints)) },
			WarningsOnUpdate: func(obj, old any) []string { return endpointsWarnings(cfg, obj.(*api.Endpoints)) },
			Declarative:      registry.NoDeclarativeRules,
		}
	case "Secret":
		return &registry.Strategy{
			Namespaced: true,
			Validate:   func(obj any) field.ErrorList { return ValidateSecret(obj.(*api.Secret)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateSecretUpdate(obj.(*api.Secret), old.(*api.Secret))
			},
			WarningsOnCreate: func(obj any) []string { return secretWarnings(obj.(*api.Secret)) },
			WarningsOnUpdate: func(obj, old any) []string { return secretWarnings(obj.(*api.Secret)) },
			// The rule that type is immutable is alpha in 1.37 (the handwritten one counts),
			// beta from 1.38.
			Declarative: secretDeclarative(cfg),
		}
	case "ServiceAccount":
		return &registry.Strategy{
			Namespaced: true,
			Validate:   func(obj any) field.ErrorList { return ValidateServiceAccount(obj.(*api.ServiceAccount)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateServiceAccountUpdate(obj.(*api.ServiceAccount), old.(*api.ServiceAccount))
			},
			WarningsOnCreate: func(obj any) []string { return serviceAccountWarnings(obj.(*api.ServiceAccount), nil) },
			WarningsOnUpdate: func(obj, old any) []string {
				return serviceAccountWarnings(obj.(*api.ServiceAccount), old.(*api.ServiceAccount))
			},
			Declarative: registry.NoDeclarativeRules,
		}
	case "Namespace":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateNamespace(obj.(*api.Namespace)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				ns, o := obj.(*api.Namespace), old.(*api.Namespace)
				return append(ValidateNamespace(ns), ValidateNamespaceUpdate(ns, o)...)
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateNamespaceStatusUpdate(obj.(*api.Namespace), old.(*api.Namespace))
			},
			Declarative: registry.NoDeclarativeRules,
		}
	case "Event":
		return eventStrategy(false)
	case "LimitRange":
		return &registry.Strategy{
			Namespaced:     true,
			Validate:       func(obj any) field.ErrorList { return ValidateLimitRange(obj.(*api.LimitRange)) },
			ValidateUpdate: func(obj, old any) field.ErrorList { return ValidateLimitRange(obj.(*api.LimitRange)) },
			Declarative:    registry.NoDeclarativeRules,
		}
	case "ResourceQuota":
		return &registry.Strategy{
			Namespaced: true,
			Validate:   func(obj any) field.ErrorList { return ValidateResourceQuota(obj.(*api.ResourceQuota)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateResourceQuotaUpdate(obj.(*api.ResourceQuota), old.(*api.ResourceQuota))
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateResourceQuotaStatusUpdate(obj.(*api.ResourceQuota), old.(*api.ResourceQuota))
			},
			WarningsOnCreate: func(obj any) []string { return resourceQuotaWarnings(cfg, obj.(*api.ResourceQuota)) },
			Declarative:      registry.NoDeclarativeRules,
		}
	case "Node":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateNode(cfg, obj.(*api.Node)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				n := obj.(*api.Node)
				return append(ValidateNode(cfg, n), ValidateNodeUpdate(cfg, n, old.(*api.Node))...)
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateNodeUpdate(cfg, obj.(*api.Node), old.(*api.Node))
			},
			WarningsOnCreate: func(obj any) []string { return nodeWarnings(cfg, obj.(*api.Node)) },
			WarningsOnUpdate: func(obj, old any) []string { return nodeWarnings(cfg, obj.(*api.Node)) },
			Declarative:      func(obj, old any) field.ErrorList { return nodeDeclarative(cfg, obj, old) },
		}
	}
	return podSpecStrategy(cfg, kind)
}

// EventsStrategy is the validation of a kind of the events.k8s.io group, nil when it is not
// ported: its Event is the core group's internal Event, validated strictly.
func EventsStrategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	if kind == "Event" {
		return eventStrategy(true)
	}
	return nil
}

func eventStrategy(strict bool) *registry.Strategy {
	return &registry.Strategy{
		Namespaced: true,
		Validate:   func(obj any) field.ErrorList { return ValidateEventCreate(obj.(*api.Event), strict) },
		ValidateUpdate: func(obj, old any) field.ErrorList {
			return ValidateEventUpdate(obj.(*api.Event), old.(*api.Event), strict)
		},
		Declarative: registry.NoDeclarativeRules,
	}
}
