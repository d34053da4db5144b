package appliers

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/merge"
)

// invalidMessage is how kubectl 1.37 prints a 422 Invalid it gets back
// (StandardErrorMessage's handling of reason Invalid): "The <Kind> "<name>" is invalid: "
// and the causes as "field: message", each once — after the colon when there is one, else
// one per line behind "* ". Without details it is "The request is invalid" and the
// server's message.
func invalidMessage(s *merge.StatusError) string {
	head := "The request is invalid"
	d := s.Details
	if d == nil {
		if s.Message != "" {
			head += ": " + s.Message
		}
		return head
	}
	if d.Kind != "" || d.Name != "" {
		head = fmt.Sprintf("The %s %q is invalid", d.Kind, d.Name)
	} else if s.Message != "" && len(d.Causes) == 0 {
		head += ": " + s.Message
	}
	var msgs []string
	seen := map[string]bool{}
	for _, c := range d.Causes {
		m := c.Field + ": " + c.Message
		if !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	switch len(msgs) {
	case 0:
		return head
	case 1:
		return head + ": " + msgs[0]
	}
	var b strings.Builder
	b.WriteString(head + ": ")
	for _, m := range msgs {
		b.WriteString("\n* " + m)
	}
	return b.String()
}

func nsName(obj map[string]any) (string, string) {
	md := metadataOf(obj)
	return unstructured.Str(md, "namespace"), unstructured.Str(md, "name")
}

func metadataOf(obj map[string]any) map[string]any { return unstructured.Object(obj, "metadata") }

func annotations(obj map[string]any) map[string]any {
	return unstructured.Object(metadataOf(obj), "annotations")
}
