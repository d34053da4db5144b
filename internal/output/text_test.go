package output

import (
	"strings"
	"testing"
)

func TestTextGolden(t *testing.T) {
	out, _ := writeAll(t, "text", sampleReport(), Options{})
	golden(t, "text.golden", []byte(out))
	colored, _ := writeAll(t, "text", sampleReport(), Options{Color: true})
	golden(t, "text-color.golden", []byte(colored))
	if strings.Contains(out, "\x1b[") {
		t.Error("escape sequences without colour")
	}
	if !strings.Contains(colored, "\x1b[1;31mrejected (409 Conflict)\x1b[0m") {
		t.Error("the rejection is not red in colour")
	}
}

func TestTextSecretsMasked(t *testing.T) {
	out, _ := writeAll(t, "text", sampleReport(), Options{})
	for _, v := range []string{"aHVudGVyMg==", "czNjcjN0", "dG9rZW4="} {
		if strings.Contains(out, v) {
			t.Errorf("secret value %s shown", v)
		}
	}
	for _, want := range []string{"-  password: '*** (before)'", "+  password: '*** (after)'", "+  token: '***'", "   user: '***'"} {
		if !strings.Contains(out, want) {
			t.Errorf("masked diff lacks %q", want)
		}
	}
	shown, _ := writeAll(t, "text", sampleReport(), Options{ShowSecrets: true})
	if !strings.Contains(shown, "+  password: czNjcjN0") {
		t.Error("--show-secrets does not show the value")
	}
}

func TestTextManagedFieldsHidden(t *testing.T) {
	out, _ := writeAll(t, "text", sampleReport(), Options{})
	if strings.Contains(out, "managedFields:") {
		t.Error("managedFields shown by default")
	}
	shown, _ := writeAll(t, "text", sampleReport(), Options{ShowManagedFields: true})
	if !strings.Contains(shown, "-    time: \"2026-11-30T08:00:00Z\"") || !strings.Contains(shown, "+    time: \"2026-12-02T12:00:00Z\"") {
		t.Errorf("--show-managed-fields does not diff the entries:\n%s", shown)
	}
}

func TestTextConflictDetails(t *testing.T) {
	out, _ := writeAll(t, "text", sampleReport(), Options{})
	for _, want := range []string{
		".spec.replicas  10 → 3",
		"owned by hpa-controller (Update, subresource scale, apps/v1)\n",
		"owned by kube-controller-manager (Update, apps/v1), since 143m ago",
		"from hpa-controller (Update, subresource scale, apps/v1): .spec.replicas (its managedFields entry would be removed)",
		"- .data.retries  released; deleted, nobody else owns it",
		"Summary: 6 objects: 1 to create, 2 to update, 1 unchanged (1 not shown: --show-unchanged), 1 rejected (2 conflicts), 1 not predicted.",
		"deploy/broken.yaml, document 2, line 14: .spec: invalid YAML",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q", want)
		}
	}
}

func TestTextPolicyFailures(t *testing.T) {
	out, _ := writeAll(t, "text", gateReport(gatePolicy), Options{})
	for _, want := range []string{
		"  fails (protected) (line 6): takes 1 field from kube-controller-manager (Update, subresource scale, apps/v1), which --protect protects",
		"  fails (deletion) (line 9): deletes 1 field nobody else owns: .data.retries",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Contains(out, "fails (rejected)") || strings.Contains(out, "fails (error)") {
		t.Error("the refusal or the error is said twice")
	}
	// Without a failing policy, the text is as it was.
	plain, _ := writeAll(t, "text", sampleReport(), Options{})
	if strings.Contains(plain, "fails (") || strings.Contains(plain, "The policy fails") {
		t.Error("policy lines without findings")
	}
}
