package validation

import (
	"regexp"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
)

// The validation helpers of k8s.io/apimachinery that every kind's validation calls word
// some of their messages as the server's own release of the library does; ssa-diff links
// the latest. worded rewrites a result into an older release's words. Each rewrite is of a
// text only that helper writes, so it changes nothing else.
//
//   - Kubernetes 1.35 (apimachinery v0.35) moved IsQualifiedName to content.IsLabelKey,
//     which calls a name with more than one "/" "a valid label key"; 1.34 called it "a
//     qualified name" (pkg/util/validation/validation.go IsQualifiedName in v0.34). Label
//     keys, annotation keys, finalizers, provisioners… all go through it.
//   - Kubernetes 1.36 (apimachinery v0.36) says that an IP address or a CIDR in a
//     non-standard form "is invalid"; 1.34 and 1.35 said it "will be considered invalid in
//     a future Kubernetes release" (pkg/util/validation/ip.go GetWarningsForIP,
//     GetWarningsForCIDR in v0.34, v0.35).
func worded(cfg *serverconfig.Config, res Result) Result {
	if !cfg.AtLeast(35) {
		for _, e := range res.Errors {
			e.Detail = strings.Replace(e.Detail, labelKeyWords, qualifiedNameWords, 1)
		}
	}
	if !cfg.AtLeast(36) {
		for i, w := range res.Warnings {
			if m := nonStandardIP().FindStringSubmatchIndex(w); m != nil {
				res.Warnings[i] = w[:m[3]] + " will be considered invalid in a future Kubernetes release: use " + w[m[4]:]
			}
		}
	}
	return res
}

const (
	labelKeyWords      = "a valid label key must consist of "
	qualifiedNameWords = "a qualified name must consist of "
)

// nonStandardIP is the warning of GetWarningsForIP and GetWarningsForCIDR: the value in
// group 1, the suggested form in group 2.
var nonStandardIP = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^.*: non-standard (?:IP address|CIDR value) (".*") is invalid: use (".*")$`)
})
