package core_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	internalapi "github.com/ssa-diff/ssa-diff/internal/api"
	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/kube"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// scenario is a write of a kind built on the pod template (or a volume), the object as
// the registry holds it after defaulting (and the stored one on an update), and the
// message kube-apiserver 1.37.2's own strategy answered for it. The messages of
// testdata/scenarios.json were taken from the server's strategies run in process by
// conformance/validation, not from this package.
type scenario struct {
	Name       string         `json:"name"`
	Rule       string         `json:"rule"`
	About      string         `json:"about"`
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Object     map[string]any `json:"object"`
	Old        map[string]any `json:"old"`
	Message    string         `json:"message"`
}

func loadScenarios(t testing.TB) []scenario {
	b, err := os.ReadFile("testdata/scenarios.json")
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out []scenario
	if err := d.Decode(&out); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		out[i].Object = int64Numbers(out[i].Object).(map[string]any)
		if out[i].Old != nil {
			out[i].Old = int64Numbers(out[i].Old).(map[string]any)
		}
	}
	return out
}

// int64Numbers holds numbers as the engine does: integers as int64.
func int64Numbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = int64Numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = int64Numbers(e)
		}
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// TestPodTemplateKindsScenarios: rules.md valid.builtin (the refusal of a create, errors in the
// validators' order, values printed as the server prints them), V2 (what an update may
// not change, with the server's diff of the internal objects) and V6 (object names, and
// declarative validation's beta errors replacing the handwritten ones they cover).
func TestPodTemplateKindsScenarios(t *testing.T) {
	for _, sc := range loadScenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			res, err := validation.Validate(serverconfig.MustFor(kube.Default()), sc.APIVersion, sc.Kind, "", sc.Object, sc.Old)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Known {
				t.Fatalf("%s: validation not known", sc.Kind)
			}
			md, _ := sc.Object["metadata"].(map[string]any)
			name, _ := md["name"].(string)
			gv, _ := schema.ParseGroupVersion(sc.APIVersion)
			got := "accepted"
			if len(res.Errors) > 0 {
				got = apierrors.NewInvalid(gv.WithKind(sc.Kind).GroupKind(), name, res.Errors).ErrStatus.Message
			}
			if got != sc.Message {
				t.Errorf("catalog %s: %s\n got: %q\nwant: %q", sc.Rule, sc.About, got, sc.Message)
			}
		})
	}
}

// BenchmarkValidatePod validates a realistic Pod (every kind of container, a dozen
// volume sources, probes, security contexts, affinity, spread constraints) as the engine
// does: decode into the internal type, then the strategy.
func BenchmarkValidatePod(b *testing.B) {
	obj := realisticPod(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := validation.Validate(serverconfig.MustFor(kube.Default()), "v1", "Pod", "", obj, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidatePodUpdate validates an update of the same Pod that changes an image.
func BenchmarkValidatePodUpdate(b *testing.B) {
	old := realisticPod(b)
	obj := realisticPod(b)
	spec := obj["spec"].(map[string]any)
	spec["containers"].([]any)[0].(map[string]any)["image"] = "registry.example.com/web/app:1.2.4"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := validation.Validate(serverconfig.MustFor(kube.Default()), "v1", "Pod", "", obj, old); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidatePodTemplate validates the template of a typical Deployment of the
// benchmark corpus (one container, probes, env, mounts), as a PodTemplate: decode and
// strategy.
func BenchmarkValidatePodTemplate(b *testing.B) {
	obj := readJSON(b, "testdata/podtemplate.json")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := validation.Validate(serverconfig.MustFor(kube.Default()), "v1", "PodTemplate", "", obj, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidatePodTemplateSpec is the template's validation alone, decoded once:
// what a workload kind's validation adds for its template.
func BenchmarkValidatePodTemplateSpec(b *testing.B) {
	var t api.PodTemplate
	if err := internalapi.Decode(readJSON(b, "testdata/podtemplate.json"), &t); err != nil {
		b.Fatal(err)
	}
	opts := core.GetValidationOptionsFromPodTemplate(serverconfig.MustFor(kube.Default()), &t.Template, nil)
	b.ReportAllocs()
	for b.Loop() {
		if errs := core.ValidatePodTemplateSpec(&t.Template, field.NewPath("spec", "template"), opts); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}

func realisticPod(t testing.TB) map[string]any {
	return readJSON(t, "testdata/pod.json")
}

func readJSON(t testing.TB, file string) map[string]any {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return int64Numbers(v).(map[string]any)
}
