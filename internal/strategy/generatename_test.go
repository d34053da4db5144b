package strategy

import (
	"strings"
	"testing"
)

// TestGeneratedName: the prefix kept to 58 characters, and a suffix the server never
// draws; Assigned lists the name of an object created so.
func TestGeneratedName(t *testing.T) {
	if got := GeneratedName("web-"); got != "web-00000" {
		t.Errorf("GeneratedName(web-) = %q", got)
	}
	long := strings.Repeat("a", 70)
	if got := GeneratedName(long); len(got) != 63 || !strings.HasPrefix(got, long[:58]) {
		t.Errorf("GeneratedName(70 a's) = %q", got)
	}
	obj := map[string]any{"metadata": map[string]any{"generateName": "web-", "name": "web-00000"}}
	found := false
	for _, a := range Assigned("v1", "ConfigMap", obj, true) {
		if len(a.Path) == 2 && a.Path[1] == "name" && a.Reason == "generated from generateName" {
			found = true
		}
	}
	if !found {
		t.Errorf("Assigned does not list the generated name: %+v", Assigned("v1", "ConfigMap", obj, true))
	}
}
