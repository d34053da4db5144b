package render_test

import (
	"fmt"
	"os"

	"github.com/ssa-diff/ssa-diff/cli/input"
	"github.com/ssa-diff/ssa-diff/cli/render"
)

// Build an overlay as kubectl apply -k does, and find where an object and one of its
// fields were written.
func ExampleKustomize() {
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	if err := os.Chdir("../../testdata/gitops-e2e/repo"); err != nil {
		panic(err)
	}
	var loader input.Loader
	objs, errs := input.Split(render.Kustomize(&loader, "overlays/prod"))
	fmt.Println(len(objs), "objects,", len(errs), "errors")
	for _, o := range objs {
		_, kind, ns, name := o.Meta()
		if kind != "Deployment" {
			continue
		}
		tree, _ := o.Decode()
		file, line := o.LocateFieldPath(tree, ".spec.replicas")
		fmt.Printf("%s %s/%s: %s (via %s); .spec.replicas at %s:%d\n", kind, ns, name, o.Source.Short(), o.Source.Via, file, line)
	}
	// Output:
	// 4 objects, 0 errors
	// Deployment shop-prod/web: base/deployment.yaml:1 (via kustomize overlays/prod); .spec.replicas at overlays/prod/replicas.yaml:6
}
