package oracle

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/managedfields"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Scaling through /scale moves the replica count to an entry with subresource "scale",
// recorded at the parent's apiVersion.
func TestScale(t *testing.T) {
	tc := BuiltinConverter()
	sc, err := NewScaleConverter(tc)
	if err != nil {
		t.Fatal(err)
	}
	s := NewServer(&Kind{GVK: deployGVK, Resource: "deployments", Converter: tc, ScalePaths: managedfields.ResourcePathMappings{"apps/v1": smdpath.MakePathOrDie("spec", "replicas")}},
		&Kind{GVK: ScaleGVK, Converter: sc})
	live := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "obj", "namespace": "default", "uid": "u",
		"managedFields": []any{map[string]any{"apiVersion": "apps/v1", "fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:spec": map[string]any{"f:replicas": map[string]any{}}}, "manager": "helm", "operation": "Apply", "time": "2024-01-04T10:00:10Z"}}},
		"spec": map[string]any{"replicas": int64(4)}}
	body := map[string]any{"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": map[string]any{"name": "obj", "namespace": "default"}, "spec": map[string]any{"replicas": int64(2)}}
	r, err := s.Update(Request{GVK: deployGVK, Subresource: "scale", Live: live, Object: body, Manager: "hpa", Now: time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC)})
	if err != nil || r.Error != nil {
		t.Fatal(err, r.Error)
	}
	u := &unstructured.Unstructured{Object: r.Object}
	if got, _, _ := unstructured.NestedInt64(u.Object, "spec", "replicas"); got != 2 {
		t.Errorf("replicas %d, want 2", got)
	}
	es := u.GetManagedFields()
	if len(es) != 1 || es[0].Manager != "hpa" || es[0].Subresource != "scale" || es[0].APIVersion != "apps/v1" {
		t.Fatalf("entries: %+v", es)
	}
}
