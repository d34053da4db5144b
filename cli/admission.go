package cli

import (
	"fmt"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/server/clusterstate"
)

// This file holds the flags of what the cluster's admission chain reads (package
// clusterstate): the objects, from files or the cluster, and who sends the writes. The
// reading and the admission are the library's (predict.ClusterState, cluster.ReadAdmission,
// kubeapiserver.Config.Cluster).

// admissionOptions are the command line's settings of admission.
type admissionOptions struct {
	from      []string
	user      string
	uid       string
	groups    []string
	authorize []string
	// rules are the --authorize rules parsed.
	rules clusterstate.Authorization
	// none: --admission-from none, no cluster state even with --live-from-cluster.
	none bool
}

var admissionArgNames = [][2]string{{"admission-from", "PATH"}, {"as", "USER"}, {"as-uid", "UID"}, {"as-group", "GROUP"}, {"authorize", "RULE"}}

func (c *options) addAdmissionFlags(fs *pflag.FlagSet) {
	a := &c.admission
	stringArrayVarP(fs, &a.from, "admission-from", "", nil, "What the cluster's admission chain reads — Namespaces, ServiceAccounts, LimitRanges, ResourceQuotas (with their status), PriorityClasses, Storage-, Ingress- and RuntimeClasses, ValidatingAdmissionPolicies and MutatingAdmissionPolicies with their bindings and params: a dump (kubectl get namespaces,serviceaccounts,limitranges,resourcequotas,validatingadmissionpolicies,... -A -o json), files or directories (repeatable). Default with --live-from-cluster: read from the cluster (list permission); none: no cluster state.")
	fs.StringVar(&a.user, "as", "", "The user the writes come from, as the cluster authenticates it: the admission policies' request.userInfo (default: unknown).")
	fs.StringVar(&a.uid, "as-uid", "", "That user's uid.")
	stringArrayVarP(fs, &a.groups, "as-group", "", nil, "A group of that user (repeatable).")
	stringArrayVarP(fs, &a.authorize, "authorize", "", nil, "What the cluster's authorizer answers for that user, for the admission policies that ask it: 'VERB RESOURCE[.GROUP][/SUB] [NAMESPACE/NAME]=allow|deny' or 'VERB /PATH=allow|deny', * for any (repeatable; the first that matches answers). A check none answers is predicted as no opinion, and says so.")
}

// checkAdmission validates the flags of admission once parsed.
func (c *options) checkAdmission() error {
	a := &c.admission
	for _, f := range a.from {
		if f == "none" {
			if len(a.from) > 1 {
				return fmt.Errorf("--admission-from none excludes other --admission-from")
			}
			a.none = true
		}
	}
	for _, r := range a.authorize {
		rule, err := clusterstate.ParseRule(r)
		if err != nil {
			return fmt.Errorf("--authorize: %w", err)
		}
		a.rules.Rules = append(a.rules.Rules, rule)
	}
	if (a.uid != "" || len(a.groups) > 0) && a.user == "" {
		return fmt.Errorf("--as-uid and --as-group say more of the user --as names: give --as")
	}
	return nil
}
