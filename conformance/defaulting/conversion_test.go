package defaulting

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/conversion"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/apis/autoscaling"
	"sigs.k8s.io/randfill"
)

// conversionsPerVersion bounds TestConversionMatchesKubeAPIServer: objects per version.
const conversionsPerVersion = 2000

// hpaAnnotations are the annotations in which autoscaling/v1 keeps what it cannot express.
var hpaAnnotations = []string{
	autoscaling.MetricSpecsAnnotation, autoscaling.MetricStatusesAnnotation, autoscaling.BehaviorSpecsAnnotation,
	autoscaling.HorizontalPodAutoscalerConditionsAnnotation, autoscaling.ToleranceScaleDownAnnotation,
	autoscaling.ToleranceScaleUpAnnotation,
}

// withRoundTripAnnotations sets some of the round-trip annotations on a random object: the
// JSON of random values of the types the server writes there (the internal behavior type
// for the behavior), or text that does not decode.
func withRoundTripAnnotations(c randfill.Continue, ann map[string]string) map[string]string {
	if c.Intn(3) == 0 {
		return ann
	}
	if ann == nil {
		ann = map[string]string{}
	}
	for _, key := range hpaAnnotations {
		if c.Intn(2) == 0 {
			continue
		}
		var v any
		switch key {
		case autoscaling.MetricSpecsAnnotation:
			var m []autoscalingv1.MetricSpec
			c.Fill(&m)
			v = m
		case autoscaling.MetricStatusesAnnotation:
			var m []autoscalingv1.MetricStatus
			c.Fill(&m)
			v = m
		case autoscaling.BehaviorSpecsAnnotation:
			var b autoscaling.HorizontalPodAutoscalerBehavior
			c.Fill(&b)
			v = b
		case autoscaling.HorizontalPodAutoscalerConditionsAnnotation:
			var cs []autoscalingv1.HorizontalPodAutoscalerCondition
			c.Fill(&cs)
			v = cs
		default:
			v = "0.1"
		}
		b, _ := json.Marshal(v)
		switch c.Intn(8) {
		case 0:
			b = []byte("not json")
		case 1:
			b = []byte("null")
		}
		ann[key] = string(b)
	}
	return ann
}

// canonicalJSON is v written by encoding/json with sorted keys: the server's bytes once
// read back as decoded JSON.
func canonicalJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestConversionMatchesKubeAPIServer (rules.md version.conversion) converts random HorizontalPodAutoscalers
// of both served versions to both versions with internal/conversion and with the server's own
// scheme (k8s.io/kubernetes' legacyscheme: to the internal version, then to the target),
// and requires the same JSON byte for byte, annotations included.
func TestConversionMatchesKubeAPIServer(t *testing.T) {
	s := scheme()
	versions := []schema.GroupVersion{autoscalingv1.SchemeGroupVersion, autoscalingv2.SchemeGroupVersion}
	internal := schema.GroupVersion{Group: "autoscaling", Version: runtime.APIVersionInternal}
	total := 0
	for vi, from := range versions {
		t.Run(from.Version, func(t *testing.T) {
			f := filler(int64(1000 + vi))
			f.Funcs(
				func(h *autoscalingv1.HorizontalPodAutoscaler, c randfill.Continue) {
					c.FillNoCustom(h)
					h.Annotations = withRoundTripAnnotations(c, h.Annotations)
				},
				func(h *autoscalingv2.HorizontalPodAutoscaler, c randfill.Continue) {
					c.FillNoCustom(h)
					h.Annotations = withRoundTripAnnotations(c, h.Annotations)
				},
				// Metrics are often the CPU ones autoscaling/v1 has fields for, and
				// several of them (which v1 cannot all say).
				// (Set here: the filler's depth limit leaves them nil that deep.)
				func(m *autoscalingv2.MetricSpec, c randfill.Continue) {
					c.FillNoCustom(m)
					if c.Intn(2) == 0 {
						m.Type = autoscalingv2.ResourceMetricSourceType
						m.Resource = &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType}}
						if c.Intn(4) != 0 {
							u := int32(c.Intn(100))
							m.Resource.Target.AverageUtilization = &u
						}
					}
				},
				func(m *autoscalingv2.MetricStatus, c randfill.Continue) {
					c.FillNoCustom(m)
					if c.Intn(2) == 0 {
						m.Type = autoscalingv2.ResourceMetricSourceType
						m.Resource = &autoscalingv2.ResourceMetricStatus{Name: corev1.ResourceCPU}
						if c.Intn(4) != 0 {
							u := int32(c.Intn(100))
							m.Resource.Current.AverageUtilization = &u
						}
					}
				},
				func(m *[]autoscalingv2.MetricSpec, c randfill.Continue) {
					*m = make([]autoscalingv2.MetricSpec, c.Intn(4))
					for i := range *m {
						c.Fill(&(*m)[i])
					}
				},
				func(m *[]autoscalingv2.MetricStatus, c randfill.Continue) {
					*m = make([]autoscalingv2.MetricStatus, c.Intn(4))
					for i := range *m {
						c.Fill(&(*m)[i])
					}
				},
			)
			shown := 0
			for i := 0; i < conversionsPerVersion; i++ {
				gvk := from.WithKind("HorizontalPodAutoscaler")
				_, in := randomObject(t, s, f, gvk)
				// The server reads objects from JSON (or protobuf): what JSON cannot say (an
				// empty list where the field is omitempty) it never holds.
				obj, err := s.New(gvk)
				if err != nil {
					t.Fatal(err)
				}
				if err := runtime.DefaultUnstructuredConverter.FromUnstructured(in, obj); err != nil {
					t.Fatal(err)
				}
				for _, to := range versions {
					hub, err := s.ConvertToVersion(obj.DeepCopyObject(), internal)
					if err != nil {
						t.Fatalf("server, to internal: %v", err)
					}
					want, err := s.ConvertToVersion(hub, to)
					if err != nil {
						t.Fatalf("server, to %s: %v", to, err)
					}
					got, err := conversion.Convert(serverconfig.MustFor(linkedMinor), in, to.String())
					if err != nil {
						t.Fatalf("object %d to %s: %v", i, to, err)
					}
					total++
					w, g := canonicalJSON(t, want), canonicalJSON(t, got)
					if !bytes.Equal(w, g) && shown < 3 {
						shown++
						var wm, gm any
						_ = json.Unmarshal(w, &wm)
						_ = json.Unmarshal(g, &gm)
						t.Errorf("object %d from %s to %s diverges:\n%s", i, from.Version, to.Version, firstDifferences(wm, gm))
					}
				}
			}
		})
	}
	t.Logf("%d conversions compared", total)
}
