package strategy

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
)

func assignedPaths(av, kind string, obj map[string]any, create bool) []string {
	var out []string
	for _, a := range Assigned(av, kind, obj, create) {
		out = append(out, a.String())
	}
	return out
}

// Services of every type, created: what the allocators fill that follows from the object is
// predicted, the rest is listed as assigned; nothing else is. Each row is what
// kube-apiserver 1.37.2 did (conformance/testdata/fidelity/service-*).
func TestServiceCreateAssigned(t *testing.T) {
	meta := []string{".metadata.uid", ".metadata.creationTimestamp", ".metadata.resourceVersion"}
	port := func(kv ...any) map[string]any {
		p := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			p[kv[i].(string)] = kv[i+1]
		}
		return p
	}
	tests := []struct {
		name     string
		spec     map[string]any
		assigned []string
		want     map[string]any // fields of the predicted spec
	}{
		{"ClusterIP", map[string]any{"selector": map[string]any{"app": "web"}, "ports": []any{port("port", int64(80))}},
			[]string{".spec.clusterIP", ".spec.clusterIPs", ".spec.ipFamilies"},
			map[string]any{"ipFamilyPolicy": "SingleStack"}},
		{"ClusterIP with its clusterIP", map[string]any{"clusterIP": "10.0.0.77", "ports": []any{port("port", int64(80))}},
			nil, map[string]any{"clusterIPs": []any{"10.0.0.77"}, "ipFamilies": []any{"IPv4"}, "ipFamilyPolicy": "SingleStack"}},
		{"NodePort: ports of one number share the node port requested", map[string]any{"type": "NodePort", "ports": []any{
			port("name", "dns-udp", "port", int64(53), "protocol", "UDP"),
			port("name", "dns-tcp", "port", int64(53), "protocol", "TCP", "nodePort", int64(30053)),
			port("name", "metrics", "port", int64(9153))}},
			[]string{".spec.clusterIP", ".spec.clusterIPs", ".spec.ipFamilies", ".spec.ports[2].nodePort"},
			map[string]any{"ports": []any{
				port("name", "dns-udp", "port", int64(53), "protocol", "UDP", "targetPort", int64(53), "nodePort", int64(30053)),
				port("name", "dns-tcp", "port", int64(53), "protocol", "TCP", "targetPort", int64(53), "nodePort", int64(30053)),
				port("name", "metrics", "port", int64(9153), "protocol", "TCP", "targetPort", int64(9153))}}},
		{"LoadBalancer, externalTrafficPolicy Local", map[string]any{"type": "LoadBalancer", "externalTrafficPolicy": "Local",
			"ports": []any{port("port", int64(443))}},
			[]string{".spec.clusterIP", ".spec.clusterIPs", ".spec.ipFamilies", ".spec.ports[0].nodePort", ".spec.healthCheckNodePort"},
			map[string]any{"allocateLoadBalancerNodePorts": true}},
		{"LoadBalancer without node ports", map[string]any{"type": "LoadBalancer", "allocateLoadBalancerNodePorts": false,
			"ports": []any{port("name", "http", "port", int64(80)), port("name", "https", "port", int64(443), "nodePort", int64(30443))}},
			[]string{".spec.clusterIP", ".spec.clusterIPs", ".spec.ipFamilies"}, nil},
		{"ExternalName", map[string]any{"type": "ExternalName", "externalName": "db.example.com"}, nil, nil},
		{"headless with a selector", map[string]any{"clusterIP": "None", "selector": map[string]any{"app": "db"}, "ports": []any{port("port", int64(5432))}},
			[]string{".spec.ipFamilies"}, map[string]any{"clusterIPs": []any{"None"}, "ipFamilyPolicy": "SingleStack"}},
		{"headless without a selector", map[string]any{"clusterIP": "None", "ports": []any{port("port", int64(5432))}},
			[]string{".spec.ipFamilies"}, map[string]any{"clusterIPs": []any{"None"}, "ipFamilyPolicy": "RequireDualStack"}},
		{"headless without a selector, one family given", map[string]any{"clusterIP": "None", "ipFamilies": []any{"IPv6"},
			"ports": []any{port("port", int64(5432))}},
			nil, map[string]any{"ipFamilies": []any{"IPv6", "IPv4"}, "ipFamilyPolicy": "RequireDualStack"}},
		{"PreferDualStack", map[string]any{"ipFamilyPolicy": "PreferDualStack", "ports": []any{port("port", int64(80))}},
			[]string{".spec.clusterIP", ".spec.clusterIPs", ".spec.ipFamilies"}, map[string]any{"ipFamilyPolicy": "PreferDualStack"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svc := map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "web"}, "spec": unstructured.DeepCopy(tc.spec)}
			if err := Create(serverconfig.MustFor(kube.Default()), "v1", "Service", svc); err != nil {
				t.Fatal(err)
			}
			if got, want := assignedPaths("v1", "Service", svc, true), append(append([]string(nil), meta...), tc.assigned...); !reflect.DeepEqual(got, want) {
				t.Errorf("Assigned = %v, want %v", got, want)
			}
			spec := unstructured.Object(svc, "spec")
			for k, v := range tc.want {
				if !reflect.DeepEqual(spec[k], v) {
					t.Errorf("spec.%s = %v, want %v", k, spec[k], v)
				}
			}
		})
	}
}

// A Service's type changes wipe what the new type does not use when the request left it as
// stored (dropTypeDependentFields), and a new node port is assigned on an update.
func TestServiceTypeChanges(t *testing.T) {
	stored := func(spec map[string]any) map[string]any {
		s := map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "web"}, "spec": spec}
		if err := Create(serverconfig.MustFor(kube.Default()), "v1", "Service", s); err != nil {
			t.Fatal(err)
		}
		sp := unstructured.Object(s, "spec")
		sp["clusterIP"], sp["clusterIPs"], sp["ipFamilies"] = "10.0.0.9", []any{"10.0.0.9"}, []any{"IPv4"}
		return s
	}
	t.Run("NodePort to ClusterIP", func(t *testing.T) {
		old := stored(map[string]any{"type": "NodePort", "ports": []any{map[string]any{"name": "http", "port": int64(80), "nodePort": int64(30080)}}})
		obj := unstructured.DeepCopy(old).(map[string]any)
		unstructured.Object(obj, "spec")["type"] = "ClusterIP"
		if err := Update(serverconfig.MustFor(kube.Default()), "v1", "Service", obj, old); err != nil {
			t.Fatal(err)
		}
		spec := unstructured.Object(obj, "spec")
		if p := unstructured.Objects(spec, "ports")[0]; p["nodePort"] != nil || spec["externalTrafficPolicy"] != nil {
			t.Errorf("node port or externalTrafficPolicy kept: %v", spec)
		}
		if got := assignedPaths("v1", "Service", obj, false); !reflect.DeepEqual(got, []string{".metadata.resourceVersion"}) {
			t.Errorf("Assigned = %v", got)
		}
	})
	t.Run("ClusterIP to NodePort", func(t *testing.T) {
		old := stored(map[string]any{"ports": []any{map[string]any{"name": "http", "port": int64(80)}}})
		obj := unstructured.DeepCopy(old).(map[string]any)
		unstructured.Object(obj, "spec")["type"] = "NodePort"
		if err := Update(serverconfig.MustFor(kube.Default()), "v1", "Service", obj, old); err != nil {
			t.Fatal(err)
		}
		if got, want := assignedPaths("v1", "Service", obj, false), []string{".metadata.resourceVersion", ".spec.ports[0].nodePort"}; !reflect.DeepEqual(got, want) {
			t.Errorf("Assigned = %v, want %v", got, want)
		}
	})
	t.Run("LoadBalancer Local to Cluster", func(t *testing.T) {
		old := stored(map[string]any{"type": "LoadBalancer", "externalTrafficPolicy": "Local",
			"ports": []any{map[string]any{"name": "http", "port": int64(80), "nodePort": int64(30080)}}})
		unstructured.Object(old, "spec")["healthCheckNodePort"] = int64(31000)
		obj := unstructured.DeepCopy(old).(map[string]any)
		unstructured.Object(obj, "spec")["externalTrafficPolicy"] = "Cluster"
		if err := Update(serverconfig.MustFor(kube.Default()), "v1", "Service", obj, old); err != nil {
			t.Fatal(err)
		}
		if hc := unstructured.Object(obj, "spec")["healthCheckNodePort"]; hc != nil {
			t.Errorf("healthCheckNodePort %v kept", hc)
		}
	})
}

// A Job created without manualSelector: the strategy adds the job-name labels to the pod
// template; the controller-uid labels and the selector hold the uid, listed as assigned. A
// Job without labels of its own takes its template's (the defaulter shares the map the
// strategy then fills). Each row is what kube-apiserver 1.37.2 did
// (conformance/testdata/fidelity/job-*).
func TestJobCreate(t *testing.T) {
	job := func(labels, tmplLabels map[string]any, extra map[string]any) map[string]any {
		meta := map[string]any{"name": "migrate"}
		if labels != nil {
			meta["labels"] = labels
		}
		tmpl := map[string]any{"spec": map[string]any{"restartPolicy": "Never",
			"containers": []any{map[string]any{"name": "migrate", "image": "registry.example.com/app/migrate:v1.4.0"}}}}
		if tmplLabels != nil {
			tmpl["metadata"] = map[string]any{"labels": tmplLabels}
		}
		spec := map[string]any{"template": tmpl}
		for k, v := range extra {
			spec[k] = v
		}
		return map[string]any{"apiVersion": "batch/v1", "kind": "Job", "metadata": meta, "spec": spec}
	}
	uid := []string{".spec.selector", ".spec.template.metadata.labels.controller-uid", ".spec.template.metadata.labels.batch.kubernetes.io/controller-uid"}
	mirrored := []string{".spec.selector", ".spec.template.metadata.labels.controller-uid", ".metadata.labels.controller-uid",
		".spec.template.metadata.labels.batch.kubernetes.io/controller-uid", ".metadata.labels.batch.kubernetes.io/controller-uid"}
	generated := map[string]any{"app": "migrate", "job-name": "migrate", "batch.kubernetes.io/job-name": "migrate"}
	tests := []struct {
		name         string
		job          map[string]any
		labels, tmpl map[string]any
		assigned     []string
	}{
		{"no labels of its own", job(nil, map[string]any{"app": "migrate"}, nil), generated, generated, mirrored},
		{"no template labels", job(nil, nil, nil),
			map[string]any{"job-name": "migrate", "batch.kubernetes.io/job-name": "migrate"},
			map[string]any{"job-name": "migrate", "batch.kubernetes.io/job-name": "migrate"}, mirrored},
		{"labels of its own, equal to the template's", job(map[string]any{"app": "migrate"}, map[string]any{"app": "migrate"}, nil),
			map[string]any{"app": "migrate"}, generated, uid},
		{"manualSelector", job(nil, map[string]any{"app": "migrate"}, map[string]any{"manualSelector": true,
			"selector": map[string]any{"matchLabels": map[string]any{"app": "migrate"}}}),
			map[string]any{"app": "migrate"}, map[string]any{"app": "migrate"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			obj := unstructured.DeepCopy(tc.job).(map[string]any)
			if err := Create(serverconfig.MustFor(kube.Default()), "batch/v1", "Job", obj); err != nil {
				t.Fatal(err)
			}
			if got := unstructured.Object(unstructured.Object(obj, "metadata"), "labels"); !reflect.DeepEqual(got, tc.labels) {
				t.Errorf("labels %v, want %v", got, tc.labels)
			}
			if got := unstructured.Nested(obj, "spec", "template", "metadata", "labels"); !reflect.DeepEqual(got, tc.tmpl) {
				t.Errorf("template labels %v, want %v", got, tc.tmpl)
			}
			want := append([]string{".metadata.uid", ".metadata.creationTimestamp", ".metadata.resourceVersion"}, tc.assigned...)
			if got := assignedPaths("batch/v1", "Job", obj, true); !reflect.DeepEqual(got, want) {
				t.Errorf("Assigned:\n%s", testkit.Diff(want, got))
			}
		})
	}
}
