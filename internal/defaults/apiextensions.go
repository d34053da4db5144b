package defaults

import (
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// Defaulters of apiextensions.k8s.io/v1 (k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/v1) and apiregistration.k8s.io/v1 (k8s.io/kube-aggregator
// pkg/apis/apiregistration/v1).

var apiextensionsDefaulters = []named[defaulterFunc]{
	{"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition", defaultCRD},
	{"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec", defaultCRDSpec},
	{"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference", defaultServicePort},
	{"io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference", defaultServicePort},
	// Kubernetes 1.38 moved the types to their own module, k8s.io/apiextensions-api (the
	// same defaulters: recorded, conformance/testdata/minors/1.38/crd-*).
	{"io.k8s.apiextensions-api.pkg.apis.apiextensions.v1.CustomResourceDefinition", defaultCRD},
	{"io.k8s.apiextensions-api.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec", defaultCRDSpec},
	{"io.k8s.apiextensions-api.pkg.apis.apiextensions.v1.ServiceReference", defaultServicePort},
}

// defaultCRD follows SetDefaults_CustomResourceDefinition: storedVersions
// starts with the storage version. (Upstream also defaults the spec from
// here; the walker reaches the spec's own defaulter next, which does it.)
func defaultCRD(m map[string]any) {
	status := unstructured.EnsureObject(m, "status")
	if len(unstructured.List(status, "storedVersions")) != 0 {
		return
	}
	for _, v := range unstructured.Objects(unstructured.EnsureObject(m, "spec"), "versions") {
		if b, _ := v["storage"].(bool); b {
			status["storedVersions"] = []any{unstructured.Str(v, "name")}
			break
		}
	}
}

// defaultCRDSpec follows SetDefaults_CustomResourceDefinitionSpec.
func defaultCRDSpec(m map[string]any) {
	names := unstructured.EnsureObject(m, "names")
	if unset(names, "singular") {
		names["singular"] = strings.ToLower(unstructured.Str(names, "kind"))
	}
	if unset(names, "listKind") && unstructured.Str(names, "kind") != "" {
		names["listKind"] = unstructured.Str(names, "kind") + "List"
	}
	setIfNil(m, "conversion", map[string]any{"strategy": "None"})
}
