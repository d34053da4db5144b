package validation

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
)

// strategies are the server's registry strategies of the kinds ssa-diff validates, by the
// group, version and kind they are served at. Add a kind here when its validation is ported.
func strategies() map[schema.GroupVersionKind]Strategies {
	gvk := func(g, v, k string) schema.GroupVersionKind {
		return schema.GroupVersionKind{Group: g, Version: v, Kind: k}
	}
	return map[schema.GroupVersionKind]Strategies{
		gvk("", "v1", "ConfigMap"): {Namespaced: true, Create: configmap.Strategy, Update: configmap.Strategy},
	}
}
