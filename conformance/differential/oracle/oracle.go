package oracle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// Kind describes one resource the server serves: its type converter and its reset tables.
type Kind struct {
	GVK schema.GroupVersionKind
	// Resource is the plural resource name ("deployments"), for the store's refusals.
	Resource string
	// CRD selects the custom-resource field manager chain.
	CRD bool
	// Converter types objects of this kind.
	Converter managedfields.TypeConverter
	// Reset lists, per subresource ("" is the main resource), the fields the registry
	// strategy resets (its GetResetFields).
	Reset map[string][]smdpath.Path
	// Restore lists, per subresource, the fields the strategy's PrepareForUpdate puts back
	// from the stored object where they are not the reset fields (a custom resource's
	// /status up to 1.35 resets spec alone but puts back metadata too); nil: Reset.
	Restore map[string][]smdpath.Path
	// Default is the kind's defaulting (structural defaults for custom resources), run on
	// request bodies as they are decoded and on the merged object of an apply; nil for none.
	Default func(obj map[string]any)
	// Decode is what decoding a stored or sent object does beyond defaulting (custom
	// resources: pruning unknown fields and non-nullable nulls, then defaulting); it is
	// run on update bodies and, as the store writes and reads back the object, on every
	// stored object. nil for none.
	Decode func(obj map[string]any)
	// ScalePaths maps apiVersions to the replica count's path for the /scale
	// subresource; nil when the kind has none.
	ScalePaths managedfields.ResourcePathMappings
	// Convertor, when set, converts the kind's objects between versions (a CRD's
	// converter); otherwise a version's objects keep their fields.
	Convertor runtime.ObjectConvertor
	// Scheme, when set, is the API server's own scheme for the kind (k8s.io/kubernetes'
	// legacyscheme), and the kind is served at every version of Versions: objects live in
	// the internal version as the server keeps them (a live object given at any served
	// version is converted to it, an update body is decoded into it), the field manager
	// converts through it (the scheme as object convertor and creater, the internal version
	// as hub), the registry's rules run on Hub (a version of the internal version's shape)
	// and the answer is converted to the request's version.
	Scheme *runtime.Scheme
	// Versions are the served versions of a kind with a Scheme, Hub one of them.
	Versions []schema.GroupVersion
	Hub      schema.GroupVersion
}

// restored is what the strategy puts back on an update through sub.
func (k *Kind) restored(sub string) []smdpath.Path {
	if p, ok := k.Restore[sub]; ok {
		return p
	}
	return k.Reset[sub]
}

// Type returns the SMD type of the kind, as the converter resolves it.
func (k *Kind) Type() (*typed.ParseableType, error) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(k.GVK)
	tv, err := k.Converter.ObjectToTyped(u)
	if err != nil {
		return nil, fmt.Errorf("typing an empty %s: %w", k.GVK, err)
	}
	return &typed.ParseableType{Schema: tv.Schema(), TypeRef: tv.TypeRef()}, nil
}

// Request is one write.
type Request struct {
	GVK         schema.GroupVersionKind
	Subresource string
	// Live is the stored object; nil creates (POST for updates, apply to a missing object).
	Live map[string]any
	// Object is the apply configuration or the whole new object.
	Object  map[string]any
	Manager string
	Force   bool
	// Now is the time the server stamps into changed entries (the field manager itself
	// uses the wall clock: times are shifted around it, see Server).
	Now time.Time
}

// Status is a refusal as the server sends it.
type Status struct {
	Code    int     `json:"code"`
	Reason  string  `json:"reason,omitempty"`
	Message string  `json:"message"`
	Causes  []Cause `json:"causes,omitempty"`
}

// Cause is one cause of a Status.
type Cause struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	Field   string `json:"field,omitempty"`
}

// Response is the server's answer: the object it stores, or its refusal.
type Response struct {
	Object map[string]any
	Error  *Status
}

// Server runs k8s.io/apimachinery's field manager chain in-process, as kube-apiserver
// builds it (NewDefaultFieldManager / NewDefaultCRDFieldManager), with identity converters
// and no defaulting, followed by the registry store's timestamp-only no-op detection
// (k8s.io/apiserver's IgnoreManagedFieldsTimestampsTransformer). It is safe for concurrent use.
type Server struct {
	kinds map[schema.GroupVersionKind]*Kind

	mu       sync.Mutex
	managers map[managerKey]*managedfields.FieldManager
}

type managerKey struct {
	gvk         schema.GroupVersionKind
	subresource string
}

// NewServer serves the given kinds.
func NewServer(kinds ...*Kind) *Server {
	s := &Server{kinds: map[schema.GroupVersionKind]*Kind{}, managers: map[managerKey]*managedfields.FieldManager{}}
	for _, k := range kinds {
		s.kinds[k.GVK] = k
	}
	return s
}

// Kind returns the served kind.
func (s *Server) Kind(gvk schema.GroupVersionKind) (*Kind, bool) {
	k, ok := s.kinds[gvk]
	return k, ok
}

func (s *Server) fieldManager(gvk schema.GroupVersionKind, sub string) (*managedfields.FieldManager, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fm, ok := s.managers[managerKey{gvk, sub}]; ok {
		return fm, nil
	}
	k, ok := s.kinds[gvk]
	if !ok {
		return nil, fmt.Errorf("kind %s not served", gvk)
	}
	var reset map[smdpath.APIVersion]smdpath.Filter
	if paths := k.Reset[sub]; len(paths) > 0 {
		sets := map[smdpath.APIVersion]*smdpath.Set{smdpath.APIVersion(gvk.GroupVersion().String()): smdpath.NewSet(paths...)}
		for _, v := range k.Versions {
			// The strategies list their reset fields for every version they serve.
			sets[smdpath.APIVersion(v.String())] = smdpath.NewSet(paths...)
		}
		reset = smdpath.NewExcludeFilterSetMap(sets)
	}
	build := managedfields.NewDefaultFieldManager
	if k.CRD {
		build = managedfields.NewDefaultCRDFieldManager
	}
	var convertor runtime.ObjectConvertor = identityConvertor{}
	var creater runtime.ObjectCreater = emptyCreater{}
	hub := gvk.GroupVersion()
	if k.Convertor != nil {
		convertor = k.Convertor
	}
	if k.Scheme != nil {
		convertor, creater = k.Scheme, k.Scheme
		hub = schema.GroupVersion{Group: gvk.Group, Version: runtime.APIVersionInternal}
	}
	fm, err := build(k.Converter, convertor, defaulter{k.Default}, creater, gvk, hub, sub, reset)
	if err != nil {
		return nil, fmt.Errorf("building the field manager of %s/%s: %w", gvk, sub, err)
	}
	s.managers[managerKey{gvk, sub}] = fm
	return fm, nil
}

// Apply runs a server-side apply.
func (s *Server) Apply(req Request) (Response, error) {
	return s.run(req, true)
}

// Update runs a PUT (or a POST when Live is nil).
func (s *Server) Update(req Request) (Response, error) {
	return s.run(req, false)
}

// run executes the request with the times of the request shifted so that "now" is the
// wall clock second during the call; a call that straddles a second is repeated. Every
// time in the answer is then shifted back, so that entries the server stamped carry
// req.Now, and the cap's oldest-first ordering (by whole seconds) sees what it would see
// at req.Now.
func (s *Server) run(req Request, apply bool) (Response, error) {
	fm, err := s.fieldManager(req.GVK, req.Subresource)
	if err != nil {
		return Response{}, err
	}
	now := req.Now.UTC().Truncate(time.Second)
	for attempt := 0; ; attempt++ {
		start := time.Now()
		delta := start.Truncate(time.Second).Sub(now)
		live, err := shiftTimes(req.Live, delta)
		if err != nil {
			return Response{}, fmt.Errorf("live object: %w", err)
		}
		obj, err := shiftTimes(req.Object, delta)
		if err != nil {
			return Response{}, fmt.Errorf("request object: %w", err)
		}
		resp, err := s.once(fm, req, live, obj, apply)
		if err != nil {
			return Response{}, err
		}
		if time.Now().Unix() != start.Unix() && attempt < 5 {
			continue
		}
		if resp.Object != nil {
			if resp.Object, err = shiftTimes(resp.Object, -delta); err != nil {
				return Response{}, fmt.Errorf("answer: %w", err)
			}
		}
		return resp, nil
	}
}

func (s *Server) once(fm *managedfields.FieldManager, req Request, liveMap, objMap map[string]any, apply bool) (Response, error) {
	if k := s.kinds[req.GVK]; k.Scheme != nil && req.Subresource != "scale" {
		return s.onceConverted(fm, k, req, liveMap, objMap, apply)
	}
	created := liveMap == nil
	if created && req.Subresource != "" {
		// A subresource never creates: the store answers NotFound before any field
		// management (StatusREST.Update passes forceAllowCreate=false).
		name, _, _ := unstructured.NestedString(objMap, "metadata", "name")
		return Response{Error: toStatus(notFound(s.kinds[req.GVK], name))}, nil
	}
	var live runtime.Object
	if created {
		var err error
		if live, err = (emptyCreater{}).New(req.GVK); err != nil {
			return Response{}, err
		}
	} else {
		live = &unstructured.Unstructured{Object: liveMap}
	}
	obj := &unstructured.Unstructured{Object: objMap}
	var out runtime.Object
	if req.Subresource == "scale" {
		if apply {
			return Response{}, errors.New("apply through /scale is not modelled")
		}
		r, err := s.updateScale(req, liveMap, objMap)
		if err != nil || r.Error != nil {
			return r, err
		}
		out = &unstructured.Unstructured{Object: r.Object}
	} else if apply {
		var err error
		out, err = fm.Apply(live, obj, req.Manager, req.Force)
		if err != nil {
			return Response{Error: toStatus(err)}, nil
		}
		if st := decodeApplied(s.kinds[req.GVK], out, obj); st != nil {
			return Response{Error: st}, nil
		}
		if st := checkAppliedName(out, objMap); st != nil {
			return Response{Error: st}, nil
		}
	} else {
		k := s.kinds[req.GVK]
		if st := decodeBody(k, req.GVK, objMap); st != nil {
			return Response{Error: st}, nil
		}
		if k.Decode != nil {
			k.Decode(obj.Object) // the request body as it is decoded
		}
		out = fm.UpdateNoErrors(live, obj, req.Manager)
	}
	if !created {
		// The strategy's PrepareForUpdate puts back the fields its endpoint may not change
		// (the reset fields), then the registry store undoes timestamp-only changes.
		restoreResetFields(out, live, s.kinds[req.GVK].restored(req.Subresource))
		var err error
		out, err = keepTimes(s.kinds[req.GVK], out, live)
		if err != nil {
			return Response{}, fmt.Errorf("timestamp transformer: %w", err)
		}
	}
	u, ok := out.(*unstructured.Unstructured)
	if !ok {
		return Response{}, fmt.Errorf("field manager returned %T", out)
	}
	if k := s.kinds[req.GVK]; k.Decode != nil {
		k.Decode(u.Object) // the store encodes the object and decodes what it wrote
	}
	return Response{Object: u.Object}, nil
}

// keepTimes is the registry store's undoing of timestamp-only changes
// (IgnoreManagedFieldsTimestampsTransformer). The store compares the objects it holds:
// for a custom resource unstructured ones (an empty list or map differs from none), for a
// built-in kind its Go types (where they are the same): for those, the decision is taken
// on the objects decoded into the Go types the store holds (Kind.typed), and the times it
// keeps are copied back.
func keepTimes(k *Kind, out, live runtime.Object) (runtime.Object, error) {
	if k.CRD {
		return fieldmanager.IgnoreManagedFieldsTimestampsTransformer(context.Background(), out, live)
	}
	typedOut, err := k.typed(out)
	if err != nil {
		return nil, fmt.Errorf("the new object: %w", err)
	}
	typedLive, err := k.typed(live)
	if err != nil {
		return nil, fmt.Errorf("the stored object: %w", err)
	}
	res, err := fieldmanager.IgnoreManagedFieldsTimestampsTransformer(context.Background(), typedOut, typedLive)
	if err != nil {
		return nil, err
	}
	kept, err := meta.Accessor(res)
	if err != nil {
		return nil, err
	}
	acc, err := meta.Accessor(out)
	if err != nil {
		return nil, err
	}
	mf := acc.GetManagedFields()
	for i, e := range kept.GetManagedFields() {
		if i < len(mf) {
			mf[i].Time = e.Time
		}
	}
	if len(mf) > 0 {
		acc.SetManagedFields(mf)
	}
	return out, nil
}

// typed decodes an unstructured built-in object into the Go type the store holds: the
// internal version's for a kind with a Scheme (the HorizontalPodAutoscaler: the store
// compares internal objects, where an empty currentMetrics list equals none; differential
// seed 1201086), client-go's version otherwise (the same Go types as the version's).
func (k *Kind) typed(obj runtime.Object) (runtime.Object, error) {
	if k.Scheme != nil {
		return k.Scheme.ConvertToVersion(obj.DeepCopyObject(), schema.GroupVersion{Group: k.GVK.Group, Version: runtime.APIVersionInternal})
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("not unstructured: %T", obj)
	}
	typed, err := clientscheme.Scheme.New(u.GroupVersionKind())
	if err != nil {
		return nil, err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, typed); err != nil {
		return nil, err
	}
	return typed, nil
}

// decodeApplied is the field manager's decoding of an apply's merged object into the Go
// type of its version (its object convertor, the server's scheme, converts the
// unstructured object to the versioned type), for a built-in kind this oracle serves
// without a Scheme (its identity convertor decodes nothing): a value the Go type refuses
// (an int-or-string true, a quantity "10%"; structured-merge-diff types both as untyped
// scalars) is a 500 as the server words it. An apply that changes nothing is not decoded
// by the server; out is then the live object, which decodes. nil when it decodes.
func decodeApplied(k *Kind, out runtime.Object, cfg *unstructured.Unstructured) *Status {
	if k.CRD || k.Scheme != nil {
		return nil
	}
	if _, err := k.typed(out); err != nil {
		gvk := cfg.GroupVersionKind()
		return toStatus(fmt.Errorf("failed to convert new object (%s/%s; %v) to proper version: unable to convert unstructured object to %v: %w",
			cfg.GetNamespace(), cfg.GetName(), gvk, gvk, err))
	}
	return nil
}

// decodeBody is the update handler's decoding of a request body (JSON) into the Go type
// of the request's version, for a built-in kind this oracle serves without a Scheme (the
// converted kinds decode theirs in onceConverted): a body the Go type refuses is a 400,
// worded as the handler words it. nil when it decodes.
func decodeBody(k *Kind, gvk schema.GroupVersionKind, body map[string]any) *Status {
	if k.CRD || k.Scheme != nil {
		return nil
	}
	text, err := json.Marshal(body)
	if err != nil {
		return toStatus(apierrors.NewBadRequest(err.Error()))
	}
	into, err := clientscheme.Scheme.New(gvk)
	if err != nil {
		return toStatus(err)
	}
	ser := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, clientscheme.Scheme, clientscheme.Scheme, kjson.SerializerOptions{})
	if _, _, err := ser.Decode(text, &gvk, into); err != nil {
		return toStatus(apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, gvk.Kind, err)))
	}
	return nil
}

// onceConverted is once for a kind the server converts between versions (Kind.Scheme):
// the stored object is internal, and the answer is converted to the request's version.
func (s *Server) onceConverted(fm *managedfields.FieldManager, k *Kind, req Request, liveMap, objMap map[string]any, apply bool) (Response, error) {
	created := liveMap == nil
	if created && req.Subresource != "" {
		name, _, _ := unstructured.NestedString(objMap, "metadata", "name")
		return Response{Error: toStatus(notFound(k, name))}, nil
	}
	internal := schema.GroupVersion{Group: req.GVK.Group, Version: runtime.APIVersionInternal}
	var live runtime.Object
	var err error
	if created {
		// The handler creates the request's kind, empty, as its scheme makes it.
		if live, err = k.Scheme.New(req.GVK); err != nil {
			return Response{}, err
		}
	} else if live, err = k.Scheme.ConvertToVersion(&unstructured.Unstructured{Object: liveMap}, internal); err != nil {
		return Response{}, fmt.Errorf("reading the live object: %w", err)
	}
	var out runtime.Object
	if apply {
		out, err = fm.Apply(live, &unstructured.Unstructured{Object: objMap}, req.Manager, req.Force)
		if err != nil {
			return Response{Error: toStatus(err)}, nil
		}
		if st := checkAppliedName(out, objMap); st != nil {
			return Response{Error: st}, nil
		}
	} else {
		// The body is decoded from JSON into the request version's type (the server's
		// serializer; no defaulting here, as nowhere in this oracle), then converted to the
		// internal version; a body that does not decode is a 400, worded as the update
		// handler words it.
		text, err := json.Marshal(objMap)
		if err != nil {
			return Response{}, err
		}
		into, err := k.Scheme.New(req.GVK)
		if err != nil {
			return Response{}, err
		}
		ser := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, k.Scheme, k.Scheme, kjson.SerializerOptions{})
		decoded, _, err := ser.Decode(text, &req.GVK, into)
		if err != nil {
			return Response{Error: toStatus(apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", req.GVK.Kind, req.GVK.Version, req.GVK.Kind, err)))}, nil
		}
		body, err := k.Scheme.ConvertToVersion(decoded, internal)
		if err != nil {
			return Response{Error: toStatus(apierrors.NewBadRequest(err.Error()))}, nil
		}
		out = fm.UpdateNoErrors(live, body, req.Manager)
	}
	// The strategy and the store work on the internal version: Hub has its shape.
	hubOut, err := toMap(k.Scheme, out, k.Hub)
	if err != nil {
		return Response{}, fmt.Errorf("the answer at %s: %w", k.Hub, err)
	}
	var result runtime.Object = &unstructured.Unstructured{Object: hubOut}
	if !created {
		hubLive, err := toMap(k.Scheme, live, k.Hub)
		if err != nil {
			return Response{}, fmt.Errorf("the live object at %s: %w", k.Hub, err)
		}
		old := &unstructured.Unstructured{Object: hubLive}
		restoreResetFields(result, old, k.restored(req.Subresource))
		if result, err = keepTimes(k, result, old); err != nil {
			return Response{}, fmt.Errorf("timestamp transformer: %w", err)
		}
	}
	final, err := k.Scheme.ConvertToVersion(result, internal)
	if err != nil {
		return Response{}, err
	}
	answer, err := toMap(k.Scheme, final, req.GVK.GroupVersion())
	if err != nil {
		return Response{}, fmt.Errorf("the answer at %s: %w", req.GVK.GroupVersion(), err)
	}
	return Response{Object: answer}, nil
}

// ReadAs is obj, a stored object of a kind with a scheme, as a GET at gv returns it:
// converted through the internal version.
func ReadAs(s *runtime.Scheme, obj map[string]any, gv schema.GroupVersion) (map[string]any, error) {
	internal, err := s.ConvertToVersion(&unstructured.Unstructured{Object: obj}, schema.GroupVersion{Group: gv.Group, Version: runtime.APIVersionInternal})
	if err != nil {
		return nil, err
	}
	return toMap(s, internal, gv)
}

// toMap converts obj to gv and encodes it as the server writes JSON, read back as decoded
// JSON (integers int64).
func toMap(s *runtime.Scheme, obj runtime.Object, gv schema.GroupVersion) (map[string]any, error) {
	v, err := s.ConvertToVersion(obj, gv)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out map[string]any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return fromNumbers(out).(map[string]any), nil
}

func fromNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = fromNumbers(x)
		}
	case []any:
		for i, x := range t {
			t[i] = fromNumbers(x)
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	}
	return v
}

// restoreResetFields copies the old values of the reset fields into obj (removing those
// the old object lacks), managedFields aside, as the registry strategies do on update.
func restoreResetFields(obj, old runtime.Object, paths []smdpath.Path) {
	n, ok1 := obj.(*unstructured.Unstructured)
	o, ok2 := old.(*unstructured.Unstructured)
	if !ok1 || !ok2 {
		return
	}
	for _, p := range paths {
		fields := make([]string, 0, len(p))
		for _, pe := range p {
			if pe.FieldName == nil {
				return
			}
			fields = append(fields, *pe.FieldName)
		}
		mf := n.GetManagedFields()
		if v, found, _ := unstructured.NestedFieldCopy(o.Object, fields...); found {
			_ = unstructured.SetNestedField(n.Object, v, fields...)
		} else {
			unstructured.RemoveNestedField(n.Object, fields...)
		}
		if len(fields) == 1 && fields[0] == "metadata" {
			unstructured.RemoveNestedField(n.Object, "metadata", "managedFields")
			if len(mf) > 0 {
				n.SetManagedFields(mf)
			}
		}
	}
}

func notFound(k *Kind, name string) error {
	return apierrors.NewNotFound(schema.GroupResource{Group: k.GVK.Group, Resource: k.Resource}, name)
}

func runtimeFromUnstructured(u map[string]any, into any) error {
	return runtime.DefaultUnstructuredConverter.FromUnstructured(u, into)
}

// toStatus turns an error into the Status the API server answers with
// (responsewriters.ErrorToAPIStatus): status errors as they are, others as 500 with no reason.
func toStatus(err error) *Status {
	var se apierrors.APIStatus
	if errors.As(err, &se) {
		st := se.Status()
		out := &Status{Code: int(st.Code), Reason: string(st.Reason), Message: st.Message}
		if st.Details != nil {
			for _, c := range st.Details.Causes {
				out.Causes = append(out.Causes, Cause{Reason: string(c.Type), Message: c.Message, Field: c.Field})
			}
		}
		if out.Code == 0 {
			out.Code = 500
		}
		return out
	}
	return &Status{Code: 500, Message: err.Error()}
}

// shiftTimes returns a deep copy of obj whose managedFields times are moved by d.
func shiftTimes(obj map[string]any, d time.Duration) (map[string]any, error) {
	if obj == nil {
		return nil, nil
	}
	c := runtime.DeepCopyJSON(obj)
	md, _ := c["metadata"].(map[string]any)
	entries, _ := md["managedFields"].([]any)
	for _, e := range entries {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		ts, ok := m["time"].(string)
		if !ok {
			continue
		}
		var t metav1.Time
		if err := t.UnmarshalQueryParameter(ts); err != nil {
			return nil, fmt.Errorf("managedFields time %q: %w", ts, err)
		}
		m["time"] = t.Add(d).UTC().Format(time.RFC3339)
	}
	return c, nil
}

type identityConvertor struct{}

func (identityConvertor) Convert(in, out, context any) error {
	return errors.New("conversion is not supported")
}

// ConvertToVersion keeps the fields and sets the target's apiVersion, as a kind served at
// one version converts to it; the type converter then refuses a version it has no type
// for (the entries recorded there are dropped).
func (identityConvertor) ConvertToVersion(in runtime.Object, target runtime.GroupVersioner) (runtime.Object, error) {
	u, ok := in.(*unstructured.Unstructured)
	if !ok {
		return in, nil
	}
	gvk, ok := target.KindForGroupVersionKinds([]schema.GroupVersionKind{u.GroupVersionKind()})
	if !ok || gvk == u.GroupVersionKind() {
		return in, nil
	}
	c := u.DeepCopy()
	c.SetGroupVersionKind(gvk)
	return c, nil
}

func (identityConvertor) ConvertFieldLabel(schema.GroupVersionKind, string, string) (string, string, error) {
	return "", "", errors.New("not supported")
}

// defaulter runs a kind's defaulting on unstructured objects.
type defaulter struct {
	f func(map[string]any)
}

func (d defaulter) Default(obj runtime.Object) {
	if u, ok := obj.(*unstructured.Unstructured); ok && d.f != nil {
		d.f(u.Object)
	}
}

// emptyCreater makes the empty object a create starts from: apiVersion and kind only.
type emptyCreater struct{}

func (emptyCreater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// ManagedFields decodes an object's managedFields.
func ManagedFields(obj map[string]any) ([]metav1.ManagedFieldsEntry, error) {
	acc, err := meta.Accessor(&unstructured.Unstructured{Object: obj})
	if err != nil {
		return nil, err
	}
	return acc.GetManagedFields(), nil
}

// checkAppliedName is the patch handler's check after field management, before the
// strategy puts any reset field back: the applied object must still carry the name of the
// URL (the configuration's, as kubectl addresses it). Pruning may take the whole metadata
// away when the applier owned it as a leaf and a reset table filters it out of its new set.
func checkAppliedName(out runtime.Object, cfg map[string]any) *Status {
	url, _, _ := unstructured.NestedString(cfg, "metadata", "name")
	acc, err := meta.Accessor(out)
	if err != nil {
		return toStatus(apierrors.NewBadRequest(err.Error()))
	}
	switch name := acc.GetName(); {
	case name == "":
		return toStatus(apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s based on URL) was undeterminable: name must be provided", url)))
	case name != url:
		return toStatus(apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", name, url)))
	}
	return nil
}
