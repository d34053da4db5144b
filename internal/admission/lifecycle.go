package admission

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/server"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
)

// namespaceLifecycle is NamespaceLifecycle (rules.md admission.namespace-lifecycle): a
// create into a namespace the cluster does not have is refused as not found (404), into
// one being deleted as forbidden (403). It runs when the state holds Namespaces: a state
// without any says nothing about which exist.
func (c *Chain) namespaceLifecycle(w Write, out *server.Admission) {
	if !w.create() || w.Namespace == "" || w.is("", "Namespace") || !c.cfg.State.Knows("", "Namespace") {
		return
	}
	if w.Kind.Group == "authorization.k8s.io" && w.Type.Resource == "localsubjectaccessreviews" {
		return
	}
	ns, ok := c.cfg.State.Get("", "Namespace", "", w.Namespace)
	if !ok {
		st := apierrors.NewNotFound(k8sschema.GroupResource{Resource: "namespaces"}, w.Namespace).ErrStatus
		out.Refusal = &st
		return
	}
	if unstructured.Str(unstructured.Object(ns, "status"), "phase") != "Terminating" {
		return
	}
	st := w.forbidden("unable to create new content in namespace %s because it is being terminated", w.Namespace)
	st.Details.Causes = append(st.Details.Causes, metav1.StatusCause{Type: "NamespaceTerminating",
		Message: fmt.Sprintf("namespace %s is being terminated", w.Namespace), Field: "metadata.namespace"})
	out.Refusal = st
}
