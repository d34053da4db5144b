package advice

import (
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	"sigs.k8s.io/yaml"
)

// A node agent's DaemonSet with a privileged container, as CNI and CSI plugins ship: a
// server run with --allow-privileged=false refuses it (rules.md valid.builtin), and the
// advice says the refusal rests on that flag; predicted for a cluster that allows
// privileged containers, as the zero Config does, it is created and there is nothing to say.
func TestClusterPolicy(t *testing.T) {
	var manifest map[string]any
	if err := yaml.Unmarshal([]byte(`apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: cni-agent
  namespace: kube-system
spec:
  selector:
    matchLabels: {app: cni-agent}
  template:
    metadata:
      labels: {app: cni-agent}
    spec:
      hostNetwork: true
      containers:
      - name: agent
        image: registry.example.com/cni-agent:1.4.2
        securityContext:
          privileged: true
      - name: sidecar
        image: registry.example.com/cni-sidecar:1.4.2
        securityContext:
          privileged: false
`), &manifest); err != nil {
		t.Fatal(err)
	}
	reg := schema.MustNewRegistry(kube.Default())
	predict := func(h kubeapiserver.Config) (*merge.Result, []Advice) {
		res, err := merge.New(reg, kubeapiserver.MustNew(h)).Apply(merge.Request{Object: manifest, Manager: "gitops",
			Now: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		return res, only(Analyze(Input{Manifest: manifest, Result: res, Manager: "gitops"}, Options{Schemas: reg}), IDClusterPolicy)
	}

	res, got := predict(kubeapiserver.Config{Minor: kube.Default(), ForbidPrivileged: true})
	if res.Rejection == nil || res.Rejection.Code != 422 || !strings.Contains(res.Rejection.Message, "spec.template.spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy") {
		t.Fatalf("want the 422 of --allow-privileged=false, got %+v", res.Rejection)
	}
	if len(got) != 1 || !sameStrings(got[0].Paths, []string{"spec.template.spec.containers[0].securityContext.privileged"}) {
		t.Fatalf("got %s", dump(got))
	}
	mustContain(t, "fix", got[0].Fix, "--allow-privileged=false")

	res, got = predict(kubeapiserver.Config{Minor: kube.Default()})
	if res.Rejection != nil || res.Action != merge.ActionCreate || len(got) != 0 {
		t.Fatalf("the zero Config (--allow-privileged=true): rejection %v, action %s, advice %s", res.Rejection, res.Action, dump(got))
	}
}

// A ComponentStatus is deprecated and only read: the advice says the write is refused, not
// that it is answered with a deprecation warning.
func TestDeprecatedReadOnlyKind(t *testing.T) {
	manifest := map[string]any{"apiVersion": "v1", "kind": "ComponentStatus", "metadata": map[string]any{"name": "etcd-0"}}
	reg := schema.MustNewRegistry(kube.Default())
	res, err := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()})).Apply(merge.Request{Object: manifest, Manager: "kubectl"})
	if err != nil {
		t.Fatal(err)
	}
	got := only(Analyze(Input{Manifest: manifest, Result: res, Manager: "kubectl"}, Options{Schemas: reg}), IDAPIVersionDeprecated)
	if len(got) != 1 {
		t.Fatalf("got %s", dump(got))
	}
	mustContain(t, "message", got[0].Message, "deprecated since Kubernetes 1.19", "refuses every write (405 MethodNotAllowed)")
	if strings.Contains(got[0].Message, "deprecation warning") {
		t.Errorf("message %q", got[0].Message)
	}
}

// A Service requiring dual stack: the recording server, an IPv4 cluster, refuses it
// (rules.md valid.service-ip-families), and with the cluster's families undeclared the
// advice says how to declare a dual-stack cluster; declared dual-stack, it is created; declared
// IPv4, it is refused and there is nothing to say.
func TestClusterPolicyServiceIPFamilies(t *testing.T) {
	var manifest map[string]any
	if err := yaml.Unmarshal([]byte(`apiVersion: v1
kind: Service
metadata: {name: api, namespace: shop}
spec:
  ipFamilyPolicy: RequireDualStack
  ipFamilies: [IPv4, IPv6]
  selector: {app: api}
  ports: [{port: 443}]
`), &manifest); err != nil {
		t.Fatal(err)
	}
	reg := schema.MustNewRegistry(kube.Default())
	predict := func(h kubeapiserver.Config) (*merge.Result, []Advice) {
		res, err := merge.New(reg, kubeapiserver.MustNew(h)).Apply(merge.Request{Object: manifest, Manager: "gitops",
			Now: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		in := Input{Manifest: manifest, Result: res, Manager: "gitops"}
		return res, only(Analyze(in, Options{Schemas: reg, ServiceIPFamilies: h.ServiceIPFamilies}), IDClusterPolicy)
	}

	res, got := predict(kubeapiserver.Config{Minor: kube.Default()})
	const want = `Service "api" is invalid: [spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services, spec.ipFamilies[1]: Invalid value: "IPv6": not configured on this cluster]`
	if res.Rejection == nil || res.Rejection.Code != 422 || res.Rejection.Message != want {
		t.Fatalf("want the 422 of an IPv4 cluster, got %+v", res.Rejection)
	}
	if len(got) != 1 || !sameStrings(got[0].Paths, []string{"spec.ipFamilyPolicy", "spec.ipFamilies[1]"}) {
		t.Fatalf("got %s", dump(got))
	}
	mustContain(t, "fix", got[0].Fix, "--service-ip-families IPv4,IPv6")

	res, got = predict(kubeapiserver.Config{Minor: kube.Default(), ServiceIPFamilies: []string{"IPv4", "IPv6"}})
	if res.Rejection != nil || res.Action != merge.ActionCreate || len(got) != 0 {
		t.Fatalf("dual-stack: rejection %v, action %s, advice %s", res.Rejection, res.Action, dump(got))
	}
	res, got = predict(kubeapiserver.Config{Minor: kube.Default(), ServiceIPFamilies: []string{"IPv4"}})
	if res.Rejection == nil || res.Rejection.Message != want || len(got) != 0 {
		t.Fatalf("declared IPv4: rejection %v, advice %s", res.Rejection, dump(got))
	}
}
