package merge

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/schema"
)

// The empty lists of a write are what validation sees and storage drops (rules.md
// valid.builtin; conformance/testdata/fidelity/*-empty-*): put back where the write sets the field
// and defaulting left it unset, taken out again for the stored object.
func TestEmptiesForValidation(t *testing.T) {
	body := func() map[string]any {
		return map[string]any{
			"metadata": map[string]any{"labels": map[string]any{}},
			"spec": map[string]any{"rules": []any{}, "backend": map[string]any{}, "kept": []any{},
				"items": []any{map[string]any{"values": []any{}}}},
			"status": map[string]any{"conditions": []any{}},
		}
	}
	// As defaulting leaves it: empties gone ("rules" without omitempty comes back null),
	// a struct kept as {}, one list defaulted to a value.
	defaulted := func() map[string]any {
		return map[string]any{
			"metadata": map[string]any{},
			"spec":     map[string]any{"rules": nil, "backend": map[string]any{}, "kept": []any{"default"}, "items": []any{map[string]any{}}},
			"status":   map[string]any{},
		}
	}
	builtin := func(status bool) *schema.Type { return &schema.Type{Source: schema.SourceBuiltin, Status: status} }
	for _, tc := range []struct {
		name        string
		typ         *schema.Type
		subresource string
		want        map[string]any // what validation sees
	}{
		{"main resource, no status subresource", builtin(false), "", map[string]any{
			"metadata": map[string]any{},
			"spec":     map[string]any{"rules": []any{}, "backend": map[string]any{}, "kept": []any{"default"}, "items": []any{map[string]any{"values": []any{}}}},
			"status":   map[string]any{"conditions": []any{}},
		}},
		{"main resource, status from the stored object", builtin(true), "", map[string]any{
			"metadata": map[string]any{},
			"spec":     map[string]any{"rules": []any{}, "backend": map[string]any{}, "kept": []any{"default"}, "items": []any{map[string]any{"values": []any{}}}},
			"status":   map[string]any{},
		}},
		{"/status: the rest from the stored object", builtin(true), "status", map[string]any{
			"metadata": map[string]any{},
			"spec":     map[string]any{"rules": nil, "backend": map[string]any{}, "kept": []any{"default"}, "items": []any{map[string]any{}}},
			"status":   map[string]any{"conditions": []any{}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &request{ep: Endpoint{Subresource: tc.subresource}, typ: tc.typ}
			empties := emptyCollections(tc.typ, body())
			obj := defaulted()
			put := r.restoreEmpties(obj, empties)
			if !reflect.DeepEqual(obj, tc.want) {
				t.Errorf("validation sees %v, want %v", obj, tc.want)
			}
			dropEmpties(obj, put)
			if want := defaulted(); !reflect.DeepEqual(obj, want) {
				t.Errorf("stored %v, want %v", obj, want)
			}
		})
	}
	t.Run("custom resources keep their empties: nothing to do", func(t *testing.T) {
		if got := emptyCollections(&schema.Type{Source: schema.SourceCRD}, body()); got != nil {
			t.Errorf("got %v", got)
		}
	})
	t.Run("a value the registry put there stays", func(t *testing.T) {
		r := &request{typ: builtin(false)}
		obj := defaulted()
		put := r.restoreEmpties(obj, emptyCollections(r.typ, body()))
		unstructured.Object(obj, "spec")["rules"] = []any{"set by the strategy"}
		dropEmpties(obj, put)
		if got := unstructured.Object(obj, "spec")["rules"]; !reflect.DeepEqual(got, []any{"set by the strategy"}) {
			t.Errorf("rules %v", got)
		}
	})
}
