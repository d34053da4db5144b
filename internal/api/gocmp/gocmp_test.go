package gocmp_test

import (
	"fmt"
	"strings"
	"testing"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/api/gocmp"
)

// The diff 1.33.13 printed refusing a change of an ephemeral container's image
// (conformance/testdata/verbs/1.33/ephemeral-patch-change), its lines marked by spaces.
func ExampleEphemeralContainer133() {
	old := api.EphemeralContainer{TargetContainerName: "app"}
	old.Name, old.Image, old.TerminationMessagePolicy = "debugger", "busybox:1.36", "File"
	changed := old
	changed.Image = "busybox:1.37"
	fmt.Print(gocmp.EphemeralContainer133(old, changed))
	// Output:
	//   core.EphemeralContainer{
	//   	EphemeralContainerCommon: core.EphemeralContainerCommon{
	//   		Name:    "debugger",
	// - 		Image:   "busybox:1.36",
	// + 		Image:   "busybox:1.37",
	//   		Command: nil,
	//   		Args:    nil,
	//   		... // 20 identical fields
	//   	},
	//   	TargetContainerName: "app",
	//   }
}

// TestFieldsOf133Only: a field 1.33's types do not have (restartPolicyRules, 1.34) is not
// compared: the containers differ in it alone, and 1.33 sees no difference.
func TestFieldsOf133Only(t *testing.T) {
	old := api.EphemeralContainer{}
	old.Name = "debugger"
	changed := old
	changed.RestartPolicyRules = []api.ContainerRestartRule{{Action: "Restart"}}
	if d := gocmp.EphemeralContainer133(old, changed); d != "" {
		t.Errorf("diff of a field 1.33 has not:\n%s", d)
	}
	// nil and empty differ, as the server's types tell them apart.
	changed = old
	changed.Command = []string{}
	if d := gocmp.EphemeralContainer133(old, changed); !strings.Contains(d, "- \t\tCommand:    nil,\n+ \t\tCommand:    []string{},") {
		t.Errorf("nil and empty command:\n%q", d)
	}
}

func TestDeterministic(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"\u00a0\u00a0core.X{\n-\u00a0\tA: 1,\n+\u00a0\tA: 2,\n\u00a0\u00a0}\n", "  core.X{\n- \tA: 1,\n+ \tA: 2,\n  }\n"},
		{"  core.X{\n- \tA: \"a\u00a0b\",\n", "  core.X{\n- \tA: \"a\u00a0b\",\n"},
		{"\u00a0\u00a0\"\"\"\n\u00a0\u00a0a\u00a0\u00a0b\n", "  \"\"\"\n  a\u00a0\u00a0b\n"},
		{"", ""},
	} {
		if got := gocmp.Deterministic(tc.in); got != tc.want {
			t.Errorf("Deterministic(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
