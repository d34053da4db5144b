package library

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/admission/wire"
	"github.com/ssa-diff/ssa-diff/internal/conversion"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/client-go/discovery"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/openapi"
)

// cluster is a Setup's objects as the plugins read them: typed objects in a fake clientset
// (and its informers), every object in a fake dynamic client (the policies' params), a
// REST mapper of the kinds given.
type cluster struct {
	setup    wire.Setup
	server   *serverconfig.Config
	client   *clientset
	dynamic  *dynamicfake.FakeDynamicClient
	informer informers.SharedInformerFactory
	mapper   *meta.DefaultRESTMapper
	// byKind counts the objects of each kind.
	byKind map[string]int
	// namespaces and pods are the Namespaces and Pods held, by name and namespace.
	namespaces map[string]*corev1.Namespace
	pods       map[string][]*corev1.Pod
	kinds      map[schema.GroupVersionKind]wire.Kind
	openapi    *openAPI
}

// clientset is the fake clientset with a discovery that serves the OpenAPI v3 documents
// a mutating policy's apply configurations are typed with.
type clientset struct {
	*fake.Clientset
	discovery discovery.DiscoveryInterfaces
}

func (c *clientset) Discovery() discovery.DiscoveryInterfaces { return c.discovery }

var _ kubernetes.Interface = (*clientset)(nil)

type fakeDiscovery struct {
	discovery.DiscoveryInterfaces
	openapi openapi.Client
}

func (d *fakeDiscovery) OpenAPIV3() openapi.Client { return d.openapi }

func newCluster(s wire.Setup) (*cluster, error) {
	server, err := serverconfig.For(kube.Minor(s.Minor))
	if err != nil {
		return nil, err
	}
	c := &cluster{setup: s, server: server, mapper: meta.NewDefaultRESTMapper(nil),
		byKind: map[string]int{}, namespaces: map[string]*corev1.Namespace{}, pods: map[string][]*corev1.Pod{},
		kinds: map[schema.GroupVersionKind]wire.Kind{}}
	listKinds := map[schema.GroupVersionResource]string{}
	for _, k := range s.Kinds {
		gvk := schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}
		scope := meta.RESTScopeRoot
		if k.Namespaced {
			scope = meta.RESTScopeNamespace
		}
		c.mapper.AddSpecific(gvk, gvk.GroupVersion().WithResource(k.Resource), gvk.GroupVersion().WithResource(strings.ToLower(k.Kind)), scope)
		listKinds[gvk.GroupVersion().WithResource(k.Resource)] = k.Kind + "List"
		c.kinds[gvk] = k
	}
	var typed, untyped []runtime.Object
	for _, o := range s.Objects {
		u := &unstructured.Unstructured{Object: o}
		gvk := u.GroupVersionKind()
		c.byKind[gvk.GroupKind().String()]++
		untyped = append(untyped, u)
		t, err := c.typed(u)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", gvk.Kind, nsName(u), err)
		}
		if t == nil {
			continue
		}
		typed = append(typed, t)
		switch o := t.(type) {
		case *corev1.Namespace:
			c.namespaces[o.Name] = o
		case *corev1.Pod:
			c.pods[o.Namespace] = append(c.pods[o.Namespace], o)
		}
	}
	c.dynamic = dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), listKinds, untyped...)
	fc := fake.NewSimpleClientset(typed...)
	c.openapi = newOpenAPI(c)
	c.client = &clientset{Clientset: fc, discovery: &fakeDiscovery{DiscoveryInterfaces: fc.Discovery(), openapi: c.openapi}}
	c.informer = informers.NewSharedInformerFactory(c.client, 0)
	return c, nil
}

// typed is u as the Go type client-go's scheme has for its kind (nil for another kind: a
// custom resource), the admission policies of an older version at the version the plugins
// watch.
func (c *cluster) typed(u *unstructured.Unstructured) (runtime.Object, error) {
	gvk := u.GroupVersionKind()
	if gvk.Group == "admissionregistration.k8s.io" && gvk.Version != "v1" && strings.HasPrefix(gvk.Kind, "MutatingAdmissionPolicy") {
		// 1.34 and 1.35 serve MutatingAdmissionPolicies at v1beta1, which the plugin
		// watches at v1: the server converts between the two, which hold the same fields.
		gvk.Version = "v1"
		u = u.DeepCopy()
		u.SetAPIVersion(gvk.GroupVersion().String())
	}
	if !clientscheme.Scheme.Recognizes(gvk) {
		return nil, nil
	}
	t, err := clientscheme.Scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(u.Object)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, t); err != nil {
		return nil, err
	}
	return t, nil
}

func nsName(u *unstructured.Unstructured) string {
	if u.GetNamespace() == "" {
		return u.GetName()
	}
	return u.GetNamespace() + "/" + u.GetName()
}

func (c *cluster) holdsBindings(kind string) bool {
	return c.byKind[schema.GroupKind{Group: "admissionregistration.k8s.io", Kind: kind}.String()] > 0
}

func (c *cluster) labelledForPodSecurity() bool {
	for _, ns := range c.namespaces {
		for k := range ns.Labels {
			if strings.HasPrefix(k, "pod-security.kubernetes.io/") {
				return true
			}
		}
	}
	return false
}

// start starts the informers the plugins asked for and waits until they listed.
func (c *cluster) start(stop chan struct{}) error {
	c.informer.Start(stop)
	for typ, ok := range c.informer.WaitForCacheSync(stop) {
		if !ok {
			return fmt.Errorf("the informer of %v did not sync", typ)
		}
	}
	return nil
}

// objectInterfaces are how the plugins create, convert and map the objects of a call: the
// request's kind at each of its versions.
func (c *cluster) objectInterfaces(call wire.Call) admission.ObjectInterfaces {
	eq := runtime.NewEquivalentResourceRegistry()
	for _, k := range append([]wire.Kind{call.Kind}, call.Equivalents...) {
		gvr := schema.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Resource}
		eq.RegisterKindFor(gvr, call.Subresource, schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind})
	}
	return &objectInterfaces{cluster: c, equivalents: eq, call: call}
}

type objectInterfaces struct {
	cluster     *cluster
	equivalents runtime.EquivalentResourceMapper
	call        wire.Call
}

func (o *objectInterfaces) GetObjectCreater() runtime.ObjectCreater     { return o }
func (o *objectInterfaces) GetObjectTyper() runtime.ObjectTyper         { return unstructuredTyper{} }
func (o *objectInterfaces) GetObjectDefaulter() runtime.ObjectDefaulter { return noDefaults{} }
func (o *objectInterfaces) GetObjectConvertor() runtime.ObjectConvertor { return o }
func (o *objectInterfaces) GetEquivalentResourceMapper() runtime.EquivalentResourceMapper {
	return o.equivalents
}

// New makes an empty object of a kind: the plugins convert into it.
func (o *objectInterfaces) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// Convert converts one object of the request's kind into another version of it, as the
// server does: through Go code for a built-in kind that needs it, by its apiVersion
// alone otherwise.
func (o *objectInterfaces) Convert(in, out, _ any) error {
	src, ok1 := in.(*unstructured.Unstructured)
	dst, ok2 := out.(*unstructured.Unstructured)
	if !ok1 || !ok2 {
		return fmt.Errorf("cannot convert %T into %T", in, out)
	}
	converted, err := o.ConvertToVersion(src, dst.GroupVersionKind().GroupVersion())
	if err != nil {
		return err
	}
	dst.Object = converted.(*unstructured.Unstructured).Object
	return nil
}

// ConvertToVersion converts an object of the request's kind to another version.
func (o *objectInterfaces) ConvertToVersion(in runtime.Object, gv runtime.GroupVersioner) (runtime.Object, error) {
	src, ok := in.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("cannot convert %T", in)
	}
	from := src.GroupVersionKind()
	target, ok := gv.KindForGroupVersionKinds([]schema.GroupVersionKind{from})
	if !ok {
		return nil, fmt.Errorf("no version of %v to convert to", from)
	}
	if target == from {
		return src.DeepCopy(), nil
	}
	how := o.cluster.kinds[target].Converts
	for _, k := range append([]wire.Kind{o.call.Kind}, o.call.Equivalents...) {
		if k.Group == target.Group && k.Version == target.Version && k.Kind == target.Kind {
			how = k.Converts
		}
	}
	switch how {
	case "go":
		out, err := conversion.Convert(o.cluster.server, src.Object, target.GroupVersion().String())
		if err != nil {
			return nil, err
		}
		return &unstructured.Unstructured{Object: out}, nil
	case "webhook":
		return nil, fmt.Errorf("%v is converted to %v by a conversion webhook, which ssa-diff does not call", from, target)
	}
	out := src.DeepCopy()
	out.SetGroupVersionKind(target)
	return out, nil
}

func (o *objectInterfaces) ConvertFieldLabel(gvk schema.GroupVersionKind, label, value string) (string, string, error) {
	return label, value, nil
}

type unstructuredTyper struct{}

func (unstructuredTyper) ObjectKinds(obj runtime.Object) ([]schema.GroupVersionKind, bool, error) {
	return []schema.GroupVersionKind{obj.GetObjectKind().GroupVersionKind()}, false, nil
}

func (unstructuredTyper) Recognizes(schema.GroupVersionKind) bool { return true }

// noDefaults: the model defaults what admission returns itself (package
// server/kubeapiserver), as the server's decoding would.
type noDefaults struct{}

func (noDefaults) Default(runtime.Object) {}
