package fieldpath

import (
	"testing"
	"time"
)

// benchManaged is a Deployment's managedFields as kubectl and a controller leave them: an
// Apply entry of a few containers, ports and env vars, and an Update entry.
func benchManaged(b *testing.B) Managed {
	b.Helper()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	entries := []Entry{
		{Manager: "kubectl", Operation: OperationApply, APIVersion: "apps/v1", Time: &at, FieldsType: FieldsTypeV1,
			FieldsV1: []byte(`{"f:metadata":{"f:labels":{"f:app":{},"f:tier":{}}},"f:spec":{"f:replicas":{},"f:selector":{},` +
				`"f:template":{"f:metadata":{"f:labels":{"f:app":{},"f:tier":{}}},"f:spec":{"f:containers":{` +
				`"k:{\"name\":\"web\"}":{".":{},"f:env":{"k:{\"name\":\"MODE\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"A\\u0026B\"}":{".":{},"f:name":{},"f:value":{}}},` +
				`"f:image":{},"f:name":{},"f:ports":{"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:name":{}}}},` +
				`"k:{\"name\":\"sidecar\"}":{".":{},"f:args":{},"f:image":{},"f:name":{}}},"f:tolerations":{}}}}}`)},
		{Manager: "kube-controller-manager", Operation: OperationUpdate, APIVersion: "apps/v1", Time: &at, FieldsType: FieldsTypeV1,
			Subresource: "status", FieldsV1: []byte(`{"f:status":{"f:conditions":{".":{},"k:{\"type\":\"Available\"}":{".":{},"f:status":{},"f:type":{}}},"f:replicas":{}}}`)},
	}
	m, err := Decode(entries)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

func BenchmarkEncode(b *testing.B) {
	m := benchManaged(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := m.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeText(b *testing.B) {
	m := benchManaged(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := m.EncodeText(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeAsJSONv2(b *testing.B) {
	m := benchManaged(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := m.EncodeAs(TextJSONv2); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeTextAsJSONv2(b *testing.B) {
	m := benchManaged(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := m.EncodeTextAs(TextJSONv2, OrderBytes); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeTextInElementOrder(b *testing.B) {
	m := benchManaged(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := m.EncodeTextAs(TextJSONIter, OrderElements); err != nil {
			b.Fatal(err)
		}
	}
}
