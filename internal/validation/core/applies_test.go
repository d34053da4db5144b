package core_test

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	"sigs.k8s.io/yaml"
)

// applyCase is a case of testdata/applies.yaml: objects applied first (setup), then a
// manifest applied over them, and the answer a real kube-apiserver 1.37.2 gave to that
// apply (testdata/record.py): its 422 message, or "" when it accepted it.
type applyCase struct {
	Name  string   `json:"name"`
	Rules []string `json:"rules"`
	Setup []string `json:"setup"`
	Apply string   `json:"apply"`
	// Subresource is where the apply goes ("status"); "" for the object itself.
	Subresource string `json:"subresource"`
	// Force is force=true: the apply takes the fields others own.
	Force bool   `json:"force"`
	Want  string `json:"want"`
	// Causes are the fields and messages of the 422's causes.
	Causes []string `json:"causes"`
	// Warnings are the texts of the server's Warning headers.
	Warnings []string `json:"warnings"`
}

// apiDeprecation is the warning the server gives for a deprecated API version, whatever
// the object: not the registry's.
var apiDeprecation = regexp.MustCompile(`^\S+ \S+ is deprecated in v1\.\d+\+`)

// TestApplies: server-side applies of the core group's kinds, predicted by the engine
// with the registry's validation (rules.md valid.builtin, valid.update, valid.metadata), give the server's answer byte for
// byte — the Service storage's own checks and allocations included — on the recording
// server (an IPv4 cluster, the hooks' default).
func TestApplies(t *testing.T) {
	testApplies(t, "testdata/applies.yaml", kubeapiserver.Config{Minor: kube.Default()})
}

// TestAppliesDeclaredSingleStack: the recording server's cluster declared (IPv4 alone)
// gives the same answers as the default.
func TestAppliesDeclaredSingleStack(t *testing.T) {
	testApplies(t, "testdata/applies.yaml", kubeapiserver.Config{Minor: kube.Default(), ServiceIPFamilies: []string{"IPv4"}})
}

// TestAppliesDualStack: the applies of testdata/applies-dualstack.yaml, recorded from a
// kube-apiserver 1.37.2 run with --service-cluster-ip-range=10.0.0.0/24,fd00:10:96::/112,
// predicted for a cluster declared dual-stack, IPv4 first (rules.md
// valid.service-ip-families).
func TestAppliesDualStack(t *testing.T) {
	testApplies(t, "testdata/applies-dualstack.yaml", kubeapiserver.Config{Minor: kube.Default(), ServiceIPFamilies: []string{"IPv4", "IPv6"}})
}

// TestAppliesIPv6: the applies of testdata/applies-ipv6.yaml, recorded from a
// kube-apiserver 1.37.2 run with --service-cluster-ip-range=fd00:10:96::/112, predicted for
// a cluster declared IPv6 alone.
func TestAppliesIPv6(t *testing.T) {
	testApplies(t, "testdata/applies-ipv6.yaml", kubeapiserver.Config{Minor: kube.Default(), ServiceIPFamilies: []string{"IPv6"}})
}

func testApplies(t *testing.T, path string, cfg kubeapiserver.Config) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []applyCase `json:"cases"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	reg := schema.MustNewRegistry(kube.Default())
	now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	for i, c := range doc.Cases {
		t.Run(c.Name, func(t *testing.T) {
			e := merge.New(reg, kubeapiserver.MustNew(cfg))
			ns := fmt.Sprintf("sc-%d", i)
			var live map[string]any
			for _, s := range c.Setup {
				res, err := e.Apply(merge.Request{Live: live, Object: applyObject(t, s, ns), Manager: "gitops", Now: now})
				if err != nil || res.Rejection != nil {
					t.Fatalf("setup: %v %+v", err, res.Rejection)
				}
				live = res.Object
			}
			obj := applyObject(t, c.Apply, ns)
			req := merge.Request{Live: live, Object: obj, Manager: "gitops", Force: c.Force, Now: now.Add(time.Minute)}
			if c.Subresource != "" {
				md, _ := obj["metadata"].(map[string]any)
				name, _ := md["name"].(string)
				objNS, _ := md["namespace"].(string)
				av, _ := obj["apiVersion"].(string)
				kind, _ := obj["kind"].(string)
				req.Endpoint = merge.Endpoint{GVK: schema.GVKFromAPIVersionKind(av, kind), Namespace: objNS, Name: name, Subresource: c.Subresource}
			}
			res, err := e.Apply(req)
			if err != nil {
				t.Fatal(err)
			}
			got, causes := "", []string(nil)
			if r := res.Rejection; r != nil {
				if r.Code != 422 {
					t.Fatalf("%s (%v): refused with %d: %s", c.Name, c.Rules, r.Code, r.Message)
				}
				got = r.Message
				if r.Details != nil {
					for _, cause := range r.Details.Causes {
						causes = append(causes, cause.Field+": "+cause.Message)
					}
				}
			}
			// Errors found ranging over a map come in any order (rules.md valid.builtin).
			if got != c.Want && (len(got) != len(c.Want) || !sameMultiset(causes, c.Causes)) {
				t.Errorf("%s (%v):\n got: %s\nwant: %s", c.Name, c.Rules, got, c.Want)
			}
			var warned, want []string
			for _, w := range res.Warnings {
				if s, ok := strings.CutPrefix(w, "the server would warn: "); ok {
					warned = append(warned, s)
				}
			}
			for _, w := range c.Warnings {
				if !apiDeprecation.MatchString(w) {
					want = append(want, w)
				}
			}
			if !sameMultiset(warned, want) { // the engine lists its warnings sorted
				t.Errorf("%s: warnings\n got: %q\nwant: %q", c.Name, warned, want)
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

func sameMultiset(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
