package main

import "fmt"

// resourceInfo is what client-go's scheme does not say about a kind: the
// REST resource that serves it and its subresources. These facts come from
// the API server's registry (pkg/registry/... in kubernetes/kubernetes 1.37)
// and are cross-checked against client-go's generated typed clients at
// generation time (see crosscheck.go): the plural and the scope from the
// request path a client sends, status from UpdateStatus, scale from GetScale.
type resourceInfo struct {
	// resource is the lowercase plural ("deployments"). Empty for kinds
	// that are only the body of a subresource request (policy Eviction,
	// posted to pods/{name}/eviction): they are never stored or applied.
	resource   string
	namespaced bool
	status     bool // has a /status subresource
	scale      bool // has a /scale subresource
}

type groupKind struct{ group, kind string }

// gvKind names one version of a kind when a fact differs between versions.
type gvKind struct{ group, version, kind string }

const (
	cluster    = false
	namespaced = true
)

// resources is keyed by group and kind: scope and plural never change
// between the versions of a kind. Status and scale do in a few old
// versions; those are listed in versionOverrides.
var resources = map[groupKind]resourceInfo{
	// core (legacy group, served under /api/v1)
	{"", "ComponentStatus"}:       {"componentstatuses", cluster, false, false},
	{"", "ConfigMap"}:             {"configmaps", namespaced, false, false},
	{"", "Endpoints"}:             {"endpoints", namespaced, false, false},
	{"", "Event"}:                 {"events", namespaced, false, false},
	{"", "LimitRange"}:            {"limitranges", namespaced, false, false},
	{"", "Namespace"}:             {"namespaces", cluster, true, false},
	{"", "Node"}:                  {"nodes", cluster, true, false},
	{"", "PersistentVolume"}:      {"persistentvolumes", cluster, true, false},
	{"", "PersistentVolumeClaim"}: {"persistentvolumeclaims", namespaced, true, false},
	{"", "Pod"}:                   {"pods", namespaced, true, false},
	{"", "PodTemplate"}:           {"podtemplates", namespaced, false, false},
	{"", "ReplicationController"}: {"replicationcontrollers", namespaced, true, true},
	{"", "ResourceQuota"}:         {"resourcequotas", namespaced, true, false},
	{"", "Secret"}:                {"secrets", namespaced, false, false},
	{"", "Service"}:               {"services", namespaced, true, false},
	{"", "ServiceAccount"}:        {"serviceaccounts", namespaced, false, false},

	// admissionregistration.k8s.io
	{"admissionregistration.k8s.io", "MutatingAdmissionPolicy"}:          {"mutatingadmissionpolicies", cluster, false, false},
	{"admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding"}:   {"mutatingadmissionpolicybindings", cluster, false, false},
	{"admissionregistration.k8s.io", "MutatingWebhookConfiguration"}:     {"mutatingwebhookconfigurations", cluster, false, false},
	{"admissionregistration.k8s.io", "ValidatingAdmissionPolicy"}:        {"validatingadmissionpolicies", cluster, true, false},
	{"admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"}: {"validatingadmissionpolicybindings", cluster, false, false},
	{"admissionregistration.k8s.io", "ValidatingWebhookConfiguration"}:   {"validatingwebhookconfigurations", cluster, false, false},

	// apps
	{"apps", "ControllerRevision"}: {"controllerrevisions", namespaced, false, false},
	{"apps", "DaemonSet"}:          {"daemonsets", namespaced, true, false},
	{"apps", "Deployment"}:         {"deployments", namespaced, true, true},
	{"apps", "ReplicaSet"}:         {"replicasets", namespaced, true, true},
	{"apps", "StatefulSet"}:        {"statefulsets", namespaced, true, true},

	// autoscaling
	{"autoscaling", "HorizontalPodAutoscaler"}: {"horizontalpodautoscalers", namespaced, true, false},

	// batch
	{"batch", "CronJob"}: {"cronjobs", namespaced, true, false},
	{"batch", "Job"}:     {"jobs", namespaced, true, false},

	// certificates.k8s.io
	{"certificates.k8s.io", "CertificateSigningRequest"}: {"certificatesigningrequests", cluster, true, false},
	{"certificates.k8s.io", "ClusterTrustBundle"}:        {"clustertrustbundles", cluster, false, false},
	{"certificates.k8s.io", "PodCertificateRequest"}:     {"podcertificaterequests", namespaced, true, false},

	// coordination.k8s.io
	{"coordination.k8s.io", "Lease"}:          {"leases", namespaced, false, false},
	{"coordination.k8s.io", "LeaseCandidate"}: {"leasecandidates", namespaced, false, false},

	// discovery.k8s.io
	{"discovery.k8s.io", "EndpointSlice"}: {"endpointslices", namespaced, false, false},

	// events.k8s.io
	{"events.k8s.io", "Event"}: {"events", namespaced, false, false},

	// extensions (old versions of apps and networking kinds)
	{"extensions", "DaemonSet"}:     {"daemonsets", namespaced, true, false},
	{"extensions", "Deployment"}:    {"deployments", namespaced, true, true},
	{"extensions", "Ingress"}:       {"ingresses", namespaced, true, false},
	{"extensions", "NetworkPolicy"}: {"networkpolicies", namespaced, false, false},
	{"extensions", "ReplicaSet"}:    {"replicasets", namespaced, true, true},

	// flowcontrol.apiserver.k8s.io
	{"flowcontrol.apiserver.k8s.io", "FlowSchema"}:                 {"flowschemas", cluster, true, false},
	{"flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"}: {"prioritylevelconfigurations", cluster, true, false},

	// internal.apiserver.k8s.io
	{"internal.apiserver.k8s.io", "StorageVersion"}: {"storageversions", cluster, true, false},

	// lifecycle.k8s.io
	{"lifecycle.k8s.io", "Eviction"}:        {"evictions", namespaced, true, false},
	{"lifecycle.k8s.io", "EvictionRequest"}: {"evictionrequests", namespaced, true, false},

	// networking.k8s.io
	{"networking.k8s.io", "IPAddress"}:     {"ipaddresses", cluster, false, false},
	{"networking.k8s.io", "Ingress"}:       {"ingresses", namespaced, true, false},
	{"networking.k8s.io", "IngressClass"}:  {"ingressclasses", cluster, false, false},
	{"networking.k8s.io", "NetworkPolicy"}: {"networkpolicies", namespaced, false, false},
	{"networking.k8s.io", "ServiceCIDR"}:   {"servicecidrs", cluster, true, false},

	// node.k8s.io
	{"node.k8s.io", "RuntimeClass"}: {"runtimeclasses", cluster, false, false},

	// policy
	{"policy", "Eviction"}:            {"", namespaced, false, false},
	{"policy", "PodDisruptionBudget"}: {"poddisruptionbudgets", namespaced, true, false},

	// rbac.authorization.k8s.io
	{"rbac.authorization.k8s.io", "ClusterRole"}:        {"clusterroles", cluster, false, false},
	{"rbac.authorization.k8s.io", "ClusterRoleBinding"}: {"clusterrolebindings", cluster, false, false},
	{"rbac.authorization.k8s.io", "Role"}:               {"roles", namespaced, false, false},
	{"rbac.authorization.k8s.io", "RoleBinding"}:        {"rolebindings", namespaced, false, false},

	// resource.k8s.io (dynamic resource allocation)
	{"resource.k8s.io", "DeviceClass"}:               {"deviceclasses", cluster, false, false},
	{"resource.k8s.io", "DeviceTaintRule"}:           {"devicetaintrules", cluster, true, false},
	{"resource.k8s.io", "ResourceClaim"}:             {"resourceclaims", namespaced, true, false},
	{"resource.k8s.io", "ResourceClaimTemplate"}:     {"resourceclaimtemplates", namespaced, false, false},
	{"resource.k8s.io", "ResourcePoolStatusRequest"}: {"resourcepoolstatusrequests", cluster, true, false},
	{"resource.k8s.io", "ResourceSlice"}:             {"resourceslices", cluster, false, false},

	// scheduling.k8s.io
	{"scheduling.k8s.io", "CompositePodGroup"}: {"compositepodgroups", namespaced, true, false},
	{"scheduling.k8s.io", "PodGroup"}:          {"podgroups", namespaced, true, false},
	{"scheduling.k8s.io", "PriorityClass"}:     {"priorityclasses", cluster, false, false},
	{"scheduling.k8s.io", "Workload"}:          {"workloads", namespaced, false, false},

	// storage.k8s.io
	{"storage.k8s.io", "CSIDriver"}:             {"csidrivers", cluster, false, false},
	{"storage.k8s.io", "CSINode"}:               {"csinodes", cluster, true, false},
	{"storage.k8s.io", "CSIStorageCapacity"}:    {"csistoragecapacities", namespaced, false, false},
	{"storage.k8s.io", "StorageClass"}:          {"storageclasses", cluster, false, false},
	{"storage.k8s.io", "VolumeAttachment"}:      {"volumeattachments", cluster, true, false},
	{"storage.k8s.io", "VolumeAttributesClass"}: {"volumeattributesclasses", cluster, false, false},

	// storagemigration.k8s.io
	{"storagemigration.k8s.io", "StorageVersionMigration"}: {"storageversionmigrations", cluster, true, false},

	// apiextensions.k8s.io (k8s.io/apiextensions-apiserver)
	{"apiextensions.k8s.io", "CustomResourceDefinition"}: {"customresourcedefinitions", cluster, true, false},

	// apiregistration.k8s.io (k8s.io/kube-aggregator)
	{"apiregistration.k8s.io", "APIService"}: {"apiservices", cluster, true, false},
}

// versionOverrides records versions whose subresources differ from the
// kind's entry in resources.
var versionOverrides = map[gvKind]resourceInfo{}

// statusSince records versions of kinds whose /status subresource is newer than the
// version: the minor whose storage first registers it (pkg/registry/<group>/rest). Before
// it, that version has no /status.
var statusSince = map[gvKind]int{
	// storage.k8s.io csinodes/status: k8s.io/kubernetes 1.37 pkg/registry/storage/rest
	// (storage_storage.go), with CSINode.status (CSINodeStatus) new in k8s.io/api v0.37.
	{"storage.k8s.io", "v1", "CSINode"}:      37,
	{"storage.k8s.io", "v1beta1", "CSINode"}: 37,
	// resource.k8s.io/v1alpha3 devicetaintrules/status: 1.35 (DeviceTaintRule.status new
	// in k8s.io/api v0.35).
	{"resource.k8s.io", "v1alpha3", "DeviceTaintRule"}: 35,
}

// resourceInfo is the table's entry for one version of a kind at the minor m.
func (m minor) resourceInfo(group, version, kindName string) (resourceInfo, error) {
	info, ok := versionOverrides[gvKind{group, version, kindName}]
	if !ok {
		info, ok = resources[groupKind{group, kindName}]
	}
	if !ok {
		return resourceInfo{}, fmt.Errorf("%s/%s, Kind=%s: not in the resource table (table.go): add it", group, version, kindName)
	}
	if since, ok := statusSince[gvKind{group, version, kindName}]; ok && m.number < since {
		info.status = false
	}
	return info, nil
}

// markersComplete is the first minor whose k8s.io/api marks every subresource of its types
// with +k8s:supportsSubresource (v0.37). Before it, a few types carry markers, some not all
// of theirs (v0.34 to v0.36 core/v1 marks ReplicationController /scale, not /status): only
// the markers there are checked.
const markersComplete = 37

// knownDisagreements lists where a cross-check source is known to be
// incomplete, and why the table is right anyway. The key names the source
// ("client" for client-go's typed clients, "marker" for the
// +k8s:supportsSubresource markers in k8s.io/api).
var knownDisagreements = map[string]map[gvKind]string{
	"client": {
		// These old apps versions served deployments/scale (and
		// statefulsets/scale, replicasets/scale) with their own Scale kinds;
		// their typed clients were generated without GetScale. None of them
		// is served by 1.37.
		{"apps", "v1beta1", "Deployment"}:  "served /scale; client generated without GetScale",
		{"apps", "v1beta1", "StatefulSet"}: "served /scale; client generated without GetScale",
		{"apps", "v1beta2", "Deployment"}:  "served /scale; client generated without GetScale",
		{"apps", "v1beta2", "ReplicaSet"}:  "served /scale; client generated without GetScale",
	},
	"marker": {
		// extensions/v1beta1 served deployments/scale and replicasets/scale
		// (extensions Scale kind; client-go's typed client has GetScale); the
		// markers only list /status. Not served by 1.37.
		{"extensions", "v1beta1", "Deployment"}: "served /scale (extensions/v1beta1 Scale)",
		{"extensions", "v1beta1", "ReplicaSet"}: "served /scale (extensions/v1beta1 Scale)",
	},
}
