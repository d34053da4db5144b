package appliers

import "testing"

// TestHelmDryRunStrategy pins how Helm 4 reads --dry-run (rules.md helm.dry-run): none,
// false and no flag run the command; the flag alone, true and client are a client dry
// run; server a server one; anything else is Helm's error.
func TestHelmDryRunStrategy(t *testing.T) {
	for v, want := range map[string]string{"": "", "none": "", "false": "", "unset": "client", "client": "client",
		"true": "client", "1": "client", "server": "server"} {
		got, err := HelmDryRunStrategy(v)
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", v, got, err, want)
		}
	}
	if _, err := HelmDryRunStrategy("Server"); err == nil || err.Error() != `invalid dry-run value ("Server"). Must be "none", "server", or "client"` {
		t.Errorf("Server: %v", err)
	}
}

// TestHelmDryRunInstallSkipsTheNameCheck: an install with --dry-run of a name a release
// already uses is not refused (Helm skips its name check on a dry run).
func TestHelmDryRunInstallSkipsTheNameCheck(t *testing.T) {
	used := []HelmRevision{{Version: 1, Status: "deployed", ApplyMethod: "ssa"}}
	if _, err := PlanHelm(HelmOptions{Command: HelmInstall, Release: "web", History: used}); err == nil {
		t.Fatal("an install of a used name is not refused")
	}
	if _, err := PlanHelm(HelmOptions{Command: HelmInstall, Release: "web", History: used, DryRun: "server"}); err != nil {
		t.Fatalf("the dry run is refused: %v", err)
	}
}
