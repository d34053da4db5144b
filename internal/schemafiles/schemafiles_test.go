package schemafiles

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
)

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: not-a-crd}
`

// TestReadThenAnotherMinor: a --crd file's CRD is registered, what is no CRD is a warning,
// and the registry of another minor holds the CRD too.
func TestReadThenAnotherMinor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crds.yaml")
	if err := os.WriteFile(path, []byte(crd), 0o644); err != nil {
		t.Fatal(err)
	}
	minors := kube.Minors()
	reg, err := schema.NewRegistry(minors[len(minors)-1])
	if err != nil {
		t.Fatal(err)
	}
	var s Set
	warnings, err := s.Read(reg, &input.Loader{}, nil, []string{path})
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "is a ConfigMap, not a CustomResourceDefinition; ignored") {
		t.Fatalf("%q, %v", warnings, err)
	}
	widget := schema.GVK{Group: "example.com", Version: "v1", Kind: "Widget"}
	if _, ok := reg.Lookup(widget); !ok {
		t.Error("the CRD is not registered")
	}
	other, err := s.Registry(minors[0])
	if err != nil || other.Minor() != minors[0] {
		t.Fatalf("%v", err)
	}
	if _, ok := other.Lookup(widget); !ok {
		t.Errorf("the registry of %s lacks the CRD", minors[0])
	}
	if _, err := s.Read(reg, &input.Loader{}, []string{filepath.Join(t.TempDir(), "none")}, nil); err == nil || !strings.HasPrefix(err.Error(), "--schema ") {
		t.Errorf("a missing --schema: %v", err)
	}
}

// TestRegisterInputs: a live CRD and a manifest's are registered; one that cannot be is a
// warning, by object and in order; what is no CRD is left alone.
func TestRegisterInputs(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Newest())
	live := input.Parse("live.yaml", []byte(crd))
	bad := strings.Replace(strings.Replace(crd, "widgets.example.com", "gadgets.example.com", 1), "kind: Widget, plural: widgets", "kind: Gadget, plural: gadgets", 1)
	bad = strings.Replace(bad, "schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}", "schema: {openAPIV3Schema: {type: [object]}}", 1) // no schema the registry reads
	manifests := input.Parse("m.yaml", []byte(bad))
	byObject, warnings := RegisterInputs(reg, live, manifests)
	if _, ok := reg.Lookup(schema.GVK{Group: "example.com", Version: "v1", Kind: "Widget"}); !ok {
		t.Error("the live CRD is not registered")
	}
	if len(warnings) != 1 || len(byObject) != 1 || !strings.HasPrefix(warnings[0], "the CustomResourceDefinition at m.yaml, document 0, line 1 was not registered: ") {
		t.Fatalf("warnings %q, by object %d", warnings, len(byObject))
	}
	if byObject[manifests[0].Object] != warnings[0] {
		t.Errorf("by object: %v", byObject)
	}
	if !IsCRD(schema.GVK{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}) || IsCRD(schema.GVK{Version: "v1", Kind: "ConfigMap"}) {
		t.Error("IsCRD")
	}
}
