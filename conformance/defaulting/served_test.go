//go:build served

// This test links kube-apiserver's control plane (k8s.io/kubernetes pkg/controlplane, some
// 1,500 packages more than the rest of the module), so it is left out of the default
// build: `go test -tags served -run TestServedByDefault .` (make conformance-served).

package defaulting

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/schema/builtin"
	apiextensionsapiserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	serverstorage "k8s.io/apiserver/pkg/server/storage"
	aggregatorapiserver "k8s.io/kube-aggregator/pkg/apiserver"
	"k8s.io/kubernetes/pkg/controlplane"
)

// storedVersions are, for the servers kube-apiserver delegates to, the versions they
// install a storage for whatever their configuration enables: the apiextensions server
// (k8s.io/apiextensions-apiserver pkg/apiserver, New: v1 only since 1.22) and the
// aggregator (k8s.io/kube-aggregator pkg/apiserver, New: v1 only). Their default
// configurations still enable v1beta1, which has no handler (kube-apiserver 1.37.2 answers
// 404 for it).
var storedVersions = map[string]string{"apiextensions.k8s.io": "v1", "apiregistration.k8s.io": "v1"}

// TestServedByDefaultMatchesKubeAPIServer holds schema.Type.Served (the rule
// schema.ServedByDefault: every GA version, no alpha or beta one) to the default API
// configuration of kube-apiserver 1.37.2 (rules.md version.not-served): its own groups'
// (controlplane.DefaultAPIResourceConfigSource), the apiextensions server's and the
// aggregator's (with the versions they have storage for), for every built-in kind of the
// embedded schema.
func TestServedByDefaultMatchesKubeAPIServer(t *testing.T) {
	configs := map[string]*serverstorage.ResourceConfig{
		"apiextensions.k8s.io":   apiextensionsapiserver.DefaultAPIResourceConfigSource(),
		"apiregistration.k8s.io": aggregatorapiserver.DefaultAPIResourceConfigSource(),
	}
	kube := controlplane.DefaultAPIResourceConfigSource()
	reg := schema.MustNewRegistry(linkedMinor)
	served, unserved := 0, 0
	for _, k := range builtin.Kinds() {
		if k.Resource == "" {
			continue // the body of a subresource (Eviction): nobody applies it
		}
		cfg := configs[k.Group]
		if cfg == nil {
			cfg = kube
		}
		want := cfg.ResourceEnabled(k8sschema.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Resource})
		if v, ok := storedVersions[k.Group]; ok && k.Version != v {
			want = false
		}
		typ, ok := reg.Lookup(schema.GVK{Group: k.Group, Version: k.Version, Kind: k.Kind})
		if !ok {
			t.Fatalf("%s/%s %s is not in the registry", k.Group, k.Version, k.Kind)
		}
		if typ.Served != want {
			t.Errorf("%s/%s %s: Served %v, kube-apiserver serves it: %v", k.Group, k.Version, k.Kind, typ.Served, want)
		}
		if want {
			served++
		} else {
			unserved++
		}
	}
	if served == 0 || unserved == 0 {
		t.Fatalf("%d served, %d not: the comparison compared nothing", served, unserved)
	}
	t.Logf("%d built-in kinds served by default, %d in the schema but not served", served, unserved)
}
