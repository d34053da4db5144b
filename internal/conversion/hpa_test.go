package conversion

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
)

func decodeJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return numbers(v).(map[string]any)
}

func mustConvert(t *testing.T, obj map[string]any, to string) map[string]any {
	t.Helper()
	out, err := Convert(serverconfig.MustFor(kube.Default()), obj, to)
	if err != nil {
		t.Fatalf("Convert to %s: %v", to, err)
	}
	return out
}

func sameJSON(t *testing.T, what string, got map[string]any, want string) {
	t.Helper()
	if w := decodeJSON(t, want); !reflect.DeepEqual(got, w) {
		g, _ := json.Marshal(got)
		wb, _ := json.Marshal(w)
		t.Errorf("%s:\n got %s\nwant %s", what, g, wb)
	}
}

// A v2 HPA whose metrics v1 can say only in part (rules.md version.conversion).
const hpaV2 = `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler",
 "metadata":{"name":"web","namespace":"shop","labels":{"team":"a"},
  "managedFields":[{"manager":"ops","operation":"Apply","apiVersion":"autoscaling/v2","time":"2026-12-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:metrics":{}}}}]},
 "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"minReplicas":2,"maxReplicas":10,
  "metrics":[
   {"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"10"}}},
   {"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}}],
  "behavior":{"scaleDown":{"stabilizationWindowSeconds":300,"selectPolicy":"Max","policies":[{"type":"Percent","value":50,"periodSeconds":60}]}}},
 "status":{"currentReplicas":3,"desiredReplicas":4,
  "currentMetrics":[{"type":"Resource","resource":{"name":"cpu","current":{"averageUtilization":65,"averageValue":"120m"}}}],
  "conditions":[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-12-01T00:00:00Z","reason":"ReadyForNewScale"}]}}`

func TestHPAToV1KeepsWhatV1CannotSayInAnnotations(t *testing.T) {
	v1 := mustConvert(t, decodeJSON(t, hpaV2), "autoscaling/v1")
	sameJSON(t, "v1", v1, `{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler",
 "metadata":{"name":"web","namespace":"shop","labels":{"team":"a"},
  "managedFields":[{"manager":"ops","operation":"Apply","apiVersion":"autoscaling/v2","time":"2026-12-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:metrics":{}}}}],
  "annotations":{
   "autoscaling.alpha.kubernetes.io/metrics":"[{\"type\":\"Pods\",\"pods\":{\"metricName\":\"qps\",\"targetAverageValue\":\"10\"}}]",
   "autoscaling.alpha.kubernetes.io/behavior":"{\"ScaleUp\":null,\"ScaleDown\":{\"StabilizationWindowSeconds\":300,\"SelectPolicy\":\"Max\",\"Policies\":[{\"Type\":\"Percent\",\"Value\":50,\"PeriodSeconds\":60}],\"Tolerance\":null}}",
   "autoscaling.alpha.kubernetes.io/current-metrics":"[{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"currentAverageUtilization\":65,\"currentAverageValue\":\"120m\"}}]",
   "autoscaling.alpha.kubernetes.io/conditions":"[{\"type\":\"AbleToScale\",\"status\":\"True\",\"lastTransitionTime\":\"2026-12-01T00:00:00Z\",\"reason\":\"ReadyForNewScale\"}]"}},
 "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"minReplicas":2,"maxReplicas":10,"targetCPUUtilizationPercentage":70},
 "status":{"currentReplicas":3,"desiredReplicas":4,"currentCPUUtilizationPercentage":65}}`)

	// Back at v2, nothing is lost but the order of the metrics (the other metrics first,
	// then the CPU target).
	back := mustConvert(t, v1, "autoscaling/v2")
	want := decodeJSON(t, hpaV2)
	spec := want["spec"].(map[string]any)
	spec["behavior"].(map[string]any)["scaleDown"].(map[string]any)["policies"] = []any{map[string]any{"type": "Percent", "value": int64(50), "periodSeconds": int64(60)}}
	if !reflect.DeepEqual(back, want) {
		g, _ := json.Marshal(back)
		t.Errorf("v1 back to v2:\n%s", g)
	}
}

func TestHPAFromV1(t *testing.T) {
	for _, c := range []struct {
		name, v1, wantSpec string
	}{
		{"no metric at all gets the CPU target of 80%",
			`{"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3}}`,
			`{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}]}`},
		{"an annotation that does not decode is ignored",
			`{"metadata":{"annotations":{"autoscaling.alpha.kubernetes.io/metrics":"not json","keep":"x"}},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3,"targetCPUUtilizationPercentage":50}}`,
			`{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}]}`},
		{"an object metric with an average value keeps only a target value that is not zero",
			`{"metadata":{"annotations":{"autoscaling.alpha.kubernetes.io/metrics":"[{\"type\":\"Object\",\"object\":{\"target\":{\"kind\":\"Service\",\"name\":\"web\"},\"metricName\":\"rps\",\"targetValue\":\"0\",\"averageValue\":\"2\"}}]"}},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3}}`,
			`{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3,"metrics":[{"type":"Object","object":{"describedObject":{"kind":"Service","name":"web"},"metric":{"name":"rps"},"target":{"type":"AverageValue","averageValue":"2"}}}]}`},
		{"an empty behavior is none",
			`{"metadata":{"annotations":{"autoscaling.alpha.kubernetes.io/behavior":"{}"}},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3,"targetCPUUtilizationPercentage":50}}`,
			`{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			obj := decodeJSON(t, c.v1)
			obj["apiVersion"], obj["kind"] = "autoscaling/v1", "HorizontalPodAutoscaler"
			v2 := mustConvert(t, obj, "autoscaling/v2")
			sameJSON(t, "spec", v2["spec"].(map[string]any), c.wantSpec)
			if md, _ := v2["metadata"].(map[string]any); md != nil {
				ann, _ := md["annotations"].(map[string]any)
				for k := range ann {
					if k != "keep" {
						t.Errorf("annotation %s reached v2", k)
					}
				}
			}
		})
	}
}

func TestHPARoundTripAnnotationsNeverReachV2(t *testing.T) {
	obj := decodeJSON(t, `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"web","annotations":{
  "autoscaling.alpha.kubernetes.io/metrics":"[]","autoscaling.alpha.kubernetes.io/scale-up-tolerance":"0.1","team":"a"}},
  "spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"maxReplicas":3}}`)
	out := mustConvert(t, obj, "autoscaling/v2")
	sameJSON(t, "metadata", out["metadata"].(map[string]any), `{"name":"web","annotations":{"team":"a"}}`)
	if _, ok := obj["metadata"].(map[string]any)["annotations"].(map[string]any)["autoscaling.alpha.kubernetes.io/metrics"]; !ok {
		t.Error("Convert changed its input")
	}
}

func TestConvertRefusesWhatItDoesNotKnow(t *testing.T) {
	for _, c := range []struct{ av, kind, to string }{
		{"apps/v1", "Deployment", "apps/v1beta2"},
		{"autoscaling/v2", "HorizontalPodAutoscaler", "autoscaling/v2beta2"},
		{"autoscaling/v2beta1", "HorizontalPodAutoscaler", "autoscaling/v2"},
		{"autoscaling/v2", "HorizontalPodAutoscaler", "apps/v1"},
	} {
		_, err := Convert(serverconfig.MustFor(kube.Default()), map[string]any{"apiVersion": c.av, "kind": c.kind}, c.to)
		if !errors.Is(err, ErrNotConvertible) {
			t.Errorf("%s %s to %s: %v", c.av, c.kind, c.to, err)
		}
	}
	if got := Versions("autoscaling", "HorizontalPodAutoscaler"); !reflect.DeepEqual(got, []string{"v2", "v1"}) {
		t.Errorf("versions %v", got)
	}
	if Hub("autoscaling", "HorizontalPodAutoscaler") != "v2" || Hub("apps", "Deployment") != "" {
		t.Error("hubs")
	}
}

func TestDecodeErrorsAreTheServers(t *testing.T) {
	// As kube-apiserver 1.37.2 answered (a PUT and an apply of these values).
	obj := decodeJSON(t, `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h1"},"status":{"observedGeneration":0.5}}`)
	const put = `HorizontalPodAutoscaler in version "v2" cannot be handled as a HorizontalPodAutoscaler: json: cannot unmarshal number 0.5 into Go struct field HorizontalPodAutoscalerStatus.status.observedGeneration of type int64`
	if _, err := DecodeBody(serverconfig.MustFor(kube.Default()), obj); err == nil || err.Error() != put {
		t.Errorf("DecodeBody: %v", err)
	}
	obj = decodeJSON(t, `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h1"},"spec":{"minReplicas":2.25}}`)
	const apply = `unable to convert unstructured object to autoscaling/v2, Kind=HorizontalPodAutoscaler: cannot convert float64 to int32`
	if _, err := Convert(serverconfig.MustFor(kube.Default()), obj, "autoscaling/v2"); err == nil || err.Error() != apply {
		t.Errorf("Convert: %v", err)
	}
}

func BenchmarkConvertHPA(b *testing.B) {
	var obj map[string]any
	if err := json.Unmarshal([]byte(hpaV2), &obj); err != nil {
		b.Fatal(err)
	}
	obj = numbers(obj).(map[string]any)
	for _, to := range []string{"autoscaling/v2", "autoscaling/v1"} {
		b.Run(to, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Convert(serverconfig.MustFor(kube.Default()), obj, to); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
