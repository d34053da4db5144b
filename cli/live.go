package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/cluster"
)

// This file holds where the live state comes from and how far it can be trusted: read
// from the cluster (package cluster), or a dump given as LIVE, which may be incomplete,
// made without managedFields, or silent about namespaces.

// liveOptions are the command line's settings of the live state.
type liveOptions struct {
	fromCluster    bool
	kubeconfig     string
	context        string
	requestTimeout string
	saveLive       string
	// allowNoManagedFields predicts against a dump that carries no managedFields at all.
	allowNoManagedFields bool
	// namespaceSet: -n was given.
	namespaceSet bool
}

var liveArgNames = [][2]string{{"kubeconfig", "PATH"}, {"context", "NAME"}, {"request-timeout", "DURATION"}, {"save-live", "FILE"}}

// addLiveFlags defines the flags of the live state.
func (c *options) addLiveFlags(fs *pflag.FlagSet) {
	l := &c.liveOpts
	fs.BoolVar(&l.fromCluster, "live-from-cluster", false, "Read the live state from the cluster (kubectl's kubeconfig, context and credentials; get and list permissions are enough) instead of a LIVE file. The default of `kubectl ssa-diff` without LIVE.")
	fs.StringVar(&l.kubeconfig, "kubeconfig", "", "With --live-from-cluster: the kubeconfig file (default: KUBECONFIG, else ~/.kube/config, else the pod's own configuration).")
	fs.StringVar(&l.context, "context", "", "With --live-from-cluster: the kubeconfig context (default: the current context).")
	fs.StringVar(&l.requestTimeout, "request-timeout", cluster.DefaultRequestTimeout, "With --live-from-cluster: how long each request to the cluster may take, its retries included (1s, 2m, 3h; more than 0: a server that never answers must not hang the run).")
	fs.StringVar(&l.saveLive, "save-live", "", "With --live-from-cluster: write what was read to FILE (a v1 List, all at once: an interrupted run leaves the previous FILE) and predict from it: given as LIVE, it predicts the same again offline.")
	fs.BoolVar(&l.allowNoManagedFields, "allow-missing-managed-fields", false, "Predict against a LIVE dump (a List, or several objects) in which no object carries metadata.managedFields (made without kubectl get --show-managed-fields) as if nobody owned any field; without it such a dump cannot predict ownership (exit 2).")
}

// checkLive validates the flags of the live state once parsed; prog tells the kubectl
// plugin, which reads the cluster when no LIVE is given.
func (c *options) checkLive(fs *pflag.FlagSet, prog string) error {
	l := &c.liveOpts
	l.namespaceSet = fs.Changed("namespace")
	if !fs.Changed("live-from-cluster") && c.live == "" && strings.HasPrefix(prog, "kubectl ") {
		l.fromCluster = true
	}
	if l.fromCluster && c.live != "" {
		return fmt.Errorf("--live-from-cluster and a LIVE file (%s) exclude each other", c.live)
	}
	if l.fromCluster && c.prune.on && c.applier != "helm" {
		// The read fetches the manifests' objects only: what the applier would prune is
		// not among them, and a preview that finds nothing would be a false all-clear.
		// (Helm's read fetches the objects of the release's revisions too.)
		return fmt.Errorf("--prune needs a LIVE dump of what the applier may prune: --live-from-cluster reads only the objects the manifests name")
	}
	if !l.fromCluster {
		for _, f := range []string{"kubeconfig", "context", "request-timeout", "save-live"} {
			if fs.Changed(f) {
				return fmt.Errorf("--%s reads the cluster: it needs --live-from-cluster", f)
			}
		}
	}
	return nil
}
