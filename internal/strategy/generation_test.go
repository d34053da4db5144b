package strategy

import (
	"path/filepath"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
)

func genOf(obj map[string]any) any { return unstructured.Object(obj, "metadata")["generation"] }

// The generation moves when a strategy's comparison of the decoded old and new values says
// the spec changed: numbers by value in their Go type, quantities by value, and for a few
// kinds reflect.DeepEqual, which tells an empty list from a missing one (issue 20). Each
// expectation was observed on kube-apiserver 1.37.2 (conformance/testdata/fidelity).
func TestGenerationComparesDecodedValues(t *testing.T) {
	// A CRD with numeric schema bounds as the server returned it (Gateway API's HTTPRoute,
	// an excerpt): minimum, maximum are float64 fields of the schema type, which the live
	// JSON holds as integers.
	crd := testkit.ReadObject(t, filepath.Join("testdata", "httproutes-crd.live.json"))
	backendWeight := func(o map[string]any) map[string]any {
		s := unstructured.Nested(unstructured.List(unstructured.Object(o, "spec"), "versions")[0].(map[string]any), "schema", "openAPIV3Schema", "properties", "spec",
			"properties", "rules", "items", "properties", "backendRefs", "items", "properties", "weight")
		return s.(map[string]any)
	}
	withLabel := func(o map[string]any) map[string]any {
		unstructured.EnsureObject(unstructured.EnsureObject(o, "metadata"), "labels")["gateway.networking.k8s.io/policy"] = "Direct"
		return o
	}
	withBound := func(o map[string]any) map[string]any {
		backendWeight(o)["maximum"] = int64(1000)
		return o
	}
	deploy := func(mem, cpu any) map[string]any {
		return map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "generation": int64(1)},
			"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
				"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
					"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27",
						"resources": map[string]any{"requests": map[string]any{"memory": mem, "cpu": cpu}}}}}}}}
	}
	netpol := func(ingress any) map[string]any {
		spec := map[string]any{"podSelector": map[string]any{}, "policyTypes": []any{"Ingress"}}
		if ingress != nil {
			spec["ingress"] = ingress
		}
		return map[string]any{"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
			"metadata": map[string]any{"name": "deny-ingress", "generation": int64(1)}, "spec": spec}
	}
	webhook := func(selector map[string]any) map[string]any {
		return map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
			"metadata": map[string]any{"name": "guard", "generation": int64(1)},
			"webhooks": []any{map[string]any{"name": "guard.example.com", "admissionReviewVersions": []any{"v1"}, "sideEffects": "None",
				"clientConfig": map[string]any{"url": "https://guard.example.com/validate"}, "namespaceSelector": selector}}}
	}
	tests := []struct {
		name     string
		old, obj map[string]any
		want     int64
	}{
		{"CRD: a label, the schema's integer bounds decoded as float64 (issue 20)", crd, withLabel(unstructured.DeepCopy(crd).(map[string]any)), 1},
		{"CRD: a schema bound changes", crd, withBound(unstructured.DeepCopy(crd).(map[string]any)), 2},
		{"Deployment: quantities in other units are the same values", deploy(int64(1073741824), "0.5"), deploy("1Gi", "500m"), 1},
		{"Deployment: a different quantity", deploy("1Gi", "500m"), deploy("2Gi", "500m"), 2},
		{"NetworkPolicy: ingress: [] again is a change to reflect.DeepEqual", netpol(nil), netpol([]any{}), 2},
		{"NetworkPolicy: the same spec", netpol(nil), netpol(nil), 1},
		{"webhooks: namespaceSelector.matchLabels: {} is a change to reflect.DeepEqual", webhook(map[string]any{}),
			webhook(map[string]any{"matchLabels": map[string]any{}}), 2},
		{"webhooks: the same", webhook(map[string]any{}), webhook(map[string]any{}), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			av, kind := tc.obj["apiVersion"].(string), tc.obj["kind"].(string)
			old := tc.old // the CRD as the server returned it
			if kind != "CustomResourceDefinition" {
				old = unstructured.DeepCopy(tc.old).(map[string]any)
				if err := Create(serverconfig.MustFor(kube.Default()), av, kind, old); err != nil {
					t.Fatal(err)
				}
			}
			obj := unstructured.DeepCopy(tc.obj).(map[string]any)
			if err := Update(serverconfig.MustFor(kube.Default()), av, kind, obj, old); err != nil {
				t.Fatal(err)
			}
			if g := genOf(obj); g != tc.want {
				t.Errorf("generation %v, want %d", g, tc.want)
			}
		})
	}
}

// Without the request's decoded object, the empty list of a NetworkPolicy apply is not
// seen: PrepareForUpdate says so, PrepareForUpdateDecoded sees it.
func TestDecodedObjectShowsEmptyLists(t *testing.T) {
	old := map[string]any{"metadata": map[string]any{"generation": int64(3)},
		"spec": map[string]any{"podSelector": map[string]any{}, "policyTypes": []any{"Ingress"}}}
	decoded := map[string]any{"metadata": map[string]any{},
		"spec": map[string]any{"podSelector": map[string]any{}, "ingress": []any{}, "policyTypes": []any{"Ingress"}}}
	for _, tc := range []struct {
		decoded map[string]any
		want    int64
	}{{nil, 3}, {decoded, 4}} {
		obj := unstructured.DeepCopy(old).(map[string]any)
		PrepareForUpdate(serverconfig.MustFor(kube.Default()), "networking.k8s.io/v1", "NetworkPolicy", tc.decoded, obj, old)
		if g := genOf(obj); g != tc.want {
			t.Errorf("decoded %v: generation %v, want %d", tc.decoded != nil, g, tc.want)
		}
	}
	if !NeedsDecoded("networking.k8s.io/v1", "NetworkPolicy", false) || NeedsDecoded("apps/v1", "Deployment", false) ||
		!NeedsDecoded("batch/v1", "Job", true) || NeedsDecoded("batch/v1", "Job", false) {
		t.Error("NeedsDecoded: want it for NetworkPolicy updates and Job creates only")
	}
}

// Kinds whose strategies compare more than, or other than, spec.
func TestGenerationRulesOfOtherKinds(t *testing.T) {
	t.Run("CSIDriver: no generation on create, +1 on a spec change", func(t *testing.T) {
		d := map[string]any{"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": map[string]any{"name": "ebs.csi.aws.com"},
			"spec": map[string]any{"attachRequired": true}}
		if err := Create(serverconfig.MustFor(kube.Default()), "storage.k8s.io/v1", "CSIDriver", d); err != nil {
			t.Fatal(err)
		}
		if g := genOf(d); g != nil {
			t.Fatalf("create: generation %v, want none", g)
		}
		next := unstructured.DeepCopy(d).(map[string]any)
		unstructured.Object(next, "spec")["requiresRepublish"] = true
		if err := Update(serverconfig.MustFor(kube.Default()), "storage.k8s.io/v1", "CSIDriver", next, d); err != nil {
			t.Fatal(err)
		}
		if g := genOf(next); g != int64(1) {
			t.Errorf("update: generation %v, want 1", g)
		}
	})
	t.Run("EndpointSlice: labels count, annotations do not", func(t *testing.T) {
		eps := map[string]any{"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "metadata": map[string]any{"name": "web-abc"},
			"addressType": "IPv4", "endpoints": []any{map[string]any{"addresses": []any{"10.1.0.7"}}}}
		if err := Create(serverconfig.MustFor(kube.Default()), "discovery.k8s.io/v1", "EndpointSlice", eps); err != nil {
			t.Fatal(err)
		}
		ann := unstructured.DeepCopy(eps).(map[string]any)
		unstructured.EnsureObject(unstructured.Object(ann, "metadata"), "annotations")["note"] = "x"
		lab := unstructured.DeepCopy(eps).(map[string]any)
		unstructured.EnsureObject(unstructured.Object(lab, "metadata"), "labels")["kubernetes.io/service-name"] = "web"
		for _, c := range []struct {
			obj  map[string]any
			want int64
		}{{ann, 1}, {lab, 2}} {
			if err := Update(serverconfig.MustFor(kube.Default()), "discovery.k8s.io/v1", "EndpointSlice", c.obj, eps); err != nil {
				t.Fatal(err)
			}
			if g := genOf(c.obj); g != c.want {
				t.Errorf("generation %v, want %d", g, c.want)
			}
		}
	})
}
