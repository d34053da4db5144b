package advice

import "github.com/ssa-diff/ssa-diff/server/kubeapiserver"

// clusterPolicy: cluster-policy, when the refusal names privileged or hostProcess
// containers, which only a server run with --allow-privileged=false refuses (predicted
// only when asked: kubeapiserver.Config.ForbidPrivileged), or a
// Service's IP families refused for a cluster whose families were not declared (taken to
// be IPv4 alone, the recording server's).
func (a *analysis) clusterPolicy() {
	if a.res == nil || a.res.Rejection == nil || a.res.Rejection.Details == nil {
		return
	}
	var paths, families []string
	for _, c := range a.res.Rejection.Details.Causes {
		if kubeapiserver.IsPrivilegedPolicyCause(c.Field, c.Message) {
			paths = append(paths, c.Field)
		}
		if len(a.opts.ServiceIPFamilies) == 0 && kubeapiserver.IsClusterFamilyCause(c.Field, c.Message) {
			families = append(families, c.Field)
		}
	}
	if len(families) > 0 {
		a.add(Advice{ID: IDClusterPolicy, Severity: SeverityInfo,
			Message: "the refusal of " + listPaths(families) + " rests on the cluster's service IP families, which ssa-diff takes to be IPv4 alone (kube-apiserver's --service-cluster-ip-range of one IPv4 range) unless told otherwise; a dual-stack cluster gives a Service both families and accepts RequireDualStack",
			Fix:     "if your cluster is dual-stack (or IPv6), predict with --service-ip-families IPv4,IPv6 (its primary family first; kubeapiserver.Config.ServiceIPFamilies)",
			Paths:   families})
	}
	if len(paths) == 0 {
		return
	}
	a.add(Advice{ID: IDClusterPolicy, Severity: SeverityInfo,
		Message: "the refusal of " + listPaths(paths) + " rests on kube-apiserver's --allow-privileged=false, which the prediction was asked for (the flag's own default, kept by a kube-apiserver started without it); kubeadm, kind, k3s and the managed clusters run with --allow-privileged=true and accept these containers",
		Fix:     "if your cluster allows privileged containers, predict without --allow-privileged=false (kubeapiserver.Config.ForbidPrivileged)",
		Paths:   paths})
}
