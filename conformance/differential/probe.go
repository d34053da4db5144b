package differential
import (
	_ "k8s.io/apimachinery/pkg/util/managedfields"
	_ "k8s.io/client-go/applyconfigurations"
	_ "k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager"
	_ "k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	_ "sigs.k8s.io/structured-merge-diff/v6/typed"
)
