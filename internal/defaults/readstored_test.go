package defaults

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
)

func decodeJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// ReadStored: the null creationTimestamp of every embedded ObjectMeta, which servers
// before 1.34 printed, is not held by a 1.34-1.37 server; a status a dump left out is held
// ({} at least, where the Go type always encodes one). Anything else is read as given.
func TestReadStored(t *testing.T) {
	for _, c := range []struct {
		name, apiVersion, kind, in, want string
	}{
		{"deployment template", "apps/v1", "Deployment",
			`{"metadata":{"name":"w","creationTimestamp":"2026-12-01T00:00:00Z"},"spec":{"template":{"metadata":{"creationTimestamp":null,"labels":{"a":"b"}}}},"status":{}}`,
			`{"metadata":{"name":"w","creationTimestamp":"2026-12-01T00:00:00Z"},"spec":{"template":{"metadata":{"labels":{"a":"b"}}}},"status":{}}`},
		{"cronjob: the job's template and the pod's", "batch/v1", "CronJob",
			`{"metadata":{"name":"c"},"spec":{"jobTemplate":{"metadata":{"creationTimestamp":null},"spec":{"template":{"metadata":{"creationTimestamp":null}}}}},"status":{}}`,
			`{"metadata":{"name":"c"},"spec":{"jobTemplate":{"metadata":{},"spec":{"template":{"metadata":{}}}}},"status":{}}`},
		{"statefulset claim templates", "apps/v1", "StatefulSet",
			`{"metadata":{"name":"s"},"spec":{"volumeClaimTemplates":[{"metadata":{"name":"data","creationTimestamp":null}}],"template":{"metadata":{"creationTimestamp":null}}},"status":{"replicas":0}}`,
			`{"metadata":{"name":"s"},"spec":{"volumeClaimTemplates":[{"metadata":{"name":"data"}}],"template":{"metadata":{}}},"status":{"replicas":0}}`},
		{"status left out of a dump", "apps/v1", "Deployment",
			`{"metadata":{"name":"w"},"spec":{}}`,
			`{"metadata":{"name":"w"},"spec":{},"status":{}}`},
		{"a kind whose Go type has no status", "v1", "ConfigMap",
			`{"metadata":{"name":"c"},"data":{"a":"b"}}`,
			`{"metadata":{"name":"c"},"data":{"a":"b"}}`},
		{"a real creationTimestamp in a template stays", "apps/v1", "DaemonSet",
			`{"metadata":{"name":"d"},"spec":{"template":{"metadata":{"creationTimestamp":"2026-12-01T00:00:00Z"}}},"status":{}}`,
			`{"metadata":{"name":"d"},"spec":{"template":{"metadata":{"creationTimestamp":"2026-12-01T00:00:00Z"}}},"status":{}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := decodeJSON(t, c.in)
			before := unstructured.DeepCopyObject(in)
			got := newest().ReadStored(c.apiVersion, c.kind, in)
			if !unstructured.Equal(got, decodeJSON(t, c.want)) {
				b, _ := json.Marshal(got)
				t.Errorf("got %s, want %s", b, c.want)
			}
			if !unstructured.Equal(in, before) {
				t.Errorf("the object given was changed")
			}
			if c.in == c.want && reflect.ValueOf(got).UnsafePointer() != reflect.ValueOf(in).UnsafePointer() {
				t.Errorf("a copy, not the object given")
			}
		})
	}
}

// A 1.32 or 1.33 server holds and prints the null creationTimestamp of a pod template (its
// ObjectMeta's is not omitzero; recorded in conformance/testdata/minors/1.33); 1.34 and
// later hold none.
func TestReadStoredKeepsNullTimeBefore134(t *testing.T) {
	in := `{"metadata":{"name":"w"},"spec":{"template":{"metadata":{"creationTimestamp":null}}},"status":{}}`
	for _, v := range kube.Minors() {
		got := MustFor(v).ReadStored("apps/v1", "Deployment", decodeJSON(t, in))
		md := got["spec"].(map[string]any)["template"].(map[string]any)["metadata"].(map[string]any)
		_, kept := md["creationTimestamp"]
		if want := v.Before(34); kept != want {
			t.Errorf("%s: creationTimestamp: null kept %v, want %v", v, kept, want)
		}
		if empty, _ := MustFor(v).EmptyObject("v1", "PodTemplate"); v.Before(34) {
			if md := empty["template"].(map[string]any)["metadata"].(map[string]any); md["creationTimestamp"] != nil || len(md) != 1 {
				t.Errorf("%s: the empty PodTemplate's template metadata %v, want creationTimestamp: null", v, md)
			}
		}
	}
}
