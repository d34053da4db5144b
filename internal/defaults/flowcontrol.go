package defaults

// Defaulters of flowcontrol.apiserver.k8s.io/v1 (k8s.io/kubernetes
// pkg/apis/flowcontrol/v1).

var flowcontrolDefaulters = []named[defaulterFunc]{
	{"io.k8s.api.flowcontrol.v1.FlowSchemaSpec", defaultFlowSchemaSpec},
	{"io.k8s.api.flowcontrol.v1.ExemptPriorityLevelConfiguration", defaultExemptPriorityLevel},
	{"io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration", defaultLimitedPriorityLevel},
	{"io.k8s.api.flowcontrol.v1.QueuingConfiguration", defaultQueuingConfiguration},
}

// defaultFlowSchemaSpec follows SetDefaults_FlowSchemaSpec.
func defaultFlowSchemaSpec(m map[string]any) { setIfUnset(m, "matchingPrecedence", int64(1000)) }

// defaultExemptPriorityLevel follows SetDefaults_ExemptPriorityLevelConfiguration.
func defaultExemptPriorityLevel(m map[string]any) {
	setIfNil(m, "nominalConcurrencyShares", int64(0))
	setIfNil(m, "lendablePercent", int64(0))
}

// defaultLimitedPriorityLevel follows SetDefaults_LimitedPriorityLevelConfiguration.
func defaultLimitedPriorityLevel(m map[string]any) {
	setIfNil(m, "nominalConcurrencyShares", int64(30))
	setIfNil(m, "lendablePercent", int64(0))
}

// defaultQueuingConfiguration follows SetDefaults_QueuingConfiguration.
func defaultQueuingConfiguration(m map[string]any) {
	setIfUnset(m, "handSize", int64(8))
	setIfUnset(m, "queues", int64(64))
	setIfUnset(m, "queueLengthLimit", int64(50))
}
