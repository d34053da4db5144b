package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// This file holds a small JSON Schema (draft 2020-12) validator for the keywords
// docs/report.schema.json uses. It refuses schemas with other keywords, so the schema cannot
// silently say more than is checked.

var knownKeywords = map[string]bool{
	"$schema": true, "$id": true, "$defs": true, "$ref": true, "title": true, "description": true,
	"type": true, "const": true, "enum": true, "properties": true, "required": true,
	"additionalProperties": true, "items": true, "allOf": true, "minimum": true, "format": true,
}

type validator struct {
	root map[string]any
	errs []string
}

func (v *validator) fail(ptr, format string, args ...any) {
	v.errs = append(v.errs, fmt.Sprintf("%s: %s", ptr, fmt.Sprintf(format, args...)))
}

func (v *validator) resolve(ref string) (any, error) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("only local references are supported: %s", ref)
	}
	var cur any = v.root
	for _, seg := range strings.Split(ref[2:], "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("bad reference %s", ref)
		}
		if cur, ok = m[seg]; !ok {
			return nil, fmt.Errorf("unresolved reference %s", ref)
		}
	}
	return cur, nil
}

func typeOf(x any) string {
	switch t := x.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if t == float64(int64(t)) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", x)
}

func (v *validator) validate(schema any, x any, ptr string) {
	switch s := schema.(type) {
	case bool:
		if !s {
			v.fail(ptr, "not allowed")
		}
		return
	case map[string]any:
		v.validateObject(s, x, ptr)
	default:
		v.fail(ptr, "bad schema %T", schema)
	}
}

func (v *validator) validateObject(s map[string]any, x any, ptr string) {
	for k := range s {
		if !knownKeywords[k] {
			v.fail(ptr, "schema keyword %q is not supported by this validator", k)
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		target, err := v.resolve(ref)
		if err != nil {
			v.fail(ptr, "%v", err)
			return
		}
		v.validate(target, x, ptr)
	}
	if all, ok := s["allOf"].([]any); ok {
		for _, sub := range all {
			v.validate(sub, x, ptr)
		}
	}
	if t, ok := s["type"]; ok {
		got := typeOf(x)
		match := func(want string) bool { return want == got || (want == "number" && got == "integer") }
		ok := false
		switch tt := t.(type) {
		case string:
			ok = match(tt)
		case []any:
			for _, w := range tt {
				ok = ok || match(w.(string))
			}
		}
		if !ok {
			v.fail(ptr, "is a %s, want %v", got, t)
			return
		}
	}
	if c, ok := s["const"]; ok && !reflect.DeepEqual(c, x) {
		v.fail(ptr, "is %v, want %v", x, c)
	}
	if e, ok := s["enum"].([]any); ok {
		found := false
		for _, w := range e {
			found = found || reflect.DeepEqual(w, x)
		}
		if !found {
			v.fail(ptr, "%v is not one of %v", x, e)
		}
	}
	if m, ok := s["minimum"].(float64); ok {
		if n, isNum := x.(float64); isNum && n < m {
			v.fail(ptr, "%v is less than %v", n, m)
		}
	}
	if f, ok := s["format"].(string); ok && f == "date-time" {
		if str, isStr := x.(string); isStr {
			if _, err := time.Parse(time.RFC3339, str); err != nil {
				v.fail(ptr, "%q is not a date-time", str)
			}
		}
	}
	obj, isObj := x.(map[string]any)
	if isObj {
		props, _ := s["properties"].(map[string]any)
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if _, present := obj[r.(string)]; !present {
					v.fail(ptr, "required property %q is missing", r)
				}
			}
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := props[k]; ok {
				v.validate(ps, obj[k], ptr+"/"+k)
			} else if ap, ok := s["additionalProperties"]; ok {
				if b, isBool := ap.(bool); isBool && !b {
					v.fail(ptr, "property %q is not allowed", k)
				} else if !isBool {
					v.validate(ap, obj[k], ptr+"/"+k)
				}
			}
		}
	}
	if arr, ok := x.([]any); ok {
		if items, ok := s["items"]; ok {
			for i, it := range arr {
				v.validate(items, it, fmt.Sprintf("%s/%d", ptr, i))
			}
		}
	}
}

func loadReportSchema(t *testing.T) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "report.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// schemaErrors validates a JSON document against docs/report.schema.json.
func schemaErrors(t *testing.T, doc []byte) []string {
	t.Helper()
	var x any
	if err := json.Unmarshal(doc, &x); err != nil {
		return []string{err.Error()}
	}
	s := loadReportSchema(t)
	v := &validator{root: s}
	v.validate(s, x, "")
	return v.errs
}

// validateReport fails the test when doc does not satisfy the report's schema.
func validateReport(t *testing.T, doc []byte) {
	t.Helper()
	if errs := schemaErrors(t, doc); len(errs) > 0 {
		t.Errorf("the report does not satisfy docs/report.schema.json:\n%s", strings.Join(errs, "\n"))
	}
}

func TestSchemaValidatorRejects(t *testing.T) {
	good := `{"apiVersion":"ssa-diff/v1","kind":"Report","options":{"fieldManager":"kubectl","force":false,"applier":"api","now":"2026-12-02T12:00:00Z"},
		"results":[{"apiVersion":"v1","kind":"ConfigMap","name":"a","source":{"file":"m.yaml","document":0},"action":"create","changed":true,
		"conflicts":[],"ownership":[],"deleted":[],"warnings":[]}],
		"summary":{"objects":1,"created":1,"updated":0,"unchanged":0,"rejected":0,"errors":0,"changed":1,"conflicts":0,"exitCode":1}}`
	if errs := schemaErrors(t, []byte(good)); len(errs) > 0 {
		t.Fatalf("a valid report is refused: %v", errs)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"ssa-diff/v1"`, `"ssa-diff/v2"`, "/apiVersion"},
		{`"action":"create"`, `"action":"apply"`, "/results/0/action"},
		{`"document":0`, `"document":-1`, "/results/0/source/document"},
		{`"now":"2026-12-02T12:00:00Z"`, `"now":"today"`, "/options/now"},
		{`"changed":true,`, ``, `required property "changed"`},
		{`"warnings":[]`, `"warnings":[],"extra":1`, `property "extra" is not allowed`},
		{`"exitCode":1`, `"exitCode":5`, "/summary/exitCode"},
		{`"conflicts":[]`, `"conflicts":[{"manager":"x","operation":"Apply","owner":"\"x\"","path":".a","live":1}]`, `required property "applied"`},
	} {
		bad := strings.Replace(good, c.from, c.to, 1)
		errs := strings.Join(schemaErrors(t, []byte(bad)), "\n")
		if !strings.Contains(errs, c.want) {
			t.Errorf("%s → %s: errors %q, want one about %s", c.from, c.to, errs, c.want)
		}
	}
}
