package fieldpath_test

import (
	"encoding/json"
	"fmt"
	"log"
	"sort"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Read an object's metadata.managedFields, ask who owns what, and print paths as the API
// server prints them in conflict messages, or as JSON Pointers.
func Example() {
	var obj map[string]any
	if err := json.Unmarshal([]byte(`{"apiVersion":"apps/v1","kind":"Deployment",
	  "metadata":{"name":"web","managedFields":[
	    {"manager":"hpa-controller","operation":"Update","apiVersion":"apps/v1","time":"2026-12-01T10:00:00Z",
	     "fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"},
	    {"manager":"ci","operation":"Apply","apiVersion":"apps/v1","time":"2026-12-01T09:00:00Z",
	     "fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{"f:image":{}}}}}}}}]},
	  "spec":{"replicas":5,"template":{"spec":{"containers":[{"name":"web","image":"shop/web:1.0"}]}}}}`), &obj); err != nil {
		log.Fatal(err)
	}
	entries, _, err := fieldpath.EntriesOf(obj)
	if err != nil {
		log.Fatal(err)
	}
	managed, err := fieldpath.Decode(entries) // the server's validity rules
	if err != nil {
		log.Fatal(err)
	}
	var keys []string
	for key := range managed.Fields {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		ref := managed.Ref(key)
		managed.Fields[key].Set().Iterate(func(p smdpath.Path) {
			ptr, _ := fieldpath.JSONPointer(p, obj)
			fmt.Printf("%s %s %s: %s at %s\n", ref.Manager, ref.Operation, ref.Subresource, fieldpath.PathString(p), ptr)
		})
	}
	// The server's order: Apply entries first, then by time.
	back, err := managed.Encode()
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range back {
		fmt.Println(e.Manager, e.Operation)
	}
	// Output:
	// ci Apply : .spec.template.spec.containers[name="web"].image at /spec/template/spec/containers/0/image
	// hpa-controller Update scale: .spec.replicas at /spec/replicas
	// ci Apply
	// hpa-controller Update
}

// Encode field sets as managedFields entries and keep their decoding, so that readers of
// the entries need not decode them again: EncodeDecoded vouches for it only when decoding
// the entries gives the same sets (here, a port of a million would read back printed as
// 1e+06, so its entries are left to decoding).
func ExampleManaged_EncodeDecoded() {
	for _, port := range []int{8080, 1000000} {
		m := fieldpath.NewManaged()
		set := smdpath.NewSet(smdpath.MakePathOrDie("spec", "ports", smdpath.KeyByFields("port", port, "protocol", "TCP")))
		m.Fields[`{"manager":"ci","operation":"Apply"}`] = smdpath.NewVersionedSet(set, "v1", true)
		entries, decoded, ok, err := m.EncodeDecoded()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s vouched=%v\n", entries[0].FieldsV1, ok)
		if ok {
			fmt.Println(decoded.Fields[`{"manager":"ci","operation":"Apply"}`].Set().Leaves())
		}
	}
	// Output:
	// {"f:spec":{"f:ports":{"k:{\"port\":8080,\"protocol\":\"TCP\"}":{}}}} vouched=true
	// .spec.ports[port=8080,protocol="TCP"]
	// {"f:spec":{"f:ports":{"k:{\"port\":1000000,\"protocol\":\"TCP\"}":{}}}} vouched=false
}

// A field set's fieldsV1 as the server writes it, and in the canonical form an object
// decoded and encoded again by encoding/json holds (keys in byte order, "." first, HTML
// characters escaped), written from the set directly.
func ExampleSetToCanonicalFieldsV1() {
	set := smdpath.NewSet(
		smdpath.MakePathOrDie("metadata", "annotations", "a&b"),
		smdpath.MakePathOrDie("spec", "ports", smdpath.KeyByFields("port", 80, "protocol", "TCP")),
		smdpath.MakePathOrDie("spec", "ports", smdpath.KeyByFields("port", 80, "protocol", "TCP"), "name"),
	)
	server, err := fieldpath.SetToFieldsV1(set)
	if err != nil {
		log.Fatal(err)
	}
	canonical, err := fieldpath.SetToCanonicalFieldsV1(set)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(server))
	fmt.Println(string(canonical))
	// Output:
	// {"f:metadata":{"f:annotations":{"f:a&b":{}}},"f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:name":{}}}}}
	// {"f:metadata":{"f:annotations":{"f:a\u0026b":{}}},"f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:name":{}}}}}
}

// Write a field set as a release's API server writes it: Kubernetes 1.38
// (structured-merge-diff v7) writes the characters and numbers of key and value elements
// otherwise than 1.32 to 1.37.
func ExampleSetToFieldsV1As() {
	set, err := fieldpath.FieldsV1ToSet([]byte(`{"f:spec":{"f:env":{"k:{\"name\":\"A\\u0026B\"}":{}},"f:weights":{"v:1e-07":{}}}}`))
	if err != nil {
		log.Fatal(err)
	}
	for _, text := range []fieldpath.Text{fieldpath.TextJSONIter, fieldpath.TextJSONv2} {
		raw, err := fieldpath.SetToFieldsV1As(set, text)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%v: %s\n", text, raw)
	}
	// Output:
	// structured-merge-diff v4/v6: {"f:spec":{"f:env":{"k:{\"name\":\"A\\u0026B\"}":{}},"f:weights":{"v:1e-07":{}}}}
	// structured-merge-diff v7: {"f:spec":{"f:env":{"k:{\"name\":\"A&B\"}":{}},"f:weights":{"v:1e-7":{}}}}
}

// The fields a manager owns that the live object holds and the manifest no longer sets:
// what an apply of the manifest would leave to nobody, with their live values.
func ExampleIterateLeavesIn() {
	owned, err := fieldpath.FieldsV1ToSet([]byte(`{"f:spec":{"f:replicas":{},"f:paused":{},"f:strategy":{"f:type":{}}}}`))
	if err != nil {
		log.Fatal(err)
	}
	live := map[string]any{"spec": map[string]any{"replicas": int64(3), "paused": true, "strategy": map[string]any{"type": "Recreate"}}}
	manifest := map[string]any{"spec": map[string]any{"replicas": int64(5)}}
	fieldpath.IterateLeavesIn(owned, live, manifest, nil, func(p smdpath.Path, v any) {
		fmt.Println(p, v)
	})
	// Output:
	// .spec.paused true
	// .spec.strategy.type Recreate
}
