package admission

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/admission/wire"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server"
	"github.com/ssa-diff/ssa-diff/server/clusterstate"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
)

// Config is the cluster a Chain admits writes for.
type Config struct {
	// Minor is the server's Kubernetes minor (37 for 1.37).
	Minor int
	// Gates are the server's feature gates; nil, the minor's defaults. Without the
	// MutatingAdmissionPolicy gate (off by default before 1.36) the server does not run
	// that plugin: the cluster's MutatingAdmissionPolicies and bindings are not acted on.
	Gates *features.Set
	// State is what the cluster holds; nil or empty, a bare cluster: the plugins that read
	// objects of the cluster find none of the kinds they need, and say what they cannot
	// know only where it matters.
	State *clusterstate.State
	// User sends the writes; Authorization answers the policies' authorizer checks.
	User          clusterstate.User
	Authorization clusterstate.Authorization
	// Library makes the admission that runs through Kubernetes' libraries (PodSecurity,
	// the admission policies): the helper program, or in process in tests. Nil: that
	// admission is not predicted, and a write it would see says so.
	Library func(wire.Setup) (wire.Library, error)
	// Stored is an object of the state as the server stores it: defaulted (a policy given
	// as a file names no failurePolicy; the server's copy does).
	Stored func(obj map[string]any) map[string]any
}

// Chain is kube-apiserver's admission chain for one cluster: the plugins compiled into
// the server that fill in or refuse a write, in the server's order, fed by the cluster's
// objects, and the admission that runs through Kubernetes' libraries. It is safe for
// concurrent use; the library is started on the first write that needs it.
type Chain struct {
	cfg Config
	// needsLibrary: the state holds what the library acts on (a policy binding, a
	// namespace labelled for Pod Security).
	needsLibrary bool
	once         sync.Once
	lib          wire.Library
	libErr       error
	// charged counts the writes admitted against each quota ("namespace/name"):
	// ResourceQuota counts each against its quotas' status as read.
	chargedMu sync.Mutex
	charged   map[string]int
}

// New is the chain of a cluster.
func New(cfg Config) *Chain {
	if cfg.Stored != nil && cfg.State.Len() > 0 {
		// The plugins read the objects as the server stores them.
		objs := cfg.State.Objects()
		for i := range objs {
			objs[i].Object = cfg.Stored(objs[i].Object)
		}
		cfg.State, _ = clusterstate.New(objs)
	}
	if !cfg.enabled(features.MutatingAdmissionPolicy) && cfg.State.Len() > 0 {
		cfg.State = withoutMutatingPolicies(cfg.State)
	}
	c := &Chain{cfg: cfg}
	c.needsLibrary = needsLibrary(cfg.State)
	return c
}

// enabled reports whether the server has the gate on.
func (cfg Config) enabled(g features.Gate) bool {
	if cfg.Gates != nil {
		return cfg.Gates.Enabled(g)
	}
	set, ok := features.Defaults(kube.Minor(cfg.Minor))
	return ok && set.Enabled(g)
}

// withoutMutatingPolicies is s without its MutatingAdmissionPolicies and their bindings:
// what a server without the MutatingAdmissionPolicy plugin acts on.
func withoutMutatingPolicies(s *clusterstate.State) *clusterstate.State {
	const group = "admissionregistration.k8s.io"
	if !s.Knows(group, "MutatingAdmissionPolicy") && !s.Knows(group, "MutatingAdmissionPolicyBinding") {
		return s
	}
	var keep []clusterstate.Object
	for _, o := range s.Objects() {
		gvk := schema.GVKOf(o.Object)
		if gvk.Group == group && strings.HasPrefix(gvk.Kind, "MutatingAdmissionPolicy") {
			continue
		}
		keep = append(keep, o)
	}
	out, err := clusterstate.New(keep)
	if err != nil {
		return s
	}
	return out
}

func needsLibrary(s *clusterstate.State) bool {
	const group = "admissionregistration.k8s.io"
	if s.Knows(group, "ValidatingAdmissionPolicyBinding") || s.Knows(group, "MutatingAdmissionPolicyBinding") {
		return true
	}
	for _, ns := range s.List("", "Namespace", "") {
		for k := range unstructured.Object(unstructured.Object(ns, "metadata"), "labels") {
			if strings.HasPrefix(k, "pod-security.kubernetes.io/") {
				return true
			}
		}
	}
	return false
}

// Close stops the library, if it was started.
func (c *Chain) Close() error {
	if c.lib != nil {
		return c.lib.Close()
	}
	return nil
}

// Write is one write as the chain sees it.
type Write struct {
	server.AdmissionRequest
	// Convert converts an object of the request's kind to another of its versions, as the
	// server does (the model's Convert).
	Convert func(obj map[string]any, apiVersion string) (map[string]any, error)
}

func (w Write) create() bool { return w.Old == nil }

// forbidden is a plugin's 403, worded as the server's admission errors are: the
// request's resource, and its name (the object's, or its generateName, for a create
// without one).
func (w Write) forbidden(format string, args ...any) *metav1.Status {
	st := apierrors.NewForbidden(w.groupResource(), w.nameForErrors(), fmt.Errorf(format, args...)).ErrStatus
	return &st
}

func (w Write) groupResource() k8sschema.GroupResource {
	return k8sschema.GroupResource{Group: w.Kind.Group, Resource: w.Type.Resource}
}

func (w Write) nameForErrors() string {
	if w.Name != "" {
		return w.Name
	}
	md := unstructured.Object(w.Object, "metadata")
	if n := unstructured.Str(md, "name"); n != "" {
		return n
	}
	if n := unstructured.Str(md, "generateName"); n != "" {
		return n
	}
	return "Unknown"
}

func (w Write) is(group, kind string) bool {
	return w.Type.GVK.Group == group && w.Type.GVK.Kind == kind
}

// Mutate runs the mutating phase: the plugins in the server's order, then the mutating
// admission policies. The first refusal ends it.
func (c *Chain) Mutate(w Write) server.Admission {
	var out server.Admission
	for _, p := range []struct {
		name  string
		admit func(Write, *server.Admission)
	}{
		{"NamespaceLifecycle", c.namespaceLifecycle}, {"LimitRanger", c.limitRanger}, {"ServiceAccount", c.serviceAccount}, {"TaintNodesByCondition", c.taintNodesByCondition},
		{"Priority", c.priority}, {"DefaultTolerationSeconds", c.defaultTolerationSeconds}, {"DefaultStorageClass", c.defaultStorageClass},
		{"StorageObjectInUseProtection", c.storageObjectInUseProtection}, {"RuntimeClass", c.runtimeClass}, {"DefaultIngressClass", c.defaultIngressClass},
	} {
		p.admit(w, &out)
		if out.Refusal != nil {
			out.RefusedBy = p.name
			return out
		}
	}
	c.callLibrary(wire.PhaseMutating, w, &out)
	return out
}

// MutatesCreate reports whether the mutating phase may change a create of the kind: the
// plugins fill in Pods (LimitRanger, ServiceAccount, Priority, DefaultTolerationSeconds,
// RuntimeClass), Nodes (TaintNodesByCondition), claims and volumes (DefaultStorageClass,
// StorageObjectInUseProtection) and Ingresses (DefaultIngressClass); the mutating
// admission policies, which run when the cluster holds a binding of one, may change any
// kind. Every other create leaves the phase as it came (TestMutatesCreate).
func (c *Chain) MutatesCreate(group, kind string) bool {
	if c.cfg.State.Knows("admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding") {
		return true
	}
	switch group + "/" + kind {
	case "/Pod", "/Node", "/PersistentVolumeClaim", "/PersistentVolume", "networking.k8s.io/Ingress":
		return true
	}
	return false
}

// Validate runs the validating phase: the plugins' validation in the server's order
// (ServiceAccount), then PodSecurity and the validating admission policies.
func (c *Chain) Validate(w Write) server.Admission {
	var out server.Admission
	if w.Name == "" && w.create() {
		// The store has named a create that named only a generateName by now: the
		// validating plugins see that name (rules.md create.generate-name).
		w.Name = unstructured.Str(unstructured.Object(w.Object, "metadata"), "name")
	}
	for _, p := range []struct {
		name     string
		validate func(Write, *server.Admission)
	}{{"LimitRanger", c.validateLimitRanger}, {"ServiceAccount", c.validateServiceAccount}, {"RuntimeClass", c.validateRuntimeClass}} {
		p.validate(w, &out)
		if out.Refusal != nil {
			out.RefusedBy = p.name
			return out
		}
	}
	c.callLibrary(wire.PhaseValidating, w, &out)
	if out.Refusal == nil {
		c.resourceQuota(w, &out)
	}
	return out
}

// callLibrary asks the library for one phase of w, when the state holds what it acts on.
func (c *Chain) callLibrary(phase string, w Write, out *server.Admission) {
	if !c.needsLibrary || w.Type.Resource == "" {
		return
	}
	if phase == wire.PhaseMutating && !c.cfg.State.Knows("admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding") {
		return
	}
	lib, err := c.library(w)
	if err != nil {
		out.NotPredicted = append(out.NotPredicted, fmt.Sprintf("the cluster's admission policies and PodSecurity are not predicted: %v", err))
		return
	}
	call, err := c.call(phase, w)
	if err != nil {
		out.NotPredicted = append(out.NotPredicted, fmt.Sprintf("the admission policies and PodSecurity were not asked about %s %s: %v", w.Kind.Kind, w.Name, err))
		return
	}
	a, err := lib.Call(call)
	if err != nil {
		out.NotPredicted = append(out.NotPredicted, fmt.Sprintf("the admission policies and PodSecurity could not answer for %s %s: %v", w.Kind.Kind, w.Name, err))
		return
	}
	out.Warnings = append(out.Warnings, a.Warnings...)
	out.Audit = append(out.Audit, a.Audit...)
	out.NotPredicted = append(out.NotPredicted, a.NotPredicted...)
	for _, u := range a.Unknown {
		out.NotPredicted = append(out.NotPredicted, fmt.Sprintf("an admission policy asks the authorizer whether %s may %s: not known (answered as no opinion, as an authorizer that knows nothing answers); say it with an authorization rule", c.requester(u), u))
	}
	if a.Refusal != nil {
		out.Refusal, out.RefusedBy = a.Refusal, a.RefusedBy
		return
	}
	if a.Object != nil {
		obj := a.Object
		if av := w.Type.GVK.APIVersion(); av != unstructured.Str(obj, "apiVersion") && w.Convert != nil {
			if obj, err = w.Convert(obj, av); err != nil {
				out.NotPredicted = append(out.NotPredicted, fmt.Sprintf("a mutating admission policy's change to %s %s could not be read back: %v", w.Kind.Kind, w.Name, err))
				return
			}
		}
		clear(w.Object)
		for k, v := range obj {
			w.Object[k] = v
		}
	}
}

func (c *Chain) requester(u clusterstate.Check) string {
	switch {
	case u.User != "":
		return u.User
	case c.cfg.User.Name != "":
		return c.cfg.User.Name
	}
	return "the requester (unknown)"
}

// library starts the library on first use.
func (c *Chain) library(w Write) (wire.Library, error) {
	c.once.Do(func() {
		if c.cfg.Library == nil {
			c.libErr = fmt.Errorf("no admission library is configured")
			return
		}
		c.lib, c.libErr = c.cfg.Library(c.setup(w.Schemas))
	})
	return c.lib, c.libErr
}

// setup is what the library is given: the state's objects as stored, the kinds it may
// address (those of the objects, the policies' paramKinds, every served version of every
// kind a policy may match — resolved from schemas).
func (c *Chain) setup(schemas server.Schemas) wire.Setup {
	s := wire.Setup{Minor: c.cfg.Minor, User: c.cfg.User, Authorization: c.cfg.Authorization}
	seen := map[schema.GVK]bool{}
	addKind := func(gvk schema.GVK) {
		if seen[gvk] || schemas == nil {
			return
		}
		seen[gvk] = true
		if t, ok := schemas.Lookup(gvk); ok && t.Resource != "" {
			s.Kinds = append(s.Kinds, kindOf(t, schemas))
		}
	}
	for _, o := range c.cfg.State.Objects() {
		obj := o.Object
		s.Objects = append(s.Objects, obj)
		addKind(schema.GVKOf(obj))
		if pk := unstructured.NestedObject(obj, "spec", "paramKind"); pk != nil {
			addKind(schema.GVKFromAPIVersionKind(unstructured.Str(pk, "apiVersion"), unstructured.Str(pk, "kind")))
		}
	}
	s.OpenAPI = c.openAPIDocs(schemas)
	sort.Slice(s.Kinds, func(i, j int) bool {
		a, b := s.Kinds[i], s.Kinds[j]
		return a.Group+"/"+a.Version+"/"+a.Kind < b.Group+"/"+b.Version+"/"+b.Kind
	})
	return s
}

// kindOf is how the library addresses a kind.
func kindOf(t *schema.Type, schemas server.Schemas) wire.Kind {
	k := wire.Kind{Group: t.GVK.Group, Version: t.GVK.Version, Kind: t.GVK.Kind, Resource: t.Resource, Namespaced: t.Namespaced}
	switch {
	case t.Conversion == schema.ConversionWebhook:
		k.Converts = "webhook"
	case t.Source == schema.SourceBuiltin && len(schemas.Versions(t.GVK.Group, t.GVK.Kind)) > 1:
		k.Converts = "go"
	}
	return k
}

// call is one phase of w as the library takes it: the objects at the request's version.
func (c *Chain) call(phase string, w Write) (wire.Call, error) {
	req, ok := w.Schemas.Lookup(w.Kind)
	if !ok {
		return wire.Call{}, fmt.Errorf("no schema for %s", w.Kind)
	}
	call := wire.Call{Phase: phase, Kind: kindOf(req, w.Schemas), Subresource: w.Subresource, Namespace: w.Namespace, Name: w.Name,
		Operation: "UPDATE", FieldManager: w.FieldManager}
	if w.create() {
		call.Operation = "CREATE"
	}
	for _, v := range w.Schemas.Versions(w.Kind.Group, w.Kind.Kind) {
		if v == w.Kind {
			continue
		}
		if t, ok := w.Schemas.Lookup(v); ok && t.Served && t.Resource != "" {
			call.Equivalents = append(call.Equivalents, kindOf(t, w.Schemas))
		}
	}
	at := func(obj map[string]any) (map[string]any, error) {
		if obj == nil {
			return nil, nil
		}
		if av := w.Kind.APIVersion(); unstructured.Str(obj, "apiVersion") != av {
			if w.Convert == nil {
				return nil, fmt.Errorf("%s cannot be read at %s", w.Type.GVK, av)
			}
			return w.Convert(obj, av)
		}
		return obj, nil
	}
	var err error
	if call.Object, err = at(w.Object); err != nil {
		return wire.Call{}, err
	}
	if call.OldObject, err = at(w.Old); err != nil {
		return wire.Call{}, err
	}
	return call, nil
}
