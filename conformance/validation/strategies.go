package validation

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/ingressclass"
	"k8s.io/kubernetes/pkg/registry/networking/ipaddress"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
	"k8s.io/kubernetes/pkg/registry/networking/servicecidr"
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

		gvk("networking.k8s.io", "v1", "Ingress"):       {Namespaced: true, Create: ingress.Strategy, Update: ingress.Strategy, Status: ingress.StatusStrategy, Warnings: true},
		gvk("networking.k8s.io", "v1", "IngressClass"):  {Create: ingressclass.Strategy, Update: ingressclass.Strategy, Warnings: true},
		gvk("networking.k8s.io", "v1", "NetworkPolicy"): {Namespaced: true, Create: networkpolicy.Strategy, Update: networkpolicy.Strategy, Warnings: true},
		gvk("networking.k8s.io", "v1", "IPAddress"):     {Create: ipaddress.Strategy, Update: ipaddress.Strategy, Warnings: true},
		gvk("networking.k8s.io", "v1", "ServiceCIDR"):   {Create: servicecidr.Strategy, Update: servicecidr.Strategy, Status: servicecidr.StatusStrategy, Warnings: true},
	}
}
