package gitopsconfig_test

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/gitopsconfig"
)

// A Kustomization's objects are built as kustomize-controller builds them: its target
// namespace, then its postBuild variables.
func ExampleKustomization_Build() {
	k, err := gitopsconfig.ReadKustomization([]byte(`apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: apps, namespace: flux-system}
spec:
  targetNamespace: shop
  postBuild:
    substitute: {replicas: "3"}
`))
	if err != nil {
		panic(err)
	}
	vars, err := k.Variables(nil)
	if err != nil {
		panic(err)
	}
	out, err := k.Build([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: ${replicas}\n  minReadySeconds: ${delay:=5}\n"), vars)
	fmt.Println(string(out), err)
	// Output: {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},"spec":{"minReadySeconds":5,"replicas":3}} <nil>
}
