package validation

import (
	"github.com/ssa-diff/ssa-diff/internal/api/layout"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
)

// laidOut prints the values of res's errors as the server cfg describes prints them: a
// value of internal API types (a spec, a template, an allocation) with the fields its
// release's types have, in their order (package layout). ssa-diff's types are the latest
// release's.
func laidOut(cfg *serverconfig.Config, res Result) Result {
	minor := int(cfg.Minor)
	for _, e := range res.Errors {
		e.BadValue = layout.Value(minor, e.BadValue)
	}
	return res
}
