package advice

import "github.com/ssa-diff/ssa-diff/internal/validation/core"

// clusterPolicy: cluster-policy, when the refusal names privileged or hostProcess
// containers, which only a server run with --allow-privileged=false refuses.
func (a *analysis) clusterPolicy() {
	if a.res == nil || a.res.Rejection == nil || a.res.Rejection.Details == nil {
		return
	}
	var paths []string
	for _, c := range a.res.Rejection.Details.Causes {
		if core.IsPrivilegedPolicyCause(c.Field, c.Message) {
			paths = append(paths, c.Field)
		}
	}
	if len(paths) == 0 {
		return
	}
	a.add(Advice{ID: IDClusterPolicy, Severity: SeverityInfo,
		Message: "the refusal of " + listPaths(paths) + " rests on kube-apiserver's --allow-privileged=false, the flag's default, which ssa-diff predicts unless told otherwise; kubeadm, kind and most managed clusters run with --allow-privileged=true and accept these containers",
		Fix:     "if your cluster allows privileged containers, predict with --allow-privileged (merge.KubernetesHooks.AllowPrivileged)",
		Paths:   paths})
}
