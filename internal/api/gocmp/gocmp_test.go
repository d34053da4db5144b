package gocmp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/admission/wire"
	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/api/gocmp"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The diff 1.33.13 printed refusing a change of an ephemeral container's image
// (conformance/testdata/verbs/1.33/ephemeral-patch-change; 1.32.13 printed the same), its
// lines marked by spaces.
func ExampleEphemeralContainers() {
	old := api.EphemeralContainer{TargetContainerName: "app"}
	old.Name, old.Image, old.TerminationMessagePolicy = "debugger", "busybox:1.36", "File"
	changed := old
	changed.Image = "busybox:1.37"
	d, err := gocmp.EphemeralContainers(33, old, changed)
	if err != nil {
		panic(err)
	}
	fmt.Print(d)
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
	if d := diff(t, 33, old, changed); d != "" {
		t.Errorf("diff of a field 1.33 has not:\n%s", d)
	}
	// nil and empty differ, as the server's types tell them apart.
	changed = old
	changed.Command = []string{}
	if d := diff(t, 33, old, changed); !strings.Contains(d, "- \t\tCommand:    nil,\n+ \t\tCommand:    []string{},") {
		t.Errorf("nil and empty command:\n%q", d)
	}
}

// TestEachReleasesTypes: 1.32 and 1.33 print their own types. 1.33 added a lifecycle's
// stopSignal (generated into core133, not core132): a changed lifecycle hook is printed
// with the field at 1.33 and without it at 1.32.
func TestEachReleasesTypes(t *testing.T) {
	old := api.EphemeralContainer{}
	old.Name = "debugger"
	old.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 1}}}
	changed := old
	changed.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 2}}}
	d32, d33 := diff(t, 32, old, changed), diff(t, 33, old, changed)
	if !strings.Contains(d33, "StopSignal: nil") || strings.Contains(d32, "StopSignal") {
		t.Errorf("1.32:\n%s\n1.33:\n%s", d32, d33)
	}
	if _, err := gocmp.EphemeralContainers(34, old, changed); err == nil {
		t.Error("1.34 prints apimachinery's diff, not go-cmp's: want an error")
	}
}

// TestPrint: the values sent as encoding/json writes the internal types are diffed as the
// values themselves — nil and empty, pointers, quantities kept —, and what is not such a
// value is refused, naming it.
func TestPrint(t *testing.T) {
	old := api.EphemeralContainer{TargetContainerName: "app"}
	old.Name, old.Command, old.Env = "debugger", []string{}, []api.EnvVar{{Name: "A", Value: "1"}}
	old.SecurityContext = &api.SecurityContext{Capabilities: &api.Capabilities{Add: []api.Capability{"SYS_PTRACE"}}}
	old.Resources.Limits = api.ResourceList{"cpu": resource.MustParse("100m")}
	changed := old
	changed.Command, changed.Stdin = nil, true
	changed.Resources.Limits = api.ResourceList{"cpu": resource.MustParse("200m")}
	for _, minor := range []int{32, 33} {
		want := diff(t, minor, old, changed)
		got, err := gocmp.Print(minor, gocmp.EphemeralContainerType, encode(t, old), encode(t, changed))
		if err != nil || got != want {
			t.Errorf("1.%d: Print = %v\n%s\nwant\n%s", minor, err, got, want)
		}
	}
	for _, tc := range []struct {
		typ, old, new, want string
	}{
		{"core.Container", "{}", "{}", `no go-cmp diff of "core.Container"`},
		{gocmp.EphemeralContainerType, `{"Nmae":"x"}`, "{}", `the old core.EphemeralContainer: json: unknown field "Nmae"`},
		{gocmp.EphemeralContainerType, "{}", `{"Stdin":"yes"}`, "the new core.EphemeralContainer: json: cannot unmarshal"},
		{gocmp.EphemeralContainerType, "{}", "{} {}", "the new core.EphemeralContainer: data after the value"},
		{gocmp.EphemeralContainerType, "", "{}", "the old core.EphemeralContainer: EOF"},
	} {
		if _, err := gocmp.Print(33, tc.typ, []byte(tc.old), []byte(tc.new)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Print(%s, %s, %s): %v, want %q", tc.typ, tc.old, tc.new, err, tc.want)
		}
	}
}

// TestTypeNamedAsTheWireNamesIt: the helper is asked by the name package wire gives.
func TestTypeNamedAsTheWireNamesIt(t *testing.T) {
	if gocmp.EphemeralContainerType != wire.EphemeralContainerType {
		t.Errorf("gocmp prints %q, the model asks for %q", gocmp.EphemeralContainerType, wire.EphemeralContainerType)
	}
}

// FuzzPrint: any request is diffed or refused, never a panic.
func FuzzPrint(f *testing.F) {
	f.Add(33, `{"Name":"a","Command":[]}`, `{"Name":"a","Command":null,"Lifecycle":{"PreStop":{"Sleep":{"Seconds":1}}}}`)
	f.Add(32, `{"Resources":{"Limits":{"cpu":"1"}}}`, `{"Resources":{"Limits":{"cpu":"2"}}}`)
	f.Add(34, `{}`, `{}`)
	f.Fuzz(func(t *testing.T, minor int, old, new string) {
		_, _ = gocmp.Print(minor, gocmp.EphemeralContainerType, []byte(old), []byte(new))
	})
}

func diff(t *testing.T, minor int, old, new api.EphemeralContainer) string {
	t.Helper()
	d, err := gocmp.EphemeralContainers(minor, old, new)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func encode(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
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
