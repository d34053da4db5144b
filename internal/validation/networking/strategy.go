package networking

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/networking"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Strategy is the validation of a kind of the networking.k8s.io group as its registry
// strategy runs it, or nil when it is not ported.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	switch kind {
	case "Ingress":
		return &registry.Strategy{
			Namespaced: true,
			Validate:   func(obj any) field.ErrorList { return ValidateIngressCreate(cfg, obj.(*api.Ingress)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateIngressUpdate(cfg, obj.(*api.Ingress), old.(*api.Ingress))
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateIngressStatusUpdate(cfg, obj.(*api.Ingress), old.(*api.Ingress))
			},
			Declarative:            registry.NoDeclarativeRules,
			WarningsOnCreate:       ingressWarningsOnCreate,
			WarningsOnStatusUpdate: func(obj, _ any) []string { return ingressStatusWarnings(cfg, obj) },
		}
	case "IngressClass":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateIngressClass(cfg, obj.(*api.IngressClass)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateIngressClassUpdate(cfg, obj.(*api.IngressClass), old.(*api.IngressClass))
			},
			Declarative: ingressClassDeclarative,
		}
	case "NetworkPolicy":
		return &registry.Strategy{
			Namespaced: true,
			Validate:   func(obj any) field.ErrorList { return ValidateNetworkPolicy(cfg, obj.(*api.NetworkPolicy)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateNetworkPolicyUpdate(cfg, obj.(*api.NetworkPolicy), old.(*api.NetworkPolicy))
			},
			Declarative:      networkPolicyDeclarative,
			WarningsOnCreate: func(obj any) []string { return networkPolicyWarnings(cfg, obj.(*api.NetworkPolicy)) },
			WarningsOnUpdate: func(obj, _ any) []string { return networkPolicyWarnings(cfg, obj.(*api.NetworkPolicy)) },
		}
	case "IPAddress":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateIPAddress(obj.(*api.IPAddress)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateIPAddressUpdate(obj.(*api.IPAddress), old.(*api.IPAddress))
			},
			Declarative: ipAddressDeclarative,
		}
	case "ServiceCIDR":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateServiceCIDR(obj.(*api.ServiceCIDR)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateServiceCIDRUpdate(obj.(*api.ServiceCIDR), old.(*api.ServiceCIDR))
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateServiceCIDRStatusUpdate(obj.(*api.ServiceCIDR), old.(*api.ServiceCIDR))
			},
			Declarative: registry.NoDeclarativeRules,
		}
	}
	return nil
}
