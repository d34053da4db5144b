package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

const unservedManifests = `apiVersion: v1
kind: ConfigMap
metadata:
  name: first
  namespace: shop
data:
  a: "1"
---
apiVersion: apps/v1beta1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 1
---
apiVersion: apps/v1
kind: Deploymnet
metadata:
  name: typo
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: last
  namespace: shop
`

// TestUnservedKindsAreRejected (rules.md version.not-served): each applier refuses, object by object, the
// kinds and versions the server does not serve, in its own words; the other objects are
// predicted; the run exits 3.
func TestUnservedKindsAreRejected(t *testing.T) {
	dir := writeFiles(t, map[string]string{"app.yaml": unservedManifests})
	file := filepath.Join(dir, "app.yaml")
	for _, c := range []struct {
		applier string
		web     string // the message for the Deployment at apps/v1beta1
		typo    string
	}{
		{"kubectl",
			`resource mapping not found for name: "web" namespace: "shop" from "` + file + `": no matches for kind "Deployment" in version "apps/v1beta1"`,
			// kubectl names the object as written: no namespace.
			`resource mapping not found for name: "typo" namespace: "" from "` + file + `": no matches for kind "Deploymnet" in version "apps/v1"`},
		{"api", "the server could not find the requested resource", "the server could not find the requested resource"},
		{"flux", `no matches for kind "Deployment" in version "apps/v1beta1"`, `no matches for kind "Deploymnet" in version "apps/v1"`},
	} {
		t.Run(c.applier, func(t *testing.T) {
			out, _, code := run(t, "", "-o", "json", "--applier", c.applier, "--now", "2026-12-03T10:00:00Z", file)
			if code != 3 {
				t.Errorf("exit %d, want 3", code)
			}
			rep := decodeReport(t, out)
			var got []string
			for _, r := range rep.Results {
				got = append(got, r.Name+":"+string(r.Action))
			}
			if want := "first:create web:rejected typo:rejected last:create"; strings.Join(got, " ") != want {
				t.Fatalf("results %q, want %q", strings.Join(got, " "), want)
			}
			for i, want := range map[int]string{1: c.web, 2: c.typo} {
				e := rep.Results[i].Error
				if e == nil || e.Code != 404 || e.Message != want {
					t.Errorf("%s: %+v, want 404 %q", rep.Results[i].Name, e, want)
				}
			}
		})
	}
	// From standard input, kubectl names the source STDIN.
	out, _, _ := run(t, unservedManifests, "-o", "json", "-f", "-")
	if e := decodeReport(t, out).Results[1].Error; e == nil || !strings.Contains(e.Message, `from "STDIN"`) {
		t.Errorf("stdin: %+v", e)
	}
}

const hpaLiveV2 = `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler",
 "metadata":{"name":"front","namespace":"shop","uid":"01551f69-58eb-41d4-8c2b-913318a26859","resourceVersion":"95","generation":1,"creationTimestamp":"2026-12-03T00:56:36Z",
  "managedFields":[{"manager":"platform","operation":"Apply","apiVersion":"autoscaling/v2","time":"2026-12-03T00:56:36Z","fieldsType":"FieldsV1",
   "fieldsV1":{"f:spec":{"f:maxReplicas":{},"f:metrics":{},"f:minReplicas":{},"f:scaleTargetRef":{"f:apiVersion":{},"f:kind":{},"f:name":{}}}}}]},
 "spec":{"scaleTargetRef":{"kind":"Deployment","name":"front","apiVersion":"apps/v1"},"minReplicas":2,"maxReplicas":8,
  "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}}]},
 "status":{"desiredReplicas":0,"currentMetrics":null}}`

// TestLiveReadAtTheManifestsVersion (rules.md version.conversion): a manifest at autoscaling/v1 over a live
// object dumped at autoscaling/v2 is compared with the live object as the server reads it
// at v1: re-applying what the object already says changes nothing (exit 0), and the diff
// shows no version noise.
func TestLiveReadAtTheManifestsVersion(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"live.json": hpaLiveV2,
		"hpa.yaml": `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: front
  namespace: shop
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: front}
  maxReplicas: 8
  targetCPUUtilizationPercentage: 70
`,
	})
	out, stderr, code := run(t, "", "--applier", "api", "--field-manager", "platform", "--now", "2026-12-03T10:00:00Z",
		filepath.Join(dir, "hpa.yaml"), filepath.Join(dir, "live.json"))
	if code != 1 {
		// platform's apply entry moves to autoscaling/v1: managedFields change.
		t.Errorf("exit %d, want 1 (stderr %q)\n%s", code, stderr, out)
	}
	if strings.Contains(out, "-apiVersion: autoscaling/v2") || strings.Contains(out, "metrics:") {
		t.Errorf("the diff compares versions, not the object:\n%s", out)
	}
	if strings.Contains(out, "apiversion-mismatch") {
		t.Errorf("advice about a conversion the prediction makes exactly:\n%s", out)
	}
}
