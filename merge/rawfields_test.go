package merge

import (
	"encoding/json"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	"github.com/ssa-diff/ssa-diff/schema"
)

// TestFieldsV1AsText: a live object whose managedFields keep fieldsV1 as JSON text (as
// internal/input's CompactManagedFields reads dumps) gets the same answer, for every kind of
// request, as the same object with fieldsV1 trees.
func TestFieldsV1AsText(t *testing.T) {
	e := New(schema.NewRegistry())
	base := deploymentRequest(t)
	text := fuzzCopy(base.Live)
	for _, item := range text["metadata"].(map[string]any)["managedFields"].([]any) {
		entry := item.(map[string]any)
		b, err := fieldsjson.AppendJSON(nil, entry["fieldsV1"])
		if err != nil {
			t.Fatal(err)
		}
		entry["fieldsV1"] = json.RawMessage(b)
	}
	for _, how := range []string{"apply", "force", "kubectl", "update", "status", "argocd", "flux"} {
		answer := func(live map[string]any) string {
			r := base
			r.Live, r.Object = live, fuzzCopy(base.Object)
			var res *Result
			var err error
			switch how {
			case "apply":
				res, err = e.Apply(r)
			case "force":
				r.Force = true
				res, err = e.Apply(r)
			case "kubectl":
				res, err = e.KubectlApply(r)
			case "update":
				r.Object = fuzzCopy(base.Live)
				r.Object["spec"].(map[string]any)["replicas"] = int64(7)
				res, err = e.Update(r)
			case "status":
				r.Endpoint = Endpoint{GVK: schema.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}, Namespace: "default", Name: "web", Subresource: "status"}
				r.Object = fuzzCopy(base.Live)
				r.Object["status"] = map[string]any{"replicas": int64(3)}
				res, err = e.Update(r)
			case "argocd":
				res, err = e.ArgoCDApply(r, ArgoCDOptions{Application: "app"})
			case "flux":
				res, err = e.FluxApply(r, FluxOptions{KustomizationName: "apps", KustomizationNamespace: "flux-system"})
			}
			if err != nil {
				t.Fatalf("%s: %v", how, err)
			}
			out, _ := json.Marshal(res)
			mf, _ := json.Marshal(res.ManagedFields)
			obj, _ := json.Marshal(res.Object)
			return string(out) + "\n" + string(mf) + "\n" + string(obj)
		}
		trees, texts := answer(fuzzCopy(base.Live)), answer(text)
		if trees != texts {
			t.Errorf("%s: fieldsV1 as text changes the answer:\n%s\n---\n%s", how, texts, trees)
		}
	}
}
