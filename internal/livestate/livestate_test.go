package livestate

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/cluster"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
)

// TestRefs: the manifests' objects are read by their identity, and the kinds their CRDs
// define are known; what names no object is left to the pairing.
func TestRefs(t *testing.T) {
	entries := input.Parse("m.yaml", []byte(`apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec: {group: example.com, names: {kind: Widget}}
---
kind: ConfigMap
metadata: {name: no-version}
`))
	refs, defined := Refs(entries)
	if len(refs) != 2 || refs[0].Kind != "ConfigMap" || refs[0].Namespace != "ns" || refs[1].Name != "widgets.example.com" {
		t.Errorf("refs %+v", refs)
	}
	if !defined[[2]string{"example.com", "Widget"}] || len(defined) != 1 {
		t.Errorf("defined %v", defined)
	}
}

// TestEvidence: one object is no dump (it says nothing of its namespace), several are; a
// state nobody gave is evidence of nothing.
func TestEvidence(t *testing.T) {
	objs, _ := input.Split(input.Parse("live.json", []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"ns"}}`)))
	s, err := Read(objs, true)
	if err != nil || s.Record != nil {
		t.Fatal(err)
	}
	ev := s.Evidence(false)
	if !ev.Given || ev.Listing || ev.NamespaceUnsaid || len(ev.Objects) != 1 || ev.Managed {
		t.Errorf("one object: %+v", ev)
	}
	if ev := (&State{}).Evidence(true); ev.Given || len(ev.Objects) != 0 || !ev.NamespaceGiven {
		t.Errorf("no live state: %+v", ev)
	}
}

// TestAdmission: the objects listed become the cluster state; a kind not listed is a
// warning, in the order of the kinds' names.
func TestAdmission(t *testing.T) {
	read := &cluster.AdmissionRead{
		Objects: []json.RawMessage{json.RawMessage(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"apps"}}`)},
		Errors:  map[string]error{"b.x": errors.New("b forbidden"), "a.x": errors.New("a forbidden")},
	}
	state, warnings, err := Admission(read)
	if err != nil || state.Len() != 1 {
		t.Fatalf("%v, %v", state, err)
	}
	if len(warnings) != 2 || !strings.HasPrefix(warnings[0], "admission state: a forbidden") {
		t.Errorf("warnings %q", warnings)
	}
}

// TestJudgementAndScope: the judge reads the live state's webhooks with the run's schemas;
// a kind's scope is the registry's when no cluster read recorded it, unknown otherwise.
func TestJudgementAndScope(t *testing.T) {
	objs, _ := input.Split(input.Parse("live.json", []byte(`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingWebhookConfiguration","metadata":{"name":"hook"},
"webhooks":[{"name":"v.example.com","clientConfig":{"url":"https://example.com"},"rules":[{"apiGroups":["apps"],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],"resources":["deployments"]}],"sideEffects":"None","admissionReviewVersions":["v1"]}]}`)))
	s, err := Read(objs, true)
	if err != nil {
		t.Fatal(err)
	}
	reg := schema.MustNewRegistry(kube.Newest())
	j := s.Judgement(reg, nil)
	if j.Schemas != reg || len(j.Webhooks) != 1 {
		t.Errorf("judge %+v", j)
	}
	scope := s.Scope(reg)
	if n, ok := scope(schema.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}); !n || !ok {
		t.Errorf("Deployment: namespaced %v, known %v", n, ok)
	}
	if n, ok := scope(schema.GVK{Version: "v1", Kind: "Namespace"}); n || !ok {
		t.Errorf("Namespace: namespaced %v, known %v", n, ok)
	}
	if _, ok := scope(schema.GVK{Group: "example.com", Version: "v1", Kind: "Widget"}); ok {
		t.Error("an unknown kind is known")
	}
}

// TestReadOptions: a cluster read asks the run's schemas of a kind's schema and scope, and
// a kind a CRD given here defines is taken as not existing yet; the summary line counts.
func TestReadOptions(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Newest())
	o := ReadOptions(reg, map[[2]string]bool{{"example.com", "Widget"}: true})
	if !o.HasSchema("apps", "v1", "Deployment") || o.HasSchema("example.com", "v1", "Widget") {
		t.Error("HasSchema")
	}
	if n, ok := o.Scope("", "v1", "Namespace"); n || !ok {
		t.Errorf("Namespace: namespaced %v, known %v", n, ok)
	}
	if _, ok := o.Scope("example.com", "v1", "Widget"); ok {
		t.Error("Widget's scope is known")
	}
	if !o.DefinedHere("example.com", "Widget") || o.DefinedHere("apps", "Deployment") {
		t.Error("DefinedHere")
	}
	got := ReadSummary("the cluster (kind-kind)", "v1.37.2", &cluster.Result{Gets: 2, Lists: 1}, &cluster.Record{})
	if want := "live state: the cluster (kind-kind), Kubernetes v1.37.2: 0 objects read, 0 not found, 0 not readable (2 GET, 1 LIST)"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}
