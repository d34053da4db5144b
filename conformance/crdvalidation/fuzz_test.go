package crdvalidation

import (
	"fmt"
	"strings"
	"testing"
)

// fuzzFormats are the format names a CRD's string schema can carry, spelled as CRD
// authors spell them (the server matches them with "-" removed), and a few it strips.
var fuzzFormats = []string{"bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac",
	"uuid", "uuid3", "uuid4", "uuid5", "isbn", "isbn10", "isbn13", "creditcard", "ssn", "hexcolor",
	"rgbcolor", "byte", "password", "date", "date-time", "datetime", "duration", "k8s-short-name",
	"k8s-long-name", "int32", "unknown-format"}

func formatCRD(rule map[string]any) map[string]any {
	props := map[string]any{}
	for i, f := range fuzzFormats {
		props[fmt.Sprintf("f%d", i)] = map[string]any{"type": "string", "format": f}
	}
	props["obj"] = map[string]any{"type": "object", "properties": map[string]any{
		"a.b": map[string]any{"type": "string"},
		"m":   map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "object", "properties": map[string]any{"y": map[string]any{"type": "integer"}}}},
		"l":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	}}
	spec := map[string]any{"type": "object", "properties": props}
	if rule != nil {
		spec["x-kubernetes-validations"] = []any{rule}
	}
	return map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets.gen.example.com"},
		"spec": map[string]any{
			"group": "gen.example.com", "scope": "Namespaced",
			"names": map[string]any{"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object",
					"properties": map[string]any{"spec": spec}}}}},
		},
	}
}

// FuzzStringFormats holds the string formats of the CRD schema (kube-openapi's strfmt
// registry as the server configures it, and the server's stripping of formats it does not
// know) to apiextensions-apiserver's answer on the same string in every format.
func FuzzStringFormats(f *testing.F) {
	for _, s := range []string{"", "a", "web", "1.2.3.4", "::1", "10.0.0.0/8", "01:23:45:67:89:ab", "2024-02-30",
		"2024-01-01T00:00:00Z", "2024-01-01t00:00:00.5+01:00", "3 days", "1h30m", "1 wk 2d", "5 mins",
		"a@b.c", "http://x/y", "/path", "#fff", "rgb(1,2,3)", "aGVsbG8=", "978-3-16-148410-0", "0-306-40615-2",
		"4111 1111 1111 1111", "123-45-6789", "507f1f77bcf86cd799439011", "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
		"6ba7b810-9dad-41d1-80b4-00c04fd430c8", "a.b-c", "A_B", strings.Repeat("a", 64), "xn--bcher-kva.example"} {
		f.Add(s)
	}
	crd := formatCRD(nil)
	srv, err := NewOracle(crd, "v1")
	if err != nil {
		f.Fatal(err)
	}
	ours, err := NewOurs(crd, "v1")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec := map[string]any{}
		for i := range fuzzFormats {
			spec[fmt.Sprintf("f%d", i)] = s
		}
		obj := map[string]any{"apiVersion": "gen.example.com/v1", "kind": "Widget",
			"metadata": map[string]any{"name": "w", "namespace": "ns1"}, "spec": spec}
		se, sw, sp := srv.Validate("", obj, nil)
		oe, ow, op := ours.Validate("", obj, nil)
		so, po := outcome{texts(se), sortedCopy(sw), sp}, outcome{texts(oe), sortedCopy(ow), op}
		if !so.same(po) {
			t.Errorf("%q:\nserver:    %q %q %v\npredicted: %q %q %v", s, so.errs, so.warnings, so.panicked, po.errs, po.warnings, po.panicked)
		}
	})
}

// FuzzRuleFieldPath holds the reading of a CEL rule's fieldPath to the server's: whether a
// CRD with it is valid (and the error when not), and the field an error of the rule names.
func FuzzRuleFieldPath(f *testing.F) {
	for _, s := range []string{"", ".f0", "f0", ".f0.x", "['f0']", ".['f0']", "[f0]", "..f0", ".f1[0]", "['f0", ".f0]",
		"[\"f0\"]", ".f2['x']", ".f-1", "['a.b']", "[''", ".f28", ".f3.", "[0]", ".obj['a.b']", ".obj.m.k.y", ".obj.m['k'].y", ".obj.l[0]", ".obj.l", ".obj['m']['x.y']", ".obj.m.k.z", ".obj..m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		crd := formatCRD(map[string]any{"rule": "false", "message": "m", "fieldPath": path})
		objMap, objV1, err := DefaultedCRD(crd)
		if err != nil {
			t.Skip()
		}
		se, sw, sp := ValidateCRDServer(objV1, nil)
		oe, ow, op := ValidateCRDOurs(objMap, nil)
		so, po := outcome{texts(se), sortedCopy(sw), sp}, outcome{texts(oe), sortedCopy(ow), op}
		if !so.same(po) {
			t.Fatalf("fieldPath %q: CRD validation\nserver:    %q %q %v\npredicted: %q %q %v", path, so.errs, so.warnings, so.panicked, po.errs, po.warnings, po.panicked)
		}
		if len(se) > 0 {
			return
		}
		srv, err := NewOracle(crd, "v1")
		if err != nil {
			t.Fatal(err)
		}
		ours, err := NewOurs(crd, "v1")
		if err != nil {
			t.Fatal(err)
		}
		obj := map[string]any{"apiVersion": "gen.example.com/v1", "kind": "Widget",
			"metadata": map[string]any{"name": "w", "namespace": "ns1"}, "spec": map[string]any{}}
		se, sw, sp = srv.Validate("", obj, nil)
		oe, ow, op = ours.Validate("", obj, nil)
		so, po = outcome{texts(se), sortedCopy(sw), sp}, outcome{texts(oe), sortedCopy(ow), op}
		if !so.same(po) {
			t.Errorf("fieldPath %q: custom resource\nserver:    %q %q %v\npredicted: %q %q %v", path, so.errs, so.warnings, so.panicked, po.errs, po.warnings, po.panicked)
		}
	})
}
