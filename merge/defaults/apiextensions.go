package defaults

import "strings"

// Defaulters of apiextensions.k8s.io/v1 (k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/v1) and apiregistration.k8s.io/v1 (k8s.io/kube-aggregator
// pkg/apis/apiregistration/v1).

var apiextensionsDefaulters = map[string]defaulterFunc{
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition":     defaultCRD,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec": defaultCRDSpec,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference":             defaultServicePort,
	"io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference":                   defaultServicePort,
}

// defaultCRD follows SetDefaults_CustomResourceDefinition: storedVersions
// starts with the storage version. (Upstream also defaults the spec from
// here; the walker reaches the spec's own defaulter next, which does it.)
func defaultCRD(m map[string]any) {
	status := ensureObject(m, "status")
	if len(list(status, "storedVersions")) != 0 {
		return
	}
	for _, v := range objects(ensureObject(m, "spec"), "versions") {
		if b, _ := v["storage"].(bool); b {
			status["storedVersions"] = []any{str(v, "name")}
			break
		}
	}
}

// defaultCRDSpec follows SetDefaults_CustomResourceDefinitionSpec.
func defaultCRDSpec(m map[string]any) {
	names := ensureObject(m, "names")
	if unset(names, "singular") {
		names["singular"] = strings.ToLower(str(names, "kind"))
	}
	if unset(names, "listKind") && str(names, "kind") != "" {
		names["listKind"] = str(names, "kind") + "List"
	}
	setIfNil(m, "conversion", map[string]any{"strategy": "None"})
}
