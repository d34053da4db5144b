package cli

import (
	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/predict"
)

// This file decides which Kubernetes minor a run predicts: --kube-version when given; with
// --live-from-cluster the cluster's (its /version); with a live dump that --save-live wrote,
// the minor of the cluster it was read from; else the latest supported one.

// kubeVersionOptions are --kube-version as given, and the choice it makes (nothing given:
// the live state's minor, else the newest).
type kubeVersionOptions struct {
	flag   string
	choice predict.MinorChoice
}

func (c *options) addKubeVersionFlag(fs *pflag.FlagSet) {
	c.kube.choice = predict.MinorChoice{Option: "--kube-version"}
	fs.StringVar(&c.kube.flag, "kube-version", "", "The Kubernetes minor whose kube-apiserver is predicted: "+supportedMinors()+
		" (v1.35 and 1.35.4 are read as 1.35); nearest: the supported minor nearest to the live state's cluster. Default: the cluster's with --live-from-cluster (its /version), "+
		"the dump's cluster for a LIVE dump written by --save-live, else "+kube.Default().String()+".")
}

// checkKubeVersion reads --kube-version once parsed.
func (c *options) checkKubeVersion(fs *pflag.FlagSet) error {
	if !fs.Changed("kube-version") {
		return nil
	}
	var err error
	c.kube.choice, err = predict.ParseMinorChoice("--kube-version", c.kube.flag)
	return err
}

// supportedMinors lists the supported minors: "1.32, 1.33, 1.34, 1.35, 1.36 or 1.37".
func supportedMinors() string { return predict.SupportedMinors() }
