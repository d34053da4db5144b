package output

import (
	"strings"
	"testing"
)

func TestDiffGolden(t *testing.T) {
	out, errs := writeAll(t, "diff", sampleReport(), Options{})
	golden(t, "diff.golden", []byte(out))
	wantErr := "Error from server (Conflict): Apply failed with 2 conflicts:"
	if !strings.HasPrefix(errs, wantErr) || !strings.Contains(errs, "Warning: v1 Secret shop/creds: the live object has no metadata.managedFields\n") {
		t.Errorf("stderr = %q, want it to start with %q", errs, wantErr)
	}
	if !strings.Contains(errs, "error: deploy/broken.yaml, document 2, line 14") {
		t.Errorf("stderr lacks ssa-diff's own error: %q", errs)
	}
	if strings.Contains(out, "Namespace") {
		t.Error("an unchanged object has a diff section")
	}
}

func TestDiffName(t *testing.T) {
	for _, c := range []struct{ av, kind, ns, name, want string }{
		{"v1", "ConfigMap", "team", "web-env", "v1.ConfigMap.team.web-env"},
		{"apps/v1", "Deployment", "team", "web", "apps.v1.Deployment.team.web"},
		{"v1", "Namespace", "", "team", "v1.Namespace..team"},
	} {
		if got := DiffName(c.av, c.kind, c.ns, c.name); got != c.want {
			t.Errorf("DiffName(%s %s) = %q, want %q", c.av, c.kind, got, c.want)
		}
	}
}
