package admission

import (
	"strings"
	"testing"

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

// TestResourceQuotaSaid: ResourceQuota is not predicted, and a write into a namespace
// with quotas says so.
func TestResourceQuotaSaid(t *testing.T) {
	c := New(Config{Minor: 37, State: state(t, `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q","namespace":"ns"},"spec":{"hard":{"pods":"1"}}}`)})
	w := write{Kind: "ConfigMap", Create: true}.of(t, obj(t, `{"metadata":{"name":"n","namespace":"ns"}}`), nil)
	res := c.Validate(w)
	if res.Refusal != nil || len(res.NotPredicted) != 1 || !strings.Contains(res.NotPredicted[0], "the namespace ns has 1 ResourceQuota, which ssa-diff does not predict") {
		t.Errorf("%+v", res)
	}
}
