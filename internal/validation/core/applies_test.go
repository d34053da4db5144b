package core_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

// applyCase is a case of testdata/applies.yaml: objects applied first (setup), then a
// manifest applied over them, and the answer a real kube-apiserver 1.37.2 gave to that
// apply (testdata/record.py): its 422 message, or "" when it accepted it.
type applyCase struct {
	Name  string   `json:"name"`
	Rules []string `json:"rules"`
	Setup []string `json:"setup"`
	Apply string   `json:"apply"`
	Want  string   `json:"want"`
}

// TestApplies: server-side applies of the core group's kinds, predicted by the engine
// with the registry's validation (catalog V1, V2, V6), give the server's answer byte for
// byte — the Service storage's own checks and allocations included.
func TestApplies(t *testing.T) {
	b, err := os.ReadFile("testdata/applies.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []applyCase `json:"cases"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	reg := schema.NewRegistry()
	now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	for i, c := range doc.Cases {
		t.Run(c.Name, func(t *testing.T) {
			e := merge.New(reg)
			ns := fmt.Sprintf("sc-%d", i)
			var live map[string]any
			for _, s := range c.Setup {
				res, err := e.Apply(merge.Request{Live: live, Object: applyObject(t, s, ns), Manager: "gitops", Now: now})
				if err != nil || res.Rejection != nil {
					t.Fatalf("setup: %v %+v", err, res.Rejection)
				}
				live = res.Object
			}
			res, err := e.Apply(merge.Request{Live: live, Object: applyObject(t, c.Apply, ns), Manager: "gitops", Now: now.Add(time.Minute)})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if r := res.Rejection; r != nil {
				if r.Code != 422 {
					t.Fatalf("%s (%v): refused with %d: %s", c.Name, c.Rules, r.Code, r.Message)
				}
				got = r.Message
			}
			if got != c.Want {
				t.Errorf("%s (%v):\n got: %s\nwant: %s", c.Name, c.Rules, got, c.Want)
			}
		})
	}
}

// applyObject is a manifest of a case, in namespace ns unless cluster-scoped or given one.
func applyObject(t *testing.T, s, ns string) map[string]any {
	var m map[string]any
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	md, _ := m["metadata"].(map[string]any)
	if _, ok := md["namespace"]; !ok && m["kind"] != "Namespace" && m["kind"] != "Node" {
		md["namespace"] = ns
	}
	return m
}
