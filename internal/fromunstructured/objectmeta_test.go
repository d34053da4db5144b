package fromunstructured

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

var objectMetaSeeds = []string{
	`{"name":"a","namespace":"n","uid":"u","resourceVersion":"7","generation":3,"creationTimestamp":"2026-12-01T09:00:00Z","labels":{"a":"b","c":null},"annotations":{},"finalizers":["x",null],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"o","uid":"u2","controller":true,"blockOwnerDeletion":false},null,{}]}`,
	`{"generateName":"g-","selfLink":"/s","deletionTimestamp":"2026-12-01T09:00:00.5+02:00","deletionGracePeriodSeconds":30,"Name":1,"other":{"x":1}}`,
	`{"managedFields":[{"manager":"ci","operation":"Apply","apiVersion":"v1","time":"2026-12-01T09:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:a":{},"k:{\"x\":\"<&>\"}":{}}},"subresource":"status"},null,{"fieldsV1":null}]}`,
	`{"name":null,"labels":null,"finalizers":null,"ownerReferences":null,"managedFields":null,"deletionTimestamp":null}`,
	`{"generation":3.0}`,
	`{"generation":3.5}`,
	`{"generation":"3"}`,
	`{"name":1}`,
	`{"labels":{"a":1}}`,
	`{"labels":[]}`,
	`{"finalizers":"x"}`,
	`{"finalizers":[1]}`,
	`{"ownerReferences":[{"controller":"yes"}]}`,
	`{"ownerReferences":["x"]}`,
	`{"creationTimestamp":"yesterday"}`,
	`{"creationTimestamp":5}`,
	`{"deletionGracePeriodSeconds":true}`,
	`{"managedFields":[{"time":"2026-13-01T00:00:00Z"}]}`,
	`{"managedFields":[{"fieldsV1":"text"}]}`,
	`{"managedFields":[{"fieldsV1":[1,2]}]}`,
	`{"managedFields":{"manager":"ci"}}`,
}

// decodeAsInput decodes JSON as package input does: integers as int64, other numbers as
// float64; with raw, each managedFields entry's fieldsV1 is kept as its compact text, as
// a dump read with CompactManagedFields keeps it.
func decodeAsInput(t *testing.T, data []byte, raw bool) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	m, ok := testkit.FromNumbers(v).(map[string]any)
	if !ok {
		return nil, false
	}
	if raw {
		l, _ := m["managedFields"].([]any)
		for _, e := range l {
			if entry, ok := e.(map[string]any); ok && entry["fieldsV1"] != nil {
				b, err := json.Marshal(entry["fieldsV1"])
				if err != nil {
					t.Fatal(err)
				}
				entry["fieldsV1"] = json.RawMessage(b)
			}
		}
	}
	return m, true
}

// sameObjectMeta holds ObjectMeta to the converter on metadata decoded from data:
// the same ObjectMeta when it converts, and no conversion where the converter fails. It
// reports whether ObjectMeta converted.
func sameObjectMeta(t *testing.T, data []byte, raw bool) bool {
	md, ok := decodeAsInput(t, data, raw)
	if !ok {
		return false
	}
	want := &metav1.ObjectMeta{}
	err := runtime.DefaultUnstructuredConverter.FromUnstructured(md, want)
	got, ok := ObjectMeta(md)
	switch {
	case ok && err != nil:
		t.Fatalf("%s (raw %v): converted %#v where the converter fails: %v", data, raw, got, err)
	case ok && !reflect.DeepEqual(got, want):
		t.Fatalf("%s (raw %v):\n got %#v\nwant %#v", data, raw, got, want)
	}
	return ok
}

func TestObjectMeta(t *testing.T) {
	var srcs [][]byte
	for _, s := range objectMetaSeeds {
		srcs = append(srcs, []byte(s))
	}
	files, _ := filepath.Glob("../../testdata/recorded/*/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var obj struct {
			Metadata json.RawMessage `json:"metadata"`
		}
		if json.Unmarshal(data, &obj) == nil && len(obj.Metadata) > 0 {
			srcs = append(srcs, obj.Metadata)
		}
	}
	direct := 0
	for _, src := range srcs {
		for _, raw := range []bool{false, true} {
			if sameObjectMeta(t, src, raw) {
				direct++
			}
		}
	}
	if direct < len(srcs) {
		t.Errorf("only %d of %d conversions direct", direct, 2*len(srcs))
	}
	// The seeds the converter takes are converted directly, the others are not.
	for i, want := range []bool{true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, true, false} {
		md, _ := decodeAsInput(t, []byte(objectMetaSeeds[i]), false)
		if _, ok := ObjectMeta(md); ok != want {
			t.Errorf("%s: converted %v, want %v", objectMetaSeeds[i], ok, want)
		}
	}
}

// FuzzObjectMeta holds ObjectMeta to the converter on any metadata.
func FuzzObjectMeta(f *testing.F) {
	for _, s := range objectMetaSeeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, raw bool) {
		sameObjectMeta(t, data, raw)
	})
}
