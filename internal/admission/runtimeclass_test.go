package admission

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// What RuntimeClass puts into a Pod is the Pod's own: the registry's defaulting rewrites
// the object in place (server.Strategy), which must not reach the class the cluster state
// holds, nor the Pod's next write.
func TestRuntimeClassCopiesTheClass(t *testing.T) {
	class := `{"apiVersion":"node.k8s.io/v1","kind":"RuntimeClass","metadata":{"name":"gvisor"},"handler":"runsc",` +
		`"overhead":{"podFixed":{"cpu":"0.25"}},"scheduling":{"nodeSelector":{"sandbox":"yes"},"tolerations":[{"key":"sandbox","operator":"Exists","effect":"NoSchedule"}]}}`
	s := state(t, class)
	stored, _ := s.Get("node.k8s.io", "RuntimeClass", "", "gvisor")
	before := unstructured.DeepCopyObject(stored)
	pod := obj(t, `{"metadata":{"name":"p","namespace":"ns"},"spec":{"runtimeClassName":"gvisor","containers":[{"name":"c","image":"i"}]}}`)
	res := New(Config{Minor: 37, State: s}).Mutate(write{Kind: "Pod", Create: true}.of(t, pod, nil))
	if res.Refusal != nil {
		t.Fatal(res.Refusal.Message)
	}
	spec := pod["spec"].(map[string]any)
	var sandbox map[string]any
	for _, x := range unstructured.List(spec, "tolerations") {
		if m, _ := x.(map[string]any); unstructured.Str(m, "key") == "sandbox" {
			sandbox = m
		}
	}
	if sandbox == nil {
		t.Fatalf("tolerations %v, want the class's among them", spec["tolerations"])
	}
	// What the defaulting would do to the Pod's maps, in place.
	sandbox["tolerationSeconds"] = int64(1)
	spec["overhead"].(map[string]any)["cpu"] = "250m"
	spec["nodeSelector"].(map[string]any)["sandbox"] = "no"
	if !reflect.DeepEqual(stored, before) {
		t.Errorf("the cluster state's RuntimeClass changed with the Pod: %v", stored)
	}
}
