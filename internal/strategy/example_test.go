package strategy_test

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/strategy"
	"github.com/ssa-diff/ssa-diff/kube"
)

// A Secret created through apply: stringData is stored base64-encoded in
// data, and the uid, creation time and resourceVersion are the server's.
func ExampleCreate() {
	obj := map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata":   map[string]any{"name": "smtp"},
		"stringData": map[string]any{"password": "s3cr3t"},
	}
	if err := strategy.Create(serverconfig.MustFor(kube.Default()), "v1", "Secret", obj); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(obj["data"], obj["type"], obj["stringData"])
	for _, a := range strategy.Assigned("v1", "Secret", obj, true) {
		fmt.Println(a, "assigned by the server:", a.Reason)
	}
	// Output:
	// map[password:czNjcjN0] Opaque <nil>
	// .metadata.uid assigned by the server: generated uid
	// .metadata.creationTimestamp assigned by the server: time of the create
	// .metadata.resourceVersion assigned by the server: etcd revision
}
