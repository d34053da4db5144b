package crdvalidation

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/schema/crdschema"
)

// Object draws a custom resource of the generated CRD. chaos is the chance that a value
// breaks its schema.
func (g *Gen) Object(c *Generated, chaos float64) map[string]any {
	obj := map[string]any{"apiVersion": "gen.example.com/v1", "kind": "Widget"}
	if g.p(0.02) {
		obj["kind"] = "Gadget"
	}
	if g.p(0.02) {
		obj["apiVersion"] = "gen.example.com/v2"
	}
	obj["metadata"] = g.metadata(c, chaos)
	for _, name := range []string{"spec", "status"} {
		if s, ok := c.Schema.Properties[name]; ok && g.p(0.9) {
			obj[name] = g.valueOf(s, chaos, 0)
		}
	}
	if g.p(chaos / 2) {
		obj["spec"] = g.wrong()
	}
	return obj
}

var validNames = []string{"web", "api-tls", "a.b.c", "x1", "widget-123"}
var invalidNames = []string{"Bad_Name", "-lead", "a..b", "UPPER", "x/y", strings.Repeat("long-name-", 30)}

func (g *Gen) metadata(c *Generated, chaos float64) map[string]any {
	md := map[string]any{}
	if g.p(chaos) {
		md["name"] = invalidNames[g.intn(len(invalidNames))]
	} else {
		md["name"] = validNames[g.intn(len(validNames))]
	}
	if g.p(0.03) {
		delete(md, "name")
		md["generateName"] = g.pick("gen-", "Bad_")
	}
	if c.Namespaced {
		if !g.p(chaos / 4) {
			md["namespace"] = "ns1"
		}
	} else if g.p(chaos / 4) {
		md["namespace"] = "ns1"
	}
	if g.p(0.3) {
		labels := map[string]any{"app": "web"}
		if g.p(chaos) {
			labels["bad key!"] = "x"
			labels["app"] = "web shop"
		}
		md["labels"] = labels
	}
	if g.p(0.2) {
		md["annotations"] = map[string]any{"example.com/note": "hello"}
	}
	if g.p(0.2) {
		var fs []any
		for _, f := range []string{"example.com/cleanup", "cleanup", "a.b", "kubernetes", "Bad Finalizer", "orphan"} {
			if g.p(0.3) {
				fs = append(fs, f)
			}
		}
		if len(fs) > 0 {
			md["finalizers"] = fs
		}
	}
	return md
}

// wrong is a value of a random type.
func (g *Gen) wrong() any {
	switch g.intn(7) {
	case 0:
		return "text"
	case 1:
		return int64(g.intn(200) - 50)
	case 2:
		return 2.5
	case 3:
		return true
	case 4:
		return []any{"a", int64(1)}
	case 5:
		return map[string]any{"unknown": "x"}
	default:
		return nil
	}
}

var formatSamples = map[string][]string{
	"date-time":      {"2024-01-02T03:04:05Z", "2024-01-02T03:04:05.123+02:00", "2024-13-02T03:04:05Z", "yesterday", "2024-01-02"},
	"datetime":       {"2024-01-02T03:04:05Z", "nope"},
	"date":           {"2024-01-02", "2024-02-30", "01/02/2024"},
	"duration":       {"1h", "30s", "3 days", "1h30m", "forever", "2 weeks"},
	"byte":           {"aGVsbG8=", "aGVsbG8", "!!!", "YWJj"},
	"uuid":           {"123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000", "not-a-uuid"},
	"uuid3":          {"123e4567-e89b-32d3-a456-426614174000", "123e4567-e89b-12d3-a456-426614174000"},
	"uuid4":          {"123e4567-e89b-42d3-a456-426614174000", "123e4567-e89b-42d3-c456-426614174000"},
	"uuid5":          {"123e4567-e89b-52d3-a456-426614174000"},
	"ipv4":           {"10.0.0.1", "010.0.0.1", "256.1.1.1", "::1"},
	"ipv6":           {"::1", "fe80::1", "10.0.0.1", "2001:db8::zz"},
	"cidr":           {"10.0.0.0/8", "10.0.0.1/33", "::/0", "10.0.0.0"},
	"hostname":       {"example.com", "ex_ample.com", "münchen.de", "-bad.com", "a"},
	"email":          {"a@example.com", "Name <a@b.c>", "not-an-email"},
	"uri":            {"https://example.com/x?y=1", "/path", "relative/path", "http://[::1]:80/"},
	"mac":            {"00:1a:2b:3c:4d:5e", "00-1A-2B-3C-4D-5E", "zz:zz"},
	"isbn":           {"0321751043", "978-0321751041", "1234567890"},
	"isbn10":         {"0321751043", "032175104X"},
	"isbn13":         {"9780321751041", "9780321751040"},
	"creditcard":     {"4111111111111111", "4111-1111-1111-1111", "1234567812345678"},
	"ssn":            {"123-45-6789", "123456789", "12-345-6789"},
	"hexcolor":       {"#fff", "#abcdef", "abc", "#abcd"},
	"rgbcolor":       {"rgb(255,255,255)", "rgb( 1 , 2 , 3 )", "rgb(256,0,0)"},
	"bsonobjectid":   {"507f1f77bcf86cd799439011", "507f1f77bcf86cd79943901"},
	"k8s-short-name": {"web", "Web", "a-b", "-a"},
	"k8s-long-name":  {"a.b.c", "a..b", "web"},
}

func (g *Gen) str(s *crdschema.Schema, chaos float64) string {
	if len(s.Enum) > 0 && !g.p(chaos) {
		if e, ok := s.Enum[g.intn(len(s.Enum))].(string); ok {
			return e
		}
	}
	if samples, ok := formatSamples[s.Format]; ok && g.p(0.8) {
		return samples[g.intn(len(samples))]
	}
	pool := []string{"a", "abc", "web-1", "v1", "v1.2.3", "1.2", "x.y.z", "forbidden", "https://example.com", "10.0.0.1", "10.0.0.0/8", "100Mi",
		"1.5", "Mixed", "with space", "a-b-c-d", "zzz", "", "50%", "🙂x", "aaaaaaaaaaaaaa", "b", "RSA"}
	v := pool[g.intn(len(pool))]
	if s.MaxLength != nil && int64(len(v)) > *s.MaxLength && !g.p(chaos) {
		v = v[:*s.MaxLength]
	}
	return v
}

func (g *Gen) number(s *crdschema.Schema, integer bool, chaos float64) any {
	if len(s.Enum) > 0 && !g.p(chaos) {
		return s.Enum[g.intn(len(s.Enum))]
	}
	lo, hi := -3.0, 120.0
	if s.Minimum != nil && !g.p(chaos) {
		lo = *s.Minimum
	}
	if s.Maximum != nil && !g.p(chaos) {
		hi = *s.Maximum
	}
	if hi < lo {
		hi = lo
	}
	v := lo + g.r.Float64()*(hi-lo)
	if g.p(0.05) {
		v = 3e9
	}
	if integer || g.p(0.5) {
		i := int64(v)
		if s.MultipleOf != nil && *s.MultipleOf >= 1 && !g.p(chaos) {
			m := int64(*s.MultipleOf)
			i -= i % m
		}
		if integer && g.p(chaos/2) {
			return float64(i) + 0.5
		}
		return i
	}
	return v
}

// valueOf draws a value for schema s (breaking it with probability chaos at each node).
func (g *Gen) valueOf(s *crdschema.Schema, chaos float64, depth int) any {
	if depth > 8 {
		return nil
	}
	if g.p(chaos / 3) {
		return g.wrong()
	}
	if s.Nullable && g.p(0.1) {
		return nil
	}
	if s.XIntOrString {
		if g.p(0.5) {
			return int64(g.intn(20) - 2)
		}
		return g.pick("50%", "3", "abc", "100")
	}
	switch s.Type {
	case "object":
		if s.XEmbeddedResource {
			m := map[string]any{}
			if !g.p(chaos) {
				m["apiVersion"] = g.pick("v1", "apps/v1", "example.com/v1beta1")
			} else if g.p(0.5) {
				m["apiVersion"] = g.pick("a/b/c", "", "/v1")
			}
			if !g.p(chaos) {
				m["kind"] = g.pick("Pod", "ConfigMap", "Thing")
			} else if g.p(0.5) {
				m["kind"] = g.pick("bad_kind", "", "9Lives")
			}
			if g.p(0.7) {
				md := map[string]any{"name": g.pick("inner", "Inner_Bad", "x")}
				if g.p(0.2) {
					md["labels"] = map[string]any{"ok": "yes"}
				}
				m["metadata"] = md
			}
			for _, k := range s.PropertyNames() {
				if k == "apiVersion" || k == "kind" || k == "metadata" {
					continue
				}
				if g.p(0.6) {
					m[k] = g.valueOf(s.Properties[k], chaos, depth+1)
				}
			}
			return m
		}
		if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil {
			m := map[string]any{}
			n := g.intn(4)
			for i := 0; i < n; i++ {
				k := g.pick("a", "b", "forbidden", "x", "long-key-name-here", "k.io/v")
				m[k] = g.valueOf(ap.Schema, chaos, depth+1)
			}
			return m
		}
		m := map[string]any{}
		if s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields && g.p(0.5) {
			m["free"] = g.wrong()
		}
		required := map[string]bool{}
		for _, r := range s.Required {
			required[r] = true
		}
		for _, k := range s.PropertyNames() {
			want := 0.6
			if required[k] {
				want = 1 - chaos
			}
			if g.p(want) {
				m[k] = g.valueOf(s.Properties[k], chaos, depth+1)
			}
		}
		return m
	case "array":
		if s.Items == nil {
			return []any{}
		}
		n := g.intn(4)
		if s.MaxItems == nil && depth < 3 && g.p(0.02) {
			n = 60 + g.intn(60)
		}
		if s.MaxItems != nil && int64(n) > *s.MaxItems && !g.p(chaos) {
			n = int(*s.MaxItems)
		}
		l := make([]any, 0, n)
		for i := 0; i < n; i++ {
			l = append(l, g.valueOf(s.Items, chaos, depth+1))
		}
		if s.XListType != nil && len(l) > 0 {
			switch *s.XListType {
			case "set":
				if g.p(chaos) {
					l = append(l, l[0])
				} else {
					l = dedupe(l)
				}
			case "map":
				l = g.keyed(s, l, chaos)
			}
		}
		return l
	case "string":
		return g.str(s, chaos)
	case "integer":
		return g.number(s, true, chaos)
	case "number":
		return g.number(s, false, chaos)
	case "boolean":
		return g.p(0.5)
	}
	return g.wrong()
}

// keyed makes list-type map items have distinct keys (or, with chaos, duplicates).
func (g *Gen) keyed(s *crdschema.Schema, l []any, chaos float64) []any {
	keys := s.XListMapKeys
	seen := map[string]bool{}
	var out []any
	for i, it := range l {
		m, ok := it.(map[string]any)
		if !ok {
			out = append(out, it)
			continue
		}
		for _, k := range keys {
			if _, ok := m[k]; !ok && !g.p(chaos) {
				if ks := s.Items.Properties[k]; ks != nil && ks.Type == "integer" {
					m[k] = int64(i)
				} else {
					m[k] = fmt.Sprintf("k%d", i)
				}
			}
		}
		id := fmt.Sprint(m[keys[0]])
		if len(keys) > 1 {
			id += "/" + fmt.Sprint(m[keys[1]])
		}
		if seen[id] && !g.p(chaos) {
			continue
		}
		seen[id] = true
		out = append(out, m)
	}
	if len(out) > 0 && g.p(chaos/2) {
		out = append(out, out[0])
	}
	return out
}

func dedupe(l []any) []any {
	seen := map[string]bool{}
	var out []any
	for _, x := range l {
		k := fmt.Sprintf("%T:%v", x, x)
		if !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}

// Update draws an update: old is a stored object (with the system metadata the server
// keeps), new a copy that changes some of it.
func (g *Gen) Update(c *Generated, chaos float64) (newObj, old map[string]any) {
	old = g.Object(c, chaos/2)
	md := old["metadata"].(map[string]any)
	if _, ok := md["name"]; !ok {
		md["name"] = "generated-x1"
		delete(md, "generateName")
	}
	md["uid"] = "5b965311-105c-48be-bcf4-2c42264a97d2"
	md["resourceVersion"] = "76"
	md["creationTimestamp"] = "2026-12-03T00:57:11Z"
	md["generation"] = int64(1 + g.intn(3))
	newObj = g.change(old, c.Schema, chaos, 0).(map[string]any)
	nmd, ok := newObj["metadata"].(map[string]any)
	if !ok {
		nmd = map[string]any{}
		newObj["metadata"] = nmd
	}
	for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "generation", "name", "namespace"} {
		if v, ok := md[k]; ok {
			nmd[k] = v
		} else {
			delete(nmd, k)
		}
	}
	switch {
	case g.p(0.02):
		nmd["name"] = "renamed"
	case g.p(0.02):
		nmd["generation"] = int64(0)
	case g.p(0.02):
		nmd["uid"] = "other-uid"
	case g.p(0.1):
		nmd["finalizers"] = []any{"example.com/new", "newone"}
	}
	return newObj, old
}

// change returns v with some values changed (a deep copy where it changes, v shared where
// it does not).
func (g *Gen) change(v any, s *crdschema.Schema, chaos float64, depth int) any {
	if s == nil {
		s = &crdschema.Schema{}
	}
	if depth > 0 && g.p(0.15) {
		return g.valueOf(s, chaos, depth)
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for _, k := range sortedKeys(x) {
			if depth > 0 && g.p(0.05) {
				continue
			}
			var sub *crdschema.Schema
			if p, ok := s.Properties[k]; ok {
				sub = p
			} else if s.AdditionalProperties != nil {
				sub = s.AdditionalProperties.Schema
			}
			if k == "metadata" && depth == 0 {
				out[k] = x[k]
				continue
			}
			if g.p(0.5) {
				out[k] = x[k]
			} else {
				out[k] = g.change(x[k], sub, chaos, depth+1)
			}
		}
		if depth > 0 && s.Properties != nil && g.p(0.1) {
			names := s.PropertyNames()
			k := names[g.intn(len(names))]
			out[k] = g.valueOf(s.Properties[k], chaos, depth+1)
		}
		return out
	case []any:
		out := make([]any, 0, len(x)+1)
		for _, it := range x {
			if g.p(0.1) {
				continue
			}
			if g.p(0.3) {
				out = append(out, g.change(it, s.Items, chaos, depth+1))
			} else {
				out = append(out, it)
			}
		}
		if s.Items != nil && g.p(0.15) {
			out = append(out, g.valueOf(s.Items, chaos, depth+1))
		}
		if g.p(0.1) && len(out) > 1 {
			out[0], out[1] = out[1], out[0]
		}
		return out
	}
	return v
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
