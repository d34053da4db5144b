package strategy

import (
	"encoding/json"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
)

// TestEphemeralContainersStrategy (rules.md sub.ephemeralcontainers): a write through
// /ephemeralcontainers keeps the stored pod but for its ephemeral containers — another
// image, a label, a status are the stored ones — and moves the generation when they change;
// a write without the list removes it, for validation to refuse.
func TestEphemeralContainersStrategy(t *testing.T) {
	decode := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	const old = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","generation":1,"labels":{"app":"web"}},
	  "spec":{"containers":[{"name":"app","image":"nginx:1.27"}]},"status":{"phase":"Running"}}`
	for _, tc := range []struct{ name, obj, want string }{
		{"a container added, the rest reset",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","generation":1,"labels":{"tier":"gold"}},
			  "spec":{"containers":[{"name":"app","image":"nginx:1.28"}],"ephemeralContainers":[{"name":"d","image":"busybox"}]},"status":{"phase":"Failed"}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"generation":2,"labels":{"app":"web"},"name":"web"},"spec":{"containers":[{"image":"nginx:1.27","name":"app"}],"ephemeralContainers":[{"image":"busybox","name":"d"}]},"status":{"phase":"Running"}}`},
		{"nothing sent: nothing changes",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","generation":1},"spec":{"containers":[{"name":"app","image":"nginx:1.28"}]}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"generation":1,"labels":{"app":"web"},"name":"web"},"spec":{"containers":[{"image":"nginx:1.27","name":"app"}]},"status":{"phase":"Running"}}`},
	} {
		obj := decode(tc.obj)
		PrepareForEphemeralContainersUpdate(serverconfig.MustFor(kube.Default()), obj, decode(old))
		if got, _ := json.Marshal(obj); string(got) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}
