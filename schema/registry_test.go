package schema

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema/builtin"
)

// TestBuiltinElementRelationships pins the element relationships of the
// embedded schema that decide field ownership on a real cluster.
func TestBuiltinElementRelationships(t *testing.T) {
	r := MustNewRegistry(kube.Default())
	deploy := mustLookup(t, r, "apps/v1", "Deployment")
	pod := []string{"spec", "template", "spec"}
	container := append(slices.Clone(pod), "containers", "[]")

	type listWant struct {
		path []string
		rel  smdschema.ElementRelationship
		keys []string
	}
	for _, tc := range []struct {
		typ  *Type
		name string
		want listWant
	}{
		{deploy, "containers keyed by name", listWant{append(slices.Clone(pod), "containers"), smdschema.Associative, []string{"name"}}},
		{deploy, "initContainers keyed by name", listWant{append(slices.Clone(pod), "initContainers"), smdschema.Associative, []string{"name"}}},
		{deploy, "container ports keyed by containerPort+protocol", listWant{append(slices.Clone(container), "ports"), smdschema.Associative, []string{"containerPort", "protocol"}}},
		{deploy, "env keyed by name", listWant{append(slices.Clone(container), "env"), smdschema.Associative, []string{"name"}}},
		{deploy, "volumes keyed by name", listWant{append(slices.Clone(pod), "volumes"), smdschema.Associative, []string{"name"}}},
		{deploy, "args atomic", listWant{append(slices.Clone(container), "args"), smdschema.Atomic, nil}},
		{deploy, "command atomic", listWant{append(slices.Clone(container), "command"), smdschema.Atomic, nil}},
		{deploy, "tolerations atomic", listWant{append(slices.Clone(pod), "tolerations"), smdschema.Atomic, nil}},
		{deploy, "imagePullSecrets keyed by name", listWant{append(slices.Clone(pod), "imagePullSecrets"), smdschema.Associative, []string{"name"}}},
		{deploy, "finalizers a set", listWant{[]string{"metadata", "finalizers"}, smdschema.Associative, nil}},
		{deploy, "ownerReferences keyed by uid", listWant{[]string{"metadata", "ownerReferences"}, smdschema.Associative, []string{"uid"}}},
		{mustLookup(t, r, "v1", "Service"), "service ports keyed by port+protocol", listWant{[]string{"spec", "ports"}, smdschema.Associative, []string{"port", "protocol"}}},
		{mustLookup(t, r, "networking.k8s.io/v1", "Ingress"), "ingress rules atomic", listWant{[]string{"spec", "rules"}, smdschema.Atomic, nil}},
		{mustLookup(t, r, "networking.k8s.io/v1", "NetworkPolicy"), "network policy ingress atomic", listWant{[]string{"spec", "ingress"}, smdschema.Atomic, nil}},
		{mustLookup(t, r, "rbac.authorization.k8s.io/v1", "Role"), "role rules atomic", listWant{[]string{"rules"}, smdschema.Atomic, nil}},
		{mustLookup(t, r, "autoscaling/v2", "HorizontalPodAutoscaler"), "hpa metrics atomic", listWant{[]string{"spec", "metrics"}, smdschema.Atomic, nil}},
		{mustLookup(t, r, "apps/v1", "StatefulSet"), "volumeClaimTemplates atomic", listWant{[]string{"spec", "volumeClaimTemplates"}, smdschema.Atomic, nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := atomAt(t, tc.typ, tc.want.path...)
			if a.List == nil {
				t.Fatalf("not a list")
			}
			if a.List.ElementRelationship != tc.want.rel || !reflect.DeepEqual(a.List.Keys, tc.want.keys) {
				t.Errorf("got %s keyed by %v, want %s keyed by %v", a.List.ElementRelationship, a.List.Keys, tc.want.rel, tc.want.keys)
			}
		})
	}

	// Maps and structs.
	for _, tc := range []struct {
		name string
		typ  *Type
		path []string
		rel  smdschema.ElementRelationship // "" and separable are both granular
	}{
		{"labels granular", deploy, []string{"metadata", "labels"}, ""},
		{"annotations granular", deploy, []string{"metadata", "annotations"}, ""},
		{"resources.limits granular", deploy, append(slices.Clone(container), "resources", "limits"), ""},
		{"deployment selector atomic", deploy, []string{"spec", "selector"}, smdschema.Atomic},
		{"service selector atomic", mustLookup(t, r, "v1", "Service"), []string{"spec", "selector"}, smdschema.Atomic},
		{"nodeSelector atomic", deploy, append(slices.Clone(pod), "nodeSelector"), smdschema.Atomic},
		{"imagePullSecrets items atomic", deploy, append(slices.Clone(pod), "imagePullSecrets", "[]"), smdschema.Atomic},
		{"configmap data granular", mustLookup(t, r, "v1", "ConfigMap"), []string{"data"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := atomAt(t, tc.typ, tc.path...)
			if a.Map == nil {
				t.Fatalf("not a map")
			}
			if a.Map.ElementRelationship != tc.rel {
				t.Errorf("got %q, want %q", a.Map.ElementRelationship, tc.rel)
			}
		})
	}

	// Key defaults make an item that omits the key the same item.
	if got := fieldDefault(t, deploy, "protocol", append(slices.Clone(container), "ports", "[]")...); got != "TCP" {
		t.Errorf("container port protocol default = %#v, want TCP", got)
	}
	if got := fieldDefault(t, mustLookup(t, r, "v1", "Service"), "protocol", "spec", "ports", "[]"); got != "TCP" {
		t.Errorf("service port protocol default = %#v, want TCP", got)
	}
	if got := fieldDefault(t, deploy, "name", append(slices.Clone(container), "env", "[]")...); got != "" {
		t.Errorf("env name default = %#v, want the empty string", got)
	}
	// maxSurge is an int-or-string: an untyped scalar.
	if a := atomAt(t, deploy, "spec", "strategy", "rollingUpdate", "maxSurge"); a.Scalar == nil || *a.Scalar != smdschema.Untyped {
		t.Errorf("maxSurge is %+v, want an untyped scalar", a)
	}
}

// TestBuiltinFieldSets checks ownership through SMD itself: the field set
// of a Deployment shows which parts are keyed, atomic and granular.
func TestBuiltinFieldSets(t *testing.T) {
	r := MustNewRegistry(kube.Default())
	deploy := mustLookup(t, r, "apps/v1", "Deployment")
	obj := fromYAML(t, `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, tier: front}
  finalizers: [example.com/cleanup]
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: owner, uid: 6f1a7e3c-0000-4000-8000-000000000001}
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      imagePullSecrets: [{name: registry}]
      tolerations: [{key: dedicated, operator: Exists}]
      containers:
      - name: app
        image: nginx:1.27
        args: [--port, "8080"]
        ports:
        - containerPort: 8080
        - containerPort: 8080
          protocol: UDP
`)
	tv, err := deploy.Parseable.FromUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	set, err := tv.ToFieldSet()
	if err != nil {
		t.Fatal(err)
	}
	got := fieldSetPaths(set)
	for _, want := range []string{
		`.metadata.labels.app`,
		`.metadata.finalizers[="example.com/cleanup"]`,
		`.metadata.ownerReferences[uid="6f1a7e3c-0000-4000-8000-000000000001"]`,
		`.spec.selector`,
		`.spec.template.spec.imagePullSecrets[name="registry"]`,
		`.spec.template.spec.tolerations`,
		`.spec.template.spec.containers[name="app"].args`,
		// protocol omitted: keyed with the schema default TCP.
		`.spec.template.spec.containers[name="app"].ports[containerPort=8080,protocol="TCP"]`,
		`.spec.template.spec.containers[name="app"].ports[containerPort=8080,protocol="UDP"]`,
	} {
		if !slices.Contains(got, want) {
			t.Errorf("field set lacks %s", want)
		}
	}
	for _, atomic := range []string{
		`.spec.selector.matchLabels`,
		`.spec.template.spec.tolerations[0]`,
		`.spec.template.spec.imagePullSecrets[name="registry"].name`,
		`.spec.template.spec.containers[name="app"].args[0]`,
	} {
		for _, p := range got {
			if strings.HasPrefix(p, atomic) {
				t.Errorf("field set has %s below the atomic %s", p, atomic)
			}
		}
	}
}

// TestBuiltinKindsIndexed checks the index against the embedded schema.
func TestBuiltinKindsIndexed(t *testing.T) {
	r := MustNewRegistry(kube.Default())
	gvks := r.GVKs()
	if len(gvks) != 153 {
		t.Errorf("%d built-in GVKs, want 153", len(gvks))
	}
	for _, gvk := range gvks {
		typ, _ := r.Lookup(gvk)
		if !typ.Parseable.IsValid() {
			t.Errorf("%v: type %s does not resolve", gvk, *typ.Parseable.TypeRef.NamedType)
		}
		if typ.Source != SourceBuiltin || typ.Default != nil || typ.Deduced {
			t.Errorf("%v: source %s, default %v, deduced %v", gvk, typ.Source, typ.Default != nil, typ.Deduced)
		}
		// The empty object of every kind converts.
		if _, err := typ.Parseable.FromUnstructured(map[string]any{"apiVersion": gvk.APIVersion(), "kind": gvk.Kind}); err != nil {
			t.Errorf("%v: %v", gvk, err)
		}
	}
	for _, tc := range []struct {
		apiVersion, kind, resource string
		namespaced, status         bool
		scale                      bool
	}{
		{"v1", "Pod", "pods", true, true, false},
		{"v1", "Namespace", "namespaces", false, true, false},
		{"v1", "Node", "nodes", false, true, false},
		{"v1", "PersistentVolume", "persistentvolumes", false, true, false},
		{"v1", "ComponentStatus", "componentstatuses", false, false, false},
		{"v1", "Endpoints", "endpoints", true, false, false},
		{"v1", "ReplicationController", "replicationcontrollers", true, true, true},
		{"apps/v1", "Deployment", "deployments", true, true, true},
		{"apps/v1", "ReplicaSet", "replicasets", true, true, true},
		{"apps/v1", "StatefulSet", "statefulsets", true, true, true},
		{"apps/v1", "DaemonSet", "daemonsets", true, true, false},
		{"batch/v1", "CronJob", "cronjobs", true, true, false},
		{"networking.k8s.io/v1", "Ingress", "ingresses", true, true, false},
		{"networking.k8s.io/v1", "NetworkPolicy", "networkpolicies", true, false, false},
		{"networking.k8s.io/v1", "IngressClass", "ingressclasses", false, false, false},
		{"networking.k8s.io/v1", "IPAddress", "ipaddresses", false, false, false},
		{"networking.k8s.io/v1", "ServiceCIDR", "servicecidrs", false, true, false},
		{"rbac.authorization.k8s.io/v1", "ClusterRole", "clusterroles", false, false, false},
		{"rbac.authorization.k8s.io/v1", "RoleBinding", "rolebindings", true, false, false},
		{"storage.k8s.io/v1", "StorageClass", "storageclasses", false, false, false},
		{"storage.k8s.io/v1", "CSIDriver", "csidrivers", false, false, false},
		{"storage.k8s.io/v1", "VolumeAttachment", "volumeattachments", false, true, false},
		{"storage.k8s.io/v1", "VolumeAttributesClass", "volumeattributesclasses", false, false, false},
		{"storage.k8s.io/v1", "CSIStorageCapacity", "csistoragecapacities", true, false, false},
		{"scheduling.k8s.io/v1", "PriorityClass", "priorityclasses", false, false, false},
		{"node.k8s.io/v1", "RuntimeClass", "runtimeclasses", false, false, false},
		{"certificates.k8s.io/v1", "CertificateSigningRequest", "certificatesigningrequests", false, true, false},
		{"flowcontrol.apiserver.k8s.io/v1", "FlowSchema", "flowschemas", false, true, false},
		{"admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations", false, false, false},
		{"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "validatingadmissionpolicies", false, true, false},
		{"admissionregistration.k8s.io/v1", "MutatingAdmissionPolicyBinding", "mutatingadmissionpolicybindings", false, false, false},
		{"resource.k8s.io/v1", "DeviceClass", "deviceclasses", false, false, false},
		{"resource.k8s.io/v1", "ResourceSlice", "resourceslices", false, false, false},
		{"resource.k8s.io/v1", "ResourceClaim", "resourceclaims", true, true, false},
		{"internal.apiserver.k8s.io/v1alpha1", "StorageVersion", "storageversions", false, true, false},
		{"storagemigration.k8s.io/v1beta1", "StorageVersionMigration", "storageversionmigrations", false, true, false},
		{"policy/v1", "PodDisruptionBudget", "poddisruptionbudgets", true, true, false},
		{"autoscaling/v1", "HorizontalPodAutoscaler", "horizontalpodautoscalers", true, true, false},
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", "customresourcedefinitions", false, true, false},
		{"apiregistration.k8s.io/v1", "APIService", "apiservices", false, true, false},
	} {
		typ := mustLookup(t, r, tc.apiVersion, tc.kind)
		if typ.Resource != tc.resource || typ.Namespaced != tc.namespaced || typ.Status != tc.status || (typ.Scale != nil) != tc.scale {
			t.Errorf("%s %s: got %s namespaced=%t status=%t scale=%t", tc.apiVersion, tc.kind, typ.Resource, typ.Namespaced, typ.Status, typ.Scale != nil)
		}
	}
	if s := mustLookup(t, r, "apps/v1", "Deployment").Scale; *s != (ScaleSubresource{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas"}) {
		t.Errorf("Deployment scale = %+v", *s)
	}
}

func TestVersionsAndResolve(t *testing.T) {
	r := MustNewRegistry(kube.Default())
	got := r.Versions("autoscaling", "HorizontalPodAutoscaler")
	want := []GVK{{"autoscaling", "v2", "HorizontalPodAutoscaler"}, {"autoscaling", "v1", "HorizontalPodAutoscaler"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Versions = %v, want %v", got, want)
	}
	var vs []string
	for _, g := range r.Versions("flowcontrol.apiserver.k8s.io", "FlowSchema") {
		vs = append(vs, g.Version)
	}
	if strings.Join(vs, ",") != "v1,v1beta3,v1beta2,v1beta1" {
		t.Errorf("FlowSchema versions %v", vs)
	}

	// Exact lookups only.
	if _, ok := r.Lookup(GVK{"apps", "v1beta3", "Deployment"}); ok {
		t.Error("apps/v1beta3 Deployment found")
	}
	typ, warnings := r.Resolve(GVK{"apps", "v1", "Deployment"})
	if typ.Source != SourceBuiltin || len(warnings) != 0 {
		t.Errorf("Resolve of a known kind: %s %v", typ.Source, warnings)
	}
	typ, warnings = r.Resolve(GVK{"example.com", "v1", "Widget"})
	if typ.Source != SourceDeduced || !typ.Deduced || len(warnings) != 1 {
		t.Fatalf("Resolve of an unknown kind: %+v %v", typ, warnings)
	}
	for _, want := range []string{"example.com/v1, Kind=Widget", "deduced", "every list is atomic", "CustomResourceDefinition"} {
		if !strings.Contains(warnings[0], want) {
			t.Errorf("warning %q lacks %q", warnings[0], want)
		}
	}
	// The deduced type makes lists atomic.
	tv, err := typ.Parseable.FromUnstructured(map[string]any{"spec": map[string]any{"items": []any{map[string]any{"a": int64(1)}}}})
	if err != nil {
		t.Fatal(err)
	}
	set, _ := tv.ToFieldSet()
	if got := fieldSetPaths(set); !reflect.DeepEqual(got, []string{".spec", ".spec.items"}) {
		t.Errorf("deduced field set %v", got)
	}
	_, warnings = r.Resolve(GVK{"apps", "v1beta3", "Deployment"})
	if len(warnings) != 1 || !strings.Contains(warnings[0], "known versions of Deployment: v1, v1beta2, v1beta1") {
		t.Errorf("warning for an unknown version: %v", warnings)
	}
}

func TestGVK(t *testing.T) {
	for _, tc := range []struct {
		apiVersion, kind string
		want             GVK
		str, av          string
	}{
		{"v1", "Pod", GVK{"", "v1", "Pod"}, "/v1, Kind=Pod", "v1"},
		{"apps/v1", "Deployment", GVK{"apps", "v1", "Deployment"}, "apps/v1, Kind=Deployment", "apps/v1"},
		{"a/b/c", "X", GVK{Kind: "X"}, "/, Kind=X", ""},
		{"", "X", GVK{Kind: "X"}, "/, Kind=X", ""},
	} {
		got := GVKFromAPIVersionKind(tc.apiVersion, tc.kind)
		if got != tc.want || got.String() != tc.str || got.APIVersion() != tc.av {
			t.Errorf("%q %q: %+v %q %q", tc.apiVersion, tc.kind, got, got.String(), got.APIVersion())
		}
	}
	versions := []string{"v1alpha1", "foo", "v1beta2", "v2", "v10", "v1", "v2beta1", "v1beta1", "bar", "v11alpha2", "v0"}
	slices.SortFunc(versions, compareVersions)
	if got := strings.Join(versions, ","); got != "v10,v2,v1,v2beta1,v1beta2,v1beta1,v11alpha2,v1alpha1,bar,foo,v0" {
		t.Errorf("version order %s", got)
	}
}

// TestConcurrentLookup runs lookups and conversions in parallel (run with
// -race).
func TestConcurrentLookup(t *testing.T) {
	r := MustNewRegistry(kube.Default())
	if err := r.AddCRD("crds.yaml", readTestdata(t, "crds/postgresclusters.yaml")); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, gvk := range []GVK{{"apps", "v1", "Deployment"}, {"db.example.com", "v1", "PostgresCluster"}} {
				typ, _ := r.Resolve(gvk)
				if r.Serving(gvk) != Served || len(r.Versions(gvk.Group, gvk.Kind)) == 0 || r.BuiltinGroup(gvk.Group) != (gvk.Group == "apps") {
					t.Errorf("%v: serving, versions or group wrong", gvk)
				}
				obj := map[string]any{"apiVersion": gvk.APIVersion(), "kind": gvk.Kind, "metadata": map[string]any{"name": "x", "labels": map[string]any{"a": "b"}}}
				if _, err := typ.Parseable.FromUnstructured(obj); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
}

// TestSearchRemembersBounded: the registry remembers the kind table's answers up to
// maxSearched questions, and answers the same past them.
func TestSearchRemembersBounded(t *testing.T) {
	r := MustNewRegistry(kube.Default())
	for i := range maxSearched + 50 {
		gvk := GVK{Group: "apps", Version: fmt.Sprintf("v%d", i+2), Kind: "Deployment"}
		if _, ok := r.Lookup(gvk); ok {
			t.Fatalf("%v found", gvk)
		}
		if _, ok := r.Lookup(GVK{Group: "apps", Version: "v1", Kind: "Deployment"}); !ok {
			t.Fatalf("apps/v1 Deployment not found after %d questions", i)
		}
	}
	if n := len(*r.searched.Load()); n != maxSearched {
		t.Errorf("%d answers remembered, want %d", n, maxSearched)
	}
}

func BenchmarkNewRegistry(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		MustNewRegistry(kube.Default())
	}
}

// BenchmarkFirstConversion measures a fresh registry plus the first typed
// conversion, which builds SMD's lookup caches: what one CLI run pays.
func BenchmarkFirstConversion(b *testing.B) {
	obj := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "x"},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "a", "image": "b"}}}}}}
	b.ReportAllocs()
	for b.Loop() {
		r := MustNewRegistry(kube.Default())
		typ, _ := r.Lookup(GVK{"apps", "v1", "Deployment"})
		if _, err := typ.Parseable.FromUnstructured(obj); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVersions is what listing one kind's versions costs, which the engine asks once
// per request (the reset fields of every version, other managers' entries).
func BenchmarkVersions(b *testing.B) {
	r := MustNewRegistry(kube.Default())
	b.ReportAllocs()
	for b.Loop() {
		if len(r.Versions("autoscaling", "HorizontalPodAutoscaler")) != 2 {
			b.Fatal("versions")
		}
	}
}

// TestVersionsFromTheRelease: the registry answers a built-in kind's versions (Versions),
// its GVKs and what it serves from the release's kind table as an index of the release's
// kind list does, at every minor; adding a kind's versions puts them among the kind's.
func TestVersionsFromTheRelease(t *testing.T) {
	for _, v := range kube.Minors() {
		r := MustNewRegistry(v)
		want := map[groupKind][]GVK{}
		var all []GVK
		for _, k := range builtinRelease(t, r).Kinds() {
			gvk := GVK{Group: k.Group, Version: k.Version, Kind: k.Kind}
			want[groupKind{k.Group, k.Kind}] = append(want[groupKind{k.Group, k.Kind}], gvk)
			all = append(all, gvk)
			typ, ok := r.Lookup(gvk)
			if !ok || typ.Resource != k.Resource || typ.Namespaced != k.Namespaced || typ.Status != k.Status || (typ.Scale != nil) != k.Scale ||
				typ.Served != (k.Resource != "" && ServedByDefault(k.Version)) || *typ.Parseable.TypeRef.NamedType != k.TypeName {
				t.Errorf("%s: %v: %+v", v, gvk, typ)
			}
			if s := r.Serving(gvk); (s == Served) != typ.Served || s == ServingUnknown {
				t.Errorf("%s: %v serving %v, its Type served %t", v, gvk, s, typ.Served)
			}
		}
		if len(want) == 0 {
			t.Errorf("%s: no kinds", v)
		}
		for gk, vs := range want {
			slices.SortFunc(vs, func(a, b GVK) int { return compareVersions(a.Version, b.Version) })
			if got := r.Versions(gk.group, gk.kind); !reflect.DeepEqual(got, vs) {
				t.Errorf("%s: versions of %v: %v, want %v", v, gk, got, vs)
			}
		}
		if got := r.GVKs(); len(got) != len(all) {
			t.Errorf("%s: %d GVKs, the release has %d", v, len(got), len(all))
		}
	}
	r := MustNewRegistry(kube.Default())
	r.put([]*Type{{GVK: GVK{Group: "apps", Version: "v2", Kind: "Deployment"}, Source: SourceOpenAPIV3, Served: true}})
	got := r.Versions("apps", "Deployment")
	if want := []GVK{{"apps", "v2", "Deployment"}, {"apps", "v1", "Deployment"}, {"apps", "v1beta2", "Deployment"}, {"apps", "v1beta1", "Deployment"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("after adding apps/v2: %v, want %v", got, want)
	}
	if n := len(r.GVKs()); n != len(MustNewRegistry(kube.Default()).GVKs())+1 {
		t.Errorf("after adding apps/v2: %d GVKs", n)
	}
}

// TestKindSchemaMadeWhenFirstAsked: a new registry makes no built-in kind's schema; looking
// a kind up makes the schema of that kind alone, shared by its versions, holding the types
// its versions reach and no others; a second lookup answers the same Type.
func TestKindSchemaMadeWhenFirstAsked(t *testing.T) {
	r := MustNewRegistry(kube.Default())
	made := func() map[*smdschema.Schema][]string {
		out := map[*smdschema.Schema][]string{}
		for i := range r.builtins {
			if ks := r.builtins[i].schema.Load(); ks != nil && ks.schema != nil {
				out[ks.schema] = append(out[ks.schema], ks.names...)
			}
		}
		return out
	}
	if m := made(); len(m) != 0 {
		t.Fatalf("a new registry made %d kinds' schemas: %v", len(m), m)
	}
	deploy := mustLookup(t, r, "apps/v1", "Deployment")
	if again := mustLookup(t, r, "apps/v1", "Deployment"); again != deploy {
		t.Error("a second lookup answers another Type")
	}
	if deploy.Parseable.Schema == nil || *deploy.Parseable.TypeRef.NamedType != "io.k8s.api.apps.v1.Deployment" {
		t.Fatalf("the Deployment handed out is not made: %+v", deploy.Parseable)
	}
	m := made()
	if len(m) != 1 || len(m[deploy.Parseable.Schema]) != len(r.Versions("apps", "Deployment")) {
		t.Fatalf("after one lookup, schemas made for %v", m)
	}
	if beta := mustLookup(t, r, "apps/v1beta2", "Deployment"); beta.Parseable.Schema != deploy.Parseable.Schema {
		t.Error("a kind's versions have schemas of their own")
	}
	whole := builtinRelease(t, r).NewSchema()
	types := deploy.Parseable.Schema.Types
	if len(types) == 0 || len(types) > len(whole.Types)/4 {
		t.Fatalf("the Deployment's schema has %d of the release's %d types", len(types), len(whole.Types))
	}
	for _, td := range types {
		if _, ok := whole.FindNamedType(td.Name); !ok {
			t.Errorf("%s is not a type of the release", td.Name)
		}
	}
	if _, ok := deploy.Parseable.Schema.FindNamedType("io.k8s.api.core.v1.Service"); ok {
		t.Error("the Deployment's schema holds a Service")
	}
	if svc := mustLookup(t, r, "v1", "Service"); svc.Parseable.Schema == deploy.Parseable.Schema {
		t.Error("two kinds share a schema")
	}
}

// TestServeBuiltinKeepsSchemasLazy: the copies ServeBuiltin makes of built-in kinds it serves
// otherwise are made as the others are, share the kind's schema, and say what they serve.
func TestServeBuiltinKeepsSchemasLazy(t *testing.T) {
	r := MustNewRegistry(kube.Default())
	v1 := mustLookup(t, r, "apps/v1", "Deployment")
	cm := mustLookup(t, r, "v1", "ConfigMap")
	r.ServeBuiltin(func(group, version, resource string) bool { return group == "apps" })
	beta := mustLookup(t, r, "apps/v1beta2", "Deployment")
	if !beta.Served || beta.Parseable.Schema != v1.Parseable.Schema {
		t.Errorf("apps/v1beta2 served %t, sharing the kind's schema %t", beta.Served, beta.Parseable.Schema == v1.Parseable.Schema)
	}
	if again := mustLookup(t, r, "v1", "ConfigMap"); again == cm || again.Served || again.Parseable.Schema != cm.Parseable.Schema {
		t.Errorf("v1 ConfigMap made before: a copy %t, served %t, sharing the kind's schema %t", again != cm, again.Served, again.Parseable.Schema == cm.Parseable.Schema)
	}
	if !cm.Served {
		t.Error("the Type handed out before changed")
	}
	if r.BuiltinGroupServed("") || !r.BuiltinGroupServed("apps") || r.Serving(GVK{"", "v1", "ConfigMap"}) != NotServed || r.Serving(GVK{"apps", "v1beta2", "Deployment"}) != Served {
		t.Error("served groups or kinds not as ServeBuiltin decided")
	}
	if svc := mustLookup(t, r, "v1", "Service"); svc.Served || svc.Parseable.Schema == nil {
		t.Errorf("v1 Service: served %t, schema %v", svc.Served, svc.Parseable.Schema)
	}
}

// builtinRelease is the release whose kinds r holds.
func builtinRelease(t *testing.T, r *Registry) builtin.Release {
	rel, ok := builtin.For(r.Minor())
	if !ok {
		t.Fatalf("no release of %s", r.Minor())
	}
	return rel
}

// TestGroupsFromTheRelease: the built-in groups, served groups and kinds a registry
// answers for (from the release's kind table) are those of every kind and version of the
// release, at every minor.
func TestGroupsFromTheRelease(t *testing.T) {
	for _, v := range kube.Minors() {
		r := MustNewRegistry(v)
		groups, served, kinds := map[string]bool{}, map[string]bool{}, map[string]bool{}
		for _, k := range builtinRelease(t, r).Kinds() {
			groups[k.Group] = true
			if k.Resource != "" {
				kinds[k.Kind] = true
				if ServedByDefault(k.Version) {
					served[k.Group] = true
				}
			}
		}
		for i := range builtin.KindPositions() {
			k, _ := builtinRelease(t, r).KindAt(i)
			for _, g := range []string{k.Group, k.Group + "x", "x" + k.Group} {
				if r.BuiltinGroup(g) != groups[g] || r.BuiltinGroupServed(g) != served[g] {
					t.Errorf("%s: group %q: built-in %t, served %t", v, g, r.BuiltinGroup(g), r.BuiltinGroupServed(g))
				}
			}
			for _, kind := range []string{k.Kind, k.Kind + "x"} {
				if r.builtinKind(kind) != kinds[kind] {
					t.Errorf("%s: kind %q: built-in %t", v, kind, r.builtinKind(kind))
				}
			}
		}
		if !served[""] || !served["apps"] {
			t.Errorf("%s: the core group or apps not served: %v", v, served)
		}
	}
}
