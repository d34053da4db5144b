package gate_test

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/judge/gate"
)

// An Argo CD sync takes spec.replicas from the HPA by force; the policy fails on
// takeovers, except from client-side apply, and protects nothing.
func ExamplePolicy_Evaluate() {
	failOn, _ := gate.ParseFailOn([]string{"takeover,conflicts"})
	p := gate.Policy{FailOn: failOn, AllowTakeoverFrom: []string{"kubectl-client-side-apply"}}
	w := gate.Write{
		Outcome: gate.Written, APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web",
		File: "web.yaml", Line: 1,
		Conflicts: []gate.Conflict{{Manager: "kube-controller-manager", Described: "kube-controller-manager (Update, subresource scale, apps/v1)",
			Path: ".spec.replicas", Live: int64(5), Applied: int64(2)}},
		Takeovers: []gate.Takeover{
			{Manager: "kube-controller-manager", Described: "kube-controller-manager (Update, subresource scale, apps/v1)", Paths: []string{".spec.replicas"}, Removed: true},
			{Manager: "kubectl-client-side-apply", Described: "kubectl-client-side-apply (Update, apps/v1)", Paths: []string{".metadata.labels.app"}},
		},
	}
	locate := func(path string) (string, int) {
		if path == ".spec.replicas" {
			return "web.yaml", 7
		}
		return "", 0
	}
	for _, f := range p.Evaluate(w, "argocd-controller", locate) {
		fmt.Printf("%s %s line %d: %s\n", f.Level, f.Category, f.Line, f.Message)
	}
	// Output:
	// failure conflict line 7: forced: .spec.replicas is taken from kube-controller-manager (Update, subresource scale, apps/v1) (live 5, applied 2)
	// failure takeover line 7: takes 1 field from kube-controller-manager (Update, subresource scale, apps/v1): .spec.replicas (its managedFields entry is removed)
	// notice takeover line 1: takes 1 field from kubectl-client-side-apply (Update, apps/v1): .metadata.labels.app
}
