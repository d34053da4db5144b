// Package validation holds ssa-diff's validation of built-in kinds (internal/validation) to
// the server's own: kube-apiserver 1.37.2's registry strategies, run in process through the
// generic registry's BeforeCreate and BeforeUpdate, on the same objects.
package validation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/ssa-diff/ssa-diff/conformance/internalapi/kinds"
)

// Answer is what a side says of a write: nil, or the 422's message and causes.
type Answer struct {
	Message string
	Causes  []metav1.StatusCause
	// Other is any other refusal (a panic, an internal error): never expected.
	Other string
}

func (a *Answer) String() string {
	if a == nil {
		return "accepted"
	}
	if a.Other != "" {
		return "error: " + a.Other
	}
	return a.Message
}

// serverPanic is a panic of the server's registry path: the real server answers no status
// then (the request fails).
type serverPanic struct{ reason string }

func (p serverPanic) Error() string { return "panic: " + p.reason }

// guard runs a registry call, turning a panic into a serverPanic.
func guard(call func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = serverPanic{fmt.Sprint(r)}
		}
	}()
	return call()
}

// answerOf turns an error of BeforeCreate/BeforeUpdate into an Answer.
func answerOf(err error) *Answer {
	if err == nil {
		return nil
	}
	var p serverPanic
	if errors.As(err, &p) {
		return &Answer{Other: p.Error()}
	}
	var se *apierrors.StatusError
	if errors.As(err, &se) && se.ErrStatus.Reason == metav1.StatusReasonInvalid {
		a := &Answer{Message: se.ErrStatus.Message}
		if se.ErrStatus.Details != nil {
			a.Causes = se.ErrStatus.Details.Causes
		}
		return a
	}
	return &Answer{Other: err.Error()}
}

// Server runs the server's side.
type Server struct {
	Scheme *runtime.Scheme
}

// NewServer is the server's scheme with every group installed.
func NewServer() *Server { return &Server{Scheme: kinds.Scheme()} }

// Write is one write of a kind at its served version: Obj is the body (JSON), Old the stored
// object (JSON, nil on a create). After Run, Prepared and StoredOld hold the JSON of the
// objects the strategy validated (after PrepareForCreate/Update), for the other side.
type Write struct {
	GVK         schema.GroupVersionKind
	Obj, Old    []byte
	Status      bool
	Namespace   string
	Prepared    map[string]any
	StoredOld   map[string]any
	ServerError *Answer
	// ServerWarnings are the strategy's warnings for an accepted write, OurWarnings
	// ssa-diff's.
	ServerWarnings, OurWarnings []string
}

// decodeInternal decodes JSON at the served version, defaults it as the server's decoder
// does, and converts it to the internal version.
func (s *Server) decodeInternal(gvk schema.GroupVersionKind, b []byte) (runtime.Object, error) {
	ext, err := s.Scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, ext); err != nil {
		return nil, err
	}
	s.Scheme.Default(ext)
	in, err := s.Scheme.New(gvk.GroupKind().WithVersion(runtime.APIVersionInternal))
	if err != nil {
		return nil, err
	}
	if err := s.Scheme.Convert(ext, in, nil); err != nil {
		return nil, err
	}
	return in, nil
}

// toServed converts an internal object to the served version's JSON, as the engine holds it.
func (s *Server) toServed(gvk schema.GroupVersionKind, in runtime.Object) (map[string]any, error) {
	ext, err := s.Scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	if err := s.Scheme.Convert(in, ext, nil); err != nil {
		return nil, err
	}
	ext.GetObjectKind().SetGroupVersionKind(gvk)
	b, err := json.Marshal(ext)
	if err != nil {
		return nil, err
	}
	m, err := decodeJSON(b)
	if err != nil {
		return nil, err
	}
	keepEmpty(reflect.ValueOf(ext), m)
	return m, nil
}

var errSkip = errors.New("not a write the server decodes")

// Run sends w through the server's registry path. errSkip: the body does not decode.
func (s *Server) Run(st Strategies, w *Write) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("server panicked: %v", r)
		}
	}()
	ctx := genericapirequest.WithNamespace(context.Background(), w.Namespace)
	verb, sub := "create", ""
	if w.Old != nil {
		verb = "update"
	}
	if w.Status {
		sub = "status"
	}
	resource, _ := meta.UnsafeGuessKindToResource(w.GVK)
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: verb,
		APIGroup: w.GVK.Group, APIVersion: w.GVK.Version, Resource: resource.Resource, Subresource: sub, Namespace: w.Namespace})
	if st.Context != nil {
		ctx = st.Context(ctx)
	}
	obj, err := s.decodeInternal(w.GVK, w.Obj)
	if err != nil {
		return errSkip
	}
	meta, err := metaAccessor(obj)
	if err != nil {
		return err
	}
	if w.Old == nil {
		// What the create handler fills before the registry runs.
		meta.SetUID(types.UID("6f5a3c2e-8d9b-4b1a-9c3e-2f1d0a7b6c5d"))
		meta.SetCreationTimestamp(metav1.NewTime(time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)))
		if !st.Namespaced {
			meta.SetNamespace("")
		}
		w.ServerError = answerOf(guard(func() error { return rest.BeforeCreate(st.Create, ctx, obj) }))
		if w.ServerError == nil {
			w.ServerWarnings = st.Create.WarningsOnCreate(ctx, obj)
		}
	} else {
		old, err := s.decodeInternal(w.GVK, w.Old)
		if err != nil {
			return errSkip
		}
		strategy := st.Update
		if w.Status {
			strategy = st.Status
		}
		w.ServerError = answerOf(guard(func() error { return rest.BeforeUpdate(strategy, ctx, obj, old) }))
		if w.ServerError == nil {
			w.ServerWarnings = strategy.WarningsOnUpdate(ctx, obj, old)
		}
		if w.StoredOld, err = s.toServed(w.GVK, old); err != nil {
			return err
		}
	}
	w.Prepared, err = s.toServed(w.GVK, obj)
	return err
}

// Strategies are a kind's registry strategies on the server.
type Strategies struct {
	Namespaced bool
	Create     rest.RESTCreateStrategy
	Update     rest.RESTUpdateStrategy
	Status     rest.RESTUpdateStrategy // nil: no status subresource
	// Warnings: ssa-diff's warnings for accepted writes are compared too.
	Warnings bool
	// Context, when set, adds to the request's context what the kind's strategy reads
	// (the requesting user, for the kinds that authorize it).
	Context func(context.Context) context.Context
}

type objectMeta interface {
	SetUID(types.UID)
	SetCreationTimestamp(metav1.Time)
	SetNamespace(string)
}

func metaAccessor(obj runtime.Object) (objectMeta, error) {
	v := reflect.ValueOf(obj)
	if m, ok := v.Interface().(interface{ GetObjectMeta() metav1.Object }); ok {
		return m.GetObjectMeta().(objectMeta), nil
	}
	return nil, fmt.Errorf("%T has no object metadata", obj)
}
