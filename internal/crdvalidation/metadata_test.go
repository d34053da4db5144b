package crdvalidation

import (
	"encoding/json"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

var metadataSeeds = []string{
	`{}`,
	`{"metadata":null}`,
	`{"metadata":{"name":"a"}}`,
	`{"metadata":{"name":"a","managedFields":null}}`,
	`{"metadata":{"name":"a","managedFields":[]}}`,
	`{"metadata":{"name":"a","managedFields":[{"manager":"ci","operation":"Apply","apiVersion":"v1","time":"2026-12-01T09:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:a":{}}}}]}}`,
	`{"metadata":{"name":"a","managedFields":[{"manager":"ci","operation":"Bad","fieldsType":"FieldsV2","subresource":"status"},{"manager":""}]}}`,
	`{"metadata":{"name":"a","managedFields":[{"manager":1}]}}`,
	`{"metadata":{"name":"a","managedFields":["x"]}}`,
	`{"metadata":{"name":"a","managedFields":{"manager":"ci"}}}`,
	`{"metadata":{"name":"a","managedFields":[{"time":"yesterday"}]}}`,
	`{"metadata":{"name":"a","labels":{"a":1},"managedFields":[{"manager":"ci"}]}}`,
	`{"metadata":"a"}`,
}

// The accessor the metadata checks read gives the managedFields
// Unstructured.GetManagedFields gives, for any metadata.
func TestConvertedEntriesAreUnstructureds(t *testing.T) {
	converted := 0
	for _, s := range metadataSeeds {
		if checkConvertedEntries(t, []byte(s)) {
			converted++
		}
	}
	if converted < 5 {
		t.Errorf("only %d of the seeds' entries taken from the conversion", converted)
	}
}

func FuzzConvertedEntries(f *testing.F) {
	for _, s := range metadataSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkConvertedEntries(t, data) })
}

// checkConvertedEntries compares the managedFields of an object's convertedMeta accessor
// with those of its Unstructured, and reports whether they were taken from the conversion.
func checkConvertedEntries(t *testing.T, data []byte) bool {
	var obj map[string]any
	if json.Unmarshal(data, &obj) != nil || obj == nil {
		return false
	}
	if _, ok := obj["metadata"]; ok {
		if _, isMap := obj["metadata"].(map[string]any); !isMap && obj["metadata"] != nil {
			return false // meta.Accessor refuses it: no accessor to compare
		}
	}
	want := (&unstructured.Unstructured{Object: obj}).GetManagedFields()
	a := convertMeta(obj).accessor()
	got := a.GetManagedFields()
	if len(got) != len(want) || len(got) > 0 && !reflect.DeepEqual(got, want) {
		t.Errorf("%s: managedFields %#v, want %#v", data, got, want)
	}
	_, converted := a.(*convertedEntries)
	return converted
}

var _ metav1.Object = (*convertedEntries)(nil)
