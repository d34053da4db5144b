package cli

import (
	"fmt"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/predict"
)

// This file decides which Kubernetes minor a run predicts: --kube-version when given; with
// --live-from-cluster the cluster's (its /version); with a live dump that --save-live wrote,
// the minor of the cluster it was read from; else the latest supported one.

// kubeVersionOptions are --kube-version as parsed.
type kubeVersionOptions struct {
	flag string
	// set: --kube-version was given (it wins over what the live state says).
	set bool
	// nearest: --kube-version nearest: the supported minor nearest to the cluster's.
	nearest bool
	// v is the minor given (when set and not nearest).
	v kube.Minor
}

func (c *options) addKubeVersionFlag(fs *pflag.FlagSet) {
	fs.StringVar(&c.kube.flag, "kube-version", "", "The Kubernetes minor whose kube-apiserver is predicted: "+supportedMinors()+
		" (v1.35 and 1.35.4 are read as 1.35); nearest: the supported minor nearest to the live state's cluster. Default: the cluster's with --live-from-cluster (its /version), "+
		"the dump's cluster for a LIVE dump written by --save-live, else "+kube.Default().String()+".")
}

// checkKubeVersion reads --kube-version once parsed.
func (c *options) checkKubeVersion(fs *pflag.FlagSet) error {
	k := &c.kube
	k.set = fs.Changed("kube-version")
	if !k.set {
		return nil
	}
	if k.flag == "nearest" {
		k.nearest = true
		return nil
	}
	v, err := kube.ParseMinor(k.flag)
	if err != nil {
		return fmt.Errorf("--kube-version: %v", err)
	}
	if !v.IsSupported() {
		return fmt.Errorf("--kube-version %s: ssa-diff predicts Kubernetes %s", k.flag, supportedMinors())
	}
	k.v = v
	return nil
}

// supportedMinors lists the supported minors: "1.32, 1.33, 1.34, 1.35, 1.36 or 1.37".
func supportedMinors() string { return predict.SupportedMinors() }

// kubeVersionFor is the minor a run predicts given the version of the cluster the live
// state comes from (its /version gitVersion; "" when not known) and where that was read
// (predict.MinorChoice.For decides it); a warning says when it is not the cluster's.
func (c *session) kubeVersionFor(server, where string) (kube.Minor, error) {
	k := c.kube
	choice := predict.MinorChoice{Given: k.set && !k.nearest, Minor: k.v, Nearest: k.nearest, Option: "--kube-version"}
	v, warning, err := choice.For(server, where)
	if warning != "" {
		c.warnf("%s", warning)
	}
	return v, err
}

// nearestUnknown says, for --kube-version nearest, that the live state (live: its path,
// "" for none) records no cluster version, and which minor is predicted instead.
func (c *session) nearestUnknown(live string, v kube.Minor) {
	if !c.kube.nearest {
		return
	}
	if live == "" {
		c.warnf("--kube-version nearest: no live state says which Kubernetes the cluster runs: predicting %s, the newest released minor; give --kube-version MINOR to predict the cluster's", v)
		return
	}
	c.warnf("--kube-version nearest: %s records no Kubernetes version (a dump made with kubectl get does not; --live-from-cluster --save-live records it): predicting %s, the newest released minor; give --kube-version MINOR to predict the cluster's (kubectl version says it)", live, v)
}
