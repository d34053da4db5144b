package defaults

import "github.com/ssa-diff/ssa-diff/internal/unstructured"

// Defaulters of networking.k8s.io/v1 (k8s.io/kubernetes pkg/apis/networking/v1).

var networkingDefaulters = []named[defaulterFunc]{
	{"io.k8s.api.networking.v1.NetworkPolicyPort", defaultNetworkPolicyPort},
	{"io.k8s.api.networking.v1.NetworkPolicy", defaultNetworkPolicy},
	{"io.k8s.api.networking.v1.IngressClass", defaultIngressClass},
}

// defaultNetworkPolicyPort follows SetDefaults_NetworkPolicyPort.
func defaultNetworkPolicyPort(m map[string]any) { setIfNil(m, "protocol", "TCP") }

// defaultNetworkPolicy follows SetDefaults_NetworkPolicy: policyTypes is
// Ingress, plus Egress when egress rules are given.
func defaultNetworkPolicy(m map[string]any) {
	spec := unstructured.EnsureObject(m, "spec")
	if len(unstructured.List(spec, "policyTypes")) == 0 {
		types := []any{"Ingress"}
		if len(unstructured.List(spec, "egress")) != 0 {
			types = append(types, "Egress")
		}
		spec["policyTypes"] = types
	}
}

// defaultIngressClass follows SetDefaults_IngressClass.
func defaultIngressClass(m map[string]any) {
	if p := unstructured.NestedObject(m, "spec", "parameters"); p != nil {
		setIfNil(p, "scope", "Cluster")
	}
}
