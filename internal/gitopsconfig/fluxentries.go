package gitopsconfig

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"sigs.k8s.io/yaml"
)

// SourcesIn are the objects of entries that substituteFrom may name: the ConfigMaps and
// Secrets of k's namespace, decoded (an entry that could not be read is skipped: it names
// nothing). A file of --flux-substitute-from is read whole: all holds, every error counts.
func (k *Kustomization) SourcesIn(entries []input.Entry, all bool) ([]map[string]any, error) {
	var out []map[string]any
	for _, e := range entries {
		if e.Err != nil && all {
			return nil, e.Err
		}
		if e.Object == nil {
			continue
		}
		_, kind, ns, _ := e.Object.Meta()
		if !all && (kind != "ConfigMap" && kind != "Secret" || ns != k.Namespace) {
			continue
		}
		tree, err := e.Object.Decode()
		if err != nil {
			if all {
				return nil, err
			}
			continue
		}
		out = append(out, tree)
	}
	return out, nil
}

// BuildEntries is entries with each object as k builds it (Build, with vars): an object it
// cannot build becomes the error that stops it, at its document. entries is not changed.
func (k *Kustomization) BuildEntries(entries []input.Entry, vars map[string]string) []input.Entry {
	out := make([]input.Entry, len(entries))
	for i, e := range entries {
		out[i] = e
		if e.Object != nil {
			out[i] = k.buildEntry(e.Object, vars)
		}
	}
	return out
}

func (k *Kustomization) buildEntry(o *input.Object, vars map[string]string) input.Entry {
	tree, err := o.Decode()
	if err != nil {
		return input.Entry{Err: err}
	}
	doc, err := yaml.Marshal(tree)
	if err != nil {
		return input.Entry{Err: o.Errorf("", "%w", err)}
	}
	built, err := k.Build(doc, vars)
	if err != nil {
		return input.Entry{Err: o.Errorf("", "as Flux Kustomization %s/%s builds it: %w", k.Namespace, k.Name, err)}
	}
	n, err := o.Rewritten(built)
	if err != nil {
		return input.Entry{Err: fmt.Errorf("as Flux Kustomization %s/%s builds it: %w", k.Namespace, k.Name, err)}
	}
	return input.Entry{Object: n}
}
