package cluster

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// Reading a LIST page: a page of 500 ConfigMaps of 2 KiB (12 kept), and one item of 64 MiB
// (a string, as a hostile page sends), both from memory.
func BenchmarkDecodeList(b *testing.B) {
	res := Resource{APIVersion: "v1", Kind: "ConfigMap", Name: "configmaps", Namespaced: true}
	want := map[string][]int{}
	var items []string
	for i := 0; i < 500; i++ {
		name := fmt.Sprintf("cm-%03d", i)
		if i%40 == 0 {
			want[name] = []int{i}
		}
		items = append(items, fmt.Sprintf(`{"metadata":{"name":%q,"namespace":"shop","managedFields":[{"manager":"m","operation":"Apply","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}}]},"data":{"a":%q}}`, name, strings.Repeat("x", 2000)))
	}
	pages := map[string][]byte{
		"500 items": []byte(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[` + strings.Join(items, ",") + `]}`),
		"one item of 64 MiB": []byte(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"cm-000"},"data":{"a":"` +
			strings.Repeat("0", 64<<20) + `"}}]}`),
	}
	for name, page := range pages {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := decodeList(bytes.NewReader(page), res, "shop", want, 32<<20, func([]byte) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
