package strategy

import (
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
)

// GenerationRule says when the registry bumps metadata.generation.
type GenerationRule uint8

const (
	// NoGeneration: the kind does not track generation; it stays as stored.
	NoGeneration GenerationRule = iota
	// SpecGeneration: 1 on create, +1 when spec changes.
	SpecGeneration
	// SpecOrAnnotationsGeneration: 1 on create, +1 when spec or
	// metadata.annotations change (Deployment).
	SpecOrAnnotationsGeneration
	// WebhooksGeneration: 1 on create, +1 when webhooks change (webhook
	// configurations).
	WebhooksGeneration
	// TemplateGeneration: 1 on create, +1 when template changes (PodTemplate).
	TemplateGeneration
	// AllButMetadataGeneration: 1 on create, +1 when anything outside
	// metadata, or metadata.labels, changes (EndpointSlice).
	AllButMetadataGeneration
	// CreateOnlyGeneration: 1 on create, never bumped (PriorityClass).
	CreateOnlyGeneration
	// UpdateSpecGeneration: not set on create, +1 when spec changes
	// (CSIDriver).
	UpdateSpecGeneration
)

// Rules are the registry rules of one kind, independent of its version.
type Rules struct {
	// Generation says how metadata.generation evolves.
	Generation GenerationRule
	// StatusReset: the kind has a status subresource; its main-resource
	// strategy clears status on create and keeps the stored status on update
	// (rules.md sub.reset-fields).
	StatusReset bool
	// SpecFrozenOnUpdate: the main resource keeps the stored spec on update
	// (CertificateSigningRequest).
	SpecFrozenOnUpdate bool
	// StatusKeptOnCreate: a create keeps the request's status though an update
	// keeps the stored one (Node).
	StatusKeptOnCreate bool
	// ReflectEqual: the generation rule compares with reflect.DeepEqual
	// instead of semantic equality, so an empty list or map in the request
	// counts as a change (webhook configurations, NetworkPolicy).
	ReflectEqual bool
}

// rulesByGroupKind is read-only; keys are "group/Kind" ("" for core).
var rulesByGroupKind = map[string]Rules{
	"admissionregistration.k8s.io/MutatingAdmissionPolicy":          {Generation: SpecGeneration},
	"admissionregistration.k8s.io/MutatingAdmissionPolicyBinding":   {Generation: SpecGeneration},
	"admissionregistration.k8s.io/MutatingWebhookConfiguration":     {Generation: WebhooksGeneration, ReflectEqual: true},
	"admissionregistration.k8s.io/ValidatingAdmissionPolicy":        {Generation: SpecGeneration, StatusReset: true},
	"admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding": {Generation: SpecGeneration},
	"admissionregistration.k8s.io/ValidatingWebhookConfiguration":   {Generation: WebhooksGeneration, ReflectEqual: true},
	"apiextensions.k8s.io/CustomResourceDefinition":                 {Generation: SpecGeneration, StatusReset: true},
	"apiregistration.k8s.io/APIService":                             {StatusReset: true},
	"apps/DaemonSet":                                                {Generation: SpecGeneration, StatusReset: true},
	"apps/Deployment":                                               {Generation: SpecOrAnnotationsGeneration, StatusReset: true},
	"apps/ReplicaSet":                                               {Generation: SpecGeneration, StatusReset: true},
	"apps/StatefulSet":                                              {Generation: SpecGeneration, StatusReset: true},
	"autoscaling/HorizontalPodAutoscaler":                           {Generation: SpecGeneration, StatusReset: true},
	"batch/CronJob":                                                 {Generation: SpecGeneration, StatusReset: true},
	"batch/Job":                                                     {Generation: SpecGeneration, StatusReset: true},
	"certificates.k8s.io/CertificateSigningRequest":                 {StatusReset: true, SpecFrozenOnUpdate: true},
	"certificates.k8s.io/PodCertificateRequest":                     {StatusReset: true},
	"discovery.k8s.io/EndpointSlice":                                {Generation: AllButMetadataGeneration},
	"flowcontrol.apiserver.k8s.io/FlowSchema":                       {Generation: SpecGeneration, StatusReset: true},
	"flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration":       {Generation: SpecGeneration, StatusReset: true},
	"networking.k8s.io/Ingress":                                     {Generation: SpecGeneration, StatusReset: true},
	"networking.k8s.io/IngressClass":                                {Generation: SpecGeneration},
	"networking.k8s.io/NetworkPolicy":                               {Generation: SpecGeneration, ReflectEqual: true},
	"networking.k8s.io/ServiceCIDR":                                 {StatusReset: true},
	"policy/PodDisruptionBudget":                                    {Generation: SpecGeneration, StatusReset: true},
	"resource.k8s.io/DeviceClass":                                   {Generation: SpecGeneration},
	"resource.k8s.io/DeviceTaintRule":                               {Generation: SpecGeneration, StatusReset: true},
	"resource.k8s.io/ResourceClaim":                                 {StatusReset: true},
	"resource.k8s.io/ResourceSlice":                                 {Generation: SpecGeneration},
	"scheduling.k8s.io/PriorityClass":                               {Generation: CreateOnlyGeneration},
	"storage.k8s.io/CSIDriver":                                      {Generation: UpdateSpecGeneration},
	"storage.k8s.io/CSINode":                                        {StatusReset: true},
	"storage.k8s.io/VolumeAttachment":                               {StatusReset: true},
	"storagemigration.k8s.io/StorageVersionMigration":               {StatusReset: true},
	"/Namespace":             {StatusReset: true},
	"/Node":                  {StatusReset: true, StatusKeptOnCreate: true},
	"/PersistentVolume":      {StatusReset: true},
	"/PersistentVolumeClaim": {StatusReset: true},
	"/Pod":                   {Generation: SpecGeneration, StatusReset: true},
	"/PodTemplate":           {Generation: TemplateGeneration},
	"/ReplicationController": {Generation: SpecGeneration, StatusReset: true},
	"/ResourceQuota":         {StatusReset: true},
	"/Service":               {StatusReset: true},
}

// RulesFor returns the registry rules of a built-in kind on the server cfg
// describes. Kinds without special rules (ConfigMap, Role, …) get the zero Rules.
func RulesFor(cfg *serverconfig.Config, apiVersion, kind string) Rules {
	gk := groupOf(apiVersion) + "/" + kind
	r := rulesByGroupKind[gk]
	switch gk {
	case "/Pod":
		// Kubernetes 1.33 gave pods a generation (PrepareForCreate sets 1, an update bumps
		// it: pkg/registry/core/pod/strategy.go); 1.32.13's strategy does not track it.
		if !cfg.AtLeast(33) {
			r.Generation = NoGeneration
		}
	case "autoscaling/HorizontalPodAutoscaler":
		// The strategy counts the generation only with gate HPAGeneration, new and on in
		// 1.37 (pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go).
		if !cfg.Enabled(features.HPAGeneration) {
			r.Generation = NoGeneration
		}
	case "certificates.k8s.io/ClusterTrustBundle":
		// Kubernetes 1.38 gave ClusterTrustBundle a generation: 1 on create, +1 when the
		// spec changes (pkg/registry/certificates/clustertrustbundle/strategy.go of
		// 1.38.0-beta.0; recorded: conformance/testdata/minors/1.38/served-clustertrustbundle-v1).
		if cfg.AtLeast(38) {
			r.Generation = SpecGeneration
		}
	case "storage.k8s.io/CSINode":
		// Kubernetes 1.37 gave CSINode a status and a /status subresource
		// (pkg/registry/storage/csinode in 1.37); before, the strategy has no status to reset.
		if !cfg.AtLeast(37) {
			r.StatusReset = false
		}
	case "networking.k8s.io/ServiceCIDR":
		// The main resource clears and keeps the status only with gate
		// ServiceCIDRStatusFieldWiping, new and on in 1.36: before, a create or update
		// through it stored the request's status (pkg/registry/networking/servicecidr/strategy.go
		// PrepareForCreate, PrepareForUpdate in 1.34, 1.35).
		if !cfg.Enabled(features.ServiceCIDRStatusFieldWiping) {
			r.StatusReset = false
		}
	}
	return r
}

func groupOf(apiVersion string) string {
	if i := strings.IndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i]
	}
	return ""
}

// createOnUpdate are the built-in kinds whose registry strategy allows a PUT to create a
// missing object (AllowCreateOnUpdate returns true in k8s.io/kubernetes pkg/registry at
// every supported minor); keyed by group and kind.
var createOnUpdate = map[string]bool{
	"/Endpoints": true, "/Event": true, "/LimitRange": true, "/Service": true,
	"events.k8s.io/Event":                          true,
	"coordination.k8s.io/Lease":                    true,
	"coordination.k8s.io/LeaseCandidate":           true,
	"node.k8s.io/RuntimeClass":                     true,
	"rbac.authorization.k8s.io/Role":               true,
	"rbac.authorization.k8s.io/ClusterRole":        true,
	"rbac.authorization.k8s.io/RoleBinding":        true,
	"rbac.authorization.k8s.io/ClusterRoleBinding": true,
}

// AllowCreateOnUpdate reports whether a PUT of a missing object of the kind creates it; a
// PUT of any other missing object is answered 404.
func AllowCreateOnUpdate(apiVersion, kind string) bool {
	return createOnUpdate[groupOf(apiVersion)+"/"+kind]
}
