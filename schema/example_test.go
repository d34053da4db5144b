package schema_test

import (
	"fmt"
	"log"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// A registry knows every built-in kind; CRDs add custom resources. The
// SMD type tells which fields an apply owns, and Default applies the
// CRD's structural defaults as the API server does.
func Example() {
	r := schema.MustNewRegistry(kube.Default())
	err := r.AddCRD("crds.yaml", []byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: backups.ops.example.com}
spec:
  group: ops.example.com
  scope: Namespaced
  names: {plural: backups, kind: Backup}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              retentionDays: {type: integer, default: 7}
              targets:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    path: {type: string}
`))
	if err != nil {
		log.Fatal(err)
	}

	typ, warnings := r.Resolve(schema.GVKFromAPIVersionKind("ops.example.com/v1", "Backup"))
	fmt.Println(typ.GVK, typ.Resource, typ.Namespaced, typ.Status, typ.Source, len(warnings))

	obj := map[string]any{
		"apiVersion": "ops.example.com/v1",
		"kind":       "Backup",
		"spec": map[string]any{
			"targets": []any{map[string]any{"name": "db", "path": "/var/lib/db"}},
		},
	}
	typ.Default(obj)
	fmt.Println("retentionDays:", obj["spec"].(map[string]any)["retentionDays"])

	tv, err := typ.Parseable.FromUnstructured(obj)
	if err != nil {
		log.Fatal(err)
	}
	set, err := tv.ToFieldSet()
	if err != nil {
		log.Fatal(err)
	}
	// The target is keyed by name: its path is owned per item.
	fmt.Println(set.Has(smdpath.MakePathOrDie("spec", "targets", smdpath.KeyByFields("name", "db"), "path")))

	deploy, _ := r.Lookup(schema.GVK{Group: "apps", Version: "v1", Kind: "Deployment"})
	fmt.Println(deploy.Resource, deploy.Scale.SpecReplicasPath, deploy.Source)

	_, warnings = r.Resolve(schema.GVK{Group: "example.com", Version: "v1", Kind: "Widget"})
	fmt.Println(len(warnings))
	// Output:
	// ops.example.com/v1, Kind=Backup backups true true crd 0
	// retentionDays: 7
	// true
	// deployments .spec.replicas builtin
	// 1
}

// A CRD a cluster still serves although its schema breaks today's structural rules (an
// array without items, no type at the root: a legacy apiextensions.k8s.io/v1beta1 CRD):
// refused as a new CRD would be, read as the server reads the CRDs it holds.
func ExampleRegistry_AddStoredCRDObject() {
	crd := map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "noxus.mygroup.example.com"},
		"spec": map[string]any{"group": "mygroup.example.com", "scope": "Cluster", "preserveUnknownFields": true,
			"names": map[string]any{"kind": "WishIHadChosenNoxu", "plural": "noxus"},
			"versions": []any{map[string]any{"name": "v1beta1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"properties": map[string]any{"TypeFooBar": map[string]any{"type": "array"}}}}}}}}
	err := schema.MustNewRegistry(kube.Default()).AddCRDObject("crd.yaml", crd)
	fmt.Println("as a request:", err != nil)

	reg := schema.MustNewRegistry(kube.Default())
	err = reg.AddStoredCRDObject("live.json", crd)
	t, _ := reg.Lookup(schema.GVK{Group: "mygroup.example.com", Version: "v1beta1", Kind: "WishIHadChosenNoxu"})
	fmt.Println("as the server holds it:", err, t.Resource, t.StorageVersion)
	// Output:
	// as a request: true
	// as the server holds it: <nil> noxus v1beta1
}
