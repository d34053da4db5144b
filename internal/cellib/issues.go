package cellib

import (
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/ssa-diff/ssa-diff/kube"
)

// IssuesText is the text of a compilation's issues as the server of minor server prints it
// ("compilation failed: " + this). Kubernetes 1.38 links cel.dev/cel-go v0.33.2, whose
// checker names an undeclared reference's container only when there is one: "undeclared
// reference to 'params'", where v0.29.2 (1.37, and ssa-diff) adds the empty container's name
// in parentheses, quoted (recorded from 1.38.0-beta.0: the validation scenarios
// groups2/ValidatingAdmissionPolicy/V1 expression does not compile and
// resource/DeviceClass/V1 selector undeclared reference). Not restated: v0.33.2's
// suggestion of a declared name close to an undeclared one (" (did you mean 'self'?)").
func IssuesText(server kube.Minor, iss *cel.Issues) string {
	s := iss.String()
	if server.AtLeast(38) {
		s = strings.ReplaceAll(s, " (in container '')", "")
	}
	return s
}
