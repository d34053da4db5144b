package validation_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The scenarios of the admissionregistration, flowcontrol, certificates, storagemigration
// and apiregistration kinds, answered as groups_test.go's are: each case's answer is the one
// a real kube-apiserver 1.37.2 gave (testdata/groups2.json, recorded by
// TestGroups2CasesAgainstOracle with -record-groups2). Rules.md valid.builtin: messages byte for byte;
// V2: updates against the stored object (and /status writes); V6: object metadata.

var recordGroups2 = flag.Bool("record-groups2", false, "write the oracle's answers to testdata/groups2.json")

const groups2Answers = "testdata/groups2.json"

var groups2Kinds = []string{"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration",
	"ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicy",
	"MutatingAdmissionPolicyBinding", "FlowSchema", "PriorityLevelConfiguration",
	"CertificateSigningRequest", "ClusterTrustBundle", "StorageVersionMigration", "APIService"}

func groups2Cases(t *testing.T) []groupCase {
	var out []groupCase
	for _, set := range []struct {
		kind  string
		cases []workloadCase
	}{
		{"ValidatingWebhookConfiguration", validatingWebhookCases(t)}, {"MutatingWebhookConfiguration", mutatingWebhookCases(t)},
		{"ValidatingAdmissionPolicy", validatingPolicyCases(t)}, {"ValidatingAdmissionPolicyBinding", validatingBindingCases(t)},
		{"MutatingAdmissionPolicy", mutatingPolicyCases(t)}, {"MutatingAdmissionPolicyBinding", mutatingBindingCases(t)},
		{"FlowSchema", flowSchemaCases(t)}, {"PriorityLevelConfiguration", priorityLevelCases(t)},
		{"CertificateSigningRequest", csrCases(t)}, {"ClusterTrustBundle", trustBundleCases(t)},
		{"StorageVersionMigration", migrationCases(t)}, {"APIService", apiServiceCases(t)},
	} {
		for _, c := range set.cases {
			if !strings.Contains(c.new, "kind: "+set.kind+"\n") {
				t.Fatalf("%s case %q writes another kind", set.kind, c.name)
			}
			out = append(out, groupCase{kind: set.kind, workloadCase: c})
		}
	}
	return out
}

// TestGroups2Scenarios: ssa-diff's answer to each case is the server's (rules.md valid.builtin, valid.update, valid.metadata).
func TestGroups2Scenarios(t *testing.T) {
	answers := loadAnswers(t, groups2Answers)
	for _, c := range groups2Cases(t) {
		t.Run(c.key(), func(t *testing.T) {
			want, ok := answers[c.key()]
			if !ok {
				t.Fatalf("no recorded answer for %q in %s", c.key(), groups2Answers)
			}
			if got := c.run(t); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// TestGroups2ScenariosRecorded: the table and the recorded answers match one to one, and
// each kind has refusals among its cases.
func TestGroups2ScenariosRecorded(t *testing.T) {
	checkRecorded(t, groups2Cases(t), loadAnswers(t, groups2Answers), groups2Kinds)
}

// TestGroups2CasesAgainstOracle checks the recorded answers against SSA_DIFF_ORACLE (see
// TestWorkloadCasesAgainstOracle), or records them with -record-groups2.
func TestGroups2CasesAgainstOracle(t *testing.T) {
	recordAgainstOracle(t, groups2Cases(t), groups2Answers, *recordGroups2)
}

// rules.md valid.builtin: webhook names, side effects, timeouts, review versions, client configs, rules
// and match conditions (CEL); V2: an update keeps what the stored object already had.
func validatingWebhookCases(t *testing.T) []workloadCase {
	w := webhookPolicy
	return []workloadCase{
		{name: "valid create", new: w},
		{name: "V1 side effects Unknown", new: edit(t, w, "sideEffects: None", "sideEffects: Unknown")},
		{name: "V1 timeout above 30", new: edit(t, w, "timeoutSeconds: 5", "timeoutSeconds: 31")},
		{name: "V1 review version unknown", new: edit(t, w, "admissionReviewVersions: [v1]", "admissionReviewVersions: [v2]")},
		{name: "V1 webhook name not qualified", new: edit(t, w, "name: validate.policy.example.com", "name: validate")},
		{name: "V1 url and service", new: edit(t, w, "    service:", "    url: https://policy.example.com/validate\n    service:")},
		{name: "V1 match condition does not compile", new: edit(t, w, `'!request.userInfo.username.startsWith("system:")'`, `'request.user == 1'`)},
		{name: "V1 match condition name bad", new: edit(t, w, "name: not-system", "name: 'not system!'")},
		{name: "V1 rule with a bad wildcard", new: edit(t, w, "resources: [deployments]", "resources: ['*/*', deployments]")},
		{name: "V1 operation unknown", new: edit(t, w, "operations: [CREATE, UPDATE]", "operations: [CREATE, PATCH]")},
		{name: "V2 valid update", old: w, new: edit(t, w, "timeoutSeconds: 5", "timeoutSeconds: 10")},
		{name: "V2 update to a bad failure policy", old: w, new: edit(t, w, "failurePolicy: Fail", "failurePolicy: Maybe")},
		{name: "V6 name not a subdomain", new: edit(t, w, "name: oracle-policy-webhook", "name: Oracle_Policy")},
	}
}

func mutatingWebhookCases(t *testing.T) []workloadCase {
	w := webhookInjector
	return []workloadCase{
		{name: "valid create", new: w},
		{name: "V1 reinvocation policy unknown", new: edit(t, w, "reinvocationPolicy: IfNeeded", "reinvocationPolicy: Sometimes")},
		{name: "V1 url not https", new: edit(t, w, "url: https://injector.example.com:8443/inject", "url: http://injector.example.com/inject")},
		{name: "V1 url with a fragment", new: edit(t, w, "url: https://injector.example.com:8443/inject", "url: https://injector.example.com/inject#x")},
		{name: "V1 selector operator unknown", new: edit(t, w, "operator: In", "operator: Within")},
		{name: "V2 update duplicating review versions", old: w, new: edit(t, w, "[v1, v1beta1]", "[v1, v1]")},
	}
}

// rules.md valid.builtin: a policy's match constraints, validations (CEL compiled with the admission
// variables), failure policy, reasons; the /status type-checking warnings (JSONPath).
func validatingPolicyCases(t *testing.T) []workloadCase {
	p := policyReplicaLimit
	return []workloadCase{
		{name: "valid create", new: p},
		{name: "V1 no validations", new: edit(t, p, "  validations:\n  - expression: object.spec.replicas <= 5\n    message: too many replicas\n    reason: Invalid\n", "")},
		{name: "V1 expression does not compile", new: edit(t, p, "object.spec.replicas <= 5", "object.spec.replicas <= params.max")},
		{name: "V1 expression not boolean", new: edit(t, p, "object.spec.replicas <= 5", "object.spec.replicas")},
		{name: "V1 failure policy unknown", new: edit(t, p, "failurePolicy: Fail", "failurePolicy: Maybe")},
		{name: "V1 reason unknown", new: edit(t, p, "reason: Invalid", "reason: Nope")},
		{name: "V1 message with a line break", new: edit(t, p, "message: too many replicas", `message: "too many\nreplicas"`)},
		{name: "V1 no resource rules", new: edit(t, p, "    resourceRules:\n    - apiGroups: [apps]\n      apiVersions: [v1]\n      operations: [CREATE, UPDATE]\n      resources: [deployments]\n", "    matchPolicy: Equivalent\n")},
		{name: "V2 valid update", old: p, new: edit(t, p, "message: too many replicas", "message: at most five replicas")},
		{name: "V2 status with a bad field reference", old: p, subresource: "status", new: p + "status:\n  typeChecking:\n    expressionWarnings:\n    - fieldRef: spec.validations[0.expression\n      warning: mistyped\n"},
		{name: "V2 status with a warning but no field reference", old: p, subresource: "status", new: p + "status:\n  typeChecking:\n    expressionWarnings:\n    - fieldRef: ' '\n      warning: ''\n"},
		{name: "V2 valid status", old: p, subresource: "status", new: p + "status:\n  observedGeneration: 1\n  typeChecking:\n    expressionWarnings:\n    - fieldRef: spec.validations[0].expression\n      warning: mistyped\n"},
	}
}

func validatingBindingCases(t *testing.T) []workloadCase {
	b := policyBindingTest
	return []workloadCase{
		{name: "valid create", new: b},
		{name: "V1 no actions", new: edit(t, b, "validationActions: [Deny, Audit]", "validationActions: []")},
		{name: "V1 deny and warn", new: edit(t, b, "validationActions: [Deny, Audit]", "validationActions: [Deny, Warn]")},
		{name: "V1 action repeated", new: edit(t, b, "validationActions: [Deny, Audit]", "validationActions: [Audit, Audit]")},
		{name: "V1 no policy name", new: edit(t, b, "policyName: oracle-replica-limit", "policyName: ''")},
		{name: "V1 param ref with name and selector", new: edit(t, b, "  matchResources:", "  paramRef:\n    name: limits\n    selector: {matchLabels: {a: b}}\n    parameterNotFoundAction: Deny\n  matchResources:")},
		{name: "V2 valid update", old: b, new: edit(t, b, "validationActions: [Deny, Audit]", "validationActions: [Warn]")},
	}
}

func mutatingPolicyCases(t *testing.T) []workloadCase {
	p := mutatingPolicyLabels
	return []workloadCase{
		{name: "valid create", new: p},
		{name: "V1 no mutations", new: edit(t, p, "  mutations:\n  - patchType: ApplyConfiguration\n    applyConfiguration:\n      expression: 'Object{metadata: Object.metadata{labels: {\"mutated\": \"true\"}}}'\n", "")},
		{name: "V1 json patch without its expression", new: edit(t, p, "patchType: ApplyConfiguration", "patchType: JSONPatch")},
		{name: "V1 reinvocation policy unknown", new: edit(t, p, "reinvocationPolicy: Never", "reinvocationPolicy: Always")},
		{name: "V1 apply configuration does not compile", new: edit(t, p, `'Object{metadata: Object.metadata{labels: {"mutated": "true"}}}'`, `'object.metadata.name +'`)},
		{name: "V2 valid update", old: p, new: edit(t, p, "reinvocationPolicy: Never", "reinvocationPolicy: IfNeeded")},
	}
}

func mutatingBindingCases(t *testing.T) []workloadCase {
	b := mutatingBindingLabels
	return []workloadCase{
		{name: "valid create", new: b},
		{name: "V1 no policy name", new: edit(t, b, "policyName: oracle-label-pods", "policyName: ''")},
		{name: "V1 param ref without not-found action", new: edit(t, b, "  matchResources:", "  paramRef:\n    name: labels\n  matchResources:")},
		{name: "V1 selector operator unknown", new: edit(t, b, "      matchLabels: {environment: test}", "      matchExpressions:\n      - {key: environment, operator: Like}")},
		{name: "V2 valid update", old: b, new: edit(t, b, "environment: test", "environment: staging")},
	}
}

// rules.md valid.builtin: a flow schema's precedence, distinguisher, subjects and rules.
func flowSchemaCases(t *testing.T) []workloadCase {
	f := flowSchemaControllers
	return []workloadCase{
		{name: "valid create", new: f},
		{name: "V1 precedence zero is defaulted", new: edit(t, f, "matchingPrecedence: 800", "matchingPrecedence: 0")},
		{name: "V1 precedence above 10000", new: edit(t, f, "matchingPrecedence: 800", "matchingPrecedence: 10001")},
		{name: "V1 distinguisher unknown", new: edit(t, f, "type: ByNamespace", "type: ByPod")},
		{name: "V1 group subject holding a service account", new: edit(t, f, "- kind: ServiceAccount", "- kind: Group")},
		{name: "V1 wildcard verb with others", new: edit(t, f, "verbs: [get, list]", "verbs: ['*', get]")},
		{name: "V1 no namespaces and not cluster scope", new: edit(t, f, "      namespaces: [\"*\"]\n", "")},
		{name: "V1 no priority level", new: edit(t, f, "priorityLevelConfiguration: {name: workload-high}", "priorityLevelConfiguration: {name: ''}")},
		{name: "V2 valid update", old: f, new: edit(t, f, "matchingPrecedence: 800", "matchingPrecedence: 900")},
	}
}

// rules.md valid.builtin: a priority level's type, shares, lending and queuing bounds.
func priorityLevelCases(t *testing.T) []workloadCase {
	p := priorityLevelBatch
	return []workloadCase{
		{name: "valid create", new: p},
		{name: "V1 hand size above queues", new: edit(t, p, "queues: 64, handSize: 6", "queues: 4, handSize: 6")},
		{name: "V1 lendable percent above 100", new: edit(t, p, "lendablePercent: 50", "lendablePercent: 101")},
		{name: "V1 exempt type for another name", new: edit(t, p, "type: Limited\n  limited:", "type: Exempt\n  limited:")},
		{name: "V1 reject with queuing", new: edit(t, p, "type: Queue", "type: Reject")},
		{name: "V1 no queues is defaulted", new: edit(t, p, "queues: 64", "queues: 0")},
		{name: "V2 valid update", old: p, new: edit(t, p, "nominalConcurrencyShares: 10", "nominalConcurrencyShares: 20")},
		{name: "V2 update to a bad queue length", old: p, new: edit(t, p, "queueLengthLimit: 50", "queueLengthLimit: -1")},
	}
}

// rules.md valid.builtin: a signing request's PEM request, signer, usages and expiration.
func csrCases(t *testing.T) []workloadCase {
	c := csrJane
	return []workloadCase{
		{name: "valid create", new: c},
		{name: "V1 request not PEM", new: edit(t, c, "request: LS0t", "request: bm90LXBlbQ== #")},
		{name: "V1 signer name without a path", new: edit(t, c, "signerName: kubernetes.io/kube-apiserver-client", "signerName: kubernetes.io")},
		{name: "V1 usage repeated", new: edit(t, c, "usages: [client auth, digital signature]", "usages: [client auth, client auth]")},
		{name: "V1 usage unknown", new: edit(t, c, "usages: [client auth, digital signature]", "usages: [client auth, coffee]")},
		{name: "V1 expiration below ten minutes", new: edit(t, c, "expirationSeconds: 86400", "expirationSeconds: 60")},
		{name: "V2 update changing the signer keeps the stored spec", old: c, new: edit(t, c, "signerName: kubernetes.io/kube-apiserver-client", "signerName: example.com/other")},
	}
}

func trustBundleCases(t *testing.T) []workloadCase {
	b := trustBundleOracle
	return []workloadCase{
		{name: "valid create", new: b},
		{name: "V1 text before the PEM blocks is ignored", new: edit(t, b, "-----BEGIN CERTIFICATE-----", "garbage\n    -----BEGIN CERTIFICATE-----")},
		{name: "V1 signer bundle with an unprefixed name", new: edit(t, b, "spec:\n", "spec:\n  signerName: example.com/signer\n")},
		{name: "V1 empty bundle", new: edit(t, b, "  trustBundle: |\n", "  trustBundle: ''\n  unused: |\n")},
		{name: "V2 valid update", old: b, new: edit(t, b, "name: oracle-bundle,", "name: oracle-bundle, labels: {a: b},")},
	}
}

func migrationCases(t *testing.T) []workloadCase {
	m := migrationSecrets
	return []workloadCase{
		{name: "valid create", new: m},
		{name: "V1 no resource", new: edit(t, m, "resource: secrets", "resource: ''")},
		{name: "V1 resource not a label", new: edit(t, m, "resource: secrets", "resource: Secrets")},
		{name: "V1 group not a subdomain", new: edit(t, m, `group: ""`, "group: Bad_Group")},
		{name: "V2 update changing the resource", old: m, new: edit(t, m, "resource: secrets", "resource: configmaps")},
		{name: "V2 status with a bad resource version", old: m, subresource: "status", new: m + "status:\n  resourceVersion: abc\n"},
	}
}

// rules.md valid.builtin, valid.metadata: an APIService's name (version.group), priorities, service and TLS
// settings; V2: /status conditions.
func apiServiceCases(t *testing.T) []workloadCase {
	a := apiServiceMetrics
	return []workloadCase{
		{name: "valid create", new: a},
		{name: "V6 name not version.group", new: edit(t, a, "name: v1beta1.oracle.example.com", "name: oracle.example.com")},
		{name: "V1 group priority zero", new: edit(t, a, "groupPriorityMinimum: 100", "groupPriorityMinimum: 0")},
		{name: "V1 version priority above 1000", new: edit(t, a, "versionPriority: 100", "versionPriority: 1001")},
		{name: "V1 port zero", new: edit(t, a, "port: 443", "port: 0")},
		{name: "V1 ca bundle with insecure", new: edit(t, a, "insecureSkipTLSVerify: true", "insecureSkipTLSVerify: true\n  caBundle: Y2E=")},
		{name: "V1 local with a ca bundle", new: edit(t, a, "  service: {name: oracle-api, namespace: oracle, port: 443}\n", "  caBundle: Y2E=\n")},
		{name: "V1 version not a label", new: edit(t, edit(t, a, "version: v1beta1", "version: V1"), "name: v1beta1.", "name: V1.")},
		{name: "V2 valid update", old: a, new: edit(t, a, "versionPriority: 100", "versionPriority: 200")},
		{name: "V2 status condition unknown", old: a, subresource: "status", new: a + "status:\n  conditions:\n  - {type: Available, status: Maybe, reason: Test, lastTransitionTime: '2026-12-01T10:00:00Z'}\n"},
	}
}

func loadAnswers(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// checkRecorded: every case is recorded once, every answer has its case, and every kind
// has at least two refusals.
func checkRecorded(t *testing.T, cases []groupCase, answers map[string]string, kinds []string) {
	seen := map[string]bool{}
	refused := map[string]int{}
	for _, c := range cases {
		if seen[c.key()] {
			t.Errorf("case %q twice", c.key())
		}
		seen[c.key()] = true
		if answers[c.key()] != "" {
			refused[c.kind]++
		}
	}
	for k := range answers {
		if !seen[k] {
			t.Errorf("recorded answer %q has no case", k)
		}
	}
	for _, kind := range kinds {
		if refused[kind] < 2 {
			t.Errorf("%s: %d refusals among its cases", kind, refused[kind])
		}
	}
}

// recordAgainstOracle sends each case to SSA_DIFF_ORACLE and compares its answer with the
// recorded one, or records them all in path.
func recordAgainstOracle(t *testing.T, cases []groupCase, path string, record bool) {
	o := newOracle(t)
	answers := map[string]string{}
	if !record {
		answers = loadAnswers(t, path)
	}
	for i, c := range cases {
		t.Run(c.key(), func(t *testing.T) {
			got, skip := o.groupAnswer(t, &c.workloadCase, i)
			if skip != "" {
				t.Fatalf("cannot send: %s", skip)
			}
			if record {
				answers[c.key()] = got
			} else if got != answers[c.key()] {
				t.Errorf("server   %s\nrecorded %s", got, answers[c.key()])
			}
		})
	}
	if record {
		keys := make([]string, 0, len(answers))
		for k := range answers {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		b.WriteString("{\n")
		for i, k := range keys {
			kb, _ := json.Marshal(k)
			vb, _ := json.Marshal(answers[k])
			b.WriteString("  " + string(kb) + ": " + string(vb))
			if i < len(keys)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("}\n")
		if err := os.WriteFile(filepath.FromSlash(path), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
