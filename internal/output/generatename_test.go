package output

import (
	"html"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/report"
)

// generateNameReport is a create that names only a generateName (rules.md
// create.generate-name): the name is the server's, the object carries the stand-in name.
func generateNameReport() *report.Report {
	rep := report.New(report.Options{FieldManager: "kubectl-create", Applier: "api", Now: now})
	obj := map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"generateName": "settings-", "name": "settings-00000", "namespace": "shop"},
		"data":     map[string]any{"mode": "fast"},
	}
	rep.Results = append(rep.Results, &report.Result{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", GenerateName: "settings-",
		Source: src("cm.yaml", 0, 1), Action: report.ActionCreate, Changed: true, Object: obj,
		Conflicts: []report.Conflict{}, Ownership: []report.Ownership{}, Deleted: []string{}, Warnings: []string{},
		Assigned: []string{".metadata.name", ".metadata.uid", ".metadata.creationTimestamp", ".metadata.resourceVersion"},
	})
	rep.Summarize()
	return rep
}

// TestGenerateNameIdentityEveryFormat: every format names an object whose name the server
// assigns by its prefix and "<assigned>" (json and yaml: name "" and generateName), never
// by an empty name; the object shown carries the stand-in name, listed as assigned.
func TestGenerateNameIdentityEveryFormat(t *testing.T) {
	for _, f := range Formats() {
		t.Run(f, func(t *testing.T) {
			out, stderr := writeAll(t, f, generateNameReport(), Options{})
			golden(t, "generatename/"+f+".golden", []byte(out+stderr))
			all := html.UnescapeString(strings.ReplaceAll(out+stderr, "%3A", ":"))
			switch f {
			case "json":
				if !strings.Contains(out, `"name": "",`) || !strings.Contains(out, `"generateName": "settings-"`) {
					t.Errorf("the result names no generateName:\n%s", out)
				}
			case "yaml":
				if !strings.Contains(out, "generateName: settings-") {
					t.Errorf("the result names no generateName:\n%s", out)
				}
			case "objects":
				if !strings.Contains(out, "name: settings-00000") {
					t.Errorf("the object lost its stand-in name:\n%s", out)
				}
			default:
				if !strings.Contains(all, "shop/settings-<assigned>") && !strings.Contains(all, "shop.settings-<assigned>") {
					t.Errorf("no identity settings-<assigned>:\n%s", out+stderr)
				}
				if strings.Contains(all, "ConfigMap shop/:") || strings.Contains(all, "ConfigMap shop/ ") || strings.Contains(all, "ConfigMap shop/\n") {
					t.Errorf("an empty name in the identity:\n%s", out+stderr)
				}
			}
		})
	}
}
