package gather

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// TestEngineLooksForTheHelperOnlyWhenNeeded: without a cluster state, the helper program is
// looked for only at a minor whose server prints go-cmp's diffs (1.32, 1.33), not on a
// plain run of a later one; not found, the refusal of a changed ephemeral container says
// why its diff is missing.
func TestEngineLooksForTheHelperOnlyWhenNeeded(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "ssa-diff-admission")
	for _, tc := range []struct {
		minor  kube.Minor
		looked bool
	}{{37, false}, {34, false}, {33, true}, {32, true}} {
		looked := false
		getenv := func(k string) string {
			looked = true
			if k == "SSA_DIFF_ADMISSION" {
				return missing
			}
			return ""
		}
		reg := schema.MustNewRegistry(tc.minor)
		_, model := (&Inputs{}).Engine(reg, kubeapiserver.Config{}, Admission{Getenv: getenv})
		if looked != tc.looked {
			t.Errorf("%s: looked for the helper %v, want %v", tc.minor, looked, tc.looked)
		}
		pod := func(image string) map[string]any {
			return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "web", "namespace": "ns", "uid": "u", "resourceVersion": "1"},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "app", "image": "nginx", "terminationMessagePolicy": "File", "imagePullPolicy": "IfNotPresent"}},
					"ephemeralContainers": []any{map[string]any{"name": "debugger", "image": image, "terminationMessagePolicy": "File", "imagePullPolicy": "IfNotPresent"}},
					"restartPolicy":       "Always", "dnsPolicy": "ClusterFirst", "terminationGracePeriodSeconds": int64(30), "schedulerName": "default-scheduler"}}
		}
		typ, _ := reg.Lookup(schema.GVK{Version: "v1", Kind: "Pod"})
		v := model.Validate(typ, "ephemeralcontainers", pod("busybox:1.37"), pod("busybox:1.36"))
		if len(v.Errors) != 1 || !strings.HasPrefix(v.Errors[0].Detail, "existing ephemeral containers \"debugger\" may not be changed\n") {
			t.Fatalf("%s: errors %v", tc.minor, v.Errors)
		}
		if got := strings.Contains(v.NotPredicted, missing); got != tc.looked {
			t.Errorf("%s: not predicted %q, want it to name %s: %v", tc.minor, v.NotPredicted, missing, tc.looked)
		}
		_ = model.Close()
	}
}
