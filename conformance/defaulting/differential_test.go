package defaulting

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	resourcev1 "k8s.io/api/resource/v1"
	apiextinstall "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	apiregistrationinstall "k8s.io/kube-aggregator/pkg/apis/apiregistration/install"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/authentication/install"
	_ "k8s.io/kubernetes/pkg/apis/authorization/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/certificates/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
	_ "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	_ "k8s.io/kubernetes/pkg/apis/storagemigration/install"
	"sigs.k8s.io/randfill"
)

// notCompared names kinds whose server round trip internal/defaults does not
// model, with the reason; the report names them as known gaps.
var notCompared = map[string]string{
	"autoscaling/v1/HorizontalPodAutoscaler": "stored as autoscaling/v2: metrics and conditions travel in annotations",
	"policy/v1/Eviction":                     "never stored; deleteOptions loses its apiVersion and kind",
}

// objectsPerKind bounds the test: 76 kinds × objectsPerKind objects.
const objectsPerKind = 100

func scheme() *runtime.Scheme {
	s := legacyscheme.Scheme
	apiextinstall.Install(s)
	apiregistrationinstall.Install(s)
	return s
}

// vocabulary holds values that steer defaulters into their branches.
var vocabulary = []string{
	"", "", "a", "web", "RollingUpdate", "OnDelete", "Recreate", "ClusterIP", "NodePort", "LoadBalancer",
	"ExternalName", "None", "ClientIP", "Local", "Cluster", "Container", "Pod", "TCP", "UDP", "Always",
	"IfNotPresent", "nginx", "nginx:latest", "nginx:1.27", "registry.example.com:5000/app:v1", "Bad/Image",
	"nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "User", "Group",
	"ServiceAccount", "ExactCount", "All", "Resource", "Utilization", "cpu", "memory", "Ingress", "Egress",
	"True", "Opaque", "25%", "10.0.0.1", "fd00::1", "10.244.0.0/24", "Retain", "Delete", "v1", "Kind",
	"Foo", "Pending", "Active", "Exists", "Equal",
}

var quantities = []string{"0", "1", "0.5", "1e3", "100m", "1.5Gi", "2048Mi", "1Mi", "0.1", "1234567n", "5Gi", "1k"}

func filler(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.4).NumElements(0, 2).MaxDepth(9).Funcs(
		func(s *string, c randfill.Continue) { *s = vocabulary[c.Intn(len(vocabulary))] },
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse(quantities[c.Intn(len(quantities))])
		},
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*v = intstr.FromInt32(int32(c.Intn(3)))
			} else {
				*v = intstr.FromString(vocabulary[c.Intn(len(vocabulary))])
			}
		},
		func(t *metav1.Time, c randfill.Continue) {
			*t = metav1.NewTime(time.Unix(1700000000+int64(c.Intn(1000000)), 0))
		},
		func(t *metav1.MicroTime, c randfill.Continue) {
			*t = metav1.NewMicroTime(time.Unix(1700000000+int64(c.Intn(1000000)), int64(c.Intn(1000))*1000))
		},
		func(n *int32, c randfill.Continue) { *n = int32(c.Intn(5)) - 1 },
		func(n *int64, c randfill.Continue) { *n = int64(c.Intn(5)) - 1 },
		func(r *runtime.RawExtension, c randfill.Continue) {
			// JSON cannot express a present extension without content.
			r.Raw = []byte(`{"a":1}`)
		},
		func(f *metav1.FieldsV1, c randfill.Continue) { f.SetRawString(`{"f:a":{}}`) },
		func(j *apiextv1.JSON, c randfill.Continue) { j.Raw = []byte(`{"x":"y"}`) },
		func(p *apiextv1.JSONSchemaProps, c randfill.Continue) {
			*p = apiextv1.JSONSchemaProps{Type: "object", Description: vocabulary[c.Intn(len(vocabulary))]}
			// Numeric bounds are float64 fields: whole values travel as JSON integers.
			bound := func() *float64 {
				v := []float64{0, 1, 0.5, 65535, 1e6}[c.Intn(5)]
				return &v
			}
			if c.Bool() {
				p.Properties = map[string]apiextv1.JSONSchemaProps{"port": {Type: "integer", Minimum: bound(), Maximum: bound()}}
			}
			if c.Intn(3) == 0 {
				p.Minimum = bound()
			}
			if c.Intn(4) == 0 {
				p.MultipleOf = bound()
			}
		},
		func(t *resourcev1.DeviceTaint, c randfill.Continue) {
			c.FillNoCustom(t)
			// timeAdded defaults to the current time: the server assigns it.
			now := metav1.NewTime(time.Unix(1700000000, 0))
			t.TimeAdded = &now
		},
	)
}

// toUnstructured encodes a Go object as JSON and decodes it the way the
// engine holds objects (integers as int64).
func toUnstructured(t *testing.T, obj any) map[string]any {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return testkit.DecodeJSON(t, b).(map[string]any)
}

type protoObject interface {
	runtime.Object
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

// serverStore runs obj through what kube-apiserver does between decoding a
// request and returning the stored object.
func serverStore(s *runtime.Scheme, obj runtime.Object) (runtime.Object, error) {
	gvk := obj.GetObjectKind().GroupVersionKind()
	s.Default(obj)
	internal, err := s.New(gvk.GroupKind().WithVersion(runtime.APIVersionInternal))
	if err != nil {
		return nil, err
	}
	if err := s.Convert(obj, internal, nil); err != nil {
		return nil, fmt.Errorf("to internal: %w", err)
	}
	out, err := s.New(gvk)
	if err != nil {
		return nil, err
	}
	if err := s.Convert(internal, out, nil); err != nil {
		return nil, fmt.Errorf("from internal: %w", err)
	}
	if p, ok := out.(protoObject); ok {
		b, err := p.Marshal()
		if err != nil {
			return nil, fmt.Errorf("protobuf: %w", err)
		}
		fresh, _ := s.New(gvk)
		if err := fresh.(protoObject).Unmarshal(b); err != nil {
			return nil, fmt.Errorf("protobuf: %w", err)
		}
		out = fresh
	}
	// Reading it back: decode the storage version (defaulting), convert to
	// the internal version, then to the version of the request.
	s.Default(out)
	internal2, _ := s.New(gvk.GroupKind().WithVersion(runtime.APIVersionInternal))
	if err := s.Convert(out, internal2, nil); err != nil {
		return nil, fmt.Errorf("read to internal: %w", err)
	}
	final, _ := s.New(gvk)
	if err := s.Convert(internal2, final, nil); err != nil {
		return nil, fmt.Errorf("read from internal: %w", err)
	}
	return final, nil
}

func TestDefaultingMatchesKubeAPIServer(t *testing.T) {
	s := scheme()
	var kinds []string
	for gvk := range s.AllKnownTypes() {
		if reason, ok := notCompared[gvk.GroupVersion().String()+"/"+gvk.Kind]; ok {
			t.Logf("not compared: %s: %s", gvk, reason)
			continue
		}
		if defaults.MustFor(linkedMinor).Known(gvk.GroupVersion().String(), gvk.Kind) {
			kinds = append(kinds, gvk.GroupVersion().String()+"|"+gvk.Kind)
		}
	}
	sort.Strings(kinds)
	if len(kinds) < 70 {
		t.Fatalf("only %d kinds in common with the server's scheme", len(kinds))
	}
	total, diverged := 0, 0
	for ki, k := range kinds {
		av, kind, _ := strings.Cut(k, "|")
		t.Run(strings.ReplaceAll(av, "/", "_")+"_"+kind, func(t *testing.T) {
			f := filler(int64(ki) + 1)
			shown := 0
			for i := 0; i < objectsPerKind; i++ {
				gvk := schemaGVK(av, kind)
				obj, in := randomObject(t, s, f, gvk)
				want, err := serverStore(s, obj)
				if err != nil {
					t.Fatalf("server pipeline: %v", err)
				}
				w := toUnstructured(t, want)
				if err := defaults.MustFor(linkedMinor).Default(av, kind, in); err != nil {
					t.Fatalf("Default: %v", err)
				}
				total++
				for _, m := range []map[string]any{w, in} {
					delete(m, "apiVersion")
					delete(m, "kind")
				}
				if !reflect.DeepEqual(w, in) {
					diverged++
					if shown < 2 {
						shown++
						t.Errorf("object %d diverges:\n%s", i, firstDifferences(w, in))
					}
				}
			}
		})
	}
	t.Logf("%d objects of %d kinds, %d divergences", total, len(kinds), diverged)
}
