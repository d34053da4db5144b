package strategy

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
)

func deployment(replicas int64, image string) map[string]any {
	return map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web"},
		"spec": map[string]any{
			"replicas": replicas,
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "web", "image": image}}},
			},
		},
		"status": map[string]any{"replicas": int64(7)},
	}
}

func TestCreateAndUpdateGeneration(t *testing.T) {
	created := deployment(2, "nginx:1")
	if err := Create(serverconfig.MustFor(kube.Default()), "apps/v1", "Deployment", created); err != nil {
		t.Fatal(err)
	}
	meta := created["metadata"].(map[string]any)
	if meta["generation"] != int64(1) || !reflect.DeepEqual(created["status"], map[string]any{}) {
		t.Fatalf("create: generation %v status %v; want 1 and {}", meta["generation"], created["status"])
	}
	stored := unstructured.DeepCopy(created).(map[string]any)
	stored["status"] = map[string]any{"replicas": int64(2)}

	tests := []struct {
		name string
		obj  map[string]any
		gen  int64
	}{
		{"same spec keeps the generation", deployment(2, "nginx:1"), 1},
		{"a spec change bumps it", deployment(3, "nginx:1"), 2},
		{"a defaulted field dropped and defaulted back is no change (D4)", deployment(2, "nginx:1"), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := Update(serverconfig.MustFor(kube.Default()), "apps/v1", "Deployment", tc.obj, stored); err != nil {
				t.Fatal(err)
			}
			if g := tc.obj["metadata"].(map[string]any)["generation"]; g != tc.gen {
				t.Errorf("generation %v, want %d", g, tc.gen)
			}
			if !reflect.DeepEqual(tc.obj["status"], stored["status"]) {
				t.Errorf("status %v, want the stored %v", tc.obj["status"], stored["status"])
			}
		})
	}
}

func TestDeploymentAnnotationsBumpGeneration(t *testing.T) {
	old := deployment(1, "a:1")
	if err := Create(serverconfig.MustFor(kube.Default()), "apps/v1", "Deployment", old); err != nil {
		t.Fatal(err)
	}
	obj := deployment(1, "a:1")
	obj["metadata"].(map[string]any)["annotations"] = map[string]any{"x": "y"}
	if err := Update(serverconfig.MustFor(kube.Default()), "apps/v1", "Deployment", obj, old); err != nil {
		t.Fatal(err)
	}
	if g := obj["metadata"].(map[string]any)["generation"]; g != int64(2) {
		t.Errorf("generation %v, want 2", g)
	}
}

func TestStatusUpdateKeepsSpec(t *testing.T) {
	old := deployment(1, "a:1")
	if err := Create(serverconfig.MustFor(kube.Default()), "apps/v1", "Deployment", old); err != nil {
		t.Fatal(err)
	}
	obj := deployment(5, "b:2")
	obj["status"] = map[string]any{"replicas": int64(5)}
	if err := UpdateStatus(serverconfig.MustFor(kube.Default()), "apps/v1", "Deployment", obj, old); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(obj["spec"], old["spec"]) || !reflect.DeepEqual(obj["status"], map[string]any{"replicas": int64(5)}) {
		t.Errorf("status write changed spec or lost status: %v", obj)
	}
}

func TestServiceCreateAndUpdate(t *testing.T) {
	svc := map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "s"},
		"spec": map[string]any{"type": "NodePort", "ports": []any{map[string]any{"name": "http", "port": int64(80)}}}}
	if err := Create(serverconfig.MustFor(kube.Default()), "v1", "Service", svc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range Assigned("v1", "Service", svc, true) {
		got = append(got, a.String())
	}
	want := []string{".metadata.uid", ".metadata.creationTimestamp", ".metadata.resourceVersion", ".spec.clusterIP",
		".spec.clusterIPs", ".spec.ipFamilies", ".spec.ports[0].nodePort"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Assigned = %v, want %v", got, want)
	}
	// The policy is not the cluster's: an unset one is SingleStack.
	if p := svc["spec"].(map[string]any)["ipFamilyPolicy"]; p != "SingleStack" {
		t.Errorf("ipFamilyPolicy %v, want SingleStack", p)
	}
	// The stored object has what the allocator gave it; an apply that leaves
	// those fields out keeps them.
	stored := unstructured.DeepCopy(svc).(map[string]any)
	spec := stored["spec"].(map[string]any)
	spec["clusterIP"], spec["clusterIPs"] = "10.0.0.9", []any{"10.0.0.9"}
	spec["ipFamilies"], spec["ipFamilyPolicy"] = []any{"IPv4"}, "SingleStack"
	spec["ports"].([]any)[0].(map[string]any)["nodePort"] = int64(30080)
	next := map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "s"},
		"spec": map[string]any{"type": "NodePort", "ports": []any{map[string]any{"name": "http", "port": int64(80)}}}}
	if err := Update(serverconfig.MustFor(kube.Default()), "v1", "Service", next, stored); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(next["spec"], stored["spec"]) {
		t.Errorf("allocated values not kept:\n%s", testkit.Diff(stored["spec"], next["spec"]))
	}
}

// A Service's given cluster IPs give its clusterIPs and families; on an IPv4 cluster (the
// default) an IPv6 address is refused, so nothing is inferred from it (rules.md
// valid.service-ip-families).
func TestServiceWithClusterIPIsDerived(t *testing.T) {
	for _, c := range []struct {
		name     string
		families []string
		ip       string
		policy   string
		want     []any
	}{
		{"IPv4 address, default cluster", nil, "10.0.0.10", "", []any{"IPv4"}},
		{"IPv6 address, default cluster: refused", nil, "fd00::10", "", nil},
		{"IPv6 address, IPv6 cluster", []string{"IPv6"}, "fd00::10", "", []any{"IPv6"}},
		{"IPv6 address preferring dual stack, dual-stack cluster", []string{"IPv4", "IPv6"}, "fd00::10", "PreferDualStack", []any{"IPv6", "IPv4"}},
		{"IPv6 address preferring dual stack, IPv6 cluster", []string{"IPv6"}, "fd00::10", "PreferDualStack", []any{"IPv6"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec := map[string]any{"clusterIP": c.ip, "type": "ClusterIP", "ports": []any{map[string]any{"port": int64(53)}}}
			if c.policy != "" {
				spec["ipFamilyPolicy"] = c.policy
			}
			cfg := serverconfig.MustFor(kube.Default())
			cfg.ServiceIPFamilies = c.families
			PrepareForCreate(cfg, "v1", "Service", nil, map[string]any{"spec": spec})
			if !reflect.DeepEqual(spec["clusterIPs"], []any{c.ip}) || !reflect.DeepEqual(unstructured.List(spec, "ipFamilies"), c.want) {
				t.Errorf("derived fields wrong: %v", spec)
			}
		})
	}
}

func TestDaemonSetTemplateGeneration(t *testing.T) {
	ds := func(image string) map[string]any {
		return map[string]any{"metadata": map[string]any{"name": "d"}, "spec": map[string]any{
			"selector": map[string]any{"matchLabels": map[string]any{"a": "b"}},
			"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": image}}}}}}
	}
	old := ds("a:1")
	if err := Create(serverconfig.MustFor(kube.Default()), "apps/v1", "DaemonSet", old); err != nil {
		t.Fatal(err)
	}
	ann := func(o map[string]any) any {
		return o["metadata"].(map[string]any)["annotations"].(map[string]any)["deprecated.daemonset.template.generation"]
	}
	if ann(old) != "1" {
		t.Fatalf("create: template generation %v, want 1", ann(old))
	}
	next := ds("a:2")
	if err := Update(serverconfig.MustFor(kube.Default()), "apps/v1", "DaemonSet", next, old); err != nil {
		t.Fatal(err)
	}
	if ann(next) != "2" || next["metadata"].(map[string]any)["generation"] != int64(2) {
		t.Errorf("update: template generation %v, generation %v; want 2 and 2", ann(next), next["metadata"].(map[string]any)["generation"])
	}
}

func TestPodCreate(t *testing.T) {
	pod := map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "i",
		"resources": map[string]any{"limits": map[string]any{"cpu": "1", "memory": "1Gi"}}}}}}
	if err := Create(serverconfig.MustFor(kube.Default()), "v1", "Pod", pod); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"phase": "Pending", "qosClass": "Guaranteed"}
	if !reflect.DeepEqual(pod["status"], want) {
		t.Errorf("status %v, want %v", pod["status"], want)
	}
}
