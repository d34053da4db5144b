package output

import (
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/report"
)

// gateReport is sampleReport as an Argo CD sync judged by a policy: a forced takeover from
// a protected controller and one from client-side apply (allowed), plus the sample's
// refusal, deletion, warning and error. Lines are made up the way the command finds them:
// the object's line plus the field's depth.
func gateReport(p report.Policy) *report.Report {
	base := sampleReport()
	rep := report.New(report.Options{FieldManager: "argocd-controller", Applier: "argocd", Force: false, KubernetesVersion: "1.35", Now: now, Policy: &p})
	kcm := report.Manager{Manager: "kube-controller-manager", Operation: "Update", APIVersion: "apps/v1", Subresource: "scale"}
	csa := report.Manager{Manager: "kubectl-client-side-apply", Operation: "Update", APIVersion: "apps/v1", Time: &seenAt}
	live := deployment(7, "shop/api:1.4")
	pred := deployment(3, "shop/api:1.5")
	taken := &report.Result{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "api",
		Source: src("deploy/api.yaml", 0, 1), LiveSource: &input.Source{File: "live.json", Line: 120},
		Action: report.ActionUpdate, Changed: true, Live: live, Object: pred,
		Conflicts: []report.Conflict{{Manager: kcm, Owner: `"kube-controller-manager" with subresource "scale" using apps/v1`, Path: ".spec.replicas", Pointer: "/spec/replicas", Live: int64(7), Applied: int64(3)}},
		Ownership: []report.Ownership{
			{Manager: report.Manager{Manager: "argocd-controller", Operation: "Apply"}, Gained: []string{".spec.replicas", `.spec.template.spec.containers[name="app"].image`}},
			{Manager: kcm, Taken: []string{".spec.replicas"}, Removed: true},
			{Manager: csa, Taken: []string{`.spec.template.spec.containers[name="app"].image`, ".metadata.annotations.kubectl.kubernetes.io/last-applied-configuration"}, Removed: true},
		},
		Deleted: []string{}, Warnings: []string{},
		Steps: []report.Step{{Description: "client-side apply migration patch (kubectl-client-side-apply)", Manager: "argocd-application-controller", Code: 200}, {Description: "apply", Manager: "argocd-controller", Code: 200}},
	}
	lines := map[string]int{".spec.replicas": 6, `.spec.template.spec.containers[name="app"].image`: 12, ".data.retries": 9}
	line := func(path string) int { return lines[path] }
	for _, r := range append([]*report.Result{taken}, base.Results...) {
		r.Findings = report.Evaluate(p, r, "argocd-controller", line)
		rep.Add(r)
	}
	rep.Summarize()
	return rep
}

// gatePolicy fails on takeovers and deletions, allows client-side apply, protects the
// controller manager.
var gatePolicy = report.Policy{FailOn: []string{"takeover", "deletion", "rejected"},
	AllowTakeoverFrom: []string{"kubectl-client-side-*"}, Protect: []string{"kube-controller-manager"}}
