package helmrelease

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/schema"
	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// A ManifestObject is one document of a rendered manifest: the object, and the template
// file Helm's `# Source:` comment names.
type ManifestObject struct {
	Object map[string]any
	Source string
}

// Objects reads a rendered manifest — a release record's, or `helm template`'s output —
// as Helm's builder reads it: YAML documents converted to JSON, empty ones skipped. Each
// object keeps the path of its `# Source:` comment (a crds/ file's path says the object is
// one of the chart's CRDs).
func Objects(manifest string) ([]ManifestObject, error) {
	var out []ManifestObject
	for i, doc := range splitDocuments(manifest) {
		source := ""
		for _, line := range strings.Split(doc, "\n") {
			if s, ok := strings.CutPrefix(strings.TrimSpace(line), "# Source: "); ok {
				source = s
				break
			}
		}
		var probe any
		if err := yamlv3.Unmarshal([]byte(doc), &probe); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if probe == nil {
			continue
		}
		js, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		var obj map[string]any
		if err := yaml.Unmarshal(js, &obj); err != nil {
			return nil, fmt.Errorf("document %d: not an object: %w", i, err)
		}
		if obj == nil {
			continue
		}
		out = append(out, ManifestObject{Object: obj, Source: source})
	}
	return out, nil
}

// splitDocuments splits YAML text into documents as apimachinery's YAML reader does for
// Helm's builder: at every line that starts with "---" followed by nothing but spaces or
// a comment.
func splitDocuments(text string) []string {
	var docs []string
	var cur []string
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, "---"); ok {
			if t := strings.TrimSpace(rest); t == "" || strings.HasPrefix(t, "#") {
				docs = append(docs, strings.Join(cur, "\n"))
				cur = nil
				continue
			}
		}
		cur = append(cur, line)
	}
	return append(docs, strings.Join(cur, "\n"))
}

// Revisions is a release's history as the Helm applier reads it: each record's status
// label, apply_method, and manifest objects as Helm builds them (namespace filled in).
func Revisions(h History, schemas *schema.Registry) ([]appliers.HelmRevision, error) {
	out := make([]appliers.HelmRevision, 0, len(h))
	for _, r := range h {
		objs, err := Objects(r.Manifest)
		if err != nil {
			return nil, fmt.Errorf("%s %s/%s: the manifest: %w", r.Driver, r.StorageNamespace, r.Key, err)
		}
		rev := appliers.HelmRevision{Version: r.Version, Status: r.Labels["status"], ApplyMethod: r.ApplyMethod}
		for _, o := range objs {
			rev.Objects = append(rev.Objects, appliers.HelmBuild(schemas, o.Object, r.Namespace))
		}
		out = append(out, rev)
	}
	return out, nil
}

// CRDFile is, for a `# Source:` path of a file of a chart's crds/ directory (the chart's or
// a subchart's: web/charts/db/crds/x.yaml), the file's name in its chart as Helm names it
// (crds/x.yaml); "" for any other path.
func CRDFile(source string) string {
	parts := strings.Split(source, "/")
	if len(parts) < 3 || parts[len(parts)-2] != "crds" {
		return ""
	}
	return "crds/" + parts[len(parts)-1]
}
