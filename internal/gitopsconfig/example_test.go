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

// An Application stands for the flags of an Argo CD sync: Settings says each (a caller
// refuses one given otherwise), and refuses the sync options ssa-diff does not predict.
func ExampleApplication_Settings() {
	app, err := gitopsconfig.ReadApplication([]byte(`apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: shop}
spec:
  destination: {namespace: shop-prod}
  syncPolicy:
    syncOptions: [ServerSideApply=true, ClientSideApplyMigration=false, PruneLast=true]
  ignoreDifferences:
  - {group: apps, kind: Deployment, jsonPointers: [/spec/replicas]}
`))
	if err != nil {
		panic(err)
	}
	sync, err := app.Settings(func(s gitopsconfig.Setting) error {
		fmt.Printf("--%s %s (%s)\n", s.Flag, s.Value, s.What)
		return nil
	})
	fmt.Println(len(sync.Rules), sync.Respect == nil, err)

	app.SyncOptions["Replace"] = "true"
	_, err = app.Settings(func(gitopsconfig.Setting) error { return nil })
	fmt.Println(err)
	// Output:
	// --applier argocd (the applier of an Application)
	// --argocd-app shop (metadata.name)
	// --namespace shop-prod (spec.destination.namespace)
	// --argocd-no-csa-migration true (sync option ClientSideApplyMigration=false)
	// 1 true <nil>
	// sync option Replace=true is not predicted: it changes how Argo CD writes the objects (drop it to predict the sync without it)
}
