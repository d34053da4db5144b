package output

import (
	"regexp"
	"strings"
	"testing"
)

func TestGitHubGolden(t *testing.T) {
	out, _ := writeAll(t, "github", gateReport(gatePolicy), Options{})
	golden(t, "github.golden", []byte(out))

	// Every line is a well-formed workflow command, failures first, then the summary.
	cmd := regexp.MustCompile(`^::(error|warning|notice) ((?:file=[^,:]+,line=[0-9]+,)?title=[^,:]+)::([^\r\n]*)$`)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	rank := map[string]int{"error": 0, "warning": 1, "notice": 2}
	last := 0
	for _, l := range lines[:len(lines)-1] {
		m := cmd.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("malformed workflow command: %q", l)
			continue
		}
		if rank[m[1]] < last {
			t.Errorf("%s after a less severe annotation: %q", m[1], l)
		}
		last = rank[m[1]]
	}
	if !strings.HasPrefix(lines[len(lines)-1], "ssa-diff: 7 objects:") {
		t.Errorf("no summary line: %q", lines[len(lines)-1])
	}
	for _, want := range []string{
		"::error file=deploy/api.yaml,line=6,title=Deployment shop/api%3A protected::takes 1 field from kube-controller-manager (Update, subresource scale, apps/v1), which --protect protects: .spec.replicas (its managedFields entry is removed)",
		"::notice file=deploy/api.yaml,line=12,title=Deployment shop/api%3A takeover::takes 2 fields from kubectl-client-side-apply (Update, apps/v1)",
		"::error file=deploy/web.yaml,line=1,title=Deployment shop/web%3A rejected::the server would refuse the apply (409 Conflict): Apply failed with 2 conflicts: conflicts with \"hpa-controller\" with subresource \"scale\" using apps/v1:%0A- .spec.replicas%0A",
		"::error file=deploy/settings.yaml,line=9,title=ConfigMap shop/settings%3A deletion::deletes 1 field nobody else owns: .data.retries",
		"::error file=deploy/broken.yaml,line=14,title=deploy/broken.yaml%2C document 2%3A error::deploy/broken.yaml, document 2, line 14: .spec: invalid YAML",
		"::warning file=deploy/secret.yaml,line=1,title=Secret shop/creds%3A warning::the live object has no metadata.managedFields",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
}

func TestWorkflowCommandEscaping(t *testing.T) {
	got := workflowCommand("warning", "dir,a/b:c.yaml", 3, "T: a, b", "100% sure\r\nnext:line, more")
	want := "::warning file=dir%2Ca/b%3Ac.yaml,line=3,title=T%3A a%2C b::100%25 sure%0D%0Anext:line, more\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := workflowCommand("error", "", 9, "t", "m"); got != "::error title=t::m\n" {
		t.Errorf("without a file: %q", got)
	}
}
