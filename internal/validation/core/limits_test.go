package core_test

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation"
	"github.com/ssa-diff/ssa-diff/kube"
)

// TestSecretSize: rules.md valid.builtin, a Secret's data may hold 1 MiB at most (the answer of
// kube-apiserver 1.37.2 to a dry-run apply of these two Secrets).
func TestSecretSize(t *testing.T) {
	for _, c := range []struct {
		size int
		want string
	}{
		{1 << 20, ""},
		{1<<20 + 1, `data: Too long: may not be more than 1048576 bytes`},
	} {
		obj := map[string]any{
			"apiVersion": "v1", "kind": "Secret",
			"metadata":   map[string]any{"name": "big", "namespace": "ns"},
			"stringData": map[string]any{"a": strings.Repeat("x", 600000), "b": strings.Repeat("y", c.size-600000)},
		}
		res, err := validation.Validate(serverconfig.MustFor(kube.Default()), "v1", "Secret", "", obj, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if len(res.Errors) > 0 {
			got = res.Errors.ToAggregate().Error()
		}
		if got != c.want {
			t.Errorf("%d bytes: got %q, want %q", c.size, got, c.want)
		}
	}
}

// TestNamespacePhase: rules.md valid.builtin, through /status a Namespace's phase follows its deletion
// timestamp. conformance/validation reaches the first refusal; its deletion timestamp makes
// the second unreachable there.
func TestNamespacePhase(t *testing.T) {
	ns := func(phase string, deleting bool) map[string]any {
		md := map[string]any{"name": "team", "uid": "u", "resourceVersion": "1", "creationTimestamp": "2026-12-01T00:00:00Z"}
		if deleting {
			md["deletionTimestamp"] = "2026-12-03T00:00:00Z"
		}
		return map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": md,
			"spec": map[string]any{"finalizers": []any{"kubernetes"}}, "status": map[string]any{"phase": phase}}
	}
	for _, c := range []struct {
		phase    string
		deleting bool
		want     string
	}{
		{"Active", false, ""},
		{"Terminating", false, `status.Phase: Invalid value: "Terminating": may only be 'Active' if ` + "`deletionTimestamp`" + ` is empty`},
		{"Terminating", true, ""},
		{"Active", true, `status.Phase: Invalid value: "Active": may only be 'Terminating' if ` + "`deletionTimestamp`" + ` is not empty`},
	} {
		res, err := validation.Validate(serverconfig.MustFor(kube.Default()), "v1", "Namespace", "status", ns(c.phase, c.deleting), ns("Active", c.deleting))
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if len(res.Errors) > 0 {
			got = res.Errors.ToAggregate().Error()
		}
		if got != c.want {
			t.Errorf("%s, deleting %v: got %q, want %q", c.phase, c.deleting, got, c.want)
		}
	}
}
