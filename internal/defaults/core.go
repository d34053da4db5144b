package defaults

import (
	"regexp"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Defaulters of the core group (k8s.io/kubernetes pkg/apis/core/v1), ported
// to the encoded form. Each names the upstream function it follows.

// The core defaulters consult the feature gates ImageVolume and H2CContainerProbe, at
// the defaults of the minor defaulted (featureGates, generated per release).

// coreGatedDefaulters are the core defaulters that consult feature gates.
var coreGatedDefaulters = []named[gatedDefaulterFunc]{
	{"io.k8s.api.core.v1.Volume", defaultVolume},
	{"io.k8s.api.core.v1.Pod", defaultPod},
}

var coreDefaulters = []named[defaulterFunc]{
	{"io.k8s.api.core.v1.ResourceList", defaultResourceList},
	{"io.k8s.api.core.v1.ReplicationController", defaultReplicationController},
	{"io.k8s.api.core.v1.Container", defaultContainer},
	{"io.k8s.api.core.v1.EphemeralContainer", defaultContainer}, // SetDefaults_EphemeralContainer
	{"io.k8s.api.core.v1.Service", defaultService},
	{"io.k8s.api.core.v1.PodStatus", defaultPodStatus},
	{"io.k8s.api.core.v1.PodSpec", defaultPodSpec},
	{"io.k8s.api.core.v1.Probe", defaultProbe},
	{"io.k8s.api.core.v1.SecretVolumeSource", defaultMode(0o644)},
	{"io.k8s.api.core.v1.ConfigMapVolumeSource", defaultMode(0o644)},
	{"io.k8s.api.core.v1.DownwardAPIVolumeSource", defaultMode(0o644)},
	{"io.k8s.api.core.v1.ProjectedVolumeSource", defaultMode(0o644)},
	{"io.k8s.api.core.v1.Secret", defaultSecret},
	{"io.k8s.api.core.v1.ServiceAccountTokenProjection", defaultServiceAccountTokenProjection},
	{"io.k8s.api.core.v1.PersistentVolume", defaultPersistentVolume},
	{"io.k8s.api.core.v1.PersistentVolumeClaim", defaultPersistentVolumeClaim},
	{"io.k8s.api.core.v1.PersistentVolumeClaimSpec", defaultPersistentVolumeClaimSpec},
	{"io.k8s.api.core.v1.Endpoints", defaultEndpoints},
	{"io.k8s.api.core.v1.HTTPGetAction", defaultHTTPGetAction},
	{"io.k8s.api.core.v1.Namespace", defaultNamespace},
	{"io.k8s.api.core.v1.NamespaceStatus", defaultNamespaceStatus},
	{"io.k8s.api.core.v1.NodeStatus", defaultNodeStatus},
	{"io.k8s.api.core.v1.ObjectFieldSelector", defaultObjectFieldSelector},
	{"io.k8s.api.core.v1.LimitRangeItem", defaultLimitRangeItem},
	{"io.k8s.api.core.v1.ConfigMap", defaultConfigMap},
	{"io.k8s.api.core.v1.HostPathVolumeSource", defaultHostPathVolumeSource},
}

// defaultResourceList follows SetDefaults_ResourceList: every quantity is
// rounded up to milli precision.
func defaultResourceList(m map[string]any) {
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			continue
		}
		q, err := resource.ParseQuantity(s)
		if err != nil {
			continue
		}
		q.RoundUp(resource.Milli)
		m[k] = q.String()
	}
}

// defaultReplicationController follows SetDefaults_ReplicationController:
// selector and labels come from the template's labels when unset; an unset replicas is 1.
// Kubernetes 1.32's function sets replicas itself (1.32.13 pkg/apis/core/v1/defaults.go);
// from 1.33 the field's +default=1 marker does it (the table's marker), to the same value,
// so setting it here is the same at every minor.
func defaultReplicationController(m map[string]any) {
	spec := unstructured.EnsureObject(m, "spec")
	if v, ok := spec["replicas"]; !ok || v == nil {
		spec["replicas"] = int64(1)
	}
	labels := unstructured.NestedObject(spec, "template", "metadata")
	if labels == nil || labels["labels"] == nil {
		return
	}
	tl := unstructured.Object(labels, "labels")
	if unset(spec, "selector") {
		spec["selector"] = unstructured.DeepCopy(tl)
	}
	meta := unstructured.EnsureObject(m, "metadata")
	if unset(meta, "labels") {
		meta["labels"] = unstructured.DeepCopy(tl)
	}
}

// volumeSources are the JSON names of VolumeSource's pointer fields.
var volumeSources = []string{
	"hostPath", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "secret", "nfs", "iscsi",
	"glusterfs", "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "downwardAPI", "fc",
	"azureFile", "configMap", "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk", "projected",
	"portworxVolume", "scaleIO", "storageos", "csi", "ephemeral", "image",
}

// defaultVolume follows SetDefaults_Volume: a volume without a source is an
// emptyDir; an image volume's pull policy follows its tag.
func defaultVolume(g *featureGates, m map[string]any) {
	empty := true
	for _, k := range volumeSources {
		if m[k] != nil {
			empty = false
			break
		}
	}
	if empty {
		m["emptyDir"] = map[string]any{}
	}
	if img := unstructured.Object(m, "image"); g.imageVolume && img != nil && unset(img, "pullPolicy") {
		img["pullPolicy"] = pullPolicyFor(unstructured.Str(img, "reference"))
	}
}

// defaultContainer follows SetDefaults_Container.
func defaultContainer(m map[string]any) {
	if unset(m, "imagePullPolicy") {
		m["imagePullPolicy"] = pullPolicyFor(unstructured.Str(m, "image"))
	}
	setIfUnset(m, "terminationMessagePath", "/dev/termination-log")
	setIfUnset(m, "terminationMessagePolicy", "File")
}

// pullPolicyFor returns Always for images whose tag is (or defaults to)
// "latest", IfNotPresent otherwise and for images that do not parse.
func pullPolicyFor(image string) string {
	if imageTag(image) == "latest" {
		return "Always"
	}
	return "IfNotPresent"
}

// Image reference grammar (the distribution reference format that
// kube-apiserver parses images with), compiled on first use: the tag's {0,127} makes
// compiling it cost 0.5 ms, which a run without containers should not pay at start.
var (
	imageRefRegexp = lazyRegexp(`^((?:(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?/)?[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*)*)(?::([\w][\w.-]*))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]+))?$`)
	hexIDRegexp    = lazyRegexp(`^[a-f0-9]{64}$`)
	digestLengths  = map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}
	lowerHexRegexp = lazyRegexp(`^[a-f0-9]+$`)
)

func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// imageTag returns the tag an image reference resolves to ("latest" when it
// names neither tag nor digest), or "" when it has only a digest or does not
// parse.
func imageTag(image string) string {
	if tag, ok := plainImageTag(image); ok {
		return tag
	}
	if hexIDRegexp().MatchString(image) {
		return ""
	}
	mt := imageRefRegexp().FindStringSubmatch(image)
	if mt == nil || len(mt[1]) > 255 {
		return ""
	}
	// The repository path (after the domain, if any) must be lower case;
	// the grammar already requires it.
	tag, digest := mt[2], mt[3]
	// The grammar bounds a tag to 128 characters and a digest's hex to at least 32; both
	// are checked here rather than as counted repetitions in the expression, which made
	// compiling it most of a small run's defaulting (a tag can only be the text after
	// the last ':', so the capture is the same).
	if len(tag) > 128 {
		return ""
	}
	if digest != "" {
		alg, hex, _ := strings.Cut(digest, ":")
		if n, ok := digestLengths[alg]; !ok || len(hex) != n || !lowerHexRegexp().MatchString(hex) {
			return ""
		}
	}
	if tag == "" && digest == "" {
		return "latest"
	}
	return tag
}

// plainImageTag is imageTag of the references most images are written as, without the
// grammar's expression (compiling it is most of a small run's defaulting): a name of
// lower-case path components ([a-z0-9]+ joined by ".", "_", "__" or dashes) joined by "/",
// at most 255 characters, and an optional tag ([A-Za-z0-9_][A-Za-z0-9_.-]*, at most 128):
// every such reference matches the grammar with no domain, the tag being the text after
// the only ":". It reports false for any other text (a domain with a port or upper case, a
// digest, a 64-hex ID), which the expression then decides.
func plainImageTag(image string) (string, bool) {
	name, tag, tagged := strings.Cut(image, ":")
	if len(name) == 0 || len(name) > 255 || tagged && (len(tag) == 0 || len(tag) > 128) {
		return "", false
	}
	if len(image) == 64 && !tagged {
		return "", false // maybe a hex ID: the expression's check
	}
	for _, comp := range strings.Split(name, "/") {
		if !plainPathComponent(comp) {
			return "", false
		}
	}
	if !tagged {
		return "latest", true
	}
	for i := 0; i < len(tag); i++ {
		c := tag[i]
		word := c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !word && (i == 0 || c != '.' && c != '-') {
			return "", false
		}
	}
	return tag, true
}

// plainPathComponent reports a path component of the reference grammar:
// [a-z0-9]+ runs joined by ".", "_", "__" or one or more "-".
func plainPathComponent(s string) bool {
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
	if s == "" || !alnum(s[0]) || !alnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s); {
		if alnum(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && !alnum(s[j]) {
			j++
		}
		switch sep := s[i:j]; {
		case sep == "." || sep == "_" || sep == "__":
		case strings.Trim(sep, "-") == "":
		default:
			return false
		}
		i = j
	}
	return true
}

// defaultService follows SetDefaults_Service.
func defaultService(m map[string]any) {
	spec := unstructured.EnsureObject(m, "spec")
	setIfUnset(spec, "sessionAffinity", "None")
	switch unstructured.Str(spec, "sessionAffinity") {
	case "None":
		delete(spec, "sessionAffinityConfig")
	case "ClientIP":
		cfg := unstructured.Object(spec, "sessionAffinityConfig")
		cip := unstructured.Object(cfg, "clientIP")
		if cip == nil || isNil(cip, "timeoutSeconds") {
			spec["sessionAffinityConfig"] = map[string]any{"clientIP": map[string]any{"timeoutSeconds": int64(10800)}}
		}
	}
	setIfUnset(spec, "type", "ClusterIP")
	for _, p := range unstructured.Objects(spec, "ports") {
		setIfUnset(p, "protocol", "TCP")
		tp := p["targetPort"]
		if tp == nil || tp == "" || tp == int64(0) {
			port, _ := integer(p, "port")
			p["targetPort"] = port
		}
	}
	typ := unstructured.Str(spec, "type")
	external := typ == "LoadBalancer" || typ == "NodePort" || (typ == "ClusterIP" && len(unstructured.List(spec, "externalIPs")) > 0)
	if external {
		setIfUnset(spec, "externalTrafficPolicy", "Cluster")
	}
	if isNil(spec, "internalTrafficPolicy") && (typ == "NodePort" || typ == "LoadBalancer" || typ == "ClusterIP") {
		spec["internalTrafficPolicy"] = "Cluster"
	}
	if typ == "LoadBalancer" {
		setIfNil(spec, "allocateLoadBalancerNodePorts", true)
		for _, ing := range unstructured.Objects(unstructured.NestedObject(m, "status", "loadBalancer"), "ingress") {
			if !unset(ing, "ip") && isNil(ing, "ipMode") {
				ing["ipMode"] = "VIP"
			}
		}
	}
}

// defaultPod follows SetDefaults_Pod (with PodLevelResourcesFixDefaulting on,
// pod-level requests are defaulted by the registry, not here).
func defaultPod(g *featureGates, m map[string]any) {
	spec := unstructured.EnsureObject(m, "spec")
	if n, ok := integer(spec, "terminationGracePeriodSeconds"); ok && n < 0 {
		spec["terminationGracePeriodSeconds"] = int64(1)
	}
	for _, key := range []string{"containers", "initContainers"} {
		for _, c := range unstructured.Objects(spec, key) {
			res := unstructured.Object(c, "resources")
			limits := unstructured.Object(res, "limits")
			if res == nil || res["limits"] == nil {
				continue
			}
			req := unstructured.Object(res, "requests")
			if req == nil {
				req = map[string]any{}
				res["requests"] = req
			}
			for k, v := range limits {
				if _, ok := req[k]; !ok {
					req[k] = v
				}
			}
		}
	}
	setIfNil(spec, "enableServiceLinks", true)
	if b, _ := spec["hostNetwork"].(bool); b {
		for _, key := range []string{"containers", "initContainers"} {
			for _, c := range unstructured.Objects(spec, key) {
				for _, p := range unstructured.Objects(c, "ports") {
					if unset(p, "hostPort") {
						p["hostPort"] = p["containerPort"]
					}
				}
			}
		}
	}
	if g.h2cContainerProbe {
		for _, key := range []string{"containers", "initContainers", "ephemeralContainers"} {
			for _, c := range unstructured.Objects(spec, key) {
				for _, probe := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
					defaultHTTPGetProtocol(unstructured.NestedObject(c, probe, "httpGet"))
				}
				for _, hook := range []string{"postStart", "preStop"} {
					defaultHTTPGetProtocol(unstructured.NestedObject(c, "lifecycle", hook, "httpGet"))
				}
			}
		}
	}
}

func defaultHTTPGetProtocol(action map[string]any) {
	if action != nil {
		setIfNil(action, "protocol", "HTTP/1.1")
	}
}

// defaultPodStatus follows SetDefaults_PodStatus: podIP and podIPs agree,
// podIP winning.
func defaultPodStatus(m map[string]any) {
	ip := unstructured.Str(m, "podIP")
	ips := unstructured.Objects(m, "podIPs")
	switch {
	case ip != "" && len(unstructured.List(m, "podIPs")) == 0:
		m["podIPs"] = []any{map[string]any{"ip": ip}}
	case ip == "" && len(unstructured.List(m, "podIPs")) > 0:
		if len(ips) > 0 {
			m["podIP"] = unstructured.Str(ips[0], "ip")
		}
	case ip != "" && len(ips) > 0 && unstructured.Str(ips[0], "ip") != ip:
		m["podIPs"] = []any{map[string]any{"ip": ip}}
	}
}

// defaultPodSpec follows SetDefaults_PodSpec.
func defaultPodSpec(m map[string]any) {
	if unset(m, "serviceAccountName") {
		if sa := unstructured.Str(m, "serviceAccount"); sa != "" {
			m["serviceAccountName"] = sa
		}
	}
	if sa := unstructured.Str(m, "serviceAccountName"); sa != "" {
		m["serviceAccount"] = sa
	} else {
		delete(m, "serviceAccount")
	}
	setIfUnset(m, "dnsPolicy", "ClusterFirst")
	setIfUnset(m, "restartPolicy", "Always")
	setIfNil(m, "securityContext", map[string]any{})
	setIfNil(m, "terminationGracePeriodSeconds", int64(30))
	setIfUnset(m, "schedulerName", "default-scheduler")
}

// defaultProbe follows SetDefaults_Probe.
func defaultProbe(m map[string]any) {
	setIfUnset(m, "timeoutSeconds", int64(1))
	setIfUnset(m, "periodSeconds", int64(10))
	setIfUnset(m, "successThreshold", int64(1))
	setIfUnset(m, "failureThreshold", int64(3))
}

// defaultMode follows SetDefaults_{Secret,ConfigMap,DownwardAPI,Projected}VolumeSource.
func defaultMode(mode int64) defaulterFunc {
	return func(m map[string]any) { setIfNil(m, "defaultMode", mode) }
}

// defaultSecret follows SetDefaults_Secret.
func defaultSecret(m map[string]any) { setIfUnset(m, "type", "Opaque") }

// defaultServiceAccountTokenProjection follows SetDefaults_ServiceAccountTokenProjection.
func defaultServiceAccountTokenProjection(m map[string]any) {
	setIfNil(m, "expirationSeconds", int64(3600))
}

// defaultPersistentVolume follows SetDefaults_PersistentVolume.
func defaultPersistentVolume(m map[string]any) {
	setIfUnset(unstructured.EnsureObject(m, "status"), "phase", "Pending")
	spec := unstructured.EnsureObject(m, "spec")
	setIfUnset(spec, "persistentVolumeReclaimPolicy", "Retain")
	setIfNil(spec, "volumeMode", "Filesystem")
}

// defaultPersistentVolumeClaim follows SetDefaults_PersistentVolumeClaim.
func defaultPersistentVolumeClaim(m map[string]any) {
	setIfUnset(unstructured.EnsureObject(m, "status"), "phase", "Pending")
}

// defaultPersistentVolumeClaimSpec follows SetDefaults_PersistentVolumeClaimSpec.
func defaultPersistentVolumeClaimSpec(m map[string]any) {
	setIfNil(m, "volumeMode", "Filesystem")
}

// defaultEndpoints follows SetDefaults_Endpoints.
func defaultEndpoints(m map[string]any) {
	for _, ss := range unstructured.Objects(m, "subsets") {
		for _, p := range unstructured.Objects(ss, "ports") {
			setIfUnset(p, "protocol", "TCP")
		}
	}
}

// defaultHTTPGetAction follows SetDefaults_HTTPGetAction.
func defaultHTTPGetAction(m map[string]any) {
	setIfUnset(m, "path", "/")
	setIfUnset(m, "scheme", "HTTP")
}

// defaultNamespace follows SetDefaults_Namespace: the
// kubernetes.io/metadata.name label carries the name.
func defaultNamespace(m map[string]any) {
	meta := unstructured.EnsureObject(m, "metadata")
	name := unstructured.Str(meta, "name")
	if name == "" {
		return
	}
	unstructured.EnsureObject(meta, "labels")["kubernetes.io/metadata.name"] = name
}

// defaultNamespaceStatus follows SetDefaults_NamespaceStatus.
func defaultNamespaceStatus(m map[string]any) { setIfUnset(m, "phase", "Active") }

// defaultNodeStatus follows SetDefaults_NodeStatus.
func defaultNodeStatus(m map[string]any) {
	if isNil(m, "allocatable") && !isNil(m, "capacity") {
		m["allocatable"] = unstructured.DeepCopy(m["capacity"])
	}
}

// defaultObjectFieldSelector follows SetDefaults_ObjectFieldSelector.
func defaultObjectFieldSelector(m map[string]any) { setIfUnset(m, "apiVersion", "v1") }

// defaultLimitRangeItem follows SetDefaults_LimitRangeItem.
func defaultLimitRangeItem(m map[string]any) {
	if unstructured.Str(m, "type") != "Container" {
		return
	}
	def := unstructured.EnsureObject(m, "default")
	req := unstructured.EnsureObject(m, "defaultRequest")
	for k, v := range unstructured.Object(m, "max") {
		if _, ok := def[k]; !ok {
			def[k] = v
		}
	}
	for k, v := range def {
		if _, ok := req[k]; !ok {
			req[k] = v
		}
	}
	for k, v := range unstructured.Object(m, "min") {
		if _, ok := req[k]; !ok {
			req[k] = v
		}
	}
}

// defaultConfigMap follows SetDefaults_ConfigMap (an empty data map, which
// storage drops again).
func defaultConfigMap(m map[string]any) { setIfNil(m, "data", map[string]any{}) }

// defaultHostPathVolumeSource follows SetDefaults_HostPathVolumeSource.
func defaultHostPathVolumeSource(m map[string]any) { setIfNil(m, "type", "") }
