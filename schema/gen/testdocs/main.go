//lint:file-ignore SA1019 built like the generator against every minor from 1.32; k8s.io/apiextensions-api, which 1.38 points to, exists only from 1.38

// Command testdocs writes the OpenAPI documents an API server serves for a
// CustomResourceDefinition, built by the API server's own code
// (k8s.io/apiextensions-apiserver's OpenAPI builder, with the options its
// v3 and v2 publishing controllers use). The schema package's tests load
// them as realistic documents.
//
// Usage (from schema/gen):
//
//	go run ./testdocs -crd ../testdata/crds/postgresclusters.yaml -out ../testdata/openapi
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ssa-diff/ssa-diff/schema/gen/atomicfile"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"sigs.k8s.io/yaml"
)

func main() {
	crdFile := flag.String("crd", "", "CustomResourceDefinition (YAML)")
	out := flag.String("out", ".", "output directory")
	flag.Parse()
	if err := run(*crdFile, *out); err != nil {
		fmt.Fprintln(os.Stderr, "testdocs:", err)
		os.Exit(1)
	}
}

func run(crdFile, out string) error {
	data, err := os.ReadFile(crdFile)
	if err != nil {
		return err
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		return fmt.Errorf("%s: %w", crdFile, err)
	}
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		// As the v3 publishing controller (pkg/controller/openapiv3) builds it (from 1.38
		// the builder always publishes a CRD's selectable fields; before, an option did).
		v3, err := builder.BuildOpenAPIV3(&crd, v.Name, builder.Options{V2: false})
		if err != nil {
			return err
		}
		name := fmt.Sprintf("v3-apis-%s-%s.json", crd.Spec.Group, v.Name)
		if err := writeJSON(filepath.Join(out, name), v3); err != nil {
			return err
		}
		// As the v2 publishing controller (pkg/controller/openapi) builds it;
		// the cluster merges it into /openapi/v2.
		v2, err := builder.BuildOpenAPIV2(&crd, v.Name, builder.Options{V2: true})
		if err != nil {
			return err
		}
		name = fmt.Sprintf("v2-%s-%s.json", crd.Spec.Group, v.Name)
		if err := writeJSON(filepath.Join(out, name), v2); err != nil {
			return err
		}
	}
	return nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	fmt.Println("testdocs: writing", path)
	return atomicfile.Write(path, append(b, '\n'))
}
