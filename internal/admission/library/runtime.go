package library

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/admission/wire"
	unstructuredcopy "github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/server/clusterstate"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	auditinternal "k8s.io/apiserver/pkg/apis/audit"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/warning"
)

// Runtime is the admission of one cluster: the plugins the Setup's objects call for, fed
// from them. It is safe for concurrent use.
type Runtime struct {
	setup   wire.Setup
	cluster *cluster
	// policies are the ValidatingAdmissionPolicy and MutatingAdmissionPolicy plugins,
	// nil when the cluster holds no binding of that kind.
	validating admission.ValidationInterface
	mutating   admission.MutationInterface
	// podSecurity is PodSecurity, nil when no namespace is labelled for it.
	podSecurity *podSecurity
	stop        chan struct{}
	closeOnce   sync.Once
	user        user.Info
}

var _ wire.Library = (*Runtime)(nil)

// New makes the Runtime of a Setup: the cluster's objects in fakes, and the plugins they
// call for, their informers synced.
func New(s wire.Setup) (wire.Library, error) {
	c, err := newCluster(s)
	if err != nil {
		return nil, err
	}
	r := &Runtime{setup: s, cluster: c, stop: make(chan struct{}), user: userInfo(s.User)}
	if c.holdsBindings("ValidatingAdmissionPolicyBinding") {
		if r.validating, err = newValidatingPolicies(c, r.stop); err != nil {
			r.Close()
			return nil, err
		}
	}
	if c.holdsBindings("MutatingAdmissionPolicyBinding") && len(s.OpenAPI) > 0 {
		if r.mutating, err = newMutatingPolicies(c, r.stop); err != nil {
			r.Close()
			return nil, err
		}
	}
	if c.labelledForPodSecurity() {
		if r.podSecurity, err = newPodSecurity(c, s.Minor); err != nil {
			r.Close()
			return nil, err
		}
	}
	if err := c.start(r.stop); err != nil {
		r.Close()
		return nil, err
	}
	for _, p := range []struct {
		name   string
		plugin any
	}{{"ValidatingAdmissionPolicy", r.validating}, {"MutatingAdmissionPolicy", r.mutating}} {
		if err := waitReady(p.name, p.plugin, policiesReadyWithin); err != nil {
			r.Close()
			return nil, err
		}
	}
	return r, nil
}

// policiesReadyWithin bounds the wait for the policy plugins to have compiled the
// cluster's policies: long enough for a busy machine, short of hanging on a plugin that
// never gets there.
const policiesReadyWithin = 5 * time.Minute

// waitReady returns once the admission plugin p (when it has a readiness to wait for) is
// ready. The policy plugins read and compile the cluster's policies in the background and
// refuse a request as "not yet ready to handle request" when they are not ready after
// waiting ten seconds themselves; a server that answers requests has long been ready, so
// a busy machine that takes longer than that must not predict that refusal: the Runtime
// is made only once they are. limit ends the wait with an error.
func waitReady(name string, p any, limit time.Duration) error {
	w, ok := p.(interface{ WaitForReady() bool })
	if !ok {
		return nil
	}
	deadline := time.Now().Add(limit)
	for !w.WaitForReady() {
		if !time.Now().Before(deadline) {
			return fmt.Errorf("%s: the cluster's policies were not ready after %v", name, limit)
		}
	}
	return nil
}

// Close stops the informers.
func (r *Runtime) Close() error {
	r.closeOnce.Do(func() { close(r.stop) })
	return nil
}

// collector gathers what one call's plugins say besides their verdict: warnings, audit
// annotations, authorizer checks nobody answered.
type collector struct {
	mu       sync.Mutex
	warnings []string
	audit    map[string]string
	unknown  []clusterstate.Check
}

func (c *collector) AddWarning(_, text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, w := range c.warnings {
		if w == text {
			return
		}
	}
	c.warnings = append(c.warnings, text)
}

func (c *collector) annotate(key, value string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.audit == nil {
		c.audit = map[string]string{}
	}
	c.audit[key] = value
}

func (c *collector) unanswered(check clusterstate.Check) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, u := range c.unknown {
		if u == check {
			return
		}
	}
	c.unknown = append(c.unknown, check)
}

type collectorKey struct{}

func collectorFrom(ctx context.Context) *collector {
	c, _ := ctx.Value(collectorKey{}).(*collector)
	return c
}

// Call runs one admission phase of one write.
func (r *Runtime) Call(call wire.Call) (wire.Answer, error) {
	col := &collector{}
	ctx := context.WithValue(context.Background(), collectorKey{}, col)
	ctx = warning.WithWarningRecorder(ctx, col)
	attrs, err := r.attributes(call, col)
	if err != nil {
		return wire.Answer{}, err
	}
	var refusal error
	var refusedBy string
	var changed map[string]any
	switch call.Phase {
	case wire.PhaseMutating:
		if r.mutating != nil && r.mutating.Handles(attrs.GetOperation()) {
			refusal, refusedBy = r.mutating.Admit(ctx, attrs, r.cluster.objectInterfaces(call)), "MutatingAdmissionPolicy"
			if refusal == nil {
				if u, ok := attrs.GetObject().(*unstructured.Unstructured); ok && !sameObject(u.Object, call.Object) {
					changed = u.Object
				}
			}
		}
	case wire.PhaseValidating:
		if r.podSecurity != nil {
			refusal, refusedBy = r.podSecurity.validate(ctx, call, attrs, col), "PodSecurity"
		}
		if refusal == nil && r.validating != nil && r.validating.Handles(attrs.GetOperation()) {
			refusal, refusedBy = r.validating.Validate(ctx, attrs, r.cluster.objectInterfaces(call)), "ValidatingAdmissionPolicy"
		}
	default:
		return wire.Answer{}, fmt.Errorf("unknown admission phase %q", call.Phase)
	}
	a := wire.Answer{Warnings: col.warnings, Unknown: col.unknown, Object: changed}
	for _, k := range sortedKeys(col.audit) {
		a.Audit = append(a.Audit, k+": "+col.audit[k])
	}
	if refusal != nil {
		st, ok := statusOf(refusal)
		if !ok {
			return wire.Answer{}, fmt.Errorf("admission failed: %w", refusal)
		}
		a.Refusal, a.RefusedBy = st, refusedBy
	}
	return a, nil
}

// statusOf is the Status the server answers for an admission error: the error's own, or
// the 500 of an internal error.
func statusOf(err error) (*metav1.Status, bool) {
	var se apierrors.APIStatus
	if errors.As(err, &se) {
		st := se.Status()
		return &st, true
	}
	st := apierrors.NewInternalError(err).ErrStatus
	return &st, true
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sameObject compares two objects as JSON.
func sameObject(a, b map[string]any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// attributes are the admission attributes of a call, as the server's handlers make them:
// the request's kind and resource, CreateOptions or UpdateOptions with its fieldManager, the
// objects at the request's version.
func (r *Runtime) attributes(c wire.Call, col *collector) (*attributes, error) {
	gvk := schema.GroupVersionKind{Group: c.Kind.Group, Version: c.Kind.Version, Kind: c.Kind.Kind}
	gvr := schema.GroupVersionResource{Group: c.Kind.Group, Version: c.Kind.Version, Resource: c.Kind.Resource}
	var op admission.Operation
	var options runtime.Object
	switch c.Operation {
	case string(admission.Create):
		op = admission.Create
		o := &metav1.CreateOptions{FieldManager: c.FieldManager}
		o.SetGroupVersionKind(metav1.SchemeGroupVersion.WithKind("CreateOptions"))
		options = o
	case string(admission.Update):
		op = admission.Update
		o := &metav1.UpdateOptions{FieldManager: c.FieldManager}
		o.SetGroupVersionKind(metav1.SchemeGroupVersion.WithKind("UpdateOptions"))
		options = o
	default:
		return nil, fmt.Errorf("unknown operation %q", c.Operation)
	}
	if c.Object == nil {
		return nil, errors.New("a call without an object")
	}
	obj := &unstructured.Unstructured{Object: deepCopy(c.Object)}
	var old runtime.Object
	if c.OldObject != nil {
		old = &unstructured.Unstructured{Object: deepCopy(c.OldObject)}
	}
	base := admission.NewAttributesRecord(obj, old, gvk, c.Namespace, c.Name, gvr, c.Subresource, op, options, false, r.user)
	return &attributes{Attributes: base, col: col}, nil
}

// attributes records the audit annotations the plugins add.
type attributes struct {
	admission.Attributes
	col *collector
}

func (a *attributes) AddAnnotation(key, value string) error {
	a.col.annotate(key, value)
	return nil
}

func (a *attributes) AddAnnotationWithLevel(key, value string, _ auditinternal.Level) error {
	a.col.annotate(key, value)
	return nil
}

func userInfo(u clusterstate.User) user.Info {
	name := u.Name
	if name == "" {
		name = unknownUser
	}
	groups := append([]string(nil), u.Groups...)
	if u.Name != "" && !contains(groups, user.AllAuthenticated) {
		groups = append(groups, user.AllAuthenticated)
	}
	return &user.DefaultInfo{Name: name, UID: u.UID, Groups: groups, Extra: u.Extra}
}

// unknownUser is the name the requests carry when nobody said who sends them.
const unknownUser = "unknown"

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// deepCopy copies an object through its JSON: the engine's objects may hold parts as JSON
// text (json.RawMessage managedFields), which the plugins read as decoded JSON.
func deepCopy(m map[string]any) map[string]any {
	b, err := json.Marshal(m)
	if err != nil {
		return runtime.DeepCopyJSON(m)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out map[string]any
	if err := d.Decode(&out); err != nil {
		return runtime.DeepCopyJSON(m)
	}
	return unstructuredcopy.CopyAsDecoded(out)
}

// nameOf is the name a refusal names: the request's, else the object's (or its
// generateName), as the admission errors say it.
func nameOf(c wire.Call) string {
	if c.Name != "" {
		return c.Name
	}
	if acc, err := meta.Accessor(&unstructured.Unstructured{Object: c.Object}); err == nil {
		if n := acc.GetName(); n != "" {
			return n
		}
		if n := acc.GetGenerateName(); n != "" {
			return n
		}
	}
	return "Unknown"
}
