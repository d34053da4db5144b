package validation

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/kube-aggregator/pkg/registry/apiservice"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/resolver"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/apps/controllerrevision"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	csrregistry "k8s.io/kubernetes/pkg/registry/certificates/certificates"
	"k8s.io/kubernetes/pkg/registry/certificates/clustertrustbundle"
	"k8s.io/kubernetes/pkg/registry/certificates/podcertificaterequest"
	"k8s.io/kubernetes/pkg/registry/coordination/lease"
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
	"k8s.io/kubernetes/pkg/registry/discovery/endpointslice"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/flowschema"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/prioritylevelconfiguration"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/ingressclass"
	"k8s.io/kubernetes/pkg/registry/networking/ipaddress"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
	"k8s.io/kubernetes/pkg/registry/networking/servicecidr"
	"k8s.io/kubernetes/pkg/registry/node/runtimeclass"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrole"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrolebinding"
	"k8s.io/kubernetes/pkg/registry/rbac/role"
	"k8s.io/kubernetes/pkg/registry/rbac/rolebinding"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/devicetaintrule"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/registry/resource/resourceslice"
	"k8s.io/kubernetes/pkg/registry/scheduling/priorityclass"
	"k8s.io/kubernetes/pkg/registry/storage/csidriver"
	"k8s.io/kubernetes/pkg/registry/storage/csinode"
	"k8s.io/kubernetes/pkg/registry/storage/csistoragecapacity"
	"k8s.io/kubernetes/pkg/registry/storage/storageclass"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattachment"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattributesclass"
	"k8s.io/kubernetes/pkg/registry/storagemigration/storagemigration"
	"k8s.io/utils/clock"

	"github.com/ssa-diff/ssa-diff/conformance/internalapi/kinds"
)

// strategies are the server's registry strategies of the kinds ssa-diff validates, by the
// group, version and kind they are served at. Add a kind here when its validation is ported.
func strategies() map[schema.GroupVersionKind]Strategies {
	gvk := func(g, v, k string) schema.GroupVersionKind {
		return schema.GroupVersionKind{Group: g, Version: v, Kind: k}
	}
	// The admission policies authorize paramKind and paramRef against the writer: with no
	// authorizer (the writer is allowed), a binding still needs a resolver.
	resolve := resolver.ResourceResolverFunc(func(gvk schema.GroupVersionKind) (schema.GroupVersionResource, error) {
		r, _ := meta.UnsafeGuessKindToResource(gvk)
		return r, nil
	})
	vap := validatingadmissionpolicy.NewStrategy(nil, resolve)
	vapb := validatingadmissionpolicybinding.NewStrategy(nil, nil, resolve)
	mapol := mutatingadmissionpolicy.NewStrategy(nil, resolve)
	mapb := mutatingadmissionpolicybinding.NewStrategy(nil, nil, resolve)
	// A writer allowed everything (system:masters), for the kinds that authorize the writer.
	admin := func(ctx context.Context) context.Context {
		return genericapirequest.WithUser(ctx, &user.DefaultInfo{Name: "admin", Groups: []string{user.SystemPrivilegedGroup, user.AllAuthenticated}})
	}
	pcr := podcertificaterequest.NewStrategy()
	// The aggregator's strategies take the scheme its APIService types are registered in.
	apisvc := apiservice.NewStrategy(kinds.Scheme())
	// The claim strategies look up the namespace of a request for admin access (ssa-diff
	// does not predict those writes): a client that knows no namespace.
	var namespaces corev1client.NamespaceInterface = noNamespaces{}
	claim := resourceclaim.NewStrategy(namespaces, authorizerfactory.NewAlwaysAllowAuthorizer())
	claimTemplate := resourceclaimtemplate.NewStrategy(namespaces)
	return map[schema.GroupVersionKind]Strategies{
		gvk("", "v1", "ConfigMap"):             {Namespaced: true, Create: configmap.Strategy, Update: configmap.Strategy},
		gvk("", "v1", "Service"):               {Namespaced: true, Create: service.Strategy, Update: service.Strategy, Status: service.StatusStrategy, Warnings: true},
		gvk("", "v1", "Endpoints"):             {Namespaced: true, Create: endpoint.Strategy, Update: endpoint.Strategy, Warnings: true},
		gvk("", "v1", "Secret"):                {Namespaced: true, Create: secret.Strategy, Update: secret.Strategy, Warnings: true},
		gvk("", "v1", "ServiceAccount"):        {Namespaced: true, Create: serviceaccount.Strategy, Update: serviceaccount.Strategy, Warnings: true},
		gvk("", "v1", "Namespace"):             {Create: namespace.Strategy, Update: namespace.Strategy, Status: namespace.StatusStrategy, Warnings: true},
		gvk("", "v1", "Event"):                 {Namespaced: true, Create: event.Strategy, Update: event.Strategy, Warnings: true},
		gvk("events.k8s.io", "v1", "Event"):    {Namespaced: true, Create: event.Strategy, Update: event.Strategy, Warnings: true},
		gvk("", "v1", "LimitRange"):            {Namespaced: true, Create: limitrange.Strategy, Update: limitrange.Strategy, Warnings: true},
		gvk("", "v1", "ResourceQuota"):         {Namespaced: true, Create: resourcequota.Strategy, Update: resourcequota.Strategy, Status: resourcequota.StatusStrategy, Warnings: true},
		gvk("", "v1", "Node"):                  {Create: node.Strategy, Update: node.Strategy, Status: node.StatusStrategy, Warnings: true},
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
		// admissionregistration.k8s.io
		gvk("admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration"): {Create: validatingwebhookconfiguration.Strategy,
			Update: validatingwebhookconfiguration.Strategy, Warnings: true},
		gvk("admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration"): {Create: mutatingwebhookconfiguration.Strategy,
			Update: mutatingwebhookconfiguration.Strategy, Warnings: true},
		gvk("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy"): {Create: vap, Update: vap,
			Status: validatingadmissionpolicy.NewStatusStrategy(vap), Warnings: true},
		gvk("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicyBinding"): {Create: vapb, Update: vapb, Warnings: true},
		gvk("admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicy"):          {Create: mapol, Update: mapol, Warnings: true},
		gvk("flowcontrol.apiserver.k8s.io", "v1", "FlowSchema"): {Create: flowschema.Strategy, Update: flowschema.Strategy,
			Status: flowschema.StatusStrategy, Warnings: true},
		gvk("flowcontrol.apiserver.k8s.io", "v1", "PriorityLevelConfiguration"): {Create: prioritylevelconfiguration.Strategy,
			Update: prioritylevelconfiguration.Strategy, Status: prioritylevelconfiguration.StatusStrategy, Warnings: true},
		gvk("certificates.k8s.io", "v1", "CertificateSigningRequest"): {Create: csrregistry.Strategy, Update: csrregistry.Strategy,
			Status: csrregistry.StatusStrategy, Warnings: true, Context: admin},
		gvk("certificates.k8s.io", "v1", "ClusterTrustBundle"): {Create: clustertrustbundle.Strategy, Update: clustertrustbundle.Strategy,
			Warnings: true},
		gvk("certificates.k8s.io", "v1", "PodCertificateRequest"): {Namespaced: true, Create: pcr, Update: pcr,
			Status: podcertificaterequest.NewStatusStrategy(pcr, authorizerfactory.NewAlwaysAllowAuthorizer(), clock.RealClock{}), Warnings: true, Context: admin},
		gvk("apiregistration.k8s.io", "v1", "APIService"): {Create: apisvc, Update: apisvc,
			Status: apiservice.NewStatusStrategy(kinds.Scheme()), Warnings: true},
		gvk("storagemigration.k8s.io", "v1", "StorageVersionMigration"): {Create: storagemigration.Strategy,
			Update: storagemigration.Strategy, Status: storagemigration.StatusStrategy, Warnings: true},
		gvk("admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicyBinding"): {Create: mapb, Update: mapb, Warnings: true},
		// networking
		gvk("networking.k8s.io", "v1", "Ingress"):       {Namespaced: true, Create: ingress.Strategy, Update: ingress.Strategy, Status: ingress.StatusStrategy, Warnings: true},
		gvk("networking.k8s.io", "v1", "IngressClass"):  {Create: ingressclass.Strategy, Update: ingressclass.Strategy, Warnings: true},
		gvk("networking.k8s.io", "v1", "NetworkPolicy"): {Namespaced: true, Create: networkpolicy.Strategy, Update: networkpolicy.Strategy, Warnings: true},
		gvk("networking.k8s.io", "v1", "IPAddress"):     {Create: ipaddress.Strategy, Update: ipaddress.Strategy, Warnings: true},
		gvk("networking.k8s.io", "v1", "ServiceCIDR"):   {Create: servicecidr.Strategy, Update: servicecidr.Strategy, Status: servicecidr.StatusStrategy, Warnings: true},
		// rbac
		gvk("rbac.authorization.k8s.io", "v1", "Role"):               {Namespaced: true, Create: role.Strategy, Update: role.Strategy, Warnings: true},
		gvk("rbac.authorization.k8s.io", "v1", "ClusterRole"):        {Create: clusterrole.Strategy, Update: clusterrole.Strategy, Warnings: true},
		gvk("rbac.authorization.k8s.io", "v1", "RoleBinding"):        {Namespaced: true, Create: rolebinding.Strategy, Update: rolebinding.Strategy, Warnings: true},
		gvk("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding"): {Create: clusterrolebinding.Strategy, Update: clusterrolebinding.Strategy, Warnings: true},
		// storage
		gvk("storage.k8s.io", "v1", "StorageClass"):          {Create: storageclass.Strategy, Update: storageclass.Strategy, Warnings: true},
		gvk("storage.k8s.io", "v1", "CSIDriver"):             {Create: csidriver.Strategy, Update: csidriver.Strategy, Warnings: true},
		gvk("storage.k8s.io", "v1", "CSINode"):               {Create: csinode.Strategy, Update: csinode.Strategy, Status: csinode.StatusStrategy, Warnings: true},
		gvk("storage.k8s.io", "v1", "VolumeAttachment"):      {Create: volumeattachment.Strategy, Update: volumeattachment.Strategy, Status: volumeattachment.StatusStrategy, Warnings: true},
		gvk("storage.k8s.io", "v1", "CSIStorageCapacity"):    {Namespaced: true, Create: csistoragecapacity.Strategy, Update: csistoragecapacity.Strategy, Warnings: true},
		gvk("storage.k8s.io", "v1", "VolumeAttributesClass"): {Create: volumeattributesclass.Strategy, Update: volumeattributesclass.Strategy, Warnings: true},
		// resource.k8s.io (Dynamic Resource Allocation)
		gvk("resource.k8s.io", "v1", "DeviceClass"):           {Create: deviceclass.Strategy, Update: deviceclass.Strategy, Warnings: true},
		gvk("resource.k8s.io", "v1", "ResourceClaimTemplate"): {Namespaced: true, Create: claimTemplate, Update: claimTemplate, Warnings: true},
		gvk("resource.k8s.io", "v1", "ResourceClaim"): {Namespaced: true, Create: claim, Update: claim,
			Status: resourceclaim.NewStatusStrategy(claim), Warnings: true, Context: admin},
		gvk("resource.k8s.io", "v1", "DeviceTaintRule"): {Create: devicetaintrule.Strategy, Update: devicetaintrule.Strategy,
			Status: devicetaintrule.StatusStrategy, Warnings: true},
		gvk("resource.k8s.io", "v1", "ResourceSlice"): {Create: resourceslice.Strategy, Update: resourceslice.Strategy, Warnings: true},
		// scheduling, node, discovery, coordination
		gvk("scheduling.k8s.io", "v1", "PriorityClass"): {Create: priorityclass.Strategy, Update: priorityclass.Strategy, Warnings: true},
		gvk("node.k8s.io", "v1", "RuntimeClass"):        {Create: runtimeclass.Strategy, Update: runtimeclass.Strategy, Warnings: true},
		gvk("discovery.k8s.io", "v1", "EndpointSlice"):  {Namespaced: true, Create: endpointslice.Strategy, Update: endpointslice.Strategy, Warnings: true},
		gvk("coordination.k8s.io", "v1", "Lease"):       {Namespaced: true, Create: lease.Strategy, Update: lease.Strategy, Warnings: true},
	}
}

// noNamespaces is a namespace client that knows no namespace.
type noNamespaces struct {
	corev1client.NamespaceInterface
}

func (noNamespaces) Get(_ context.Context, name string, _ metav1.GetOptions) (*corev1.Namespace, error) {
	return nil, apierrors.NewNotFound(corev1.Resource("namespaces"), name)
}
