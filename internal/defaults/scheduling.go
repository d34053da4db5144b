package defaults

// Defaulters of scheduling.k8s.io/v1 (k8s.io/kubernetes pkg/apis/scheduling/v1).

var schedulingDefaulters = []named[defaulterFunc]{
	{"io.k8s.api.scheduling.v1.PriorityClass", defaultPriorityClass},
}

// defaultPriorityClass follows SetDefaults_PriorityClass.
func defaultPriorityClass(m map[string]any) { setIfNil(m, "preemptionPolicy", "PreemptLowerPriority") }
