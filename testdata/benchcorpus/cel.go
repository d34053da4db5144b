package benchcorpus

import (
	"strings"

	"sigs.k8s.io/yaml"
)

// celRules are x-kubernetes-validations in the style of real CRDs (Gateway API's,
// cert-manager's webhook checks restated as CEL), with the maxItems and maxLength bounds that
// keep their estimated cost within the API server's budget, added by Options.CELRules. Each
// entry is a "/"-separated path of schema nodes (properties, "[]" for items) and what to
// merge into the node there. Every object of the corpus satisfies them.
var celRules = map[string][]struct {
	path string
	add  map[string]interface{}
}{
	"certificates": {
		{"spec", map[string]interface{}{"x-kubernetes-validations": []interface{}{
			map[string]interface{}{"rule": "!has(self.duration) || !has(self.renewBefore) || duration(self.renewBefore) < duration(self.duration)",
				"message": "renewBefore must be shorter than duration"},
			map[string]interface{}{"rule": "has(self.commonName) || (has(self.dnsNames) && size(self.dnsNames) > 0)",
				"message": "at least one of commonName or dnsNames must be set"},
		}}},
		{"spec/commonName", map[string]interface{}{"maxLength": int64(64)}},
		{"spec/dnsNames", map[string]interface{}{"maxItems": int64(100), "x-kubernetes-validations": []interface{}{
			map[string]interface{}{"rule": `self.all(n, n.matches('^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'))`,
				"message": "dnsNames must be DNS names"},
		}}},
		{"spec/dnsNames/[]", map[string]interface{}{"maxLength": int64(253)}},
		{"spec/duration", map[string]interface{}{"maxLength": int64(32)}},
		{"spec/renewBefore", map[string]interface{}{"maxLength": int64(32)}},
		{"spec/secretName", map[string]interface{}{"maxLength": int64(253), "x-kubernetes-validations": []interface{}{
			map[string]interface{}{"rule": "self == oldSelf", "message": "secretName is immutable"},
		}}},
		{"spec/issuerRef", map[string]interface{}{"x-kubernetes-validations": []interface{}{
			map[string]interface{}{"rule": "!has(self.kind) || self.kind in ['Issuer', 'ClusterIssuer'] || (has(self.group) && self.group != 'cert-manager.io')",
				"messageExpression": "'unsupported issuer kind ' + self.kind", "fieldPath": ".kind"},
		}}},
		{"spec/issuerRef/kind", map[string]interface{}{"maxLength": int64(63)}},
		{"spec/issuerRef/group", map[string]interface{}{"maxLength": int64(253)}},
		{"spec/privateKey", map[string]interface{}{"x-kubernetes-validations": []interface{}{
			map[string]interface{}{"rule": "!has(self.size) || !has(self.algorithm) || self.algorithm != 'ECDSA' || self.size in [256, 384, 521]",
				"message": "ECDSA keys are 256, 384 or 521 bits", "fieldPath": ".size", "reason": "FieldValueInvalid"},
		}}},
		{"spec/usages", map[string]interface{}{"maxItems": int64(20)}},
		{"status", map[string]interface{}{"x-kubernetes-validations": []interface{}{
			map[string]interface{}{"rule": "!has(self.notBefore) || !has(self.notAfter) || timestamp(self.notBefore) < timestamp(self.notAfter)",
				"message": "notAfter must be after notBefore"},
		}}},
		{"status/conditions", map[string]interface{}{"maxItems": int64(20)}},
		{"status/conditions/[]", map[string]interface{}{"x-kubernetes-validations": []interface{}{
			map[string]interface{}{"rule": "self.status in ['True', 'False', 'Unknown']", "message": "status must be True, False or Unknown"},
		}}},
	},
	"servicemonitors": {
		{"spec", map[string]interface{}{"x-kubernetes-validations": []interface{}{
			map[string]interface{}{"rule": "has(self.selector.matchLabels) || has(self.selector.matchExpressions)",
				"message": "selector must not be empty"},
		}}},
		{"spec/endpoints", map[string]interface{}{"maxItems": int64(50)}},
		{"spec/endpoints/[]", map[string]interface{}{"x-kubernetes-validations": []interface{}{
			map[string]interface{}{"rule": "!has(self.scrapeTimeout) || has(self.interval)", "message": "scrapeTimeout needs an interval"},
			map[string]interface{}{"rule": "!has(self.scheme) || self.scheme in ['http', 'https']", "message": "scheme must be http or https"},
		}}},
		{"spec/endpoints/[]/scheme", map[string]interface{}{"maxLength": int64(5)}},
		{"spec/endpoints/[]/relabelings", map[string]interface{}{"maxItems": int64(50)}},
		{"spec/endpoints/[]/relabelings/[]", map[string]interface{}{"x-kubernetes-validations": []interface{}{
			map[string]interface{}{"rule": "self.action in ['replace', 'keep', 'drop', 'hashmod', 'labelmap', 'labeldrop', 'labelkeep', 'lowercase', 'uppercase', 'keepequal', 'dropequal']",
				"messageExpression": "'unknown action ' + self.action"},
		}}},
		{"spec/endpoints/[]/relabelings/[]/action", map[string]interface{}{"maxLength": int64(16)}},
		{"spec/selector/matchExpressions", map[string]interface{}{"maxItems": int64(20)}},
		{"spec/selector/matchExpressions/[]", map[string]interface{}{"x-kubernetes-validations": []interface{}{
			map[string]interface{}{"rule": "self.operator in ['In', 'NotIn'] ? has(self.values) && size(self.values) > 0 : !has(self.values) || size(self.values) == 0",
				"message": "values must be set for In and NotIn, and only for them"},
		}}},
	},
}

// withCELRules is the CRD text with celRules[name] added to its first version's schema.
func withCELRules(name, text string) (string, error) {
	var crd map[string]interface{}
	if err := yaml.Unmarshal([]byte(text), &crd); err != nil {
		return "", err
	}
	versions := crd["spec"].(map[string]interface{})["versions"].([]interface{})
	root := versions[0].(map[string]interface{})["schema"].(map[string]interface{})["openAPIV3Schema"].(map[string]interface{})
	for _, r := range celRules[name] {
		node := root
		for _, step := range strings.Split(r.path, "/") {
			if step == "[]" {
				node = node["items"].(map[string]interface{})
			} else {
				node = node["properties"].(map[string]interface{})[step].(map[string]interface{})
			}
		}
		for k, v := range r.add {
			node[k] = v
		}
	}
	out, err := yaml.Marshal(crd)
	return string(out), err
}
