package crdvalidation

import (
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	"github.com/ssa-diff/ssa-diff/server/version"
	componentversion "k8s.io/component-base/version"
)

// serverMinor is the kube-apiserver minor whose code this module links: the binary version
// of the linked k8s.io/component-base ("1.37" for v0.37.2, which apiextensions-apiserver
// v0.37.2 requires). ssa-diff is predicted at the same minor, so that the harness holds
// whichever release its go.mod pins.
func serverMinor() (version.Version, error) {
	return version.Parse(componentversion.DefaultKubeBinaryVersion)
}

// model is ssa-diff's model of the linked server's minor.
func model() *kubeapiserver.Model {
	v, err := serverMinor()
	if err != nil {
		panic(err)
	}
	return kubeapiserver.MustNew(kubeapiserver.Config{Version: v})
}
