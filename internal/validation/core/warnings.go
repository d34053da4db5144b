package core

import (
	"fmt"
	"strings"
	"sync"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The warnings the server returns with an accepted write of a pod, a pod template, a
// persistent volume or claim: deprecated labels, annotations and volume plugins,
// ambiguous ports, overlapping paths, fractional byte values, unusual IP forms.

// deprecatedNodeLabels are the node labels whose use is warned about, with the warning.
var deprecatedNodeLabels = sync.OnceValue(func() map[string]string {
	return map[string]string{
		`beta.kubernetes.io/arch`:                       `deprecated since v1.14; use "kubernetes.io/arch" instead`,
		`beta.kubernetes.io/os`:                         `deprecated since v1.14; use "kubernetes.io/os" instead`,
		`failure-domain.beta.kubernetes.io/region`:      `deprecated since v1.17; use "topology.kubernetes.io/region" instead`,
		`failure-domain.beta.kubernetes.io/zone`:        `deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
		`beta.kubernetes.io/instance-type`:              `deprecated since v1.17; use "node.kubernetes.io/instance-type" instead`,
		`app.kubernetes.io/created-by`:                  `deprecated since v1.9`,
		`scheduler.alpha.kubernetes.io/preferAvoidPods`: `deprecated since v1.22; use Taints and Tolerations instead`,
		`node-role.kubernetes.io/master`:                `use "node-role.kubernetes.io/control-plane" instead`,
	}
})

// nodeSelectorTermWarnings: deprecated keys, and (for preferred terms) label values that
// could never match.
func nodeSelectorTermWarnings(term api.NodeSelectorTerm, checkValues bool, p *field.Path) []string {
	var w []string
	for i, e := range term.MatchExpressions {
		if msg, ok := deprecatedNodeLabels()[e.Key]; ok {
			w = append(w, fmt.Sprintf("%s: %s is %s", p.Child("matchExpressions").Index(i).Child("key"), e.Key, msg))
		}
		if checkValues {
			for j, v := range e.Values {
				for _, msg := range wellformed.IsValidLabelValue(v) {
					w = append(w, fmt.Sprintf("%s: %s is invalid, %s", p.Child("matchExpressions").Index(i).Child("values").Index(j), v, msg))
				}
			}
		}
	}
	return w
}

var deprecatedPodAnnotations = []struct{ key, message string }{
	{`scheduler.alpha.kubernetes.io/critical-pod`, `non-functional in v1.16+; use the "priorityClassName" field instead`},
	{`security.alpha.kubernetes.io/sysctls`, `non-functional in v1.11+; use the "sysctls" field instead`},
	{`security.alpha.kubernetes.io/unsafe-sysctls`, `non-functional in v1.11+; use the "sysctls" field instead`},
}

// volumeWarnings are the warnings of the server cfg for pod volume sources, by the
// source's path.
func volumeWarnings(cfg *serverconfig.Config, v *api.Volume, p *field.Path) []string {
	var w []string
	add := func(set bool, name, msg string) {
		if set {
			w = append(w, fmt.Sprintf("%s: %s", p.Child(name), msg))
		}
	}
	add(v.PhotonPersistentDisk != nil, "photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+")
	// Kubernetes 1.32 has no GitRepoVolumeDriver gate and says "deprecated in v1.11" alone.
	if cfg.Enabled(features.GitRepoVolumeDriver) || !cfg.AtLeast(33) {
		add(v.GitRepo != nil, "gitRepo", "deprecated in v1.11")
	} else {
		add(v.GitRepo != nil, "gitRepo", "deprecated in v1.11, and disabled by default in v1.33+")
	}
	add(v.ScaleIO != nil, "scaleIO", "deprecated in v1.16, non-functional in v1.22+")
	add(v.Flocker != nil, "flocker", "deprecated in v1.22, non-functional in v1.25+")
	add(v.StorageOS != nil, "storageOS", "deprecated in v1.22, non-functional in v1.25+")
	add(v.Quobyte != nil, "quobyte", "deprecated in v1.22, non-functional in v1.25+")
	add(v.Glusterfs != nil, "glusterfs", "deprecated in v1.25, non-functional in v1.26+")
	if v.Ephemeral != nil && v.Ephemeral.VolumeClaimTemplate != nil {
		w = append(w, claimSpecWarnings(p.Child("ephemeral").Child("volumeClaimTemplate").Child("spec"), &v.Ephemeral.VolumeClaimTemplate.Spec)...)
	}
	add(v.CephFS != nil, "cephfs", "deprecated in v1.28, non-functional in v1.31+")
	add(v.RBD != nil, "rbd", "deprecated in v1.28, non-functional in v1.31+")
	return w
}

func fractionalBytes(p *field.Path, list api.ResourceList, name api.ResourceName) []string {
	if v, ok := list[name]; ok && v.MilliValue()%1000 != 0 {
		return []string{fmt.Sprintf("%s: fractional byte value %q is invalid, must be an integer", p.Key(string(name)), v.String())}
	}
	return nil
}

// GetWarningsForPodTemplate are the warnings of the server cfg for a pod template at
// fldPath.
func GetWarningsForPodTemplate(cfg *serverconfig.Config, fldPath *field.Path, t, old *api.PodTemplateSpec) []string {
	if t == nil {
		return nil
	}
	return podSpecWarnings(cfg, fldPath, &t.Spec, &t.ObjectMeta)
}

// GetWarningsForPod are the warnings of the server cfg for a pod.
func GetWarningsForPod(cfg *serverconfig.Config, pod *api.Pod) []string {
	if pod == nil {
		return nil
	}
	return podSpecWarnings(cfg, nil, &pod.Spec, &pod.ObjectMeta)
}

// podSpecWarnings: fldPath is nil for a pod (paths start at "spec"), the template's path
// otherwise.
func podSpecWarnings(cfg *serverconfig.Config, fldPath *field.Path, spec *api.PodSpec, meta *metav1.ObjectMeta) []string {
	var w []string
	specPath, annotationsPath := fldPath.Child("spec"), fldPath.Child("metadata", "annotations")
	for k := range spec.NodeSelector {
		if msg, ok := deprecatedNodeLabels()[k]; ok {
			w = append(w, fmt.Sprintf("%s: %s", specPath.Child("nodeSelector").Key(k), msg))
		}
	}
	if spec.Affinity != nil && spec.Affinity.NodeAffinity != nil {
		n := spec.Affinity.NodeAffinity
		if n.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			p := specPath.Child("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
			for i, term := range n.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
				w = append(w, nodeSelectorTermWarnings(term, false, p.Index(i))...)
			}
		}
		p := specPath.Child("affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution")
		// Kubernetes 1.32 checks no preferred term's values (1.33.13 added checkLabelValue to
		// pkg/api/node GetWarningsForNodeSelectorTerm).
		for i, term := range n.PreferredDuringSchedulingIgnoredDuringExecution {
			w = append(w, nodeSelectorTermWarnings(term.Preference, cfg.AtLeast(33), p.Index(i).Child("preference"))...)
		}
	}
	for i, c := range spec.TopologySpreadConstraints {
		p := specPath.Child("topologySpreadConstraints").Index(i)
		if msg, ok := deprecatedNodeLabels()[c.TopologyKey]; ok {
			w = append(w, fmt.Sprintf("%s: %s is %s", p.Child("topologyKey"), c.TopologyKey, msg))
		}
		if c.LabelSelector == nil {
			w = append(w, fmt.Sprintf("%s: a null labelSelector results in matching no pod", p.Child("labelSelector")))
		}
	}
	for _, d := range deprecatedPodAnnotations {
		if _, ok := meta.Annotations[d.key]; ok {
			w = append(w, fmt.Sprintf("%s: %s", annotationsPath.Key(d.key), d.message))
		}
	}
	for i := range spec.Volumes {
		w = append(w, volumeWarnings(cfg, &spec.Volumes[i], specPath.Child("volumes").Index(i))...)
	}
	w = append(w, overlappingPathWarnings(spec.Volumes)...)
	if len(spec.HostAliases) > 1 {
		seen := sets.New[string]()
		for i, a := range spec.HostAliases {
			if seen.Has(a.IP) {
				w = append(w, fmt.Sprintf("%s: duplicate ip %q", specPath.Child("hostAliases").Index(i).Child("ip"), a.IP))
			} else {
				seen.Insert(a.IP)
			}
		}
	}
	if len(spec.ImagePullSecrets) > 1 {
		seen := sets.New[string]()
		for i, s := range spec.ImagePullSecrets {
			if seen.Has(s.Name) {
				w = append(w, fmt.Sprintf("%s: duplicate name %q", specPath.Child("imagePullSecrets").Index(i).Child("name"), s.Name))
			} else {
				seen.Insert(s.Name)
			}
		}
	}
	for i, s := range spec.ImagePullSecrets {
		if s.Name == "" {
			w = append(w, fmt.Sprintf("%s: invalid empty name %q", specPath.Child("imagePullSecrets").Index(i).Child("name"), s.Name))
		}
	}
	w = append(w, fractionalBytes(specPath.Child("overhead"), spec.Overhead, api.ResourceMemory)...)
	w = append(w, fractionalBytes(specPath.Child("overhead"), spec.Overhead, api.ResourceEphemeralStorage)...)
	if spec.SecurityContext == nil || spec.SecurityContext.SeccompProfile == nil {
		if _, ok := meta.Annotations[api.SeccompPodAnnotationKey]; ok {
			w = append(w, fmt.Sprintf(`%s: non-functional in v1.27+; use the "seccompProfile" field instead`, annotationsPath.Key(api.SeccompPodAnnotationKey)))
		}
	}
	var podAppArmor *api.AppArmorProfile
	if spec.SecurityContext != nil {
		podAppArmor = spec.SecurityContext.AppArmorProfile
	}
	visitContainers(spec, specPath, func(c *api.Container, p *field.Path) bool {
		if c.SecurityContext == nil || c.SecurityContext.SeccompProfile == nil {
			key := seccompContainerAnnotationKey + c.Name
			if _, ok := meta.Annotations[key]; ok {
				w = append(w, fmt.Sprintf(`%s: non-functional in v1.27+; use the "seccompProfile" field instead`, annotationsPath.Key(key)))
			}
		}
		// A pod's AppArmor annotations are warned about when the registry syncs them to the
		// fields; a template's here.
		if fldPath != nil && (c.SecurityContext == nil || c.SecurityContext.AppArmorProfile == nil) {
			key := api.DeprecatedAppArmorAnnotationKeyPrefix + c.Name
			if annotation, ok := meta.Annotations[key]; ok {
				if podAppArmor == nil || !equality.Semantic.DeepEqual(podAppArmor, appArmorFieldForAnnotation(annotation)) {
					w = append(w, fmt.Sprintf(`%s: deprecated since v1.30; use the "appArmorProfile" field instead`, annotationsPath.Key(key)))
				}
			}
		}
		w = append(w, fractionalBytes(p.Child("resources", "limits"), c.Resources.Limits, api.ResourceMemory)...)
		w = append(w, fractionalBytes(p.Child("resources", "requests"), c.Resources.Requests, api.ResourceMemory)...)
		w = append(w, fractionalBytes(p.Child("resources", "limits"), c.Resources.Limits, api.ResourceEphemeralStorage)...)
		w = append(w, fractionalBytes(p.Child("resources", "requests"), c.Resources.Requests, api.ResourceEphemeralStorage)...)
		if len(c.Env) > 1 {
			seen := sets.New[string]()
			for i, e := range c.Env {
				if !seen.Has(e.Name) {
					seen.Insert(e.Name)
					continue
				}
				ref := fmt.Sprintf("$(%s)", e.Name)
				if e.ValueFrom != nil || e.Value == ref || !strings.Contains(e.Value, ref) {
					w = append(w, fmt.Sprintf("%s: hides previous definition of %q, which may be dropped when using apply", p.Child("env").Index(i), e.Name))
				}
			}
		}
		return true
	})
	w = append(w, portWarnings(cfg, spec, specPath)...)
	if g := spec.TerminationGracePeriodSeconds; g != nil && *g < 0 {
		w = append(w, fmt.Sprintf("%s: must be >= 0; negative values are invalid and will be treated as 1", specPath.Child("terminationGracePeriodSeconds")))
	}
	if a := spec.Affinity; a != nil {
		for _, pa := range []struct {
			name      string
			required  []api.PodAffinityTerm
			preferred []api.WeightedPodAffinityTerm
		}{{"podAffinity", podAffinityRequired(a.PodAffinity), podAffinityPreferred(a.PodAffinity)}, {"podAntiAffinity", podAntiAffinityRequired(a.PodAntiAffinity), podAntiAffinityPreferred(a.PodAntiAffinity)}} {
			if (pa.name == "podAffinity" && a.PodAffinity == nil) || (pa.name == "podAntiAffinity" && a.PodAntiAffinity == nil) {
				continue
			}
			p := specPath.Child("affinity", pa.name)
			for i, t := range pa.required {
				if t.LabelSelector == nil {
					w = append(w, fmt.Sprintf("%s: a null labelSelector results in matching no pod", p.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i).Child("labelSelector")))
				}
			}
			for i, t := range pa.preferred {
				if t.PodAffinityTerm.LabelSelector == nil {
					w = append(w, fmt.Sprintf("%s: a null labelSelector results in matching no pod", p.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i).Child("podAffinityTerm", "labelSelector")))
				}
			}
		}
	}
	// Kubernetes 1.32: nameservers and host aliases are not warned of (1.33.13 added
	// GetWarningsForIP to pkg/api/pod/warnings.go).
	if spec.DNSConfig != nil && cfg.AtLeast(33) {
		for i, ns := range spec.DNSConfig.Nameservers {
			w = append(w, validation.GetWarningsForIP(specPath.Child("dnsConfig", "nameservers").Index(i), ns)...)
		}
	}
	for i, a := range spec.HostAliases {
		if !cfg.AtLeast(33) {
			break
		}
		w = append(w, validation.GetWarningsForIP(specPath.Child("hostAliases").Index(i).Child("ip"), a.IP)...)
	}
	return w
}

func podAffinityRequired(a *api.PodAffinity) []api.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func podAffinityPreferred(a *api.PodAffinity) []api.WeightedPodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.PreferredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityRequired(a *api.PodAntiAffinity) []api.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityPreferred(a *api.PodAntiAffinity) []api.WeightedPodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.PreferredDuringSchedulingIgnoredDuringExecution
}

// appArmorFieldForAnnotation is the profile field an AppArmor annotation stands for (nil
// for an unknown form).
func appArmorFieldForAnnotation(annotation string) *api.AppArmorProfile {
	switch {
	case annotation == api.DeprecatedAppArmorAnnotationValueUnconfined:
		return &api.AppArmorProfile{Type: api.AppArmorProfileTypeUnconfined}
	case annotation == api.DeprecatedAppArmorAnnotationValueRuntimeDefault:
		return &api.AppArmorProfile{Type: api.AppArmorProfileTypeRuntimeDefault}
	case strings.HasPrefix(annotation, api.DeprecatedAppArmorAnnotationValueLocalhostPrefix):
		profile := strings.TrimPrefix(annotation, api.DeprecatedAppArmorAnnotationValueLocalhostPrefix)
		if profile != "" {
			return &api.AppArmorProfile{Type: api.AppArmorProfileTypeLocalhost, LocalhostProfile: &profile}
		}
	}
	return nil
}

// portWarnings: hostIP without hostPort, ports defined twice or ambiguously across the
// containers, port names used twice.
func portWarnings(cfg *serverconfig.Config, spec *api.PodSpec, specPath *field.Path) []string {
	var w []string
	type block struct {
		path *field.Path
		port api.ContainerPort
	}
	byPort := map[string][]block{}
	visitContainers(spec, specPath, func(c *api.Container, p *field.Path) bool {
		for i, port := range c.Ports {
			pp := p.Child("ports").Index(i)
			if port.HostIP != "" && port.HostPort == 0 {
				w = append(w, fmt.Sprintf("%s: hostIP set without hostPort: %+v", pp, port))
			}
			k := fmt.Sprintf("%d/%s", port.ContainerPort, port.Protocol)
			for _, other := range byPort[k] {
				a, b := port.HostIP == "", other.port.HostIP == ""
				switch {
				case port.HostIP == other.port.HostIP && port.HostPort == other.port.HostPort:
					w = append(w, fmt.Sprintf("%s: duplicate port definition with %s", pp, other.path))
				case port.HostPort == 0 || other.port.HostPort == 0:
					w = append(w, fmt.Sprintf("%s: overlapping port definition with %s", pp, other.path))
				case port.HostPort == other.port.HostPort && (a || b) && !(a && b):
					w = append(w, fmt.Sprintf("%s: dangerously ambiguous port definition with %s", pp, other.path))
				}
			}
			byPort[k] = append(byPort[k], block{pp, port})
		}
		return true
	})
	// Kubernetes 1.32 warns of no port name used twice (1.33.13 added the check to
	// pkg/api/pod/warnings.go).
	if !cfg.AtLeast(33) {
		return w
	}
	names := map[string]*field.Path{}
	visitContainers(spec, specPath, func(c *api.Container, p *field.Path) bool {
		for i, port := range c.Ports {
			if port.Name == "" {
				continue
			}
			pp := p.Child("ports").Index(i)
			if other, ok := names[port.Name]; ok {
				w = append(w, fmt.Sprintf("%s: duplicate port name %q with %s, services and probes that select ports by name will use %s", pp, port.Name, other, other))
			} else {
				names[port.Name] = pp
			}
		}
		return true
	})
	return w
}

// pathSource is a path a volume writes and where it comes from.
type pathSource struct{ path, source string }

func (ps pathSource) String() string {
	if ps.source != "" {
		return fmt.Sprintf("%q (%s)", ps.path, ps.source)
	}
	return fmt.Sprintf("%q", ps.path)
}

func keyPaths(items []api.KeyToPath, source string) []pathSource {
	out := make([]pathSource, 0, len(items))
	for _, i := range items {
		out = append(out, pathSource{i.Path, source})
	}
	return out
}

func downwardPaths(items []api.DownwardAPIVolumeFile, source string) []pathSource {
	out := make([]pathSource, 0, len(items))
	for _, i := range items {
		out = append(out, pathSource{i.Path, source})
	}
	return out
}

// overlaps are the earlier paths equal to needle or one inside the other.
func overlaps(earlier []pathSource, needle pathSource) []pathSource {
	if needle.path == "" {
		return nil
	}
	var out []pathSource
	for _, e := range earlier {
		switch {
		case e.path == "":
		case e == needle,
			strings.HasPrefix(e.path+"/", needle.path+"/"),
			strings.HasPrefix(needle.path+"/", e.path+"/"):
			out = append(out, e)
		}
	}
	return out
}

func mappingOverlaps(paths []pathSource) []string {
	var w []string
	var seen []pathSource
	for _, ps := range paths {
		ps.path = strings.TrimRight(ps.path, "/")
		for _, c := range overlaps(seen, ps) {
			w = append(w, fmt.Sprintf("%s with %s", ps, c))
		}
		seen = append(seen, ps)
	}
	return w
}

// overlappingPathWarnings: within one volume, two items writing the same path or one
// inside the other.
func overlappingPathWarnings(volumes []api.Volume) []string {
	var w []string
	warn := func(volume, desc, body string) {
		w = append(w, fmt.Sprintf("volume %q (%s): overlapping paths: %s", volume, desc, body))
	}
	for _, v := range volumes {
		if v.ConfigMap != nil && v.ConfigMap.Items != nil {
			for _, o := range mappingOverlaps(keyPaths(v.ConfigMap.Items, "")) {
				warn(v.Name, fmt.Sprintf("ConfigMap %q", v.ConfigMap.Name), o)
			}
		}
		if v.Secret != nil && v.Secret.Items != nil {
			for _, o := range mappingOverlaps(keyPaths(v.Secret.Items, "")) {
				warn(v.Name, fmt.Sprintf("Secret %q", v.Secret.SecretName), o)
			}
		}
		if v.DownwardAPI != nil && v.DownwardAPI.Items != nil {
			for _, o := range mappingOverlaps(downwardPaths(v.DownwardAPI.Items, "")) {
				warn(v.Name, "DownwardAPI", o)
			}
		}
		if v.Projected == nil {
			continue
		}
		var all []pathSource
		for _, s := range v.Projected.Sources {
			if s == (api.VolumeProjection{}) {
				w = append(w, fmt.Sprintf("volume %q (Projected) has no sources provided", v.Name))
				continue
			}
			var paths []pathSource
			switch {
			case s.ConfigMap != nil && s.ConfigMap.Items != nil:
				paths = keyPaths(s.ConfigMap.Items, fmt.Sprintf("ConfigMap %q", s.ConfigMap.Name))
			case s.Secret != nil && s.Secret.Items != nil:
				paths = keyPaths(s.Secret.Items, fmt.Sprintf("Secret %q", s.Secret.Name))
			case s.DownwardAPI != nil && s.DownwardAPI.Items != nil:
				paths = downwardPaths(s.DownwardAPI.Items, "DownwardAPI")
			case s.ServiceAccountToken != nil:
				paths = []pathSource{{s.ServiceAccountToken.Path, "ServiceAccountToken"}}
			case s.ClusterTrustBundle != nil:
				name := ""
				if s.ClusterTrustBundle.Name != nil {
					name = *s.ClusterTrustBundle.Name
				} else if s.ClusterTrustBundle.SignerName != nil {
					name = *s.ClusterTrustBundle.SignerName
				}
				paths = []pathSource{{s.ClusterTrustBundle.Path, fmt.Sprintf("ClusterTrustBundle %q", name)}}
			case s.PodCertificate != nil:
				pc := s.PodCertificate
				for _, e := range []pathSource{{pc.CertificateChainPath, "PodCertificate chain"}, {pc.KeyPath, "PodCertificate key"}, {pc.CredentialBundlePath, "PodCertificate credential bundle"}} {
					if e.path != "" {
						paths = append(paths, e)
					}
				}
			}
			for _, ps := range paths {
				ps.path = strings.TrimRight(ps.path, "/")
				for _, c := range overlaps(all, ps) {
					warn(v.Name, "Projected", fmt.Sprintf("%s with %s", ps, c))
				}
				all = append(all, ps)
			}
		}
	}
	return w
}

// claimSpecWarnings: fractional byte values of a claim's storage request or limit.
func claimSpecWarnings(p *field.Path, spec *api.PersistentVolumeClaimSpec) []string {
	var w []string
	if v := spec.Resources.Requests[api.ResourceStorage]; v.MilliValue()%1000 != 0 {
		w = append(w, fmt.Sprintf("%s: fractional byte value %q is invalid, must be an integer", p.Child("resources").Child("requests").Key(string(api.ResourceStorage)), v.String()))
	}
	if v := spec.Resources.Limits[api.ResourceStorage]; v.MilliValue()%1000 != 0 {
		w = append(w, fmt.Sprintf("%s: fractional byte value %q is invalid, must be an integer", p.Child("resources").Child("limits").Key(string(api.ResourceStorage)), v.String()))
	}
	return w
}

// GetWarningsForPersistentVolumeClaim: the deprecated class annotation, fractional
// storage values.
func GetWarningsForPersistentVolumeClaim(pvc *api.PersistentVolumeClaim) []string {
	var w []string
	if _, ok := pvc.Annotations[api.BetaStorageClassAnnotation]; ok {
		w = append(w, fmt.Sprintf("%s: %s", field.NewPath("metadata", "annotations").Key(api.BetaStorageClassAnnotation), `deprecated since v1.8; use "storageClassName" attribute instead`))
	}
	return append(w, claimSpecWarnings(field.NewPath("spec"), &pvc.Spec)...)
}

// GetWarningsForPersistentVolume: deprecated annotations, the Recycle policy, deprecated
// node labels and volume plugins.
func GetWarningsForPersistentVolume(pv *api.PersistentVolume) []string {
	var w []string
	for _, d := range []struct{ key, message string }{
		{api.BetaStorageClassAnnotation, `deprecated since v1.8; use "storageClassName" attribute instead`},
		{api.MountOptionAnnotation, `deprecated since v1.31; use "mountOptions" attribute instead`},
	} {
		if _, ok := pv.Annotations[d.key]; ok {
			w = append(w, fmt.Sprintf("%s: %s", field.NewPath("metadata", "annotations").Key(d.key), d.message))
		}
	}
	spec := &pv.Spec
	if spec.PersistentVolumeReclaimPolicy == api.PersistentVolumeReclaimRecycle {
		w = append(w, "spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.")
	}
	if spec.NodeAffinity != nil && spec.NodeAffinity.Required != nil {
		p := field.NewPath("spec", "nodeAffinity", "required", "nodeSelectorTerms")
		for i, term := range spec.NodeAffinity.Required.NodeSelectorTerms {
			w = append(w, nodeSelectorTermWarnings(term, false, p.Index(i))...)
		}
	}
	add := func(set bool, name, msg string) {
		if set {
			w = append(w, fmt.Sprintf("spec.%s: %s", name, msg))
		}
	}
	add(spec.CephFS != nil, "cephfs", "deprecated in v1.28, non-functional in v1.31+")
	add(spec.PhotonPersistentDisk != nil, "photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+")
	add(spec.ScaleIO != nil, "scaleIO", "deprecated in v1.16, non-functional in v1.22+")
	add(spec.StorageOS != nil, "storageOS", "deprecated in v1.22, non-functional in v1.25+")
	add(spec.Glusterfs != nil, "glusterfs", "deprecated in v1.25, non-functional in v1.26+")
	add(spec.RBD != nil, "rbd", "deprecated in v1.28, non-functional in v1.31+")
	return w
}

// podWarningsOnCreate: a pod name that is not a DNS label, and the pod's warnings.
func podWarningsOnCreate(cfg *serverconfig.Config, pod *api.Pod) []string {
	var w []string
	if msgs := wellformed.IsDNS1123Label(pod.Name); len(msgs) != 0 {
		w = append(w, fmt.Sprintf("metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: %v", msgs))
	}
	return append(w, GetWarningsForPod(cfg, pod)...)
}

// podStatusWarnings: unusual forms of the pod's and host's IPs.
func podStatusWarnings(cfg *serverconfig.Config, obj any) []string {
	// Kubernetes 1.32: the pod status strategy warns of nothing (1.33.13 added
	// GetWarningsForIP to pkg/registry/core/pod/strategy.go).
	if !cfg.AtLeast(33) {
		return nil
	}
	pod := obj.(*api.Pod)
	var w []string
	for i, ip := range pod.Status.PodIPs {
		w = append(w, validation.GetWarningsForIP(field.NewPath("status", "podIPs").Index(i).Child("ip"), ip.IP)...)
	}
	for i, ip := range pod.Status.HostIPs {
		w = append(w, validation.GetWarningsForIP(field.NewPath("status", "hostIPs").Index(i).Child("ip"), ip.IP)...)
	}
	return w
}

func podTemplateWarningsOnCreate(cfg *serverconfig.Config, t *api.PodTemplate) []string {
	return GetWarningsForPodTemplate(cfg, field.NewPath("template"), &t.Template, nil)
}

// podTemplateWarningsOnUpdate: the template's warnings when its generation moved.
func podTemplateWarningsOnUpdate(cfg *serverconfig.Config, t, o *api.PodTemplate) []string {
	if t.Generation == o.Generation {
		return nil
	}
	return GetWarningsForPodTemplate(cfg, field.NewPath("template"), &t.Template, &o.Template)
}

func replicationControllerWarningsOnCreate(cfg *serverconfig.Config, rc *api.ReplicationController) []string {
	var w []string
	if msgs := wellformed.IsDNS1123Label(rc.Name); len(msgs) != 0 {
		w = append(w, fmt.Sprintf("metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: %v", msgs))
	}
	return append(w, GetWarningsForPodTemplate(cfg, field.NewPath("spec", "template"), rc.Spec.Template, nil)...)
}

// replicationControllerWarningsOnUpdate: when the generation moved, the warnings of the
// stored controller's template (the server passes the old one).
func replicationControllerWarningsOnUpdate(cfg *serverconfig.Config, rc, o *api.ReplicationController) []string {
	if rc.Generation == o.Generation {
		return nil
	}
	return GetWarningsForPodTemplate(cfg, field.NewPath("spec", "template"), o.Spec.Template, rc.Spec.Template)
}
