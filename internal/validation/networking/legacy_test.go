package networking

import (
	"testing"

	api "github.com/ssa-diff/ssa-diff/internal/api/networking"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A real server cannot store these objects any more, so the recorded scenarios cannot show
// them: an update keeps what a stored object already had (rules.md valid.update), and refuses the
// same value when the stored object did not have it.

func ingressWith(secret, host string, pathType api.PathType, path string) *api.Ingress {
	ing := &api.Ingress{}
	ing.Name = "web"
	ing.Namespace = "shop"
	ing.ResourceVersion = "7"
	ing.Spec.TLS = []api.IngressTLS{{SecretName: secret}}
	backend := api.IngressBackend{Service: &api.IngressServiceBackend{Name: "web", Port: api.ServiceBackendPort{Number: 80}}}
	ing.Spec.Rules = []api.IngressRule{{Host: host, IngressRuleValue: api.IngressRuleValue{HTTP: &api.HTTPIngressRuleValue{
		Paths: []api.HTTPIngressPath{{Path: path, PathType: &pathType, Backend: backend}}}}}}
	return ing
}

func fields(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Field)
	}
	return out
}

func TestIngressUpdateKeepsStoredInvalidValues(t *testing.T) {
	valid := ingressWith("web-tls", "*.example.com", api.PathTypePrefix, "/")
	badSecret := ingressWith("Web_TLS", "*.example.com", api.PathTypePrefix, "/")
	badWildcardRule := ingressWith("web-tls", "*.example.com", api.PathTypePrefix, "relative")
	for _, c := range []struct {
		name     string
		ing, old *api.Ingress
		want     []string
	}{
		{"invalid secret name kept", badSecret, badSecret, nil},
		{"invalid secret name introduced", badSecret, valid, []string{"spec.tls[0].secretName"}},
		{"invalid rule under a wildcard host kept", badWildcardRule, badWildcardRule, nil},
		{"invalid rule under a wildcard host introduced", badWildcardRule, valid, []string{"spec.rules[0].http.paths[0].path"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := fields(ValidateIngressUpdate(serverconfig.MustFor(kube.Default()), c.ing, c.old))
			if len(got) != len(c.want) || (len(got) > 0 && got[0] != c.want[0]) {
				t.Errorf("errors at %v, want %v", got, c.want)
			}
		})
	}
}

func TestNetworkPolicyUpdateKeepsStoredCIDRs(t *testing.T) {
	policy := func(cidr string) *api.NetworkPolicy {
		np := &api.NetworkPolicy{}
		np.Name, np.Namespace, np.ResourceVersion = "api", "shop", "7"
		np.Spec.Ingress = []api.NetworkPolicyIngressRule{{From: []api.NetworkPolicyPeer{{IPBlock: &api.IPBlock{CIDR: cidr}}}}}
		return np
	}
	legacy := policy("172.017.0.0/16")
	if errs := ValidateNetworkPolicyUpdate(serverconfig.MustFor(kube.Default()), legacy, legacy); len(errs) != 0 {
		t.Errorf("a stored CIDR with leading zeros is refused: %v", errs)
	}
	if errs := ValidateNetworkPolicyUpdate(serverconfig.MustFor(kube.Default()), legacy, policy("172.17.0.0/16")); len(errs) != 1 || errs[0].Field != "spec.ingress[0].from[0].ipBlock.cidr" {
		t.Errorf("a new CIDR with leading zeros: %v", errs)
	}
}
