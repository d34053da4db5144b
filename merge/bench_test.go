package merge

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdmerge "sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/yaml"
)

// deploymentRequest is a realistic apply: a recorded Deployment with three managers and a
// manifest that drops a container and a volume.
func deploymentRequest(tb testing.TB) Request {
	live := map[string]any{}
	b, err := os.ReadFile("testdata/deployment-live.json")
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, &live); err != nil {
		tb.Fatal(err)
	}
	cfg := map[string]any{}
	b, err = os.ReadFile("testdata/deployment-manifest.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		tb.Fatal(err)
	}
	return Request{Live: live, Object: cfg, Manager: "deployer", Now: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
}

// BenchmarkApplyDeployment is the whole prediction of one apply: decoding managedFields,
// the field manager chain, defaulting, encoding.
func BenchmarkApplyDeployment(b *testing.B) {
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	req := deploymentRequest(b)
	if res, err := e.Apply(req); err != nil || res.Rejection != nil {
		b.Fatalf("apply: %v %v", err, res.Rejection)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Apply(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSMDApplyDeployment is the baseline: structured-merge-diff's updater alone on the
// same inputs (typed conversion and Updater.Apply), the floor any prediction pays.
func BenchmarkSMDApplyDeployment(b *testing.B) {
	reg := schema.MustNewRegistry(kube.Default())
	req := deploymentRequest(b)
	t, _ := reg.Lookup(schema.GVKFromAPIVersionKind("apps/v1", "Deployment"))
	entries, _, err := managedFieldsOf(req.Live)
	if err != nil {
		b.Fatal(err)
	}
	var managed smdpath.ManagedFields
	decode := func() {
		m := smdpath.ManagedFields{}
		for _, e := range entries {
			s := &smdpath.Set{}
			_ = s.FromJSON(bytes.NewReader(e.FieldsV1))
			m[e.Manager+string(e.Operation)] = smdpath.NewVersionedSet(s, smdpath.APIVersion(e.APIVersion), e.Operation == "Apply")
		}
		managed = m
	}
	u := (&smdmerge.UpdaterBuilder{Converter: identityConverter{}}).BuildUpdater()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		decode()
		live, err := t.Parseable.FromUnstructured(req.Live, typed.AllowDuplicates)
		if err != nil {
			b.Fatal(err)
		}
		cfg, err := t.Parseable.FromUnstructured(req.Object)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := u.Apply(live, cfg, "apps/v1", managed, "deployerApply", false); err != nil {
			b.Fatal(err)
		}
	}
}

type identityConverter struct{}

func (identityConverter) Convert(v *typed.TypedValue, _ smdpath.APIVersion) (*typed.TypedValue, error) {
	return v, nil
}
func (identityConverter) IsMissingVersionError(error) bool { return false }

// BenchmarkPatchDeployment is the prediction of each patch type on the recorded
// Deployment: the patch applied to the object as the server encodes it, then an update.
func BenchmarkPatchDeployment(b *testing.B) {
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	live := deploymentRequest(b).Live
	for _, p := range []Patch{
		{MergePatch, []byte(`{"spec":{"replicas":7},"metadata":{"labels":{"tier":"gold"}}}`)},
		{StrategicPatch, []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"shop/app:2"}]}}}}`)},
		{JSONPatch, []byte(`[{"op":"replace","path":"/spec/replicas","value":7}]`)},
	} {
		b.Run(string(p.Type), func(b *testing.B) {
			req := Request{Live: live, Patch: p, Manager: "ops", Now: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
			if res, err := e.Patch(req); err != nil || res.Rejection != nil {
				b.Fatalf("patch: %v %v", err, res.Rejection)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Patch(req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScaleApply is an apply of a Scale through /scale on the recorded Deployment.
func BenchmarkScaleApply(b *testing.B) {
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	live := deploymentRequest(b).Live
	md := live["metadata"].(map[string]any)
	scale := map[string]any{"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": map[string]any{"name": md["name"], "namespace": md["namespace"]},
		"spec": map[string]any{"replicas": int64(9)}}
	req := Request{Live: live, Object: scale, Manager: "autoscaler", Force: true, Now: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC),
		Endpoint: Endpoint{GVK: schema.GVKOf(live), Namespace: md["namespace"].(string), Name: md["name"].(string), Subresource: "scale"}}
	if res, err := e.Apply(req); err != nil || res.Rejection != nil {
		b.Fatalf("apply: %v %v", err, res.Rejection)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Apply(req); err != nil {
			b.Fatal(err)
		}
	}
}
