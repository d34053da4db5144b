package defaults

// Defaulters of admissionregistration.k8s.io/v1 (k8s.io/kubernetes
// pkg/apis/admissionregistration/v1).

var admissionregistrationDefaulters = []named[defaulterFunc]{
	{"io.k8s.api.admissionregistration.v1.ValidatingWebhook", defaultWebhook(false)},
	{"io.k8s.api.admissionregistration.v1.MutatingWebhook", defaultWebhook(true)},
	{"io.k8s.api.admissionregistration.v1.Rule", defaultRule},
	{"io.k8s.api.admissionregistration.v1.ServiceReference", defaultServicePort},
	{"io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec", defaultFailurePolicy},
	{"io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicySpec", defaultFailurePolicy},
	{"io.k8s.api.admissionregistration.v1.MatchResources", defaultMatchResources},
}

// defaultWebhook follows SetDefaults_ValidatingWebhook and SetDefaults_MutatingWebhook.
func defaultWebhook(mutating bool) defaulterFunc {
	return func(m map[string]any) {
		setIfNil(m, "failurePolicy", "Fail")
		setIfNil(m, "matchPolicy", "Equivalent")
		setIfNil(m, "namespaceSelector", map[string]any{})
		setIfNil(m, "objectSelector", map[string]any{})
		setIfNil(m, "timeoutSeconds", int64(10))
		if mutating {
			setIfNil(m, "reinvocationPolicy", "Never")
		}
	}
}

// defaultRule follows SetDefaults_Rule.
func defaultRule(m map[string]any) { setIfNil(m, "scope", "*") }

// defaultServicePort follows SetDefaults_ServiceReference (admission
// webhooks, CRD conversion webhooks and APIServices alike).
func defaultServicePort(m map[string]any) { setIfNil(m, "port", int64(443)) }

// defaultFailurePolicy follows SetDefaults_{Validating,Mutating}AdmissionPolicySpec.
func defaultFailurePolicy(m map[string]any) { setIfNil(m, "failurePolicy", "Fail") }

// defaultMatchResources follows SetDefaults_MatchResources.
func defaultMatchResources(m map[string]any) {
	setIfNil(m, "matchPolicy", "Equivalent")
	setIfNil(m, "namespaceSelector", map[string]any{})
	setIfNil(m, "objectSelector", map[string]any{})
}
