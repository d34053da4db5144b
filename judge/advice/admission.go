package advice

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// policyDenial reads the server's words for a ValidatingAdmissionPolicy's refusal (compiled
// on first use: every run pays package initialisation, few read a policy's refusal).
var policyDenial = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`ValidatingAdmissionPolicy '([^']+)' (?:with binding '([^']+)' )?denied request: (.*)$`)
})

// policyWarning reads its words for a Warn action.
var policyWarning = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^the server would warn: Validation failed for ValidatingAdmissionPolicy '([^']+)' with binding '([^']+)': (.*)$`)
})

// admissionPolicies: denied-by-policy when a ValidatingAdmissionPolicy or PodSecurity
// refuses the write, warned-by-policy for each policy that warns — naming the policy, its
// binding, and the validation whose expression does not hold, read from the cluster state
// (Options.Cluster) when it holds the policy.
func (a *analysis) admissionPolicies() {
	if a.res == nil {
		return
	}
	if r := a.res.Rejection; r != nil {
		switch r.Admission {
		case "ValidatingAdmissionPolicy":
			if m := policyDenial().FindStringSubmatch(r.Message); m != nil {
				a.add(Advice{ID: IDDeniedByPolicy, Severity: SeverityWarning,
					Message: a.policyWords("refuses the write", m[1], m[2], m[3]),
					Fix:     "change the manifest so that the validation holds, or ask the policy's owner for an exception (the binding's matchResources or params, a matchCondition)"})
			}
		case "PodSecurity":
			a.add(Advice{ID: IDDeniedByPolicy, Severity: SeverityWarning,
				Message: fmt.Sprintf("the namespace %s enforces a Pod Security level the Pod does not meet: %s", a.namespace(), afterColon(r.Message)),
				Fix:     "set the securityContext fields the refusal names (or ask for the namespace's pod-security.kubernetes.io/enforce label to be relaxed)"})
		}
	}
	for _, w := range a.res.Warnings {
		if m := policyWarning().FindStringSubmatch(w); m != nil {
			a.add(Advice{ID: IDWarnedByPolicy, Severity: SeverityInfo,
				Message: a.policyWords("warns (its binding's validationActions say Warn: the write goes through)", m[1], m[2], m[3]),
				Fix:     "change the manifest so that the validation holds before the binding moves to Deny"})
		}
	}
}

// policyWords says which policy and binding speak, what they say, and which of the
// policy's validations does not hold, when the cluster state holds the policy.
func (a *analysis) policyWords(verb, policy, binding, message string) string {
	s := fmt.Sprintf("the ValidatingAdmissionPolicy %q", policy)
	if binding != "" {
		s += fmt.Sprintf(" (binding %q)", binding)
	}
	s += fmt.Sprintf(" %s: %q", verb, message)
	const group = "admissionregistration.k8s.io"
	obj, ok := a.opts.Cluster.Get(group, "ValidatingAdmissionPolicy", "", policy)
	if !ok {
		return s
	}
	if exprs := failingExpressions(obj, message); len(exprs) > 0 {
		s += "; " + plural(len(exprs), "its validation", "one of its validations") + " " + strings.Join(exprs, " or ")
	}
	if src := a.opts.Cluster.SourceOf(group, "ValidatingAdmissionPolicy", "", policy); src != "" {
		s += " (" + src + ")"
	}
	return s
}

// failingExpressions are the validations of a policy that may have said message: the one
// whose message is it, the one it names ("failed expression: …"), else every validation
// with a messageExpression.
func failingExpressions(policy map[string]any, message string) []string {
	validations := unstructured.Objects(unstructured.Object(policy, "spec"), "validations")
	quote := func(v map[string]any) string { return "`" + unstructured.Str(v, "expression") + "`" }
	var byExpression []string
	for _, v := range validations {
		switch {
		case unstructured.Str(v, "message") == message,
			"failed expression: "+unstructured.Str(v, "expression") == message:
			return []string{quote(v)}
		case unstructured.Str(v, "messageExpression") != "":
			byExpression = append(byExpression, quote(v))
		}
	}
	if len(byExpression) == 0 && len(validations) == 1 {
		return []string{quote(validations[0])}
	}
	return byExpression
}

func (a *analysis) namespace() string {
	if a.res != nil && a.res.Endpoint.Namespace != "" {
		return a.res.Endpoint.Namespace
	}
	return unstructured.Str(unstructured.Object(a.in.Manifest, "metadata"), "namespace")
}

// afterColon is a Status message without its "<resource> "<name>" is forbidden: " head.
func afterColon(msg string) string {
	if i := strings.Index(msg, " is forbidden: "); i >= 0 {
		return msg[i+len(" is forbidden: "):]
	}
	return msg
}
