// Package kinds lists the kinds kube-apiserver 1.37 serves, each with its internal Go type
// and the Go type of the version ssa-diff reads it at (the group's preferred version).
package kinds

import (
	"reflect"
	"sort"
	"strings"

	apiextinstall "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiregistrationinstall "k8s.io/kube-aggregator/pkg/apis/apiregistration/install"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/authentication/install"
	_ "k8s.io/kubernetes/pkg/apis/authorization/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/certificates/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
	_ "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	_ "k8s.io/kubernetes/pkg/apis/storagemigration/install"
	"k8s.io/kubernetes/pkg/controlplane"
)

// Kind is one stored kind.
type Kind struct {
	GVK      schema.GroupVersionKind // at the group's preferred version
	Internal reflect.Type
	External reflect.Type
}

// Scheme is kube-apiserver's scheme: every built-in group, CRDs and APIServices.
func Scheme() *runtime.Scheme {
	s := legacyscheme.Scheme
	apiextinstall.Install(s)
	apiregistrationinstall.Install(s)
	return s
}

var objectMeta = reflect.TypeOf(metav1.ObjectMeta{})

// Served are the kinds with object metadata (lists aside) of every group kube-apiserver
// serves by default, at the group's preferred version among those it serves, in GVK order.
func Served(s *runtime.Scheme) []Kind {
	var out []Kind
	groups := map[string]bool{}
	for gvk := range s.AllKnownTypes() {
		groups[gvk.Group] = true
	}
	enabled := controlplane.DefaultAPIResourceConfigSource()
	for g := range groups {
		var gv schema.GroupVersion
		for _, v := range s.PrioritizedVersionsForGroup(g) {
			if enabled.GroupVersionConfigs[v] || g == "apiextensions.k8s.io" || g == "apiregistration.k8s.io" {
				gv = v
				break
			}
		}
		if gv.Version == "" {
			continue
		}
		for kind, ext := range s.KnownTypes(gv) {
			if strings.HasSuffix(kind, "List") || !hasObjectMeta(ext) {
				continue
			}
			in, ok := s.AllKnownTypes()[schema.GroupVersionKind{Group: g, Version: runtime.APIVersionInternal, Kind: kind}]
			if !ok {
				continue
			}
			out = append(out, Kind{GVK: gv.WithKind(kind), Internal: in, External: ext})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GVK.String() < out[j].GVK.String() })
	return out
}

func hasObjectMeta(t reflect.Type) bool {
	f, ok := t.FieldByName("ObjectMeta")
	return ok && f.Type == objectMeta
}
