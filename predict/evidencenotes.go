package predict

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/schema"
)

// This file says in words what the live input is evidence of (Evidence.Judge): the
// warnings of each apply, the applies it cannot predict, and a word on the whole run, each
// naming the kubectl command that gets what is missing.

// A Note is what the evidence says of one apply in words.
type Note struct {
	// Warnings are to be said with its prediction.
	Warnings []string
	// Refusal, when not "", is why it cannot be predicted.
	Refusal string
}

// Notes says in words what the evidence says of each target (Judge), and of the whole run
// (a warning, "" for none). Without live input, every apply is predicted as a create: that
// is said once, for the run. reg names the kinds' resources in the commands the notes give.
func (e Evidence) Notes(targets []Target, reg *schema.Registry) ([]Note, string) {
	notes := make([]Note, len(targets))
	if !e.Given {
		if len(targets) > 0 {
			return notes, "no live state given (a LIVE file, or --live-from-cluster): every object is predicted as a create"
		}
		return notes, ""
	}
	refused := e.NoOwnership() && !e.AllowUnowned
	unowned := 0
	for i, tr := range e.Judge(targets) {
		t, n := targets[i], &notes[i]
		if t.Failed {
			continue
		}
		if tr.Unreadable {
			n.Refusal = tr.Note
			continue
		}
		if tr.NamespaceAssumed {
			n.Warnings = append(n.Warnings, fmt.Sprintf(
				"the manifest names no namespace: predicted in namespace %q (-n); kubectl would apply it to the namespace of its context", t.ID.Namespace))
		}
		switch {
		case tr.NotFound && tr.Note != "":
			n.Warnings = append(n.Warnings, tr.Note)
		case tr.WithoutEvidence && t.ID.Name == "":
			// A create naming only a generateName makes a new object whatever exists
			// (rules.md create.generate-name): the live input need not say anything.
		case tr.WithoutEvidence:
			n.Warnings = append(n.Warnings, fmt.Sprintf(
				"predicted as a create without evidence: the live input holds no %s at all%s, so it may just not have been dumped; read the live state from the cluster (--live-from-cluster), or dump it: %s",
				kindName(t.ID), inNamespace(t.ID.Namespace), getCommand(t.GVK, t.ID, reg)))
		case tr.NoOwnership && refused:
			n.Refusal = fmt.Sprintf("cannot predict ownership: no object of the live input carries metadata.managedFields, which kubectl get hides unless asked: %s (or --allow-missing-managed-fields to predict as if nobody owned any field)",
				getCommand(t.LiveGVK, t.ID, reg))
		case tr.Unowned:
			unowned++
			n.Warnings = append(n.Warnings, fmt.Sprintf(
				"the live object (%s) has no metadata.managedFields, so every field looks unowned and conflicts cannot be predicted; kubectl get hides them unless asked: %s",
				t.LiveSource, getCommand(t.LiveGVK, t.ID, reg)))
		}
	}
	switch {
	case refused:
		return notes, "no live object carries metadata.managedFields: ownership and conflicts cannot be predicted (exit 2). Get live objects with `kubectl get ... -o json --show-managed-fields`, read them from the cluster (--live-from-cluster), or pass --allow-missing-managed-fields."
	case unowned == 1:
		return notes, "1 live object without metadata.managedFields: ownership and conflicts cannot be predicted for it. Get live objects with `kubectl get ... -o json --show-managed-fields`."
	case unowned > 1:
		return notes, fmt.Sprintf("%d live objects without metadata.managedFields: ownership and conflicts cannot be predicted for them. Get live objects with `kubectl get ... -o json --show-managed-fields`.", unowned)
	}
	return notes, ""
}

// kindName is an identity's kind[.group].
func kindName(id Identity) string {
	if id.Group == "" {
		return id.Kind
	}
	return id.Kind + "." + id.Group
}

func inNamespace(ns string) string {
	if ns == "" {
		return ""
	}
	return fmt.Sprintf(" in namespace %q", ns)
}

// getCommand is the kubectl command that prints an object with its managedFields; reg
// names its kind's resource.
func getCommand(gvk schema.GVK, id Identity, reg *schema.Registry) string {
	res := strings.ToLower(gvk.Kind)
	if t, ok := reg.Lookup(gvk); ok && t.Resource != "" {
		res = t.Resource
	}
	if gvk.Group != "" {
		res += "." + gvk.Group
	}
	cmd := "kubectl get " + res
	if id.Name != "" {
		cmd += " " + id.Name
	}
	if id.Namespace != "" {
		cmd += " -n " + id.Namespace
	}
	return cmd + " -o json --show-managed-fields"
}
