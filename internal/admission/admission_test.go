package admission

import (
	"encoding/json"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server"
)

func obj(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// write is a write of kind (a core kind unless group says) as the table below gives it.
type write struct {
	Group, Kind string
	Subresource string
	Create      bool
}

var registry, _ = schema.NewRegistry(kube.Default())

func (w write) of(t *testing.T, obj, old map[string]any) Write {
	t.Helper()
	var typ *schema.Type
	for _, gvk := range registry.Versions(w.Group, w.Kind) {
		if tt, ok := registry.Lookup(gvk); ok && tt.Served {
			typ = tt
		}
	}
	if typ == nil {
		t.Fatalf("no type %s/%s", w.Group, w.Kind)
	}
	if w.Create {
		old = nil
	}
	return Write{AdmissionRequest: server.AdmissionRequest{Type: typ, Kind: typ.GVK, Subresource: w.Subresource, Name: "n", Namespace: "ns",
		Object: obj, Old: old, Schemas: registry}}
}

// TestAdmit is the table of rules.md admission: each row a write and what the default
// plugins store or answer (k8s.io/kubernetes plugin/pkg/admission priority,
// defaulttolerationseconds, storage/storageobjectinuseprotection, nodetaint).
func TestAdmit(t *testing.T) {
	pod := func(spec string) string { return `{"metadata":{"name":"p"},"spec":` + spec + `}` }
	tolerations := `"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}]`
	for _, tc := range []struct {
		name      string
		w         write
		obj, old  string
		want      string
		forbidden string
	}{
		{name: "admission.priority: no class, no global default: 0", w: write{Kind: "Pod", Create: true},
			obj: pod(`{}`), want: pod(`{"preemptionPolicy":"PreemptLowerPriority","priority":0,` + tolerations + `}`)},
		{name: "admission.priority: system-node-critical", w: write{Kind: "Pod", Create: true},
			obj:  pod(`{"priorityClassName":"system-node-critical","tolerations":[{"operator":"Exists"}]}`),
			want: pod(`{"preemptionPolicy":"PreemptLowerPriority","priority":2000001000,"priorityClassName":"system-node-critical","tolerations":[{"operator":"Exists"}]}`)},
		{name: "admission.priority: system-cluster-critical", w: write{Kind: "Pod", Create: true},
			obj:  pod(`{"priorityClassName":"system-cluster-critical","tolerations":[{"operator":"Exists"}]}`),
			want: pod(`{"preemptionPolicy":"PreemptLowerPriority","priority":2000000000,"priorityClassName":"system-cluster-critical","tolerations":[{"operator":"Exists"}]}`)},
		{name: "admission.priority: another class is not invented", w: write{Kind: "Pod", Create: true},
			obj:  pod(`{"priorityClassName":"batch","tolerations":[{"operator":"Exists"}]}`),
			want: pod(`{"priorityClassName":"batch","tolerations":[{"operator":"Exists"}]}`)},
		{name: "admission.priority: a different priority given is refused", w: write{Kind: "Pod", Create: true},
			obj: pod(`{"priority":5}`), forbidden: "the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name"},
		{name: "admission.priority: a different policy given is refused", w: write{Kind: "Pod", Create: true},
			obj: pod(`{"preemptionPolicy":"Never"}`), forbidden: "the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name"},
		{name: "admission.priority: an update keeps the stored priority", w: write{Kind: "Pod"},
			obj: pod(`{}`), old: pod(`{"priority":0,"preemptionPolicy":"PreemptLowerPriority"}`),
			want: pod(`{"preemptionPolicy":"PreemptLowerPriority","priority":0}`)},
		{name: "admission.toleration-seconds: an unreachable toleration keeps only not-ready's", w: write{Kind: "Pod", Create: true},
			obj:  pod(`{"tolerations":[{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":60}]}`),
			want: pod(`{"preemptionPolicy":"PreemptLowerPriority","priority":0,"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":60},{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300}]}`)},
		{name: "admission.toleration-seconds: a NoSchedule toleration tolerates neither", w: write{Kind: "Pod", Create: true},
			obj:  pod(`{"priority":0,"tolerations":[{"key":"node.kubernetes.io/not-ready","effect":"NoSchedule"}]}`),
			want: pod(`{"preemptionPolicy":"PreemptLowerPriority","priority":0,"tolerations":[{"effect":"NoSchedule","key":"node.kubernetes.io/not-ready"},{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}]}`)},
		{name: "admission: a subresource write passes untouched", w: write{Kind: "Pod", Subresource: "status", Create: true},
			obj: pod(`{}`), want: pod(`{}`)},
		{name: "admission.storage-protection: PVC", w: write{Kind: "PersistentVolumeClaim", Create: true},
			obj: `{"metadata":{"name":"c","finalizers":["example.com/x"]}}`, want: `{"metadata":{"finalizers":["example.com/x","kubernetes.io/pvc-protection"],"name":"c"}}`},
		{name: "admission.storage-protection: PV, finalizer once", w: write{Kind: "PersistentVolume", Create: true},
			obj: `{"metadata":{"name":"v","finalizers":["kubernetes.io/pv-protection"]}}`, want: `{"metadata":{"finalizers":["kubernetes.io/pv-protection"],"name":"v"}}`},
		{name: "admission.storage-protection: not on update", w: write{Kind: "PersistentVolumeClaim"},
			obj: `{"metadata":{"name":"c"}}`, old: `{"metadata":{"name":"c"}}`, want: `{"metadata":{"name":"c"}}`},
		{name: "admission.node-not-ready: a new Node is tainted", w: write{Kind: "Node", Create: true},
			obj: `{"metadata":{"name":"n"},"spec":{"taints":[{"key":"a","effect":"NoExecute"}]}}`, want: `{"metadata":{"name":"n"},"spec":{"taints":[{"effect":"NoExecute","key":"a"},{"effect":"NoSchedule","key":"node.kubernetes.io/not-ready"}]}}`},
		{name: "admission.node-not-ready: an existing taint is kept once", w: write{Kind: "Node", Create: true},
			obj: `{"metadata":{"name":"n"},"spec":{"taints":[{"key":"node.kubernetes.io/not-ready","effect":"NoSchedule"}]}}`, want: `{"metadata":{"name":"n"},"spec":{"taints":[{"effect":"NoSchedule","key":"node.kubernetes.io/not-ready"}]}}`},
		{name: "admission: other kinds pass", w: write{Group: "apps", Kind: "Deployment", Create: true},
			obj: `{"metadata":{"name":"d"}}`, want: `{"metadata":{"name":"d"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := obj(t, tc.obj)
			var old map[string]any
			if tc.old != "" {
				old = obj(t, tc.old)
			}
			if !tc.w.Create && old == nil {
				old = map[string]any{}
			}
			res := New(Config{Minor: 37}).Mutate(tc.w.of(t, o, old))
			got := ""
			if res.Refusal != nil {
				got = res.Refusal.Message
			}
			if tc.forbidden != "" {
				tc.forbidden = `pods "n" is forbidden: ` + tc.forbidden
			}
			if got != tc.forbidden {
				t.Fatalf("forbidden %q, want %q", got, tc.forbidden)
			}
			if tc.forbidden != "" {
				return
			}
			if got, want := asJSON(t, o), asJSON(t, obj(t, tc.want)); got != want {
				t.Errorf("stored\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestAssigned(t *testing.T) {
	c := New(Config{Minor: 37})
	if got := c.Assigned("", "Pod", obj(t, `{"spec":{"priorityClassName":"batch"}}`)); len(got) != 2 || got[0] != ".spec.priority" {
		t.Errorf("another class: %v", got)
	}
	if got := c.Assigned("", "Pod", obj(t, `{"spec":{"priority":0}}`)); got != nil {
		t.Errorf("no class: %v", got)
	}
	if got := c.Assigned("apps", "Deployment", obj(t, `{"spec":{}}`)); got != nil {
		t.Errorf("Deployment: %v", got)
	}
}
