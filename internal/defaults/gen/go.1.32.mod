module github.com/ssa-diff/ssa-diff/internal/defaults/gen

go 1.26.0

require (
	github.com/ssa-diff/ssa-diff/internal/olderminor v0.0.0
	k8s.io/apiextensions-apiserver v0.32.13
	k8s.io/apimachinery v0.32.13
	k8s.io/apiserver v0.32.13
	k8s.io/client-go v0.32.13
	k8s.io/component-base v0.32.13
	k8s.io/kube-aggregator v0.32.13
	k8s.io/kubernetes v1.32.13
)

require (
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/blang/semver/v4 v4.0.0 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/fxamacker/cbor/v2 v2.7.0 // indirect
	github.com/go-logr/logr v1.4.2 // indirect
	github.com/gogo/protobuf v1.3.2 // indirect
	github.com/google/gofuzz v1.2.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/kr/text v0.2.0 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/prometheus/client_golang v1.19.1 // indirect
	github.com/prometheus/client_model v0.6.1 // indirect
	github.com/prometheus/common v0.55.0 // indirect
	github.com/prometheus/procfs v0.15.1 // indirect
	github.com/spf13/cobra v1.8.1 // indirect
	github.com/spf13/pflag v1.0.5 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	go.opentelemetry.io/otel v1.28.0 // indirect
	go.opentelemetry.io/otel/trace v1.28.0 // indirect
	golang.org/x/net v0.30.0 // indirect
	golang.org/x/sys v0.26.0 // indirect
	golang.org/x/text v0.19.0 // indirect
	google.golang.org/protobuf v1.35.1 // indirect
	gopkg.in/inf.v0 v0.9.1 // indirect
	k8s.io/api v0.32.13 // indirect
	k8s.io/controller-manager v0.0.0 // indirect
	k8s.io/klog/v2 v2.130.1 // indirect
	k8s.io/utils v0.0.0-20241104100929-3ea5e8cea738 // indirect
	sigs.k8s.io/json v0.0.0-20241010143419-9aa6b5e7a4b3 // indirect
	sigs.k8s.io/structured-merge-diff/v4 v4.4.2 // indirect
	sigs.k8s.io/yaml v1.4.0 // indirect
)

// k8s.io/kubernetes requires its staging modules at v0.0.0 (replaced in its own build):
// the same release of each.
replace (
	k8s.io/api => k8s.io/api v0.32.13
	k8s.io/apiextensions-apiserver => k8s.io/apiextensions-apiserver v0.32.13
	k8s.io/apimachinery => k8s.io/apimachinery v0.32.13
	k8s.io/apiserver => k8s.io/apiserver v0.32.13
	k8s.io/cli-runtime => k8s.io/cli-runtime v0.32.13
	k8s.io/client-go => k8s.io/client-go v0.32.13
	k8s.io/cloud-provider => k8s.io/cloud-provider v0.32.13
	k8s.io/cluster-bootstrap => k8s.io/cluster-bootstrap v0.32.13
	k8s.io/code-generator => k8s.io/code-generator v0.32.13
	k8s.io/component-base => k8s.io/component-base v0.32.13
	k8s.io/component-helpers => k8s.io/component-helpers v0.32.13
	k8s.io/controller-manager => k8s.io/controller-manager v0.32.13
	k8s.io/cri-api => k8s.io/cri-api v0.32.13
	k8s.io/cri-client => k8s.io/cri-client v0.32.13
	k8s.io/csi-translation-lib => k8s.io/csi-translation-lib v0.32.13
	k8s.io/dynamic-resource-allocation => k8s.io/dynamic-resource-allocation v0.32.13
	k8s.io/endpointslice => k8s.io/endpointslice v0.32.13
	k8s.io/externaljwt => k8s.io/externaljwt v0.32.13
	k8s.io/kms => k8s.io/kms v0.32.13
	k8s.io/kube-aggregator => k8s.io/kube-aggregator v0.32.13
	k8s.io/kube-controller-manager => k8s.io/kube-controller-manager v0.32.13
	k8s.io/kube-proxy => k8s.io/kube-proxy v0.32.13
	k8s.io/kube-scheduler => k8s.io/kube-scheduler v0.32.13
	k8s.io/kubectl => k8s.io/kubectl v0.32.13
	k8s.io/kubelet => k8s.io/kubelet v0.32.13
	k8s.io/metrics => k8s.io/metrics v0.32.13
	k8s.io/mount-utils => k8s.io/mount-utils v0.32.13
	k8s.io/pod-security-admission => k8s.io/pod-security-admission v0.32.13
	k8s.io/sample-apiserver => k8s.io/sample-apiserver v0.32.13
	k8s.io/sample-cli-plugin => k8s.io/sample-cli-plugin v0.32.13
	k8s.io/sample-controller => k8s.io/sample-controller v0.32.13
)

// The package that runs an older minor's build (its own module, no requirement).
replace github.com/ssa-diff/ssa-diff/internal/olderminor => ../../olderminor
