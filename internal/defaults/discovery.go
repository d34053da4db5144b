package defaults

// Defaulters of discovery.k8s.io/v1 (k8s.io/kubernetes pkg/apis/discovery/v1).

var discoveryDefaulters = []named[defaulterFunc]{
	{"io.k8s.api.discovery.v1.EndpointPort", defaultEndpointPort},
}

// defaultEndpointPort follows SetDefaults_EndpointPort.
func defaultEndpointPort(m map[string]any) {
	setIfNil(m, "name", "")
	setIfNil(m, "protocol", "TCP")
}
