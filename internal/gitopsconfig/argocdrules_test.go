package gitopsconfig

import (
	"strings"
	"testing"
)

func TestJQPath(t *testing.T) {
	for q, want := range map[string]string{
		".spec.replicas":                         ".spec.replicas",
		".spec.containers[].image":               ".spec.containers[*].image",
		`.metadata.annotations["example.com/x"]`: `.metadata.annotations["example.com/x"]`,
		`.data.["k"]`:                            `.data["k"]`,
		".spec.containers[0].env":                ".spec.containers[0].env",
	} {
		p, err := jqPath(q)
		if err != nil || p.String() != want {
			t.Errorf("jqPath(%q) = %q, %v; want %q", q, p.String(), err, want)
		}
	}
	for _, q := range []string{"spec.replicas", ".a | .b", ".a?", "..", `.a["x\"y"]`, ".a[-1]", `."a"`} {
		if _, err := jqPath(q); err == nil {
			t.Errorf("jqPath(%q) taken", q)
		}
	}
}

// jqPath never panics, and what it takes is a path the ignore rules read.
func FuzzJQPath(f *testing.F) {
	for _, s := range []string{".spec.replicas", ".spec.containers[].image", `.data["k"]`, ".a[0]", ".a | .b", `.["x"]`, "..", ".a?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		p, err := jqPath(q)
		if err != nil {
			return
		}
		if p.String() == "" || strings.Contains(p.String(), "[]") {
			t.Errorf("jqPath(%q) = %q", q, p.String())
		}
	})
}

// The compare options that make Argo CD compare other than its server-side diff are
// refused for --sync-status, naming the option; the others are taken.
func TestCheckComparison(t *testing.T) {
	for opts, refused := range map[string]string{
		"":                     "",
		"IgnoreExtraneous":     "",
		"ServerSideDiff=true":  "",
		"ServerSideDiff=false": "ServerSideDiff=false",
		"IgnoreExtraneous,IncludeMutationWebhook=true": "IncludeMutationWebhook=true",
	} {
		a, err := ReadApplication([]byte("apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: shop\n  annotations:\n    argocd.argoproj.io/compare-options: " + opts + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		err = a.CheckComparison(true)
		if (err == nil) != (refused == "") || err != nil && !strings.Contains(err.Error(), refused) {
			t.Errorf("%q: %v, want refused for %q", opts, err, refused)
		}
	}
}
