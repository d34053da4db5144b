package validation

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
)

// strategies are the server's registry strategies of the kinds ssa-diff validates, by the
// group, version and kind they are served at. Add a kind here when its validation is ported.
func strategies() map[schema.GroupVersionKind]Strategies {
	gvk := func(g, v, k string) schema.GroupVersionKind {
		return schema.GroupVersionKind{Group: g, Version: v, Kind: k}
	}
	return map[schema.GroupVersionKind]Strategies{
		gvk("", "v1", "ConfigMap"):             {Namespaced: true, Create: configmap.Strategy, Update: configmap.Strategy},
		gvk("", "v1", "Pod"):                   {Namespaced: true, Create: pod.Strategy, Update: pod.Strategy, Status: pod.StatusStrategy, Warnings: true},
		gvk("", "v1", "PodTemplate"):           {Namespaced: true, Create: podtemplate.Strategy, Update: podtemplate.Strategy, Warnings: true},
		gvk("", "v1", "ReplicationController"): {Namespaced: true, Create: replicationcontroller.Strategy, Update: replicationcontroller.Strategy, Status: replicationcontroller.StatusStrategy, Warnings: true},
		gvk("", "v1", "PersistentVolume"):      {Create: persistentvolume.Strategy, Update: persistentvolume.Strategy, Status: persistentvolume.StatusStrategy, Warnings: true},
		gvk("", "v1", "PersistentVolumeClaim"): {Namespaced: true, Create: persistentvolumeclaim.Strategy, Update: persistentvolumeclaim.Strategy, Status: persistentvolumeclaim.StatusStrategy, Warnings: true},
	}
}
