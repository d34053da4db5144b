package kubeapiserver

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/api/layout"
	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema/builtin"
)

// tables are the generated tables a model of a minor reads (`make generate` writes them for
// every minor of kube.Minors), each with the package holding it: a minor one of them lacks
// is refused, never answered from another minor's table.
var tables = []struct {
	what string
	has  func(kube.Minor) bool
}{
	{"the schemas and kinds of the built-in kinds (schema/builtin)", func(m kube.Minor) bool { _, ok := builtin.For(m); return ok }},
	{"the decoding and defaulting of the built-in kinds (internal/defaults)", func(m kube.Minor) bool { _, ok := defaults.For(m); return ok }},
	{"the feature gates (internal/features)", func(m kube.Minor) bool { _, ok := features.Defaults(m); return ok }},
	{"the layouts of the internal API types (internal/api/layout)", func(m kube.Minor) bool { return layout.Knows(int(m)) }},
}

// tablesOf fails, naming each table, when a generated table lacks the minor m.
func tablesOf(m kube.Minor) error {
	var missing []string
	for _, t := range tables {
		if !t.has(m) {
			missing = append(missing, t.what)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("no generated %s for Kubernetes %s: run make generate (docs/minors.md)", strings.Join(missing, ", "), m)
	}
	return nil
}
