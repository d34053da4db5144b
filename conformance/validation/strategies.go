package validation

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/registry/apps/controllerrevision"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/endpoint"
	"k8s.io/kubernetes/pkg/registry/core/event"
	"k8s.io/kubernetes/pkg/registry/core/limitrange"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/node"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	"k8s.io/kubernetes/pkg/registry/core/resourcequota"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/core/serviceaccount"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
)

// strategies are the server's registry strategies of the kinds ssa-diff validates, by the
// group, version and kind they are served at. Add a kind here when its validation is ported.
func strategies() map[schema.GroupVersionKind]Strategies {
	gvk := func(g, v, k string) schema.GroupVersionKind {
		return schema.GroupVersionKind{Group: g, Version: v, Kind: k}
	}
	return map[schema.GroupVersionKind]Strategies{
		gvk("", "v1", "ConfigMap"):             {Namespaced: true, Create: configmap.Strategy, Update: configmap.Strategy},
		gvk("", "v1", "Service"):               {Namespaced: true, Create: service.Strategy, Update: service.Strategy, Status: service.StatusStrategy},
		gvk("", "v1", "Endpoints"):             {Namespaced: true, Create: endpoint.Strategy, Update: endpoint.Strategy},
		gvk("", "v1", "Secret"):                {Namespaced: true, Create: secret.Strategy, Update: secret.Strategy},
		gvk("", "v1", "ServiceAccount"):        {Namespaced: true, Create: serviceaccount.Strategy, Update: serviceaccount.Strategy},
		gvk("", "v1", "Namespace"):             {Create: namespace.Strategy, Update: namespace.Strategy, Status: namespace.StatusStrategy},
		gvk("", "v1", "Event"):                 {Namespaced: true, Create: event.Strategy, Update: event.Strategy},
		gvk("events.k8s.io", "v1", "Event"):    {Namespaced: true, Create: event.Strategy, Update: event.Strategy},
		gvk("", "v1", "LimitRange"):            {Namespaced: true, Create: limitrange.Strategy, Update: limitrange.Strategy},
		gvk("", "v1", "ResourceQuota"):         {Namespaced: true, Create: resourcequota.Strategy, Update: resourcequota.Strategy, Status: resourcequota.StatusStrategy},
		gvk("", "v1", "Node"):                  {Create: node.Strategy, Update: node.Strategy, Status: node.StatusStrategy},
		gvk("", "v1", "Pod"):                   {Namespaced: true, Create: pod.Strategy, Update: pod.Strategy, Status: pod.StatusStrategy, Warnings: true},
		gvk("", "v1", "PodTemplate"):           {Namespaced: true, Create: podtemplate.Strategy, Update: podtemplate.Strategy, Warnings: true},
		gvk("", "v1", "ReplicationController"): {Namespaced: true, Create: replicationcontroller.Strategy, Update: replicationcontroller.Strategy, Status: replicationcontroller.StatusStrategy, Warnings: true},
		gvk("", "v1", "PersistentVolume"):      {Create: persistentvolume.Strategy, Update: persistentvolume.Strategy, Status: persistentvolume.StatusStrategy, Warnings: true},
		gvk("", "v1", "PersistentVolumeClaim"): {Namespaced: true, Create: persistentvolumeclaim.Strategy, Update: persistentvolumeclaim.Strategy, Status: persistentvolumeclaim.StatusStrategy, Warnings: true},
		// workloads
		gvk("apps", "v1", "Deployment"):         {Namespaced: true, Create: deployment.Strategy, Update: deployment.Strategy, Status: deployment.StatusStrategy, Warnings: true},
		gvk("apps", "v1", "ReplicaSet"):         {Namespaced: true, Create: replicaset.Strategy, Update: replicaset.Strategy, Status: replicaset.StatusStrategy, Warnings: true},
		gvk("apps", "v1", "StatefulSet"):        {Namespaced: true, Create: statefulset.Strategy, Update: statefulset.Strategy, Status: statefulset.StatusStrategy, Warnings: true},
		gvk("apps", "v1", "DaemonSet"):          {Namespaced: true, Create: daemonset.Strategy, Update: daemonset.Strategy, Status: daemonset.StatusStrategy, Warnings: true},
		gvk("apps", "v1", "ControllerRevision"): {Namespaced: true, Create: controllerrevision.Strategy, Update: controllerrevision.Strategy, Warnings: true},
		gvk("batch", "v1", "Job"):               {Namespaced: true, Create: job.Strategy, Update: job.Strategy, Status: job.StatusStrategy, Warnings: true},
		gvk("batch", "v1", "CronJob"):           {Namespaced: true, Create: cronjob.Strategy, Update: cronjob.Strategy, Status: cronjob.StatusStrategy, Warnings: true},
		gvk("autoscaling", "v2", "HorizontalPodAutoscaler"): {Namespaced: true, Create: horizontalpodautoscaler.Strategy,
			Update: horizontalpodautoscaler.Strategy, Status: horizontalpodautoscaler.StatusStrategy, Warnings: true},
		gvk("policy", "v1", "PodDisruptionBudget"): {Namespaced: true, Create: poddisruptionbudget.Strategy,
			Update: poddisruptionbudget.Strategy, Status: poddisruptionbudget.StatusStrategy, Warnings: true},
	}
}
