package appliers

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// TestKubectlRolloutRestart (rules.md kubectl.commands): the restartedAt annotation at the
// request's time, and what kubectl refuses after its GET.
func TestKubectlRolloutRestart(t *testing.T) {
	e := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	decode := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	now := time.Date(2026, 12, 5, 15, 0, 0, 0, time.UTC)
	dep := func(extra string) map[string]any {
		return decode(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},"spec":{` + extra + `"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-12-05T14:00:00Z"}}}}}`)
	}
	for _, tc := range []struct {
		name string
		live map[string]any
		body string
		msg  string
	}{
		{"a Deployment", dep(``), `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-12-05T15:00:00Z"}}}}}`, ""},
		{"a StatefulSet", decode(`{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"}}`), `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-12-05T15:00:00Z"}}}}}`, ""},
		{"paused", dep(`"paused":true,`), "", `deployments.apps "web" can't restart paused deployment (run rollout resume first)`},
		{"a ConfigMap", decode(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings"}}`), "", `configmaps "settings" restarting is not supported`},
	} {
		p, refused := restartPatch(e, tc.live, now)
		if string(p.Body) != tc.body || refused != tc.msg || (tc.body != "" && p.Type != merge.StrategicPatch) {
			t.Errorf("%s: %s %s, %q; want %s, %q", tc.name, p.Type, p.Body, refused, tc.body, tc.msg)
		}
	}
	c, err := ParseKubectlCommandLine("rollout restart deploy/web -n shop")
	if err != nil || c.Verb != KubectlRestart || c.Manager() != "kubectl-rollout" {
		t.Fatalf("read %+v, %v", c, err)
	}
}
