package validation_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation"
	"github.com/ssa-diff/ssa-diff/kube"
)

// resizePod is a stored Guaranteed pod with a sidecar (rules.md sub.resize).
const resizePod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"shop","uid":"u1","resourceVersion":"5","generation":1,"creationTimestamp":"2026-12-05T00:00:00Z"},
"spec":{"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","schedulerName":"default-scheduler","enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority","priority":0,"securityContext":{},
"initContainers":[{"name":"proxy","image":"envoy:1","restartPolicy":"Always","terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent",
  "resources":{"requests":{"cpu":"50m","memory":"32Mi"},"limits":{"cpu":"50m","memory":"32Mi"}}}],
"containers":[{"name":"app","image":"nginx:1.27","terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent",
  "resources":{"requests":{"cpu":"100m","memory":"64Mi"},"limits":{"cpu":"100m","memory":"64Mi"}}}]},
"status":{"phase":"Pending","qosClass":"Guaranteed"}}`

// TestPodResizeMinors: ValidatePodResize as each minor words it (ported from each
// release's source; 1.37.2 is recorded in conformance/testdata/verbs resize-*).
func TestPodResizeMinors(t *testing.T) {
	decode := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		change func(spec map[string]any)
		want   map[int]string // minor → the errors, joined by "; " ("" admitted)
	}{
		{"the sidecar's image changed", func(spec map[string]any) {
			spec["initContainers"].([]any)[0].(map[string]any)["image"] = "envoy:2"
		}, map[int]string{
			34: "spec: Forbidden: only cpu and memory resources for sidecar containers are mutable",
			35: "spec.initContainers[0]: Forbidden: only cpu and memory resources for init or sidecar containers are mutable",
			37: "spec.initContainers[0]: Forbidden: only cpu and memory resources for init or sidecar containers are mutable",
		}},
		{"pod-level resources added", func(spec map[string]any) {
			spec["resources"] = map[string]any{"requests": map[string]any{"cpu": "150m", "memory": "96Mi"}, "limits": map[string]any{"cpu": "150m", "memory": "96Mi"}}
		}, map[int]string{
			34: "[]: Forbidden: pods with pod-level resources cannot be resized",
		}},
		{"the app's cpu doubled", func(spec map[string]any) {
			r := spec["containers"].([]any)[0].(map[string]any)["resources"].(map[string]any)
			r["requests"].(map[string]any)["cpu"], r["limits"].(map[string]any)["cpu"] = "200m", "200m"
		}, map[int]string{34: "", 35: "", 36: "", 37: ""}},
		{"a request removed", func(spec map[string]any) {
			r := spec["containers"].([]any)[0].(map[string]any)["resources"].(map[string]any)
			delete(r["requests"].(map[string]any), "memory")
		}, map[int]string{37: `spec: Invalid value: "Guaranteed": Pod QOS Class may not change as a result of resizing; ` +
			"spec.containers[0].resources.requests: Forbidden: resource requests cannot be removed"}},
	} {
		for minor, want := range tc.want {
			t.Run(fmt.Sprintf("%s/1.%d", tc.name, minor), func(t *testing.T) {
				old, obj := decode(resizePod), decode(resizePod)
				tc.change(obj["spec"].(map[string]any))
				res, err := validation.ValidateWrite(serverconfig.MustFor(kube.Minor(minor)), "v1", "Pod", "resize", obj, old)
				if err != nil || !res.Known {
					t.Fatalf("known %v, %v", res.Known, err)
				}
				var got []string
				for _, e := range res.Errors {
					got = append(got, e.Error())
				}
				if strings.Join(got, "; ") != want {
					t.Errorf("got  %q\nwant %q", strings.Join(got, "; "), want)
				}
			})
		}
	}
}
