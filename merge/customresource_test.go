package merge

import (
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// certificateCRD is the CRD of the recorded validate-cr-* cases (a cert-manager-like
// Certificate): schema keywords, CEL rules with message, messageExpression and reason, a
// transition rule, and a status subresource.
const certificateCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: certificates.pki.example.com
spec:
  group: pki.example.com
  scope: Namespaced
  names: {plural: certificates, singular: certificate, kind: Certificate, listKind: CertificateList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [secretName, dnsNames]
            x-kubernetes-validations:
            - rule: '!has(self.duration) || !has(self.renewBefore) || self.renewBefore < self.duration'
              message: renewBefore must be shorter than duration
            - rule: self.secretName == oldSelf.secretName
              message: secretName is immutable
            - rule: '!has(oldSelf.keySize) || has(self.keySize)'
              message: keySize cannot be removed
              fieldPath: .keySize
            properties:
              secretName:
                type: string
                minLength: 1
                maxLength: 253
                x-kubernetes-validations:
                - rule: "!self.startsWith('default-')"
                  messageExpression: "'secretName ' + self + ' is reserved'"
              dnsNames:
                type: array
                minItems: 1
                maxItems: 10
                x-kubernetes-list-type: set
                items: {type: string, pattern: '^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'}
              duration: {type: integer, minimum: 3600}
              renewBefore: {type: integer, minimum: 60}
              keyAlgorithm: {type: string, enum: [RSA, ECDSA, Ed25519], default: ECDSA}
              keySize:
                type: integer
                x-kubernetes-validations:
                - {rule: 'self in [2048, 3072, 4096, 256, 384]', message: keySize is not supported, reason: FieldValueForbidden}
              labels:
                type: object
                additionalProperties: {type: string, maxLength: 8}
              labelOrder:
                type: array
                items: {type: string}
                x-kubernetes-validations:
                - rule: self.isSorted()
          status:
            type: object
            properties:
              notAfter: {type: string, format: date-time}
              conditions:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [type]
                items:
                  type: object
                  required: [type]
                  properties:
                    type: {type: string}
                    status: {type: string, enum: ["True", "False", "Unknown"]}
`

const certHead = `apiVersion: pki.example.com/v1
kind: Certificate
metadata:
  name: web
  namespace: pki
`

// crStep is one write in a custom resource scenario.
type crStep struct {
	sub    string // subresource
	body   string // the apply configuration (YAML)
	update bool   // a PUT of body instead of an apply
	// want is the expected 422 message, "" for a write the server accepts.
	want string
	// warnings, if set, are the expected warnings (joined with "|").
	warnings string
}

type crScenario struct {
	name string
	// live, if set, is the stored object the first step writes to (one the current schema
	// may no longer accept).
	live  string
	steps []crStep
}

func crEngine(t *testing.T) *Engine {
	t.Helper()
	reg := schema.MustNewRegistry(kube.Default())
	if err := reg.AddCRD("certificates.yaml", []byte(certificateCRD)); err != nil {
		t.Fatal(err)
	}
	return New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
}

func runCRScenario(t *testing.T, sc crScenario) {
	e := crEngine(t)
	now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	var live map[string]any
	if sc.live != "" {
		live = objFromYAML(t, sc.live)
	}
	for i, st := range sc.steps {
		req := Request{Live: live, Object: objFromYAML(t, st.body), Manager: "gitops", Now: now}
		if st.sub != "" {
			req.Endpoint = Endpoint{GVK: schema.GVK{Group: "pki.example.com", Version: "v1", Kind: "Certificate"}, Namespace: "pki", Name: "web", Subresource: st.sub}
		}
		var res *Result
		var err error
		switch {
		case st.update && live == nil:
			res, err = e.Create(req) // a POST: a PUT of a custom resource does not create
		case st.update:
			res, err = e.Update(req)
		default:
			res, err = e.Apply(req)
		}
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		got := ""
		if res.Rejection != nil {
			got = res.Rejection.Message
		}
		if got != st.want {
			t.Fatalf("step %d: got %q\nwant %q", i, got, st.want)
		}
		if st.warnings != "" {
			var ws []string
			for _, w := range res.Warnings {
				ws = append(ws, strings.TrimPrefix(w, "the server would warn: "))
			}
			if strings.Join(ws, "|") != st.warnings {
				t.Errorf("step %d: warnings %q, want %q", i, ws, st.warnings)
			}
		}
		if res.Rejection == nil {
			live = res.Object
			md := metadataOf(live)
			md["uid"], md["resourceVersion"] = "0b6e8e0e-5d5a-4f3c-9c1e-2f0a3b4c5d6e", "7"
		}
	}
}

// storedInvalid was stored before the schema tightened: duration under its minimum, renewBefore
// too (both still "valid" together for the CEL rule), keySize refused by its rule.
const storedInvalid = certHead + `  uid: 0b6e8e0e-5d5a-4f3c-9c1e-2f0a3b4c5d6e
  resourceVersion: "7"
  generation: 1
  creationTimestamp: "2026-12-01T00:00:00Z"
  managedFields:
  - manager: gitops
    operation: Apply
    apiVersion: pki.example.com/v1
    time: "2026-12-01T00:00:00Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:spec": {"f:secretName": {}, "f:dnsNames": {"v:\"web.example.com\"": {}}, "f:duration": {}, "f:renewBefore": {}, "f:keySize": {}}}
spec:
  secretName: web-tls
  dnsNames: [web.example.com]
  duration: 60
  renewBefore: 30
  keySize: 1024
  keyAlgorithm: ECDSA
`

const validSpec = `spec:
  secretName: web-tls
  dnsNames: [web.example.com]
`

var crScenarios = []crScenario{
	{name: "V3 schema keywords, each error, the CEL tail", steps: []crStep{{body: certHead + `spec:
  secretName: web-tls
  dnsNames: [web.example.com, Bad_Name]
  duration: 60
  keyAlgorithm: DSA
  labels: {team: platform-engineering}
`, want: `Certificate.pki.example.com "web" is invalid: [spec.dnsNames[1]: Invalid value: "Bad_Name": spec.dnsNames[1] in body should match '^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', spec.duration: Invalid value: 60: spec.duration in body should be greater than or equal to 3600, spec.keyAlgorithm: Unsupported value: "DSA": supported values: "RSA", "ECDSA", "Ed25519", spec.labels.team: Too long: may not be more than 8 bytes, <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`}}},
	{name: "V3 a missing required field stops the rules", steps: []crStep{{body: certHead + `spec:
  dnsNames: [web.example.com]
  keySize: 1024
`, want: `Certificate.pki.example.com "web" is invalid: [spec.secretName: Required value, <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`}}},
	{name: "V3 list-type set duplicates in a PUT", steps: []crStep{{update: true, body: certHead + `spec:
  secretName: web-tls
  dnsNames: [a.example.com, a.example.com]
`, want: `Certificate.pki.example.com "web" is invalid: spec.dnsNames[1]: Duplicate value: "a.example.com"`}}},
	{name: "V4 message, messageExpression and reason", steps: []crStep{{body: certHead + `spec:
  secretName: default-tls
  dnsNames: [web.example.com]
  duration: 7200
  renewBefore: 7200
  keySize: 1024
`, want: `Certificate.pki.example.com "web" is invalid: [spec: Invalid value: renewBefore must be shorter than duration, spec.keySize: Forbidden: keySize is not supported, spec.secretName: Invalid value: "default-tls": secretName default-tls is reserved]`}}},
	{name: "V4 a rule without message: failed rule", steps: []crStep{{body: certHead + validSpec + `  labelOrder: [b, a]
`, want: `Certificate.pki.example.com "web" is invalid: spec.labelOrder: Invalid value: failed rule: self.isSorted()`}}},
	{name: "V4 transition rules run on updates only, against the stored object", steps: []crStep{
		{body: certHead + validSpec},
		{body: certHead + `spec:
  secretName: web-tls-v2
  dnsNames: [web.example.com]
`, want: `Certificate.pki.example.com "web" is invalid: spec: Invalid value: secretName is immutable`},
	}},
	{name: "V4 fieldPath moves the error", steps: []crStep{
		{body: certHead + validSpec + `  keySize: 2048
`},
		{body: certHead + validSpec, want: `Certificate.pki.example.com "web" is invalid: spec.keySize: Invalid value: keySize cannot be removed`},
	}},
	{name: "V3 ratcheting: an invalid value the update keeps is accepted, a changed one is not",
		live: storedInvalid, steps: []crStep{
			{body: certHead + validSpec + `  duration: 60
  renewBefore: 30
  keySize: 1024
`},
			{body: certHead + validSpec + `  duration: 61
  renewBefore: 30
  keySize: 1024
`, want: `Certificate.pki.example.com "web" is invalid: spec.duration: Invalid value: 61: spec.duration in body should be greater than or equal to 3600`},
		}},
	{name: "V4 ratcheting: a rule failing on an unchanged value warns instead", live: storedInvalid, steps: []crStep{
		{body: certHead + validSpec + `  duration: 60
  renewBefore: 30
  keySize: 1024
  labelOrder: [a, b]
`, warnings: `spec.keySize: Forbidden: keySize is not supported`},
	}},
	{name: "V6 the name of a custom resource is a DNS-1123 subdomain", steps: []crStep{{body: strings.Replace(certHead, "name: web", "name: Web_1", 1) + validSpec,
		want: `Certificate.pki.example.com "Web_1" is invalid: metadata.name: Invalid value: "Web_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}}},
	{name: "V6 finalizers the server advises against are warned about", steps: []crStep{{body: strings.Replace(certHead, "  namespace: pki\n", "  namespace: pki\n  finalizers: [cleanup]\n", 1) + validSpec,
		warnings: `metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`}}},
	{name: "V3 a status apply validates the status schema, under status", steps: []crStep{
		{body: certHead + validSpec},
		{sub: "status", body: certHead + `status:
  notAfter: tomorrow
  conditions: [{type: Ready, status: Maybe}]
`, want: `Certificate.pki.example.com "web" is invalid: [status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown", status.notAfter: Invalid value: "tomorrow": notAfter in body must be of type date-time: "tomorrow", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`},
	}},
}

// rules.md valid.crd-schema, valid.crd-cel, valid.metadata: custom resources refused as apiextensions-apiserver refuses them.
func TestCustomResourceValidation(t *testing.T) {
	for _, sc := range crScenarios {
		t.Run(sc.name, func(t *testing.T) { runCRScenario(t, sc) })
	}
}

// rules.md valid.crd-cel: a CRD whose rule could cost more than the server's budget is itself refused.
func TestCRDValidation(t *testing.T) {
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gateways.net.example.com}
spec:
  group: net.example.com
  scope: Namespaced
  names: {plural: gateways, singular: gateway, kind: Gateway, listKind: GatewayList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              listeners:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                x-kubernetes-validations:
                - rule: self.all(l, l.name != '')
                  messageExpression: "self.map(l, l.name).join(', ') + ' need names'"
`
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	res, err := e.Apply(Request{Object: objFromYAML(t, crd), Manager: "kubectl", Now: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	want := `CustomResourceDefinition.apiextensions.k8s.io "gateways.net.example.com" is invalid: [spec.validation.openAPIV3Schema.properties[spec].properties[listeners].x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared), spec.validation.openAPIV3Schema.properties[spec].properties[listeners].x-kubernetes-validations[0].messageExpression: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema, spec.validation.openAPIV3Schema.properties[spec].properties[listeners].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema, spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)]`
	if res.Rejection == nil || res.Rejection.Message != want {
		t.Fatalf("got %+v\nwant %q", res.Rejection, want)
	}
	// With a constant message instead, the rule's cost fits: the CRD is created.
	fixed := strings.Replace(crd, `messageExpression: "self.map(l, l.name).join(', ') + ' need names'"`, "message: listeners need names", 1)
	res, err = e.Apply(Request{Object: objFromYAML(t, fixed), Manager: "kubectl", Now: time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)})
	if err != nil || res.Rejection != nil || res.Action != ActionCreate {
		t.Fatalf("bounded CRD: %v %+v %s", err, res.Rejection, res.Action)
	}
}
