package admission

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server"
	"github.com/ssa-diff/ssa-diff/server/clusterstate"
)

func state(t *testing.T, docs ...string) *clusterstate.State {
	t.Helper()
	var objs []clusterstate.Object
	for i, d := range docs {
		objs = append(objs, clusterstate.Object{Object: obj(t, d), Source: "doc" + string(rune('0'+i))})
	}
	s, err := clusterstate.New(objs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestChainWithState is the table of the plugins that read the cluster (rules.md
// admission.*): each row a cluster state, a write, and what the chain stores or answers.
func TestChainWithState(t *testing.T) {
	const (
		nsShop      = `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ns"},"status":{"phase":"Active"}}`
		nsGone      = `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ns","deletionTimestamp":"2026-12-01T00:00:00Z"},"status":{"phase":"Terminating"}}`
		saDefault   = `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default","namespace":"ns"}}`
		saNoMount   = `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default","namespace":"ns"},"automountServiceAccountToken":false,"imagePullSecrets":[{"name":"reg"}]}`
		saEnforcing = `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default","namespace":"ns","annotations":{"kubernetes.io/enforce-mountable-secrets":"true"}},"secrets":[{"name":"ok"}]}`
		scOld       = `{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"old","creationTimestamp":"2026-01-01T00:00:00Z","annotations":{"storageclass.kubernetes.io/is-default-class":"true"}}}`
		scNew       = `{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"new","creationTimestamp":"2026-06-01T00:00:00Z","annotations":{"storageclass.beta.kubernetes.io/is-default-class":"true"}}}`
		pcDefault   = `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"standard"},"value":10,"globalDefault":true,"preemptionPolicy":"Never"}`
	)
	pod := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"},"spec":{"containers":[{"name":"c","image":"i"}],"tolerations":[{"operator":"Exists"}],"priority":0}}`
	for _, tc := range []struct {
		name      string
		state     []string
		w         write
		obj       string
		want      []string // substrings of the stored object's JSON
		refusal   string
		code      int32
		predicted string // a substring of what is not predicted
	}{
		{name: "admission.namespace-lifecycle: a create into a namespace the cluster lacks is 404", state: []string{nsShop},
			w: write{Kind: "ConfigMap", Create: true}, obj: `{"metadata":{"name":"n","namespace":"elsewhere"}}`,
			refusal: `namespaces "elsewhere" not found`, code: 404},
		{name: "admission.namespace-lifecycle: into a terminating namespace is 403", state: []string{nsGone},
			w: write{Kind: "ConfigMap", Create: true}, obj: `{"metadata":{"name":"n","namespace":"ns"}}`,
			refusal: `configmaps "n" is forbidden: unable to create new content in namespace ns because it is being terminated`, code: 403},
		{name: "admission.namespace-lifecycle: no Namespace in the state says nothing", state: []string{saDefault},
			w: write{Kind: "ConfigMap", Create: true}, obj: `{"metadata":{"name":"n","namespace":"elsewhere"}}`, want: []string{`"name":"n"`}},
		{name: "admission.service-account: default account, token volume and mounts", state: []string{nsShop, saDefault},
			w: write{Kind: "Pod", Create: true}, obj: pod,
			want: []string{`"serviceAccountName":"default"`, `"serviceAccount":"default"`, `"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-00000","readOnly":true`, `"expirationSeconds":3607`}},
		{name: "admission.service-account: an account that opts out, its pull secrets", state: []string{nsShop, saNoMount},
			w: write{Kind: "Pod", Create: true}, obj: pod, want: []string{`"imagePullSecrets":[{"name":"reg"}]`}},
		{name: "admission.service-account: a missing account is 403", state: []string{nsShop, saDefault},
			w: write{Kind: "Pod", Create: true}, obj: strings.Replace(pod, `"containers"`, `"serviceAccountName":"builder","containers"`, 1),
			refusal: `pods "n" is forbidden: error looking up service account ns/builder: serviceaccount "builder" not found`, code: 403},
		{name: "admission.service-account: no ServiceAccount in the state: taken to exist, said", state: []string{nsShop},
			w: write{Kind: "Pod", Create: true}, obj: pod, want: []string{`"kube-api-access-00000"`}, predicted: "holds no ServiceAccount"},
		{name: "admission.default-storage-class: the newest default, beta annotation too", state: []string{scOld, scNew},
			w: write{Kind: "PersistentVolumeClaim", Create: true}, obj: `{"metadata":{"name":"c","namespace":"ns"},"spec":{}}`,
			want: []string{`"storageClassName":"new"`}},
		{name: "admission.priority: the global default class names itself", state: []string{pcDefault},
			w: write{Kind: "Pod", Create: true}, obj: `{"metadata":{"name":"p"},"spec":{"tolerations":[{"operator":"Exists"}]}}`,
			want: []string{`"preemptionPolicy":"Never","priority":10,"priorityClassName":"standard"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := New(Config{Minor: 37, State: state(t, tc.state...)})
			o := obj(t, tc.obj)
			w := tc.w.of(t, o, nil)
			w.Namespace = "ns"
			if md, _ := o["metadata"].(map[string]any); md != nil {
				if ns, _ := md["namespace"].(string); ns != "" {
					w.Namespace = ns
				}
			}
			res := c.Mutate(w)
			if res.Refusal == nil {
				v := c.Validate(w)
				res.Refusal, res.NotPredicted = v.Refusal, append(res.NotPredicted, v.NotPredicted...)
			}
			if tc.refusal != "" {
				if res.Refusal == nil || res.Refusal.Message != tc.refusal || res.Refusal.Code != tc.code {
					t.Fatalf("refusal %+v, want %d %q", res.Refusal, tc.code, tc.refusal)
				}
				return
			}
			if res.Refusal != nil {
				t.Fatalf("refused: %s", res.Refusal.Message)
			}
			got := asJSON(t, o)
			for _, want := range tc.want {
				if !strings.Contains(got, want) {
					t.Errorf("stored %s\nwant it to hold %s", got, want)
				}
			}
			if tc.predicted != "" && !strings.Contains(strings.Join(res.NotPredicted, "\n"), tc.predicted) {
				t.Errorf("not predicted %q, want %q", res.NotPredicted, tc.predicted)
			}
		})
	}
}

func TestUnmountableSecret(t *testing.T) {
	sa := obj(t, `{"secrets":[{"name":"ok"}],"imagePullSecrets":[{"name":"reg"}]}`)
	for _, tc := range []struct{ spec, want string }{
		{`{"volumes":[{"name":"v","secret":{"secretName":"ok"}}]}`, ""},
		{`{"volumes":[{"name":"v","secret":{"secretName":"no"}}]}`, `volume with secret.secretName="no" is not allowed because service account sa does not reference that secret`},
		{`{"initContainers":[{"name":"i","env":[{"name":"E","valueFrom":{"secretKeyRef":{"name":"no","key":"k"}}}]}]}`, `init container i with envVar E referencing secret.secretName="no" is not allowed because service account sa does not reference that secret`},
		{`{"containers":[{"name":"c","envFrom":[{"secretRef":{"name":"no"}}]}]}`, `container c with envFrom referencing secret.secretName="no" is not allowed because service account sa does not reference that secret`},
		{`{"imagePullSecrets":[{"name":"reg"},{"name":"other"}]}`, `imagePullSecrets[1].name="other" is not allowed because service account sa does not reference that imagePullSecret`},
	} {
		if got := unmountableSecret(obj(t, tc.spec), sa, "sa"); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.spec, got, tc.want)
		}
	}
}

// TestResourceQuota is the table of rules.md admission.resource-quota: each row the
// namespace's quotas (their status as read), a write, and the server's answer.
func TestResourceQuota(t *testing.T) {
	quota := func(name, spec, hard, used string) string {
		return `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"` + name + `","namespace":"ns"},"spec":{` + spec + `},"status":{"hard":` + hard + `,"used":` + used + `}}`
	}
	pod := func(resources string) string {
		return `{"metadata":{"name":"p","namespace":"ns"},"spec":{"serviceAccountName":"default","containers":[{"name":"app","image":"i"` + resources + `}]}}`
	}
	const cpu = `,"resources":{"requests":{"cpu":"500m","memory":"64Mi"},"limits":{"cpu":"1","memory":"128Mi"}}`
	for _, tc := range []struct {
		name      string
		quotas    []string
		w         write
		obj, old  string
		refusal   string
		predicted string
	}{
		{name: "a create at the count's limit is 403", quotas: []string{quota("objects", `"hard":{"configmaps":"2"}`, `{"configmaps":"2"}`, `{"configmaps":"2"}`)},
			w: write{Kind: "ConfigMap", Create: true}, obj: `{"metadata":{"name":"n","namespace":"ns"}}`,
			refusal: `configmaps "n" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=2, limited: configmaps=2`},
		{name: "count/RESOURCE.GROUP of any kind", quotas: []string{quota("objects", `"hard":{"count/deployments.apps":"1"}`, `{"count/deployments.apps":"1"}`, `{"count/deployments.apps":"1"}`)},
			w: write{Group: "apps", Kind: "Deployment", Create: true}, obj: `{"metadata":{"name":"n","namespace":"ns"}}`,
			refusal: `deployments.apps "n" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1`},
		{name: "below the limit: admitted", quotas: []string{quota("objects", `"hard":{"configmaps":"2"}`, `{"configmaps":"2"}`, `{"configmaps":"1"}`)},
			w: write{Kind: "ConfigMap", Create: true}, obj: `{"metadata":{"name":"n","namespace":"ns"}}`},
		{name: "an update of a counted kind counts nothing", quotas: []string{quota("objects", `"hard":{"configmaps":"2"}`, `{"configmaps":"2"}`, `{"configmaps":"2"}`)},
			w: write{Kind: "ConfigMap"}, obj: `{"metadata":{"name":"n","namespace":"ns"}}`, old: `{"metadata":{"name":"n","namespace":"ns"}}`},
		{name: "a quota without usage yet refuses what it counts", quotas: []string{quota("objects", `"hard":{"configmaps":"2","secrets":"1"}`, `{"configmaps":"2","secrets":"1"}`, `{}`)},
			w: write{Kind: "ConfigMap", Create: true}, obj: `{"metadata":{"name":"n","namespace":"ns"}}`,
			refusal: `configmaps "n" is forbidden: status unknown for quota: objects, resources: configmaps`},
		{name: "a quota without status counts nothing", quotas: []string{`{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q","namespace":"ns"},"spec":{"hard":{"configmaps":"0"}}}`},
			w: write{Kind: "ConfigMap", Create: true}, obj: `{"metadata":{"name":"n","namespace":"ns"}}`},
		{name: "a Pod's compute: the first quota exceeded, every resource it exceeds", quotas: []string{quota("compute", `"hard":{"pods":"5","requests.cpu":"1","limits.memory":"1Gi"}`, `{"pods":"5","requests.cpu":"1","limits.memory":"1Gi"}`, `{"pods":"1","requests.cpu":"600m","limits.memory":"1000Mi"}`)},
			w: write{Kind: "Pod", Create: true}, obj: pod(cpu),
			refusal: `pods "n" is forbidden: exceeded quota: compute, requested: limits.memory=128Mi,requests.cpu=500m, used: limits.memory=1000Mi,requests.cpu=600m, limited: limits.memory=1Gi,requests.cpu=1`},
		{name: "a Pod that states no cpu a quota limits", quotas: []string{quota("compute", `"hard":{"requests.cpu":"1","limits.memory":"1Gi"}`, `{"requests.cpu":"1","limits.memory":"1Gi"}`, `{"requests.cpu":"0","limits.memory":"0"}`)},
			w: write{Kind: "Pod", Create: true}, obj: pod(``),
			refusal: `pods "n" is forbidden: failed quota: compute: must specify limits.memory for: app; requests.cpu for: app`},
		{name: "init containers and sidecars as the scheduler sums them", quotas: []string{quota("compute", `"hard":{"requests.cpu":"2"}`, `{"requests.cpu":"2"}`, `{"requests.cpu":"1"}`)},
			w:       write{Kind: "Pod", Create: true},
			obj:     `{"metadata":{"name":"p","namespace":"ns"},"spec":{"serviceAccountName":"default","initContainers":[{"name":"side","restartPolicy":"Always","resources":{"requests":{"cpu":"300m"}}},{"name":"init","resources":{"requests":{"cpu":"1500m"}}}],"containers":[{"name":"app","resources":{"requests":{"cpu":"500m"}}}]}}`,
			refusal: `pods "n" is forbidden: exceeded quota: compute, requested: requests.cpu=1800m, used: requests.cpu=1, limited: requests.cpu=2`},
		{name: "a Service's load balancer and node ports", quotas: []string{quota("net", `"hard":{"services.loadbalancers":"1","services.nodeports":"5"}`, `{"services.loadbalancers":"1","services.nodeports":"5"}`, `{"services.loadbalancers":"0","services.nodeports":"4"}`)},
			w: write{Kind: "Service", Create: true}, obj: `{"metadata":{"name":"s","namespace":"ns"},"spec":{"type":"LoadBalancer","ports":[{"port":80},{"port":443}]}}`,
			refusal: `services "n" is forbidden: exceeded quota: net, requested: services.nodeports=2, used: services.nodeports=4, limited: services.nodeports=5`},
		{name: "a Service updated to a LoadBalancer counts the difference", quotas: []string{quota("net", `"hard":{"services.loadbalancers":"1"}`, `{"services.loadbalancers":"1"}`, `{"services.loadbalancers":"1"}`)},
			w: write{Kind: "Service"}, obj: `{"metadata":{"name":"s","namespace":"ns"},"spec":{"type":"LoadBalancer","ports":[{"port":80}]}}`, old: `{"metadata":{"name":"s","namespace":"ns"},"spec":{"type":"ClusterIP","ports":[{"port":80}]}}`,
			refusal: `services "n" is forbidden: exceeded quota: net, requested: services.loadbalancers=1, used: services.loadbalancers=1, limited: services.loadbalancers=1`},
		{name: "a claim's storage, whole bytes, of its class", quotas: []string{quota("disk", `"hard":{"fast.storageclass.storage.k8s.io/requests.storage":"10Gi"}`, `{"fast.storageclass.storage.k8s.io/requests.storage":"10Gi"}`, `{"fast.storageclass.storage.k8s.io/requests.storage":"9Gi"}`)},
			w: write{Kind: "PersistentVolumeClaim", Create: true}, obj: `{"metadata":{"name":"c","namespace":"ns"},"spec":{"storageClassName":"fast","resources":{"requests":{"storage":"2Gi"}}}}`,
			refusal: `persistentvolumeclaims "n" is forbidden: exceeded quota: disk, requested: fast.storageclass.storage.k8s.io/requests.storage=2Gi, used: fast.storageclass.storage.k8s.io/requests.storage=9Gi, limited: fast.storageclass.storage.k8s.io/requests.storage=10Gi`},
		// Scopes (rules.md admission.resource-quota-scopes): a scoped quota counts only what is in every scope.
		{name: "BestEffort counts a pod without resources", quotas: []string{quota("be", `"hard":{"pods":"1"},"scopes":["BestEffort"]`, `{"pods":"1"}`, `{"pods":"1"}`)},
			w: write{Kind: "Pod", Create: true}, obj: pod(``), refusal: `pods "n" is forbidden: exceeded quota: be, requested: pods=1, used: pods=1, limited: pods=1`},
		{name: "BestEffort does not count a pod with resources", quotas: []string{quota("be", `"hard":{"pods":"1"},"scopes":["BestEffort"]`, `{"pods":"1"}`, `{"pods":"1"}`)},
			w: write{Kind: "Pod", Create: true}, obj: pod(cpu)},
		{name: "NotBestEffort and NotTerminating both hold", quotas: []string{quota("nbe", `"hard":{"requests.cpu":"1"},"scopes":["NotBestEffort","NotTerminating"]`, `{"requests.cpu":"1"}`, `{"requests.cpu":"600m"}`)},
			w: write{Kind: "Pod", Create: true}, obj: pod(cpu), refusal: `pods "n" is forbidden: exceeded quota: nbe, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1`},
		{name: "Terminating does not count a pod without a deadline", quotas: []string{quota("t", `"hard":{"pods":"1"},"scopes":["Terminating"]`, `{"pods":"1"}`, `{"pods":"1"}`)},
			w: write{Kind: "Pod", Create: true}, obj: pod(cpu)},
		{name: "PriorityClass In counts the pod of that class", quotas: []string{quota("pc", `"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"In","values":["high"]}]}`, `{"pods":"1"}`, `{"pods":"1"}`)},
			w: write{Kind: "Pod", Create: true}, obj: `{"metadata":{"name":"p","namespace":"ns"},"spec":{"serviceAccountName":"default","priorityClassName":"high","containers":[{"name":"app","image":"i"}]}}`,
			refusal: `pods "n" is forbidden: exceeded quota: pc, requested: pods=1, used: pods=1, limited: pods=1`},
		{name: "PriorityClass NotIn counts a pod of no class", quotas: []string{quota("pc", `"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"NotIn","values":["high"]}]}`, `{"pods":"1"}`, `{"pods":"1"}`)},
			w: write{Kind: "Pod", Create: true}, obj: pod(``), refusal: `pods "n" is forbidden: exceeded quota: pc, requested: pods=1, used: pods=1, limited: pods=1`},
		{name: "PriorityClass Exists does not count a pod of no class", quotas: []string{quota("pc", `"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"Exists"}]}`, `{"pods":"1"}`, `{"pods":"1"}`)},
			w: write{Kind: "Pod", Create: true}, obj: pod(``)},
		{name: "CrossNamespacePodAffinity counts a term naming namespaces", quotas: []string{quota("x", `"hard":{"pods":"1"},"scopes":["CrossNamespacePodAffinity"]`, `{"pods":"1"}`, `{"pods":"1"}`)},
			w: write{Kind: "Pod", Create: true}, obj: `{"metadata":{"name":"p","namespace":"ns"},"spec":{"serviceAccountName":"default","affinity":{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"podAffinityTerm":{"topologyKey":"k","namespaceSelector":{}}}]}},"containers":[{"name":"app","image":"i"}]}}`,
			refusal: `pods "n" is forbidden: exceeded quota: x, requested: pods=1, used: pods=1, limited: pods=1`},
		{name: "VolumeAttributesClass counts a claim of that class", quotas: []string{quota("vac", `"hard":{"persistentvolumeclaims":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"VolumeAttributesClass","operator":"In","values":["gold"]}]}`, `{"persistentvolumeclaims":"1"}`, `{"persistentvolumeclaims":"1"}`)},
			w: write{Kind: "PersistentVolumeClaim", Create: true}, obj: `{"metadata":{"name":"c","namespace":"ns"},"spec":{"volumeAttributesClassName":"gold","resources":{"requests":{"storage":"1Gi"}}}}`,
			refusal: `persistentvolumeclaims "n" is forbidden: exceeded quota: vac, requested: persistentvolumeclaims=1, used: persistentvolumeclaims=1, limited: persistentvolumeclaims=1`},
		{name: "a scope holds no ConfigMap", quotas: []string{quota("be", `"hard":{"configmaps":"1"},"scopes":["BestEffort"]`, `{"configmaps":"1"}`, `{"configmaps":"1"}`)},
			w: write{Kind: "ConfigMap", Create: true}, obj: `{"metadata":{"name":"c","namespace":"ns"}}`},
		// An update of a Pod counted when it enters or leaves the Terminating scope: the
		// whole usage for a quota the stored pod was not in, the difference for the others.
		{name: "an update setting a deadline enters Terminating: the whole usage", quotas: []string{quota("t", `"hard":{"pods":"1","requests.cpu":"1"},"scopes":["Terminating"]`, `{"pods":"1","requests.cpu":"1"}`, `{"pods":"1","requests.cpu":"1"}`)},
			w: write{Kind: "Pod"}, obj: `{"metadata":{"name":"p","namespace":"ns"},"spec":{"activeDeadlineSeconds":60,"serviceAccountName":"default","containers":[{"name":"app","image":"i"` + cpu + `}]}}`, old: pod(cpu),
			refusal: `pods "n" is forbidden: exceeded quota: t, requested: pods=1,requests.cpu=500m, used: pods=1,requests.cpu=1, limited: pods=1,requests.cpu=1`},
		{name: "the same update leaves NotTerminating: admitted", quotas: []string{quota("nt", `"hard":{"pods":"1"},"scopes":["NotTerminating"]`, `{"pods":"1"}`, `{"pods":"1"}`)},
			w: write{Kind: "Pod"}, obj: `{"metadata":{"name":"p","namespace":"ns"},"spec":{"activeDeadlineSeconds":60,"serviceAccountName":"default","containers":[{"name":"app","image":"i"` + cpu + `}]}}`, old: pod(cpu)},
		{name: "an unscoped quota charges that update the difference: nothing", quotas: []string{quota("all", `"hard":{"pods":"1"}`, `{"pods":"1"}`, `{"pods":"1"}`)},
			w: write{Kind: "Pod"}, obj: `{"metadata":{"name":"p","namespace":"ns"},"spec":{"activeDeadlineSeconds":60,"serviceAccountName":"default","containers":[{"name":"app","image":"i"` + cpu + `}]}}`, old: pod(cpu)},
		// Pod-level resources stand for the containers' cpu and memory.
		{name: "pod-level resources: their requests counted, no must specify", quotas: []string{quota("compute", `"hard":{"requests.cpu":"1","limits.memory":"1Gi"}`, `{"requests.cpu":"1","limits.memory":"1Gi"}`, `{"requests.cpu":"900m","limits.memory":"0"}`)},
			w: write{Kind: "Pod", Create: true}, obj: `{"metadata":{"name":"p","namespace":"ns"},"spec":{"serviceAccountName":"default","resources":{"requests":{"cpu":"200m"},"limits":{"memory":"64Mi"}},"containers":[{"name":"app","image":"i"}]}}`,
			refusal: `pods "n" is forbidden: exceeded quota: compute, requested: requests.cpu=200m, used: requests.cpu=900m, limited: requests.cpu=1`},
		{name: "hugepages: said", quotas: []string{quota("hp", `"hard":{"requests.hugepages-2Mi":"1Gi"}`, `{"requests.hugepages-2Mi":"1Gi"}`, `{"requests.hugepages-2Mi":"0"}`)},
			w: write{Kind: "Pod", Create: true}, obj: pod(cpu), predicted: "limits requests.hugepages-2Mi, which ssa-diff does not compute"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := New(Config{Minor: 37, State: state(t, tc.quotas...)})
			var old map[string]any
			if tc.old != "" {
				old = obj(t, tc.old)
			}
			res := c.Validate(tc.w.of(t, obj(t, tc.obj), old))
			if again := c.Validate(tc.w.of(t, obj(t, tc.obj), old)); tc.refusal == "" && tc.predicted == "" && len(again.NotPredicted) != len(res.NotPredicted) &&
				!strings.Contains(strings.Join(again.NotPredicted, ""), "counts 1 other write of this run") {
				t.Errorf("a second write counted by the same quota: %q", again.NotPredicted)
			}
			switch {
			case tc.refusal != "":
				if res.Refusal == nil || res.Refusal.Message != tc.refusal || res.Refusal.Code != 403 {
					t.Fatalf("refusal %+v, want 403 %q", res.Refusal, tc.refusal)
				}
			case res.Refusal != nil:
				t.Fatalf("refused: %s", res.Refusal.Message)
			}
			if np := strings.Join(res.NotPredicted, "\n"); tc.predicted != "" && !strings.Contains(np, tc.predicted) || tc.predicted == "" && np != "" {
				t.Errorf("not predicted %q, want %q", np, tc.predicted)
			}
		})
	}
}

// TestMutatesCreate holds MutatesCreate to the mutating phase: a create of every served
// built-in kind, in a cluster whose state gives each plugin what it fills in (a default
// account, storage class, ingress class and priority class, a LimitRange with defaults),
// is changed exactly when MutatesCreate says it may be; a binding of a mutating admission
// policy makes every kind one the phase may change.
func TestMutatesCreate(t *testing.T) {
	c := New(Config{Minor: 37, State: state(t,
		`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ns"},"status":{"phase":"Active"}}`,
		`{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default","namespace":"ns"}}`,
		`{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"sc","annotations":{"storageclass.kubernetes.io/is-default-class":"true"}}}`,
		`{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"ic","annotations":{"ingressclass.kubernetes.io/is-default-class":"true"}}}`,
		`{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"standard"},"value":10,"globalDefault":true}`,
		`{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr","namespace":"ns"},"spec":{"limits":[{"type":"Container","default":{"cpu":"1"}}]}}`,
	)})
	for _, gvk := range registry.GVKs() {
		typ, _ := registry.Lookup(gvk)
		if !typ.Served || typ.Resource == "" || typ.Source != schema.SourceBuiltin {
			continue
		}
		o := map[string]any{"apiVersion": gvk.APIVersion(), "kind": gvk.Kind, "metadata": map[string]any{"name": "n", "namespace": "ns"}, "spec": map[string]any{}}
		if gvk.Kind == "Pod" {
			o["spec"] = map[string]any{"containers": []any{map[string]any{"name": "c", "image": "i"}}}
		}
		before := asJSON(t, o)
		w := Write{AdmissionRequest: server.AdmissionRequest{Type: typ, Kind: gvk, Name: "n", Namespace: "ns", Object: o, Schemas: registry}}
		c.Mutate(w)
		if changed, may := asJSON(t, o) != before, c.MutatesCreate(gvk.Group, gvk.Kind); changed != may {
			t.Errorf("%v: the create changed %v, MutatesCreate %v: %s", gvk, changed, may, asJSON(t, o))
		}
	}
	withPolicy := New(Config{Minor: 37, State: state(t,
		`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingAdmissionPolicyBinding","metadata":{"name":"b"},"spec":{"policyName":"p"}}`)})
	if !withPolicy.MutatesCreate("", "ConfigMap") {
		t.Error("with a mutating admission policy bound, a ConfigMap's create is not said to change")
	}
}
