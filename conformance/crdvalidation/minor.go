package crdvalidation

import (
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	componentversion "k8s.io/component-base/version"
)

// serverMinor is the kube-apiserver minor whose code this module links: the binary version
// of the linked k8s.io/component-base ("1.37" for v0.37.2, which apiextensions-apiserver
// v0.37.2 requires). ssa-diff is predicted at the same minor, so that the harness holds
// whichever release its go.mod pins.
func serverMinor() (kube.Minor, error) {
	return kube.ParseMinor(componentversion.DefaultKubeBinaryVersion)
}

// model is ssa-diff's model of the linked server's minor.
func model() *kubeapiserver.Model {
	v, err := serverMinor()
	if err != nil {
		panic(err)
	}
	return kubeapiserver.MustNew(kubeapiserver.Config{Minor: v})
}
