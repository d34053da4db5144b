package appliers

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// TestHelmServerSideResolution pins how Helm 4 settles --server-side for each command
// (rules.md helm.auto): install defaults to true; upgrade's auto follows the last
// revision's apply_method, failed ones included (a Helm 3 record has none: client-side);
// rollback's auto follows the target revision's.
func TestHelmServerSideResolution(t *testing.T) {
	h3 := HelmRevision{Version: 1, Status: "superseded"}
	ssaFailed := HelmRevision{Version: 2, Status: "failed", ApplyMethod: "ssa"}
	csaDeployed := HelmRevision{Version: 1, Status: "deployed", ApplyMethod: "csa"}
	ssaDeployed := HelmRevision{Version: 3, Status: "deployed", ApplyMethod: "ssa"}
	for _, c := range []struct {
		name        string
		o           HelmOptions
		serverSide  bool
		migrate     bool
		current     int
		reference   int
		newRevision int
	}{
		{"install defaults to server-side", HelmOptions{Command: HelmInstall}, true, true, 0, 0, 1},
		{"install --server-side=false", HelmOptions{Command: HelmInstall, ServerSide: "false"}, false, true, 0, 0, 1},
		{"upgrade of a Helm 3 release stays client-side", HelmOptions{Command: HelmUpgrade, History: []HelmRevision{{Version: 1, Status: "deployed"}}}, false, false, 1, 1, 2},
		{"upgrade --server-side=true of a Helm 3 release migrates", HelmOptions{Command: HelmUpgrade, ServerSide: "true", History: []HelmRevision{{Version: 1, Status: "deployed"}}}, true, true, 1, 0, 2},
		{"upgrade after a failed ssa revision is server-side, migrating from the deployed csa one",
			HelmOptions{Command: HelmUpgrade, History: []HelmRevision{ssaFailed, {Version: 1, Status: "deployed"}}}, true, true, 1, 2, 3},
		{"upgrade of a server-side release does not migrate", HelmOptions{Command: HelmUpgrade, History: []HelmRevision{ssaDeployed}}, true, false, 3, 3, 4},
		{"upgrade with only a failed install starts from it", HelmOptions{Command: HelmUpgrade, History: []HelmRevision{{Version: 1, Status: "failed", ApplyMethod: "ssa"}}}, true, false, 1, 1, 2},
		{"rollback follows the target revision", HelmOptions{Command: HelmRollback, Revision: 1, History: []HelmRevision{csaDeployed, ssaDeployed}}, false, false, 3, 1, 4},
		{"rollback to a Helm 3 revision is client-side", HelmOptions{Command: HelmRollback, History: []HelmRevision{h3, {Version: 2, Status: "deployed", ApplyMethod: "ssa"}}}, false, false, 2, 1, 3},
		{"rollback server-side always migrates", HelmOptions{Command: HelmRollback, Revision: 3, History: []HelmRevision{csaDeployed, ssaDeployed}}, true, true, 3, 3, 4},
		{"upgrade --install of no release installs", HelmOptions{Command: HelmUpgrade, Install: true}, true, true, 0, 0, 1},
	} {
		p, err := PlanHelm(c.o)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		ver := func(r *HelmRevision) int {
			if r == nil {
				return 0
			}
			return r.Version
		}
		if p.ServerSide != c.serverSide || p.Migrate != c.migrate || ver(p.Current) != c.current || ver(p.Reference) != c.reference || p.NewRevision != c.newRevision {
			t.Errorf("%s: server-side %v migrate %v current %d reference %d new %d, want %v %v %d %d %d", c.name,
				p.ServerSide, p.Migrate, ver(p.Current), ver(p.Reference), p.NewRevision, c.serverSide, c.migrate, c.current, c.reference, c.newRevision)
		}
	}
}

// TestHelmRefusals pins the commands Helm refuses before it writes anything, in its words.
func TestHelmRefusals(t *testing.T) {
	for _, c := range []struct {
		o    HelmOptions
		want string
	}{
		{HelmOptions{Command: HelmUpgrade, Release: "web"}, `UPGRADE FAILED: "web" has no deployed releases`},
		{HelmOptions{Command: HelmUpgrade, Release: "web", History: []HelmRevision{{Version: 1, Status: "pending-install"}}}, "UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress"},
		{HelmOptions{Command: HelmUpgrade, ServerSide: "yes", History: []HelmRevision{{Version: 1, Status: "deployed"}}}, "UPGRADE FAILED: invalid/unknown release server-side apply method: yes"},
		{HelmOptions{Command: HelmInstall, History: []HelmRevision{{Version: 1, Status: "deployed"}}}, "INSTALLATION FAILED: release name check failed: cannot reuse a name that is still in use"},
		{HelmOptions{Command: HelmRollback, Revision: 7, History: []HelmRevision{{Version: 1, Status: "deployed"}}}, "release has no 7 version"},
	} {
		_, err := PlanHelm(c.o)
		var he *HelmError
		if !errors.As(err, &he) || he.Message != c.want || !he.BeforeWrites {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
}

// TestHelmHooksAreNotApplied: a hook in `helm template` output is not one of the release's
// objects (rules.md helm.install): nothing is predicted for it, and it is not deleted.
func TestHelmHooksAreNotApplied(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Default())
	e := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	hook := objFromYAML(t, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: test\n  annotations:\n    helm.sh/hook: test\nspec:\n  containers:\n  - name: t\n    image: busybox\n")
	cm := objFromYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n")
	out, err := RunHelm(e, reg, HelmOptions{Command: HelmInstall, Release: "web", Namespace: "shop"},
		[]HelmTarget{{Object: hook}, {Object: cm}}, func(string, string, string, string) map[string]any { return nil }, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if out.Objects[0].Result != nil || !strings.Contains(out.Objects[0].NotSent, "hook") {
		t.Errorf("the hook: %+v", out.Objects[0])
	}
	if r := out.Objects[1].Result; r == nil || r.Action != merge.ActionCreate {
		t.Errorf("the ConfigMap: %+v", out.Objects[1])
	}
}
