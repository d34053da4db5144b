package output

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/cli/report"
)

// Every format says which values the server assigns: the report lists them all; the human
// formats name those a reader of the diff would miss, in one line, and leave out the
// metadata every write assigns (uid, creationTimestamp, resourceVersion).
func TestAssignedEveryFormat(t *testing.T) {
	rep := report.New(report.Options{FieldManager: "kubectl", Applier: "kubectl", Now: now})
	svc := &report.Result{APIVersion: "v1", Kind: "Service", Namespace: "shop", Name: "web",
		Source: src("deploy/svc.yaml", 0, 1), Action: report.ActionCreate, Changed: true,
		Object: map[string]interface{}{"apiVersion": "v1", "kind": "Service", "metadata": map[string]interface{}{"name": "web", "namespace": "shop"},
			"spec": map[string]interface{}{"type": "NodePort", "ipFamilyPolicy": "SingleStack",
				"ports": []interface{}{map[string]interface{}{"port": int64(80), "protocol": "TCP", "targetPort": int64(80)}}}},
		Conflicts: []report.Conflict{}, Deleted: []string{}, Warnings: []string{},
		Ownership: []report.Ownership{{Manager: report.Manager{Manager: "kubectl", Operation: "Apply"}, Gained: []string{".spec.type"}}},
		Assigned: []string{".metadata.uid", ".metadata.creationTimestamp", ".metadata.resourceVersion", ".spec.clusterIP",
			".spec.clusterIPs", ".spec.ipFamilies", ".spec.ports[0].nodePort"},
	}
	cm := &report.Result{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings",
		Source: src("deploy/cm.yaml", 0, 1), Action: report.ActionCreate, Changed: true,
		Object:    map[string]interface{}{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]interface{}{"name": "settings", "namespace": "shop"}},
		Conflicts: []report.Conflict{}, Deleted: []string{}, Warnings: []string{}, Ownership: []report.Ownership{},
		Assigned: []string{".metadata.uid", ".metadata.creationTimestamp", ".metadata.resourceVersion"},
	}
	rep.Add(svc)
	rep.Add(cm)
	rep.Summarize()
	const line = "assigned by the server: .spec.clusterIP, .spec.clusterIPs, .spec.ipFamilies, .spec.ports[0].nodePort"
	for _, tc := range []struct {
		format string
		want   string // in stdout, or in stderr for diff
		stderr bool
	}{
		{"text", "  " + line + "\n", false},
		{"diff", "v1 Service shop/web: " + line + " (not in the diff)\n", true},
		{"markdown", "- ℹ️ assigned by the server: `.spec.clusterIP`, `.spec.clusterIPs`, `.spec.ipFamilies`, `.spec.ports[0].nodePort`\n", false},
		{"junit", "ownership: kubectl (Apply) gains 1 field\n" + line + "\n", false},
		{"github", "::notice file=deploy/svc.yaml,line=1,title=Service shop/web%3A assigned::" + line + "\n", false},
		{"json", `"assigned": [
        ".metadata.uid",
        ".metadata.creationTimestamp",
        ".metadata.resourceVersion",
        ".spec.clusterIP",`, false},
		{"yaml", "  assigned:\n  - .metadata.uid\n", false},
	} {
		t.Run(tc.format, func(t *testing.T) {
			out, errOut := writeAll(t, tc.format, rep, Options{})
			got := out
			if tc.stderr {
				got = errOut
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("no %q in:\n%s", tc.want, got)
			}
			if tc.format != "json" && tc.format != "yaml" && strings.Count(out+errOut, "assigned by the server") != 1 {
				t.Errorf("want one assigned line (none for the ConfigMap, whose values are metadata's):\n%s%s", out, errOut)
			}
		})
	}
}
