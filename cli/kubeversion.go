package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
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
		"the dump's cluster for a LIVE dump written by --save-live, else "+kube.Newest().String()+".")
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

// supportedMinors lists the supported minors: "1.34, 1.35, 1.36 or 1.37".
func supportedMinors() string {
	var vs []string
	for _, v := range kube.Minors() {
		vs = append(vs, v.String())
	}
	if len(vs) == 1 {
		return vs[0]
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}

// kubeVersionFor is the minor a run predicts given the version of the cluster the live
// state comes from (its /version gitVersion; "" when not known) and where that was read
// (a message names it). A cluster outside the supported minors is an error, unless
// --kube-version says which minor to predict (or nearest); a minor given that is not the
// cluster's is a warning.
func (c *invocation) kubeVersionFor(server, where string) (kube.Minor, error) {
	k := c.kube
	if server == "" {
		if k.set && !k.nearest {
			return k.v, nil
		}
		return kube.Newest(), nil
	}
	sv, err := kube.ParseMinor(server)
	if err != nil {
		if k.set && !k.nearest {
			return k.v, nil
		}
		return kube.Minor(0), fmt.Errorf("%s runs Kubernetes %q, a version ssa-diff cannot read: give the minor to predict with --kube-version", where, server)
	}
	switch {
	case k.nearest:
		if !sv.IsSupported() {
			c.warnf("%s runs Kubernetes %s, which ssa-diff does not predict: predicting %s, the nearest supported minor, as --kube-version nearest asks", where, server, sv.Nearest())
		}
		return sv.Nearest(), nil
	case k.set:
		if sv.String() != k.v.String() {
			c.warnf("%s runs Kubernetes %s; predicting %s as --kube-version says", where, server, k.v)
		}
		return k.v, nil
	case !sv.IsSupported():
		return kube.Minor(0), fmt.Errorf("%s runs Kubernetes %s, which ssa-diff does not predict (it predicts %s): give --kube-version %s to predict the nearest supported minor, or --kube-version nearest", where, server, supportedMinors(), sv.Nearest())
	}
	return sv, nil
}

// registryFor is the schema registry of minor v: its built-in kinds, then the --schema
// documents and --crd objects the run read (loadSchemas, loadCRDs), which are added again
// when a run learns its minor after reading them.
func (c *invocation) registryFor(v kube.Minor) (*schema.Registry, error) {
	reg, err := schema.NewRegistry(v)
	if err != nil {
		return nil, err
	}
	for _, d := range c.schemaDocs {
		if _, err := reg.AddOpenAPI(d.name, d.data); err != nil {
			return nil, fmt.Errorf("--schema %s: %w", d.name, err)
		}
	}
	for _, o := range c.crdObjects {
		if err := reg.AddStoredCRDObject(o.origin, o.obj); err != nil {
			return nil, fmt.Errorf("--crd %s: %w", o.origin, err)
		}
	}
	return reg, nil
}

// schemaDoc is a --schema document as read.
type schemaDoc struct {
	name string
	data []byte
}

// crdObject is a --crd CustomResourceDefinition as read.
type crdObject struct {
	origin string
	obj    map[string]any
}
