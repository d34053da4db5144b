package advice

import "strings"

// The messages of the refusals kube-apiserver's --allow-privileged=false causes, as the
// Status causes carry them.
const (
	privilegedRefused  = "Forbidden: disallowed by cluster policy"
	hostProcessRefused = "Forbidden: hostProcess containers are disallowed by cluster policy"
)

// clusterPolicy: cluster-policy, when the refusal names privileged or hostProcess
// containers, which only a server run with --allow-privileged=false refuses.
func (a *analysis) clusterPolicy() {
	if a.res == nil || a.res.Rejection == nil || a.res.Rejection.Details == nil {
		return
	}
	var paths []string
	for _, c := range a.res.Rejection.Details.Causes {
		if c.Message == hostProcessRefused || (c.Message == privilegedRefused && strings.HasSuffix(c.Field, ".privileged")) {
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
