package validation_test

import "testing"

func BenchmarkValidateValidatingWebhookConfiguration(b *testing.B) { benchmarkWrite(b, webhookPolicy) }
func BenchmarkValidateMutatingWebhookConfiguration(b *testing.B)   { benchmarkWrite(b, webhookInjector) }
func BenchmarkValidateValidatingAdmissionPolicy(b *testing.B)      { benchmarkWrite(b, policyReplicaLimit) }
func BenchmarkValidateValidatingAdmissionPolicyBinding(b *testing.B) {
	benchmarkWrite(b, policyBindingTest)
}
func BenchmarkValidateMutatingAdmissionPolicy(b *testing.B) { benchmarkWrite(b, mutatingPolicyLabels) }
func BenchmarkValidateMutatingAdmissionPolicyBinding(b *testing.B) {
	benchmarkWrite(b, mutatingBindingLabels)
}
func BenchmarkValidateFlowSchema(b *testing.B)                 { benchmarkWrite(b, flowSchemaControllers) }
func BenchmarkValidatePriorityLevelConfiguration(b *testing.B) { benchmarkWrite(b, priorityLevelBatch) }
func BenchmarkValidateCertificateSigningRequest(b *testing.B)  { benchmarkWrite(b, csrJane) }
func BenchmarkValidateClusterTrustBundle(b *testing.B)         { benchmarkWrite(b, trustBundleOracle) }
func BenchmarkValidateStorageVersionMigration(b *testing.B)    { benchmarkWrite(b, migrationSecrets) }
func BenchmarkValidateAPIService(b *testing.B)                 { benchmarkWrite(b, apiServiceMetrics) }
