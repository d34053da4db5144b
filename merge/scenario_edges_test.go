package merge

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

const deploy = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ns
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
`

// edgeScenarios are the edges of SEMANTICS.md's rules (each case named by its rules' IDs):
// forced takeovers, pruning around defaults and items, status, kubectl's relaxation,
// refused bodies, sets and keys, managedFields supplied in a request.
var edgeScenarios = []scenario{
	{"C2 force removes the loser's emptied entry", []op{
		{apply: true, manager: "a", body: cm + "data: {k: '1'}\n"},
		{apply: true, manager: "b", force: true, body: cm + "data: {k: '2'}\n",
			managed: `b/Apply: {"f:data":{"f:k":{}}}`},
	}},
	{"D3 owning a sub-field of an item does not keep the item", []op{
		{apply: true, manager: "a", body: deploy + "      - {name: c1, image: i1}\n      - {name: c2, image: i2}\n"},
		{manager: "tuner", body: deploy + "      - {name: c1, image: i1}\n      - {name: c2, image: i2, workingDir: /tmp}\n"},
		{apply: true, manager: "a", body: deploy + "      - {name: c1, image: i1}\n",
			check: func(t *testing.T, obj map[string]any) {
				cs, _ := nestedField(obj, "spec", "template", "spec", "containers")
				if l, _ := cs.([]any); len(l) != 1 {
					t.Errorf("containers %v, want only c1", cs)
				}
				es, _, _ := managedFieldsOf(obj)
				for _, e := range es {
					if e.Manager == "tuner" {
						t.Errorf("tuner's entry survived: %s", e.FieldsV1)
					}
				}
			}},
	}},
	{"D4 a pruned defaulted field comes back at its default, unowned", []op{
		{apply: true, manager: "a", body: strings.Replace(deploy, "spec:\n  selector", "spec:\n  replicas: 3\n  revisionHistoryLimit: 2\n  selector", 1) + "      - {name: c, image: i}\n"},
		{apply: true, manager: "a", body: deploy + "      - {name: c, image: i}\n",
			check: func(t *testing.T, obj map[string]any) {
				wantField("spec.replicas", 1)(t, obj)
				wantField("spec.revisionHistoryLimit", 10)(t, obj)
			}},
	}},
	{"J2 status in a main-resource apply is neither stored nor owned", []op{
		{apply: true, manager: "a", body: deploy + "      - {name: c, image: i}\nstatus: {replicas: 5}\n",
			check: func(t *testing.T, obj map[string]any) {
				wantField("status.replicas", nil)(t, obj)
				es, _, _ := managedFieldsOf(obj)
				if len(es) != 1 || strings.Contains(string(es[0].FieldsV1), "status") {
					t.Errorf("entries %+v own status", es)
				}
			}},
	}},
	{"J1 F2 status subresource applies get their own entry", []op{
		{apply: true, manager: "a", body: deploy + "      - {name: c, image: i}\n"},
		{apply: true, manager: "ctrl", sub: "status", body: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: ns}\nstatus: {replicas: 2}\n",
			check: func(t *testing.T, obj map[string]any) {
				wantField("status.replicas", 2)(t, obj)
				es, _, _ := managedFieldsOf(obj)
				if len(es) != 2 || es[1].Subresource != "status" || es[1].Manager != "ctrl" {
					t.Errorf("entries %+v", es)
				}
			}},
	}},
	{"K1 kubectl may take fields whose last-applied value still holds", []op{
		{manager: "kubectl-client-side-apply", body: cm + "  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: '{\"apiVersion\":\"v1\",\"data\":{\"k\":\"1\"},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\",\"namespace\":\"ns\"}}'\ndata: {k: '1'}\n"},
		{apply: true, manager: "other", body: cm + "data: {k: '2'}\n",
			conflicts: `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.k`},
		{apply: true, manager: "kubectl", body: cm + "data: {k: '2'}\n",
			check: func(t *testing.T, obj map[string]any) {
				wantField("data.k", "2")(t, obj)
				// rules.md kubectl.annotation-sync: the annotation now records the applied configuration.
				a := annotations(obj)[LastAppliedAnnotation].(string)
				if a != `{"apiVersion":"v1","data":{"k":"2"},"kind":"ConfigMap","metadata":{"name":"c","namespace":"ns"}}`+"\n" {
					t.Errorf("last-applied %q", a)
				}
			}},
	}},
	{"L1 an apply needs a valid manager name", []op{
		{apply: true, manager: "", body: cm, conflicts: `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`},
		{apply: true, manager: "a\tb", body: cm, conflicts: `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\tb": invalid character U+0009 (at position 1)`},
	}},
	{"L6 a body that does not match the schema", []op{
		{apply: true, manager: "a", body: deploy + "      - {name: c, image: i}\n  replica: 3\n",
			conflicts: "failed to create typed patch object (ns/web; apps/v1, Kind=Deployment): .spec.replica: field not declared in schema"},
	}},
	{"N3 a uid on a create", []op{
		{apply: true, manager: "a", body: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns, uid: 6f1c9a52}\n",
			conflicts: `Operation cannot be fulfilled on configmaps "c": uid mismatch: the provided object specified uid 6f1c9a52, and no existing object was found`},
	}},
	{"O3 sets merge by value", []op{
		{apply: true, manager: "a", body: cm + "  finalizers: [example.com/x]\n"},
		{apply: true, manager: "b", body: cm + "  finalizers: [example.com/z]\n",
			check: wantField("metadata.finalizers", []string{"example.com/x", "example.com/z"})},
	}},
	{"O4 a key field's default identifies the item", []op{
		{apply: true, manager: "a", body: deploy + "      - name: c\n        image: i\n        ports: [{containerPort: 80, protocol: TCP, name: http}]\n"},
		{apply: true, manager: "b", body: deploy + "      - name: c\n        ports: [{containerPort: 80, name: web}]\n",
			conflicts: `Apply failed with 1 conflict: conflict with "a": .spec.template.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].name`},
	}},
	{"F4 M2 supplied managedFields replace the live ones on a main-resource update", []op{
		{apply: true, manager: "a", body: cm + "data: {k: '1'}\n"},
		{manager: "x", body: cm + "  managedFields:\n  - {manager: custom, operation: Update, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {f:data: {f:k: {}}}}\ndata: {k: '1'}\n",
			managed: `custom/Update: {"f:data":{"f:k":{}}}`},
	}},
	{"M1 invalid supplied managedFields fall back to the live ones", []op{
		{apply: true, manager: "a", body: cm + "data: {k: '1'}\n"},
		{manager: "x", body: cm + "  managedFields:\n  - {manager: custom, operation: Bogus, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {}}\ndata: {k: '1'}\n",
			managed: `a/Apply: {"f:data":{"f:k":{}}}`},
	}},
}

func TestEdgeScenarios(t *testing.T) {
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	for _, sc := range edgeScenarios {
		t.Run(sc.name, func(t *testing.T) { runScenario(t, e, sc) })
	}
}
