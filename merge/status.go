package merge

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/schema"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdmerge "sigs.k8s.io/structured-merge-diff/v6/merge"
)

func badRequest(msg string) *StatusError {
	return &StatusError{Code: 400, Reason: "BadRequest", Message: msg}
}

// internalError is how the API server answers a plain error from the field manager: 500,
// the error's text, no reason and no details (rules.md request.corrupt-entries, request.schema-mismatch).
func internalError(msg string) *StatusError {
	return &StatusError{Code: 500, Message: stableErrorList(msg)}
}

// stableErrorList puts the lines of a structured-merge-diff error list ("errors:" then one
// indented line per error) in sorted order. Its walks range over Go maps, so the server
// lists several errors in a random order; the prediction gives one of those orders, the
// same every time.
func stableErrorList(msg string) string {
	const head = "errors:\n"
	i := strings.Index(msg, head)
	if i < 0 {
		return msg
	}
	start := i + len(head)
	lines := strings.Split(msg[start:], "\n")
	n := 0
	for n < len(lines) && strings.HasPrefix(lines[n], "  ") {
		n++
	}
	sort.Strings(lines[:n])
	return msg[:start] + strings.Join(lines[:n], "\n") + func() string {
		if n == len(lines) {
			return ""
		}
		return "\n" + stableErrorList(strings.Join(lines[n:], "\n"))
	}()
}

func qualifiedResource(t *schema.Type) string {
	if t.GVK.Group == "" {
		return t.Resource
	}
	return t.Resource + "." + t.GVK.Group
}

// uidMismatch is the answer to an apply that creates an object and names a uid (rules.md create.uid).
func uidMismatch(t *schema.Type, name, uid string) *StatusError {
	return &StatusError{Code: 409, Reason: "Conflict",
		Message: fmt.Sprintf("Operation cannot be fulfilled on %s %q: uid mismatch: the provided object specified uid %s, and no existing object was found", qualifiedResource(t), name, uid),
		Details: &StatusDetails{Name: name, Group: t.GVK.Group, Kind: t.Resource}}
}

// conflictOn is a 409 Conflict on the named object: "Operation cannot be fulfilled on
// <resource> "<name>": <why>".
func conflictOn(t *schema.Type, name, why string) *StatusError {
	return &StatusError{Code: 409, Reason: "Conflict",
		Message: fmt.Sprintf("Operation cannot be fulfilled on %s %q: %s", qualifiedResource(t), name, why),
		Details: &StatusDetails{Name: name, Group: t.GVK.Group, Kind: t.Resource}}
}

// modified is the store's answer to a write whose resourceVersion is not the stored
// object's: the optimistic lock failed.
func modified(t *schema.Type, name string) *StatusError {
	return conflictOn(t, name, "the object has been modified; please apply your changes to the latest version and try again")
}

// alreadyExists is the answer to a POST of an object that exists.
func alreadyExists(t *schema.Type, name string) *StatusError {
	return &StatusError{Code: 409, Reason: "AlreadyExists",
		Message: fmt.Sprintf("%s %q already exists", qualifiedResource(t), name),
		Details: &StatusDetails{Name: name, Group: t.GVK.Group, Kind: t.Resource}}
}

func notFound(t *schema.Type, name string) *StatusError {
	return &StatusError{Code: 404, Reason: "NotFound",
		Message: fmt.Sprintf("%s %q not found", qualifiedResource(t), name),
		Details: &StatusDetails{Name: name, Group: t.GVK.Group, Kind: t.Resource}}
}

// conflictError words conflicts as the server does (rules.md conflict.status-body, conflict.manager-text, conflict.message-one, conflict.message-many).
func conflictError(cs smdmerge.Conflicts) *StatusError {
	printManager := func(key string) string {
		ref, err := fieldpath.ParseManagerKey(key)
		if err != nil {
			return fmt.Sprintf("%q", key)
		}
		return ref.String()
	}
	causes := make([]StatusCause, 0, len(cs))
	for _, c := range cs {
		causes = append(causes, StatusCause{Reason: "FieldManagerConflict",
			Message: "conflict with " + printManager(c.Manager), Field: c.Path.String()})
	}
	var msg string
	if len(cs) == 1 {
		msg = fmt.Sprintf("Apply failed with 1 conflict: conflict with %s: %s", printManager(cs[0].Manager), cs[0].Path)
	} else {
		byManager := map[string][]smdpath.Path{}
		for _, c := range cs {
			byManager[c.Manager] = append(byManager[c.Manager], c.Path)
		}
		managers := make([]string, 0, len(byManager))
		for m := range byManager {
			managers = append(managers, m)
		}
		sort.Strings(managers)
		var lines []string
		for _, m := range managers {
			lines = append(lines, fmt.Sprintf("conflicts with %s:", printManager(m)))
			for _, p := range byManager[m] {
				lines = append(lines, "- "+p.String())
			}
		}
		msg = fmt.Sprintf("Apply failed with %d conflicts: %s", len(cs), strings.Join(lines, "\n"))
	}
	return &StatusError{Code: 409, Reason: "Conflict", Message: msg, Details: &StatusDetails{Causes: causes}}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// refusedValue is implemented by the errors of a model's defaulting (Default, DefaultOwned,
// DefaultApplied) when the object holds a value its kind's Go type refuses
// (internal/defaults' PathError): Refusal gives the API server's words for it, as its
// unstructured converter says it (the merged object of an apply) and as its decoder of a
// request body does; ok is false when they are not known.
type refusedValue interface {
	error
	Refusal() (converter, body string, ok bool)
}

// refusalOf is the server's words for err, a model's defaulting error, when it is a
// refusedValue whose words are known.
func refusalOf(err error) (converter, body string, ok bool) {
	var rv refusedValue
	if !errors.As(err, &rv) {
		return "", "", false
	}
	return rv.Refusal()
}
