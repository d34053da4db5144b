package differential

import (
	_ "embed" // the CRD of the custom kind
	"fmt"
	"math/rand"
	"sort"

	"github.com/ssa-diff/ssa-diff/conformance/differential/gen"
	"github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install" // the HorizontalPodAutoscaler's conversions
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/yaml"
)

//go:embed crds/widgets.yaml
var widgetsCRD []byte

// WidgetsCRD is the CustomResourceDefinition of the custom kind the generator covers
// (example.com/v1 Widget): list-maps with composite and defaulted keys, sets, atomic
// lists and maps, nested list-maps, nested lists, granular maps of structs,
// int-or-string, preserve-unknown-fields and embedded-resource subtrees, a status
// subresource.
func WidgetsCRD() []byte { return append([]byte(nil), widgetsCRD...) }

// KindSpec is one kind the generator covers.
type KindSpec struct {
	// Name is the short name used in case files ("deployment").
	Name string
	// Resource is the plural resource name.
	Resource   string
	GVK        schema.GroupVersionKind
	Namespaced bool
	// Status reports a status subresource.
	Status bool
	// Scale reports a /scale subresource (replicas at .spec.replicas).
	Scale bool
	// Hints are dotted field paths the generator favours (see gen.New).
	Hints []string
	// Reset are the strategy's reset tables (from k8s.io/kubernetes v1.37.2
	// pkg/registry/*/strategy.go GetResetFields), per subresource.
	Reset map[string][]fieldpath.Path
	// Versions are the versions the server serves the kind at, GVK's first, when there are
	// several: ops are sent at any of them, and live objects read back at any of them
	// (the server converts through the internal version, k8s.io/kubernetes' scheme).
	Versions []string
	// Hub is the version of Versions whose shape is the internal version's.
	Hub string
	// VersionHints are the Hints of the other versions.
	VersionHints map[string][]string
}

// At is the kind at version v ("" is GVK's).
func (k *KindSpec) At(v string) schema.GroupVersionKind {
	gvk := k.GVK
	if v != "" {
		gvk.Version = v
	}
	return gvk
}

func p(s ...interface{}) fieldpath.Path { return fieldpath.MakePathOrDie(s...) }

// Kinds are the kinds the differential run covers, in a fixed order.
var Kinds = []KindSpec{
	{Name: "deployment", Resource: "deployments", GVK: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, Namespaced: true, Status: true, Scale: true,
		Reset: oracle.StatusReset(p("spec"), p("metadata", "labels")),
		Hints: []string{"metadata.labels", "metadata.annotations", "spec.replicas", "spec.selector.matchLabels", "spec.template.metadata.labels",
			"spec.template.spec.containers.name", "spec.template.spec.containers.image", "spec.template.spec.containers.ports.containerPort",
			"spec.template.spec.containers.ports.protocol", "spec.template.spec.containers.ports.name", "spec.template.spec.containers.env.name",
			"spec.template.spec.containers.env.value", "spec.template.spec.containers.args", "spec.template.spec.tolerations",
			"spec.template.spec.volumes.name", "spec.strategy.rollingUpdate.maxSurge", "status.replicas", "status.conditions.type",
			"status.conditions.status"}},
	{Name: "configmap", Resource: "configmaps", GVK: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, Namespaced: true,
		Hints: []string{"data", "binaryData", "metadata.labels", "metadata.annotations", "metadata.finalizers", "metadata.ownerReferences.uid"}},
	{Name: "service", Resource: "services", GVK: schema.GroupVersionKind{Version: "v1", Kind: "Service"}, Namespaced: true, Status: true,
		Reset: oracle.StatusReset(p("spec")),
		Hints: []string{"spec.ports.port", "spec.ports.protocol", "spec.ports.targetPort", "spec.ports.name", "spec.selector", "spec.type",
			"spec.clusterIPs", "spec.externalIPs", "status.loadBalancer.ingress.ip", "status.conditions.type"}},
	{Name: "pod", Resource: "pods", GVK: schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, Namespaced: true, Status: true,
		Reset: oracle.StatusReset(p("spec"), p("metadata", "deletionTimestamp"), p("metadata", "ownerReferences")),
		Hints: []string{"spec.containers.name", "spec.containers.image", "spec.containers.ports.containerPort", "spec.containers.ports.protocol",
			"spec.containers.args", "spec.containers.resources.limits", "spec.containers.volumeMounts.mountPath", "spec.initContainers.name",
			"spec.volumes.name", "spec.volumes.configMap.items.key", "spec.tolerations", "spec.nodeSelector", "metadata.ownerReferences.uid",
			"metadata.finalizers", "status.conditions.type", "status.podIPs.ip", "status.containerStatuses.name"}},
	{Name: "statefulset", Resource: "statefulsets", GVK: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}, Namespaced: true, Status: true, Scale: true,
		Reset: oracle.StatusReset(p("spec")),
		Hints: []string{"spec.replicas", "spec.serviceName", "spec.volumeClaimTemplates.metadata.name", "spec.template.spec.containers.name",
			"spec.template.spec.containers.volumeMounts.mountPath", "spec.template.spec.containers.volumeMounts.name", "status.replicas",
			"status.conditions.type"}},
	{Name: "hpa", Resource: "horizontalpodautoscalers", GVK: schema.GroupVersionKind{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler"}, Namespaced: true, Status: true,
		Reset: oracle.StatusReset(p("spec")),
		Hints: []string{"spec.metrics.type", "spec.scaleTargetRef.name", "spec.scaleTargetRef.kind", "spec.minReplicas", "spec.maxReplicas",
			"spec.behavior.scaleUp.policies.type", "status.conditions.type", "status.currentMetrics.type", "status.currentReplicas"},
		Versions: []string{"v2", "v1"}, Hub: "v2",
		VersionHints: map[string][]string{"v1": {"spec.targetCPUUtilizationPercentage", "spec.scaleTargetRef.name", "spec.minReplicas",
			"spec.maxReplicas", "metadata.annotations", "status.currentCPUUtilizationPercentage", "status.currentReplicas"}}},
	{Name: "ingress", Resource: "ingresses", GVK: schema.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"}, Namespaced: true, Status: true,
		Reset: oracle.StatusReset(p("spec")),
		Hints: []string{"spec.rules.host", "spec.rules.http.paths.path", "spec.rules.http.paths.pathType", "spec.rules.http.paths.backend.service.name",
			"spec.tls.hosts", "spec.ingressClassName", "status.loadBalancer.ingress.ip"}},
	{Name: "cronjob", Resource: "cronjobs", GVK: schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "CronJob"}, Namespaced: true, Status: true,
		Reset: oracle.StatusReset(p("spec")),
		Hints: []string{"spec.schedule", "spec.suspend", "spec.jobTemplate.spec.template.spec.containers.name",
			"spec.jobTemplate.spec.template.spec.containers.env.name", "status.active.uid", "status.lastScheduleTime"}},
	{Name: "clusterrole", Resource: "clusterroles", GVK: schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"},
		Hints: []string{"rules.verbs", "rules.apiGroups", "rules.resources", "aggregationRule.clusterRoleSelectors.matchLabels", "metadata.labels"}},
	{Name: "widget", Resource: "widgets", GVK: schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, Namespaced: true, Status: true,
		Hints: []string{"spec.replicas", "spec.selector", "spec.ports.port", "spec.ports.protocol", "spec.ports.targetPort", "spec.tags", "spec.args",
			"spec.config.driver", "spec.config.options", "spec.endpoints.host", "spec.endpoints.paths.path", "spec.endpoints.paths.methods",
			"spec.matrix", "spec.routes", "spec.limits.cpu", "spec.extra", "spec.template", "status.conditions.type", "status.conditions.status",
			"status.nodes", "status.phase", "metadata.labels"}},
}

// KindByName finds a kind of Kinds.
func KindByName(name string) (*KindSpec, bool) {
	for i := range Kinds {
		if Kinds[i].Name == name {
			return &Kinds[i], true
		}
	}
	return nil, false
}

// NewOracle builds the oracle server for every kind of Kinds.
func NewOracle() (*oracle.Server, error) {
	tc := oracle.BuiltinConverter()
	var kinds []*oracle.Kind
	for _, k := range Kinds {
		if k.GVK.Group == "example.com" {
			continue
		}
		if len(k.Versions) > 0 {
			var versions []schema.GroupVersion
			for _, v := range k.Versions {
				versions = append(versions, k.At(v).GroupVersion())
			}
			for _, v := range k.Versions {
				kinds = append(kinds, &oracle.Kind{GVK: k.At(v), Resource: k.Resource, Converter: tc, Reset: k.Reset,
					Scheme: legacyscheme.Scheme, Versions: versions, Hub: k.At(k.Hub).GroupVersion()})
			}
			continue
		}
		ok := &oracle.Kind{GVK: k.GVK, Resource: k.Resource, Converter: tc, Reset: k.Reset}
		if k.Scale {
			// As pkg/registry/apps/{deployment,statefulset}/storage map them.
			ok.ScalePaths = managedfields.ResourcePathMappings{}
			for _, v := range []string{"apps/v1beta1", "apps/v1beta2", "apps/v1"} {
				ok.ScalePaths[v] = fieldpath.MakePathOrDie("spec", "replicas")
			}
		}
		kinds = append(kinds, ok)
	}
	sc, err := oracle.NewScaleConverter(tc)
	if err != nil {
		return nil, err
	}
	kinds = append(kinds, &oracle.Kind{GVK: oracle.ScaleGVK, Resource: "scales", Converter: sc})
	crd, err := DecodeCRD(widgetsCRD)
	if err != nil {
		return nil, err
	}
	ck, err := oracle.CRDKinds(crd)
	if err != nil {
		return nil, err
	}
	kinds = append(kinds, ck...)
	return oracle.NewServer(kinds...), nil
}

// DecodeCRD decodes a v1 CustomResourceDefinition from YAML.
func DecodeCRD(data []byte) (*apiextensionsv1.CustomResourceDefinition, error) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict(data, crd); err != nil {
		return nil, fmt.Errorf("decoding the CRD: %w", err)
	}
	return crd, nil
}

// typeOf is the SMD type the oracle gives a kind (the generator draws from it).
func typeOf(srv *oracle.Server, k *KindSpec) (*typed.ParseableType, error) {
	ok, found := srv.Kind(k.GVK)
	if !found {
		return nil, fmt.Errorf("kind %s not served", k.GVK)
	}
	return ok.Type()
}

// newGenerator returns a generator for kind k.
func newGenerator(srv *oracle.Server, k *KindSpec, rnd *rand.Rand) (*gen.Generator, *typed.ParseableType, error) {
	pt, err := typeOf(srv, k)
	if err != nil {
		return nil, nil, err
	}
	hints := append([]string(nil), k.Hints...)
	sort.Strings(hints)
	return gen.New(pt.Schema, rnd, hints...), pt, nil
}
