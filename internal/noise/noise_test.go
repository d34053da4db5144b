package noise

import (
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	r, err := Read(Settings{IgnorePaths: []string{"apps/Deployment:.spec.replicas"}, IgnoreManagers: []string{"hpa"},
		Skip: []string{"ConfigMap, apps/v1/Deployment", ""}, FilePatterns: []string{`_test\.yaml$`}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Ignore == nil || !r.Skips() {
		t.Fatalf("rules %+v", r)
	}
	for _, c := range []struct {
		av, kind string
		want     bool
	}{{"v1", "ConfigMap", true}, {"apps/v1", "Deployment", true}, {"apps/v1beta1", "Deployment", false}, {"v1", "Secret", false}} {
		if got := r.Skipped(c.av, c.kind); got != c.want {
			t.Errorf("Skipped(%s, %s) = %v", c.av, c.kind, got)
		}
	}
	if !r.IgnoreFile("base/web_test.yaml") || r.IgnoreFile("base/web.yaml") {
		t.Error("--ignore-filename-pattern")
	}
	none, err := Read(Settings{})
	if err != nil || none.Ignore != nil || none.Skips() || none.IgnoreFile("a") {
		t.Errorf("no settings: %+v %v", none, err)
	}
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{IgnorePaths: []string{"a:b:c:["}}, "--ignore-path: "},
		{Settings{IgnoreManagers: []string{""}}, "--ignore-manager: an empty manager name"},
		{Settings{FilePatterns: []string{"("}}, `--ignore-filename-pattern "(": `},
	} {
		if _, err := Read(c.s); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q…", c.s, err, c.want)
		}
	}
}

func TestNilRules(t *testing.T) {
	var r *Rules
	if r.IgnoreFile("a") || r.Skips() || r.Skipped("v1", "ConfigMap") {
		t.Error("a nil Rules hides something")
	}
}
