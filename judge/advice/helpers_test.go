package advice

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/conformance"
	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

func loadCase(t *testing.T, name string) *conformance.Case {
	t.Helper()
	c, err := conformance.LoadCase(testkit.RecordedCase(t, name))
	if err != nil {
		t.Fatalf("loading case %s: %v", name, err)
	}
	return c
}

// scenario is a recorded case run through the real engine, ready for Analyze.
type scenario struct {
	c    *conformance.Case
	in   Input
	opts Options
}

// replay predicts the case's request with the engine (after edit, when given, has changed
// the live object or the manifest) and builds the advice input as the CLI would.
func replay(t *testing.T, name string, edit func(c *conformance.Case)) *scenario {
	t.Helper()
	c := loadCase(t, name)
	if edit != nil {
		edit(c)
	}
	res, err := conformance.Replay(c)
	if err != nil {
		t.Fatalf("replaying %s: %v", name, err)
	}
	reg, err := c.Registry()
	if err != nil {
		t.Fatal(err)
	}
	applier := "api"
	if c.Request.Mode == "kubectl" {
		applier = "kubectl"
	}
	return &scenario{c: c,
		in:   Input{Live: c.Live, Manifest: c.Manifest, Result: res, Manager: c.Request.FieldManager, Subresource: c.Endpoint().Subresource, Applier: applier},
		opts: Options{Schemas: reg, Engine: merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()})), Now: c.NowTime()}}
}

func (s *scenario) analyze() []Advice { return Analyze(s.in, s.opts) }

// only returns the advice with one id.
func only(list []Advice, id string) []Advice {
	var out []Advice
	for _, a := range list {
		if a.ID == id {
			out = append(out, a)
		}
	}
	return out
}

func ids(list []Advice) []string {
	var out []string
	for _, a := range list {
		out = append(out, a.ID)
	}
	return out
}

func dump(list []Advice) string {
	b, _ := json.MarshalIndent(list, "", "  ")
	return string(b)
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// mustContain fails unless s contains every part.
func mustContain(t *testing.T, what, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%s %q does not contain %q", what, s, p)
		}
	}
}

// setPath sets a nested field of an unstructured object, creating maps on the way.
func setPath(obj map[string]any, v any, path ...string) {
	cur := obj
	for _, p := range path[:len(path)-1] {
		next, ok := cur[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[p] = next
		}
		cur = next
	}
	cur[path[len(path)-1]] = v
}
