package fieldpath

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestEntriesUnstructuredRoundTrip(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	entries := []Entry{
		{Manager: "kubectl", Operation: OperationApply, APIVersion: "apps/v1", Time: &now, FieldsType: FieldsTypeV1,
			FieldsV1: []byte(`{"f:spec":{"f:replicas":{}}}`)},
		{Manager: "kube-controller-manager", Operation: OperationUpdate, APIVersion: "apps/v1", FieldsType: FieldsTypeV1,
			FieldsV1: []byte(`{"f:status":{".":{}}}`), Subresource: "status"},
		{},
	}
	got, err := EntriesToUnstructured(entries)
	if err != nil {
		t.Fatal(err)
	}
	// What decoding the entries' JSON gives.
	raw, _ := json.Marshal(entries)
	var want []any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("EntriesToUnstructured = %#v, want %#v", got, want)
	}
	back, ok := EntriesFromUnstructured(got)
	if !ok || !reflect.DeepEqual(back, entries) {
		t.Errorf("EntriesFromUnstructured = %#v, %v; want %#v", back, ok, entries)
	}
	// The text form prints as the trees do, and reads back the same entries.
	text, err := EntriesToUnstructuredText(entries)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := mustJSON(t, text), mustJSON(t, got); a != b {
		t.Errorf("EntriesToUnstructuredText prints %s; the trees print %s", a, b)
	}
	if _, isText := text[0].(map[string]any)["fieldsV1"].(json.RawMessage); !isText {
		t.Errorf("EntriesToUnstructuredText keeps fieldsV1 as %T", text[0].(map[string]any)["fieldsV1"])
	}
	if back, ok := EntriesFromUnstructured(text); !ok || !reflect.DeepEqual(back, entries) {
		t.Errorf("EntriesFromUnstructured(text) = %#v, %v; want %#v", back, ok, entries)
	}
	for _, bad := range []any{"x", map[string]any{"manager": 1}, map[string]any{"time": "yesterday"}} {
		if _, ok := EntriesFromUnstructured([]any{bad}); ok {
			t.Errorf("EntriesFromUnstructured accepted %#v", bad)
		}
	}
}

func TestEntriesOf(t *testing.T) {
	obj := func(mf any) map[string]any {
		return map[string]any{"metadata": map[string]any{"managedFields": mf}}
	}
	if e, present, err := EntriesOf(map[string]any{}); e != nil || present || err != nil {
		t.Errorf("absent: %v %v %v", e, present, err)
	}
	if e, present, err := EntriesOf(obj(nil)); e != nil || present || err != nil {
		t.Errorf("null: %v %v %v", e, present, err)
	}
	e, present, err := EntriesOf(obj([]any{map[string]any{"manager": "m", "operation": "Apply", "fieldsV1": json.RawMessage(`{"f:a":{}}`)}}))
	if err != nil || !present || len(e) != 1 || e[0].Manager != "m" || string(e[0].FieldsV1) != `{"f:a":{}}` {
		t.Errorf("entries: %+v %v %v", e, present, err)
	}
	if _, present, err := EntriesOf(obj("not a list")); !present || err == nil {
		t.Errorf("a string: present %v, err %v", present, err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
