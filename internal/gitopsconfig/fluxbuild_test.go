package gitopsconfig

import (
	"strings"
	"testing"
)

// Build is kustomize-controller's generator, kustomize build and postBuild substitution
// (fluxcd/pkg/kustomize SubstituteVariables with fluxcd/pkg/envsubst, strict as the
// controller's StrictPostBuildSubstitutions default), one object at a time. kustomize
// writes each object's YAML from its JSON, so a value quoted in the source ("${replicas}")
// is read again as what it substitutes to: a number.
func TestBuild(t *testing.T) {
	const deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: other\n  annotations: {note: \"$${kept} ${tag:=latest}\"}\nspec:\n  replicas: ${replicas}\n  minReadySeconds: \"${replicas}\"\n  template:\n    spec:\n      containers:\n      - name: web\n        image: web:${tag}\n"
	vars := map[string]string{"replicas": "3", "tag": "1.2"}
	cases := []struct {
		name string
		k    Kustomization
		doc  string
		vars map[string]string
		want []string // substrings of the JSON
		err  string
	}{
		{"target namespace and variables", Kustomization{TargetNamespace: "shop", HasPostBuild: true}, deploy, vars,
			[]string{`"namespace":"shop"`, `"replicas":3`, `"minReadySeconds":3`, `"image":"web:1.2"`, `"note":"${kept} 1.2"`}, ""},
		{"cluster-scoped kinds keep no namespace", Kustomization{TargetNamespace: "shop"}, "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\n", nil,
			[]string{`"metadata":{"name":"r"}`}, ""},
		{"no variable, WithVariables: nothing substituted", Kustomization{HasPostBuild: true}, deploy, nil,
			[]string{`"replicas":"${replicas}"`, `"namespace":"other"`}, ""},
		{"no variable, Always: defaults apply, a variable without one fails", Kustomization{HasPostBuild: true, SubstituteAlways: true}, deploy, nil,
			nil, "variable not set"},
		{"strict: an undefined variable fails", Kustomization{HasPostBuild: true}, deploy, map[string]string{"tag": "1"},
			nil, "replicas"},
		{"substitute: disabled", Kustomization{HasPostBuild: true}, strings.Replace(deploy, "annotations: {", "annotations: {kustomize.toolkit.fluxcd.io/substitute: disabled, ", 1), vars,
			[]string{`"replicas":"${replicas}"`}, ""},
		{"without postBuild nothing is substituted", Kustomization{TargetNamespace: "shop"}, deploy, vars,
			[]string{`"replicas":"${replicas}"`, `"namespace":"shop"`}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.k.Build([]byte(c.doc), c.vars)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(string(got), w) {
					t.Errorf("%s\nlacks %s", got, w)
				}
			}
		})
	}
}

// Variable values lose their line breaks, names must be shell identifiers, and the
// substitute strategy is read.
func TestVariablesAsTheControllerLoadsThem(t *testing.T) {
	k := &Kustomization{Substitute: map[string]string{"a": "x\ny"}}
	if v, err := k.Variables(nil); err != nil || v["a"] != "xy" {
		t.Errorf("%v %v", v, err)
	}
	k.Substitute["1bad"] = "v"
	if _, err := k.Variables(nil); err == nil || !strings.Contains(err.Error(), `"1bad" is invalid`) {
		t.Errorf("bad name: %v", err)
	}
	for _, n := range []string{"_a", "A_1", "tag"} {
		if !shellName(n) {
			t.Errorf("%q refused", n)
		}
	}
	for _, n := range []string{"", "a-b", "é", "a.b"} {
		if shellName(n) {
			t.Errorf("%q taken", n)
		}
	}
	ks, err := ReadKustomization([]byte("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: a, namespace: b}\nspec:\n  postBuild: {substituteStrategy: Always}\n  ignore:\n  - paths: [/spec/replicas]\n    target: {kind: Deployment}\n"))
	if err != nil || !ks.SubstituteAlways || len(ks.Ignore) != 1 || ks.Ignore[0] != `{"paths":["/spec/replicas"],"target":{"kind":"Deployment"}}` {
		t.Errorf("%+v %v", ks, err)
	}
	if _, err := ReadKustomization([]byte("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nspec:\n  ignore:\n  - paths: [/a]\n  - paths: [/b]\n    target: {kind: \"(\"}\n")); err == nil || !strings.HasPrefix(err.Error(), "spec.ignore[1]: target: invalid kind regex") {
		t.Errorf("a bad rule: %v", err)
	}
}

// Build never panics, and what it returns is one JSON object.
func FuzzBuild(f *testing.F) {
	f.Add([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: \"${v:=x}\", l: $${v}}\n"), "shop", "v", "1")
	f.Add([]byte("apiVersion: v1\nkind: Namespace\nmetadata: {name: ${v}}\n"), "", "v", "a\nb")
	f.Fuzz(func(t *testing.T, doc []byte, ns, name, value string) {
		k := &Kustomization{TargetNamespace: ns, HasPostBuild: true}
		out, err := k.Build(doc, map[string]string{name: value})
		if err == nil && (len(out) == 0 || out[0] != '{') {
			t.Fatalf("Build = %q", out)
		}
	})
}
