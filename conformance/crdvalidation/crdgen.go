package crdvalidation

import (
	"k8s.io/apimachinery/pkg/runtime"
)

// schemaNodes lists every schema map under a raw schema (properties, items,
// additionalProperties), with whether it is the root.
func schemaNodes(s map[string]any, out *[]map[string]any) {
	if s == nil {
		return
	}
	*out = append(*out, s)
	if props, ok := s["properties"].(map[string]any); ok {
		for _, k := range sortedKeys(props) {
			if m, ok := props[k].(map[string]any); ok {
				schemaNodes(m, out)
			}
		}
	}
	if it, ok := s["items"].(map[string]any); ok {
		schemaNodes(it, out)
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		schemaNodes(ap, out)
	}
}

func rootOf(crd map[string]any, i int) map[string]any {
	v := crd["spec"].(map[string]any)["versions"].([]any)[i].(map[string]any)
	sch, _ := v["schema"].(map[string]any)
	if sch == nil {
		return nil
	}
	r, _ := sch["openAPIV3Schema"].(map[string]any)
	return r
}

// expensiveRules are rules whose estimated cost goes over the budgets on unbounded nodes.
var expensiveRules = []map[string]any{
	{"rule": "self.all(x, self.all(y, x == y || true))"},
	{"rule": "true", "messageExpression": "self.map(x, string(x) + 'a').join(',')"},
	{"rule": "self.all(x, string(x).matches('^[a-z]+$'))", "message": "m"},
	{"rule": "self.size() < 10", "messageExpression": "self.map(a, self.map(b, string(a) + string(b))).size() > 0 ? 'x' : 'y'"},
	{"rule": "self.exists(x, self.exists(y, self.exists(z, x == z)))"},
}

// MutateCRD returns a copy of the generated CRD with some of its parts broken (or made
// expensive): the server must refuse many of them.
func (g *Gen) MutateCRD(c *Generated) map[string]any {
	crd := runtime.DeepCopyJSON(c.CRD)
	spec := crd["spec"].(map[string]any)
	versions := spec["versions"].([]any)
	if g.p(0.3) {
		// a second version, with the same or another schema
		v2 := runtime.DeepCopyJSONValue(versions[0]).(map[string]any)
		v2["name"] = g.pick("v2", "v1beta1", "v1", "V2")
		v2["storage"] = g.p(0.2)
		if g.p(0.5) {
			other := g.CRD()
			v2["schema"] = other.CRD["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["schema"]
		}
		if g.p(0.3) {
			v2["deprecated"] = true
			v2["deprecationWarning"] = g.pick("use v1", "")
		}
		versions = append(versions, v2)
		spec["versions"] = versions
	}
	n := g.intn(3)
	for i := 0; i < n; i++ {
		g.breakSomething(crd)
	}
	return crd
}

func (g *Gen) breakSomething(crd map[string]any) {
	spec := crd["spec"].(map[string]any)
	versions := spec["versions"].([]any)
	vi := g.intn(len(versions))
	root := rootOf(crd, vi)
	var nodes []map[string]any
	schemaNodes(root, &nodes)
	if len(nodes) == 0 {
		return
	}
	node := nodes[g.intn(len(nodes))]
	switch g.intn(34) {
	case 0:
		crd["metadata"].(map[string]any)["name"] = "wrong.gen.example.com"
	case 1:
		spec["group"] = g.pick("nodots", "Bad_Group", "x.k8s.io", "kubernetes.io")
		crd["metadata"].(map[string]any)["name"] = "widgets." + spec["group"].(string)
	case 2:
		spec["scope"] = g.pick("Global", "")
	case 3:
		names := spec["names"].(map[string]any)
		switch g.intn(4) {
		case 0:
			names["kind"] = "bad_kind"
		case 1:
			names["listKind"] = names["kind"]
		case 2:
			names["plural"] = "Widgets"
		default:
			names["shortNames"] = []any{"w", "Bad"}
		}
	case 4:
		versions[vi].(map[string]any)["storage"] = !versions[vi].(map[string]any)["storage"].(bool)
	case 5:
		delete(versions[vi].(map[string]any), "schema")
	case 6:
		node["x-kubernetes-validations"] = append(listOrNil(node["x-kubernetes-validations"]), runtime.DeepCopyJSONValue(expensiveRules[g.intn(len(expensiveRules))]))
		if node["type"] != "array" {
			node["type"] = "array"
			node["items"] = map[string]any{"type": "string"}
			delete(node, "properties")
			delete(node, "additionalProperties")
			delete(node, "required")
			delete(node, "x-kubernetes-map-type")
		}
		delete(node, "maxItems")
	case 7:
		node["x-kubernetes-validations"] = append(listOrNil(node["x-kubernetes-validations"]),
			map[string]any{"rule": g.pick("self.nope", "1 + 'a'", "self ==", "self.size()", "oldSelf", "self.includes(1)", "")})
	case 8:
		node["x-kubernetes-validations"] = append(listOrNil(node["x-kubernetes-validations"]),
			map[string]any{"rule": "true", "reason": g.pick("Nope", "FieldValueInvalid"), "message": g.pick("", " ", "a\nb", "ok")})
	case 9:
		node["x-kubernetes-validations"] = append(listOrNil(node["x-kubernetes-validations"]),
			map[string]any{"rule": "true", "fieldPath": g.pick(".nope", ".a.b", "['x']", "", " ", "spec", ".metadata.name")})
	case 10:
		node["x-kubernetes-validations"] = append(listOrNil(node["x-kubernetes-validations"]), map[string]any{"rule": "true", "optionalOldSelf": true})
	case 11:
		node["x-kubernetes-validations"] = append(listOrNil(node["x-kubernetes-validations"]), map[string]any{"rule": "self == oldSelf", "messageExpression": g.pick("'x'", "1", " ", "self")})
	case 12:
		delete(node, "type")
	case 13:
		node["type"] = g.pick("null", "int", "object", "array")
	case 14:
		node["additionalProperties"] = g.pick2b(map[string]any{"type": "string"}, false)
	case 15:
		node["uniqueItems"] = true
	case 16:
		node["pattern"] = g.pick("[a-", "(?P<x", "^ok$")
	case 17:
		node["default"] = g.wrong()
	case 18:
		node["x-kubernetes-preserve-unknown-fields"] = false
	case 19:
		node["x-kubernetes-list-type"] = g.pick("set", "map", "bogus")
	case 20:
		node["x-kubernetes-map-type"] = g.pick("atomic", "bogus")
	case 21:
		node["x-kubernetes-list-map-keys"] = []any{"name"}
	case 22:
		node["allOf"] = []any{map[string]any{"type": "string"}, map[string]any{"properties": map[string]any{"ghost": map[string]any{"minLength": int64(1)}}}}
	case 23:
		node["anyOf"] = []any{map[string]any{"x-kubernetes-validations": []any{map[string]any{"rule": "true"}}}, map[string]any{"nullable": true, "description": "d"}}
	case 24:
		root["properties"].(map[string]any)["metadata"] = map[string]any{"type": "object", "properties": map[string]any{
			g.pick("name", "labels"): map[string]any{"type": "string", "maxLength": int64(10)}}}
	case 25:
		node["x-kubernetes-embedded-resource"] = true
	case 26:
		node["x-kubernetes-int-or-string"] = true
		if g.p(0.5) {
			node["x-kubernetes-preserve-unknown-fields"] = true
		}
	case 27:
		node["nullable"] = true
		if g.p(0.2) {
			root["nullable"] = true
		}
	case 28:
		root[g.pick("description", "title", "default", "additionalProperties", "minProperties")] = g.pick2b("x", map[string]any{"a": "b"})
	case 29:
		sub := map[string]any{"scale": map[string]any{"specReplicasPath": g.pick(".spec.replicas", "spec.replicas", ".status.x", ""),
			"statusReplicasPath": g.pick(".status.replicas", ".spec.x", ""), "labelSelectorPath": g.pick(".status.selector", "x", ".metadata.y")}}
		versions[vi].(map[string]any)["subresources"] = sub
	case 30:
		versions[vi].(map[string]any)["additionalPrinterColumns"] = []any{map[string]any{"name": g.pick("Age", ""), "type": g.pick("date", "bogus", ""),
			"format": g.pick("", "int32", "uuid"), "jsonPath": g.pick(".metadata.creationTimestamp", "status", "")}}
	case 31:
		versions[vi].(map[string]any)["selectableFields"] = []any{map[string]any{"jsonPath": g.pick(".spec.name", ".metadata.name", ".spec", ".nope", "")}}
	case 32:
		spec["conversion"] = map[string]any{"strategy": g.pick("None", "Webhook", "Bogus")}
		if g.p(0.5) {
			spec["conversion"].(map[string]any)["webhook"] = map[string]any{"conversionReviewVersions": []any{g.pick("v1", "v9")},
				"clientConfig": map[string]any{"url": "https://example.com/convert"}}
		}
	default:
		if props, ok := node["properties"].(map[string]any); ok {
			props["x"] = map[string]any{"type": "string", "format": g.pick("foo", "uuid", "int32")}
		}
	}
}

func (g *Gen) pick2b(a, b any) any {
	if g.p(0.5) {
		return a
	}
	return b
}

func listOrNil(v any) []any {
	l, _ := v.([]any)
	return l
}
