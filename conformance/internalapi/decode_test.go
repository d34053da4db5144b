package internalapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/api"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"

	"github.com/ssa-diff/ssa-diff/conformance/internalapi/kinds"
)

// objectsPerKind bounds the test; SSA_DIFF_OBJECTS raises it.
func objectsPerKind(t *testing.T) int {
	if s := os.Getenv("SSA_DIFF_OBJECTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if testing.Short() {
		return 20
	}
	return 200
}

var vocabulary = []string{"", "a", "web", "TCP", "Always", "IfNotPresent", "10.0.0.1", "25%", "RSA",
	"deprecated.deployment.rollback.to", "deprecated.daemonset.template.generation", "1", "x"}

var quantities = []string{"0", "1", "0.5", "100m", "1.5Gi", "2048Mi", "1e3", "1234567n"}

func filler(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.3).NumElements(0, 2).MaxDepth(10).Funcs(
		func(s *string, c randfill.Continue) { *s = vocabulary[c.Intn(len(vocabulary))] },
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse(quantities[c.Intn(len(quantities))])
		},
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*v = intstr.FromInt32(int32(c.Intn(100)))
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
		func(r *runtime.RawExtension, c randfill.Continue) { r.Raw = []byte(`{"a":1}`) },
		func(f *metav1.FieldsV1, c randfill.Continue) { f.SetRawString(`{"f:a":{}}`) },
		func(j *apiextv1.JSON, c randfill.Continue) { j.Raw = []byte(`{"x":"y"}`) },
		func(m *map[string]string, c randfill.Continue) {
			// Annotations that conversion reads, with valid and invalid values.
			*m = map[string]string{}
			for i := c.Intn(3); i > 0; i-- {
				k := vocabulary[c.Intn(len(vocabulary))]
				v := strconv.Itoa(c.Intn(3))
				if c.Intn(4) == 0 {
					v = vocabulary[c.Intn(len(vocabulary))]
				}
				(*m)[k] = v
			}
		},
	)
}

// TestDecodeMatchesConversion: for random objects of every kind the server serves, package
// api's Decode of the served JSON gives the same internal object as the server's own
// conversion — compared as the JSON encoding/json writes of both, which is how validation
// errors print values.
func TestDecodeMatchesConversion(t *testing.T) {
	s := kinds.Scheme()
	n := objectsPerKind(t)
	total, compared := 0, 0
	for ki, k := range kinds.Served(s) {
		ours := api.New(k.GVK.Group, k.GVK.Version, k.GVK.Kind)
		if ours == nil {
			// apiextensions' types are a published module's, read as such; every other
			// served kind (the aggregator's APIService included) has a mirror.
			if k.GVK.Group != "apiextensions.k8s.io" {
				t.Errorf("%s: no mirror", k.GVK)
			}
			continue
		}
		t.Run(k.GVK.Group+"_"+k.GVK.Version+"_"+k.GVK.Kind, func(t *testing.T) {
			f := filler(int64(ki) + 1)
			shown := 0
			for i := 0; i < n; i++ {
				ext := reflect.New(k.External).Interface().(runtime.Object)
				f.Fill(ext)
				ext.GetObjectKind().SetGroupVersionKind(k.GVK)
				total++
				b, err := json.Marshal(ext)
				if err != nil {
					t.Fatal(err)
				}
				// The server converts what it decoded from the request's JSON.
				decoded := reflect.New(k.External).Interface().(runtime.Object)
				if err := json.Unmarshal(b, decoded); err != nil {
					t.Fatal(err)
				}
				in := reflect.New(k.Internal).Interface().(runtime.Object)
				convErr := s.Convert(decoded, in, nil)
				obj := testkit.DecodeJSON(t, b).(map[string]any)
				mine := reflect.New(reflect.TypeOf(ours).Elem()).Interface()
				decErr := api.Decode(obj, mine)
				if (convErr != nil) != (decErr != nil) {
					if shown++; shown <= 3 {
						t.Errorf("object %d: server conversion error %v, ours %v\n%s", i, convErr, decErr, b)
					}
					continue
				}
				if convErr != nil {
					continue
				}
				want, _ := json.Marshal(in)
				got, _ := json.Marshal(mine)
				compared++
				if !bytes.Equal(want, got) {
					if shown++; shown <= 3 {
						t.Errorf("object %d differs %s\ninput: %s", i, firstDifference(want, got), b)
					}
				}
			}
		})
	}
	t.Logf("%d objects, %d compared", total, compared)
}

// firstDifference shows where two JSON texts part.
func firstDifference(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("at byte %d:\nserver: …%s\nours:   …%s", i, a[from:min(len(a), i+80)], b[from:min(len(b), i+80)])
}
