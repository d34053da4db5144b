package mistakes

import (
	"strings"
	"testing"
)

func TestVariableIn(t *testing.T) {
	for s, want := range map[string]string{"${replicas}": "replicas", "x-${a_1:=3}": "a_1", "${1x}": "", "$x": "", "${x": "", "a ${} ${b-c}": "b"} {
		if got := variableIn(s); got != want {
			t.Errorf("variableIn(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestAnswers(t *testing.T) {
	line := func(pointer string) int { return len(pointer) }
	manifest := map[string]any{"metadata": map[string]any{"uid": "u", "creationTimestamp": nil}, "spec": map[string]any{"replicas": "${replicas}"}}
	if got := Exported(manifest, line); !strings.HasPrefix(got, "the manifest carries .metadata.uid (line 13), which only the server sets") {
		t.Errorf("Exported: %q", got)
	}
	if got := Exported(map[string]any{"metadata": map[string]any{"creationTimestamp": nil}}, line); got != "" {
		t.Errorf("creationTimestamp alone: %q", got)
	}
	if got := Variables(manifest, line); len(got) != 1 || !strings.HasPrefix(got[0], `.spec.replicas (line 14) is "${replicas}"`) {
		t.Errorf("Variables: %q", got)
	}
	if err := Swapped("live.json", "app.yaml", []bool{true}, []bool{false}); err == nil || !strings.HasSuffix(err.Error(), "ssa-diff app.yaml live.json") {
		t.Errorf("Swapped: %v", err)
	}
	if err := Swapped("a", "b", []bool{true, false}, nil); err != nil {
		t.Errorf("a manifest without managedFields: %v", err)
	}
	if err := InputPaths([]string{"-", "-"}); err == nil || !strings.Contains(err.Error(), "given 2 times") {
		t.Errorf("stdin twice: %v", err)
	}
	if err := InputPaths([]string{"https://example.com/a.yaml"}); err == nil || !strings.Contains(err.Error(), "is a URL") {
		t.Errorf("a URL: %v", err)
	}
	if got := suggestCommand("my file", "b"); got != "ssa-diff 'my file' b" {
		t.Errorf("suggestCommand: %q", got)
	}
}
