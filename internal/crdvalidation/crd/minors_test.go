package crd_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/crdvalidation/crd"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
	"sigs.k8s.io/yaml"
)

// selectableCRD is a CRD whose version has n selectable fields.
func selectableCRD(t *testing.T, n int) map[string]any {
	t.Helper()
	var props, fields []string
	for i := 0; i < n; i++ {
		props = append(props, fmt.Sprintf("f%d: {type: string}", i))
		fields = append(fields, fmt.Sprintf("{jsonPath: .spec.f%d}", i))
	}
	src := fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com, resourceVersion: "5", uid: "1234", generation: 1}
spec:
  group: example.com
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    selectableFields: [%s]
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties: {%s}
status: {storedVersions: [v1]}
`, strings.Join(fields, ", "), strings.Join(props, ", "))
	var m map[string]any
	if err := yaml.Unmarshal([]byte(src), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// An update may keep more than 8 selectable fields the old CRD already had, unchanged, from
// 1.35 (apiextensions-apiserver 1.35 findTooManySelectableFieldsAllowed); 1.34 refuses them
// as a create does. (No minor creates such a CRD, so no server can be recorded showing it.)
func TestTooManySelectableFieldsUnchanged(t *testing.T) {
	old, obj := selectableCRD(t, 9), selectableCRD(t, 9)
	obj["metadata"].(map[string]any)["labels"] = map[string]any{"touched": "yes"}
	// One version: the internal form holds its selectable fields at the spec.
	const tooMany = "spec.selectableFields: Too many: 9: must have at most 8 items"
	for minor, want := range map[int]string{34: tooMany, 35: "", 36: "", 37: ""} {
		r := crd.Validate(serverconfig.MustFor(kube.Minor(minor)), obj, old)
		var got []string
		for _, e := range r.Errors {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != want {
			t.Errorf("1.%d: %q, want %q", minor, got, want)
		}
	}
	// A create is refused at every minor.
	for _, minor := range []int{34, 37} {
		r := crd.Validate(serverconfig.MustFor(kube.Minor(minor)), obj, nil)
		if len(r.Errors) != 1 || r.Errors[0].Error() != tooMany {
			t.Errorf("1.%d create: %v", minor, r.Errors)
		}
	}
}
