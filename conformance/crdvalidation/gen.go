package crdvalidation

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/schema/crdschema"
)

// Gen draws CRDs, rules and objects from a seed.
type Gen struct {
	r *rand.Rand
	// names of properties drawn so far in one object schema (unique per object)
	rules int
}

// NewGen returns a generator for seed.
func NewGen(seed int64) *Gen { return &Gen{r: rand.New(rand.NewSource(seed))} }

func (g *Gen) p(prob float64) bool { return g.r.Float64() < prob }

func (g *Gen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

func (g *Gen) intn(n int) int { return g.r.Intn(n) }

// Generated is a CRD with the facts a test needs about it.
type Generated struct {
	CRD        map[string]any
	Version    string
	Namespaced bool
	Status     bool
	Schema     *crdschema.Schema // the version's schema, parsed
}

var propertyNames = []string{"name", "size", "mode", "count", "items", "ratio", "enabled", "labels", "target", "ports",
	"x-y", "a.b", "namespace", "int", "__x__", "in", "url", "addr", "version", "when", "timeout", "data", "extra", "ref", "spec2"}

// CRD draws a CRD of one version, "v1", with a status subresource most of the time.
func (g *Gen) CRD() *Generated {
	g.rules = 0
	namespaced := g.p(0.8)
	status := g.p(0.7)
	props := map[string]any{"spec": g.object(3, true)}
	if status {
		props["status"] = g.object(2, true)
	}
	if g.p(0.3) {
		props["apiVersion"] = map[string]any{"type": "string"}
		props["kind"] = map[string]any{"type": "string"}
	}
	if g.p(0.3) {
		props["metadata"] = map[string]any{"type": "object"}
	}
	root := map[string]any{"type": "object", "properties": props}
	if g.p(0.5) {
		root["x-kubernetes-validations"] = g.rootRules()
	}
	version := map[string]any{"name": "v1", "served": true, "storage": true, "schema": map[string]any{"openAPIV3Schema": root}}
	sub := map[string]any{}
	if status {
		sub["status"] = map[string]any{}
	}
	if g.p(0.2) {
		scale := map[string]any{"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}
		if g.p(0.5) {
			scale["labelSelectorPath"] = ".status.selector"
		}
		sub["scale"] = scale
		props["spec"].(map[string]any)["properties"].(map[string]any)["replicas"] = map[string]any{"type": "integer"}
		if status {
			sp := props["status"].(map[string]any)["properties"].(map[string]any)
			sp["replicas"] = map[string]any{"type": "integer"}
			sp["selector"] = map[string]any{"type": "string"}
		}
	}
	if len(sub) > 0 {
		version["subresources"] = sub
	}
	scope := "Cluster"
	if namespaced {
		scope = "Namespaced"
	}
	crd := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": "widgets.gen.example.com"},
		"spec": map[string]any{
			"group":    "gen.example.com",
			"scope":    scope,
			"names":    map[string]any{"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
			"versions": []any{version},
		},
	}
	s, err := crdschema.Parse(root)
	if err != nil {
		panic(err)
	}
	return &Generated{CRD: crd, Version: "v1", Namespaced: namespaced, Status: status, Schema: s}
}

func (g *Gen) rootRules() []any {
	var out []any
	for _, r := range []string{
		"self.metadata.name.size() < 40",
		"!self.metadata.name.startsWith('bad')",
		"has(self.spec)",
		"self.kind == 'Widget'",
		"self.apiVersion.startsWith('gen.')",
		"!has(self.metadata.generateName) || self.metadata.generateName != 'x'",
	} {
		if g.p(0.3) {
			out = append(out, g.decorate(map[string]any{"rule": r}, "self.metadata.name", nil))
		}
	}
	if len(out) == 0 {
		out = append(out, map[string]any{"rule": "self.metadata.name != 'forbidden'"})
	}
	return out
}

// object draws an object schema: properties, or (not at top) a map.
func (g *Gen) object(depth int, top bool) map[string]any {
	s := map[string]any{"type": "object"}
	if !top && g.p(0.2) {
		s["additionalProperties"] = g.value(depth - 1)
		if g.p(0.3) {
			s["x-kubernetes-map-type"] = g.pick("granular", "atomic")
		}
		if g.p(0.3) {
			s["maxProperties"] = int64(g.intn(4))
		}
		if g.p(0.2) {
			s["minProperties"] = int64(g.intn(3))
		}
		g.maybeRules(s, "map")
		return s
	}
	if !top && g.p(0.08) {
		s["x-kubernetes-preserve-unknown-fields"] = true
		if g.p(0.5) {
			return s
		}
	}
	if !top && g.p(0.08) {
		s["x-kubernetes-embedded-resource"] = true
		if g.p(0.5) {
			s["x-kubernetes-preserve-unknown-fields"] = true
			if g.p(0.5) {
				g.maybeRules(s, "embedded")
				return s
			}
		}
	}
	n := 1 + g.intn(4)
	props := map[string]any{}
	var names []string
	for len(props) < n {
		name := propertyNames[g.intn(len(propertyNames))]
		if _, dup := props[name]; dup {
			continue
		}
		props[name] = g.value(depth - 1)
		names = append(names, name)
	}
	s["properties"] = props
	if g.p(0.4) {
		var req []any
		for _, name := range names {
			if g.p(0.4) {
				req = append(req, name)
			}
		}
		if len(req) > 0 {
			s["required"] = req
		}
	}
	if g.p(0.15) {
		s["maxProperties"] = int64(1 + g.intn(3))
	}
	if g.p(0.1) {
		s["minProperties"] = int64(1 + g.intn(2))
	}
	if g.p(0.15) {
		s["x-kubernetes-map-type"] = g.pick("granular", "atomic")
	}
	if g.p(0.2) {
		g.combinators(s, names)
	}
	if g.p(0.1) {
		s["nullable"] = true
	}
	g.maybeRules(s, "object")
	return s
}

// combinators adds allOf/anyOf/oneOf/not value validations over the object's properties.
func (g *Gen) combinators(s map[string]any, names []string) {
	name := names[g.intn(len(names))]
	req := map[string]any{"required": []any{name}}
	switch g.intn(5) {
	case 0:
		s["allOf"] = []any{req, map[string]any{"minProperties": int64(1)}}
	case 1:
		other := names[g.intn(len(names))]
		s["anyOf"] = []any{req, map[string]any{"required": []any{other}}}
	case 2:
		other := names[g.intn(len(names))]
		s["oneOf"] = []any{req, map[string]any{"required": []any{other}}}
	case 3:
		s["not"] = req
	default:
		s["allOf"] = []any{map[string]any{"x-kubernetes-validations": []any{map[string]any{"rule": "self.size() >= 0", "message": "allOf rule"}}},
			map[string]any{"properties": map[string]any{name: map[string]any{"x-kubernetes-validations": []any{map[string]any{"rule": "true"}}}}}}
	}
}

// value draws the schema of any value.
func (g *Gen) value(depth int) map[string]any {
	if depth <= 0 {
		return g.scalar()
	}
	switch g.intn(10) {
	case 0, 1:
		return g.object(depth, false)
	case 2, 3:
		return g.array(depth)
	default:
		return g.scalar()
	}
}

func (g *Gen) array(depth int) map[string]any {
	s := map[string]any{"type": "array"}
	switch g.intn(4) {
	case 0:
		item := g.scalar()
		for _, k := range []string{"enum", "nullable"} {
			delete(item, k)
		}
		if t := item["type"]; t == nil || t == "number" {
			item = map[string]any{"type": "string", "maxLength": int64(5 + g.intn(10))}
		}
		s["items"] = item
		s["x-kubernetes-list-type"] = "set"
	case 1:
		key := g.pick("name", "id")
		item := map[string]any{"type": "object", "properties": map[string]any{
			key:     map[string]any{"type": g.pick("string", "integer")},
			"value": g.scalar(),
		}, "required": []any{key}}
		keys := []any{key}
		if g.p(0.3) {
			item["properties"].(map[string]any)["zone"] = map[string]any{"type": "string", "default": "a"}
			keys = append(keys, "zone")
		}
		g.maybeRules(item, "object")
		s["items"] = item
		s["x-kubernetes-list-type"] = "map"
		s["x-kubernetes-list-map-keys"] = keys
	default:
		s["items"] = g.value(depth - 1)
		if g.p(0.3) {
			s["x-kubernetes-list-type"] = "atomic"
		}
	}
	if g.p(0.4) {
		s["maxItems"] = int64(g.intn(5))
	}
	if g.p(0.2) {
		s["minItems"] = int64(g.intn(3))
	}
	if g.p(0.05) {
		s["nullable"] = true
	}
	g.maybeRules(s, "array")
	return s
}

var stringFormats = []string{"", "", "", "date-time", "date", "duration", "byte", "uuid", "ipv4", "ipv6", "cidr", "hostname", "email", "uri",
	"mac", "isbn", "creditcard", "ssn", "hexcolor", "rgbcolor", "password", "bsonobjectid", "uuid3", "uuid4", "uuid5", "isbn10", "isbn13",
	"k8s-short-name", "k8s-long-name", "datetime", "int32", "foo"}

var patterns = []string{"^[a-z0-9-]*$", "^[a-z]+$", "^v[0-9]+$", "^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "[0-9]", "^.{0,5}$", "^\\S+$"}

func (g *Gen) scalar() map[string]any {
	var s map[string]any
	switch g.intn(9) {
	case 0, 1, 2:
		s = map[string]any{"type": "string"}
		if f := stringFormats[g.intn(len(stringFormats))]; f != "" {
			s["format"] = f
		}
		if g.p(0.3) {
			s["maxLength"] = int64(g.intn(12))
		}
		if g.p(0.2) {
			s["minLength"] = int64(g.intn(4))
		}
		if g.p(0.25) {
			s["pattern"] = patterns[g.intn(len(patterns))]
		}
		if g.p(0.15) {
			s["enum"] = []any{"a", "b", "RSA", "ECDSA"}
		}
		g.maybeRules(s, "string")
	case 3, 4:
		s = map[string]any{"type": "integer"}
		if g.p(0.3) {
			s["format"] = g.pick("int32", "int64", "uint32", "double")
		}
		g.bounds(s, true)
		if g.p(0.1) {
			s["enum"] = []any{int64(1), int64(2), int64(65), 3.0}
		}
		g.maybeRules(s, "integer")
	case 5:
		s = map[string]any{"type": "number"}
		if g.p(0.3) {
			s["format"] = g.pick("float", "double", "int32")
		}
		g.bounds(s, false)
		if g.p(0.1) {
			s["enum"] = []any{1.5, int64(2)}
		}
		g.maybeRules(s, "number")
	case 6:
		s = map[string]any{"type": "boolean"}
		if g.p(0.05) {
			s["enum"] = []any{true}
		}
		g.maybeRules(s, "boolean")
	case 7:
		s = map[string]any{"x-kubernetes-int-or-string": true}
		if g.p(0.6) {
			s["anyOf"] = []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}
		}
		if g.p(0.2) {
			s["pattern"] = "^[0-9]+%?$"
		}
		if g.p(0.2) {
			s["maxLength"] = int64(4)
		}
		g.maybeRules(s, "intorstring")
	default:
		s = map[string]any{"type": "string", "maxLength": int64(8 + g.intn(30))}
		if g.p(0.5) {
			s["format"] = g.pick("date-time", "duration", "byte", "cidr", "ipv4")
		}
		g.maybeRules(s, "string")
	}
	if g.p(0.06) {
		s["nullable"] = true
	}
	return s
}

func (g *Gen) bounds(s map[string]any, integer bool) {
	num := func(v int) any {
		if integer || g.p(0.5) {
			return int64(v)
		}
		return float64(v) + 0.5
	}
	if g.p(0.35) {
		s["minimum"] = num(g.intn(10) - 2)
		if g.p(0.3) {
			s["exclusiveMinimum"] = true
		}
	}
	if g.p(0.35) {
		s["maximum"] = num(5 + g.intn(100))
		if g.p(0.3) {
			s["exclusiveMaximum"] = true
		}
	}
	if g.p(0.2) {
		if integer && g.p(0.7) {
			s["multipleOf"] = int64(2 + g.intn(3))
		} else {
			s["multipleOf"] = g.pick2(0.5, 0.25, 1.5, 0.1)
		}
	}
	if g.p(0.03) {
		s["maximum"] = 3e10
	}
}

func (g *Gen) pick2(xs ...float64) float64 { return xs[g.intn(len(xs))] }

// maybeRules adds x-kubernetes-validations rules fitting the node's kind.
func (g *Gen) maybeRules(s map[string]any, kind string) {
	if !g.p(0.3) {
		return
	}
	n := 1 + g.intn(2)
	var rules []any
	for i := 0; i < n; i++ {
		rules = append(rules, g.rule(s, kind))
	}
	s["x-kubernetes-validations"] = rules
}

func (g *Gen) rule(s map[string]any, kind string) map[string]any {
	format, _ := s["format"].(string)
	var rule string
	var transition bool
	switch kind {
	case "string":
		switch format {
		case "date-time", "date":
			rule = g.pick("self > timestamp('2020-01-01T00:00:00Z')", "self < timestamp('2030-01-01T00:00:00Z')", "self.getFullYear() >= 2000")
		case "duration":
			rule = g.pick("self < duration('2h')", "self >= duration('0s')")
		case "byte":
			rule = g.pick("self.size() < 6", "size(self) != 3")
		default:
			rule = g.pick("self.size() <= 6", "self.startsWith('a')", "self.matches('^[a-z0-9-]*$')", "self != 'forbidden'",
				"self.lowerAscii() == self", "self.contains('x') || self.size() < 3", "self.split('-').size() < 3", "isURL(self) || self.size() < 4",
				"self.find('[0-9]+') != '9'", "quantity(self).isGreaterThan(quantity('1'))", "ip(self).family() == 4", "cidr(self).prefixLength() > 8",
				"isIP(self) || !self.contains('.')", "semver(self, true).major() >= 1", "!format.dns1123Label().validate(self).hasValue()",
				"self.replace('a', 'bb').size() < 8", "self.indexOf('a') < 3", "isQuantity(self)", "url(self).getScheme() == 'https'",
				"self.findAll('[a-z]').size() < 5", "format.named('uuid').hasValue()", "self.trim() == self", "self.upperAscii() != self",
				"[self].isSorted()", "self in ['a', 'b', 'c']", "self.substring(0, 1) != 'z'")
		}
		if g.p(0.25) {
			rule, transition = g.pick("self == oldSelf", "oldSelf == '' || self.size() >= oldSelf.size()", "self != oldSelf || self.size() < 5"), true
		}
	case "integer":
		rule = g.pick("self % 2 == 0", "self >= 0", "self < 50", "int(string(self)) == self", "self * 2 < 100", "self / 2 < 40", "[self, 1].sum() < 60", "[self, 3].max() == 3")
		if g.p(0.3) {
			rule, transition = g.pick("self >= oldSelf", "self == oldSelf", "self - oldSelf < 10"), true
		}
	case "number":
		rule = g.pick("self >= 0.5", "self < 100.0", "self != 3.5", "self >= 1")
		if g.p(0.3) {
			rule, transition = g.pick("self >= oldSelf", "self == oldSelf"), true
		}
	case "boolean":
		rule = g.pick("self", "!self", "self == true || self == false")
		if g.p(0.3) {
			rule, transition = "self == oldSelf", true
		}
	case "intorstring":
		rule = g.pick("type(self) == int ? self > 0 : self.endsWith('%')", "type(self) == string || self < 10")
		if g.p(0.2) {
			rule, transition = "self == oldSelf", true
		}
	case "array":
		items, _ := s["items"].(map[string]any)
		it, _ := items["type"].(string)
		switch it {
		case "string":
			rule = g.pick("self.all(x, x.size() < 8)", "self.exists(x, x == 'a') || self.size() == 0", "self.isSorted()", "self.size() <= 3",
				"self.map(x, x + 'z').size() == self.size()", "self.filter(x, x.startsWith('a')).size() < 2", "self.indexOf('a') < 1", "self.min() != 'z'",
				"self.includes('forbidden') == false", "self.all(a, self.all(b, a == b || a != b))", "self.distinct().size() == self.size()",
				"self.sort() == self", "sets.contains(self, ['a']) || true", "self.exists_one(x, x == 'a') || !('a' in self)")
		case "integer":
			rule = g.pick("self.all(x, x >= 0)", "self.sum() < 100", "self.isSorted()", "self.max() < 50", "self.exists(x, x == 1)", "self.lastIndexOf(1) < 2",
				"self.all(i, x, i < 3)", "self.transformList(i, x, x * i).size() == self.size()")
		default:
			rule = g.pick("self.size() <= 3", "size(self) < 4", "self.all(x, true)", "self.all(a, self.all(b, self.all(c, true)))")
		}
		if g.p(0.25) {
			rule, transition = g.pick("self.size() >= oldSelf.size()", "self == oldSelf", "oldSelf.all(x, x in self)"), true
		}
	case "map":
		rule = g.pick("self.size() < 4", "self.all(k, k.size() < 10)", "!('forbidden' in self)", "self.all(k, v, k != 'x')")
		if g.p(0.25) {
			rule, transition = g.pick("self == oldSelf", "self.size() >= oldSelf.size()"), true
		}
	case "embedded":
		rule = g.pick("self.kind != ''", "has(self.apiVersion)", "self.metadata.name.size() < 20", "!has(self.metadata.name) || self.metadata.name != 'x'")
	case "object":
		props, _ := s["properties"].(map[string]any)
		names := make([]string, 0, len(props))
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names)
		a := names[g.intn(len(names))]
		b := names[g.intn(len(names))]
		fa, fb := celField(a), celField(b)
		if fa == "" || fb == "" {
			rule = "self == self"
			break
		}
		rule = g.pick(fmt.Sprintf("has(self.%s) == has(self.%s)", fa, fb), fmt.Sprintf("!has(self.%s) || has(self.%s)", fa, fb),
			fmt.Sprintf("has(self.%s) || has(self.%s)", fa, fb), fmt.Sprintf("!has(self.%s) || self.%s == self.%s", fa, fa, fa),
			fmt.Sprintf("self.?%s.hasValue() || true", fa), fmt.Sprintf("!has(self.%s) || string(self.%s) != 'x'", fa, fa))
		if g.p(0.25) {
			rule, transition = g.pick(fmt.Sprintf("!has(self.%s) || !has(oldSelf.%s) || self.%s == oldSelf.%s", fa, fa, fa, fa),
				fmt.Sprintf("self.%s == oldSelf.%s", fa, fa), "self == oldSelf", fmt.Sprintf("has(self.%s) == has(oldSelf.%s)", fa, fa)), true
		}
		if g.p(0.15) {
			r := map[string]any{"rule": fmt.Sprintf("!oldSelf.hasValue() || has(self.%s) == has(oldSelf.value().%s)", fa, fa), "optionalOldSelf": true}
			return g.decorate(r, "self", props)
		}
	}
	r := map[string]any{"rule": rule}
	if g.p(0.03) {
		r["rule"] = g.pick("self.nope == 1", "self + 1", "'x' == 1", "oldSelf.foo")
	}
	_ = transition
	var props map[string]any
	if kind == "object" {
		props, _ = s["properties"].(map[string]any)
	}
	return g.decorate(r, "self", props)
}

// celField is how a rule names a property (escaped for CEL), "" when it cannot.
func celField(name string) string {
	switch name {
	case "x-y":
		return "x__dash__y"
	case "a.b":
		return "a__dot__b"
	case "__x__":
		return "__underscores__x__underscores__"
	case "namespace", "in", "int":
		return ""
	}
	return name
}

// decorate adds message, messageExpression, reason and fieldPath at random.
func (g *Gen) decorate(r map[string]any, self string, props map[string]any) map[string]any {
	switch g.intn(4) {
	case 0:
		r["message"] = g.pick("must be valid", "  spaced message  ", "value is not allowed")
	case 1:
		r["messageExpression"] = g.pick("'bad value: ' + string("+self+")", "'size ' + string(size(string("+self+")))",
			"'constant message'", "''", "'a\\nb'", "string(1/0)", "'type ' + string(type("+self+"))")
		if g.p(0.5) {
			r["message"] = "fallback message"
		}
	}
	if g.p(0.3) {
		r["reason"] = g.pick("FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate")
	}
	if props != nil && g.p(0.3) {
		var names []string
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names)
		n := names[g.intn(len(names))]
		if strings.ContainsAny(n, ".-") || g.p(0.3) {
			r["fieldPath"] = "['" + n + "']"
		} else {
			r["fieldPath"] = "." + n
		}
		if g.p(0.1) {
			r["fieldPath"] = ".nope"
		}
	}
	return r
}
