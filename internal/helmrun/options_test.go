package helmrun

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/appliers"
)

// Helm's options are read as Helm reads its flags: a release name needed, --dry-run
// resolved, each value checked.
func TestReadOptions(t *testing.T) {
	values := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(name string) string { return m[name] }
	}
	r, err := ReadOptions(values("helm-release", "redis", "helm-command", "rollback", "helm-revision", "3", "helm-dry-run", "unset", "take-ownership", "true", "helm-driver", "configmap"))
	if err != nil {
		t.Fatal(err)
	}
	want := Release{Name: "redis", Driver: "configmap", Command: appliers.HelmOptions{Command: appliers.HelmRollback, Revision: 3, DryRun: "client", TakeOwnership: true}}
	if r.Name != want.Name || r.Driver != want.Driver || r.Command.Command != want.Command.Command || r.Command.Revision != 3 || r.Command.DryRun != "client" || !r.Command.TakeOwnership || r.Command.Install {
		t.Errorf("got %+v, want %+v", r, want)
	}
	for _, bad := range []struct {
		values func(string) string
		want   string
	}{
		{values("helm-command", "upgrade"), "needs --helm-release"},
		{values("helm-command", "upgrade", "helm-release", "redis", "helm-dry-run", "maybe"), "--helm-dry-run: invalid dry-run value"},
	} {
		if _, err := ReadOptions(bad.values); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("got %v, want %q", err, bad.want)
		}
	}
}
