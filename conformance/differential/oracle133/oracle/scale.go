package oracle

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	smdschema "sigs.k8s.io/structured-merge-diff/v4/schema"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
)

// ScaleGVK is the kind of /scale bodies.
var ScaleGVK = schema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}

// typedScale makes a Scale look as the server's typed autoscaling/v1 Scale looks to the
// field manager: spec.replicas (int32, omitempty) absent when zero, status.replicas (int32,
// not omitempty) always there, status.selector (omitempty) absent when empty.
func typedScale(obj map[string]any) {
	spec, _ := obj["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
		obj["spec"] = spec
	}
	// ScaleSpec.Replicas is an int32 with omitempty: the field manager types the
	// versioned Scale through reflection, which leaves out a zero (a PUT of a Scale without
	// replicas, recorded from kube-apiserver 1.37.2, removes the parent's owner of the
	// replica count and gives the writer no entry).
	if r, ok := spec["replicas"]; !ok || r == nil || r == int64(0) || r == float64(0) {
		delete(spec, "replicas")
	}
	status, _ := obj["status"].(map[string]any)
	if status == nil {
		status = map[string]any{}
		obj["status"] = status
	}
	if r, ok := status["replicas"]; !ok || r == nil {
		status["replicas"] = int64(0)
	}
	if sel, ok := status["selector"]; ok && (sel == nil || sel == "") {
		delete(status, "selector")
	}
}

// updateScale is a PUT through /scale, as the built-in scale REST storages do it
// (pkg/registry/apps/deployment/storage scaleUpdatedObjectInfo): the parent's entries
// become the Scale's (managedfields.ScaleHandler.ToSubresource), the Scale's own field
// manager (subresource "scale") runs on the old and new Scale, the new replica count goes
// into the parent, and the Scale's entries go back to the parent (ToParent).
func (s *Server) updateScale(req Request, live map[string]any, body map[string]any) (Response, error) {
	k := s.kinds[req.GVK]
	if k.ScalePaths == nil {
		return Response{}, fmt.Errorf("%s has no /scale", req.GVK)
	}
	name, _, _ := unstructured.NestedString(body, "metadata", "name")
	if live == nil {
		return Response{Error: toStatus(notFound(k, name))}, nil
	}
	parent := &unstructured.Unstructured{Object: live}
	handler := managedfields.NewScaleHandler(parent.GetManagedFields(), req.GVK.GroupVersion(), k.ScalePaths)
	entries, err := handler.ToSubresource()
	if err != nil {
		return Response{}, fmt.Errorf("scale entries: %w", err)
	}
	replicasPath := strings.Split(k.ScalePaths[req.GVK.GroupVersion().String()].String()[1:], ".")
	old := &unstructured.Unstructured{Object: map[string]any{}}
	old.SetGroupVersionKind(ScaleGVK)
	old.SetName(parent.GetName())
	old.SetNamespace(parent.GetNamespace())
	old.SetUID(parent.GetUID())
	old.SetResourceVersion(parent.GetResourceVersion())
	if ts, ok, _ := unstructured.NestedString(live, "metadata", "creationTimestamp"); ok {
		_ = unstructured.SetNestedField(old.Object, ts, "metadata", "creationTimestamp")
	}
	if r, ok, _ := unstructured.NestedFieldCopy(live, replicasPath...); ok {
		_ = unstructured.SetNestedField(old.Object, r, "spec", "replicas")
	}
	status := map[string]any{"replicas": int64(0)}
	if r, ok, _ := unstructured.NestedFieldCopy(live, "status", "replicas"); ok {
		status["replicas"] = r
	}
	if sel, ok, _ := unstructured.NestedMap(live, "spec", "selector"); ok {
		ls := &metav1.LabelSelector{}
		if err := runtimeFromUnstructured(sel, ls); err == nil {
			if selector, err := metav1.LabelSelectorAsSelector(ls); err == nil && selector.String() != "" {
				status["selector"] = selector.String()
			}
		}
	}
	old.Object["status"] = status
	old.SetManagedFields(entries)

	typedScale(old.Object)

	fm, err := s.fieldManager(ScaleGVK, "scale")
	if err != nil {
		return Response{}, err
	}
	newScale := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(body)}
	typedScale(newScale.Object)
	out := fm.UpdateNoErrors(old, newScale, req.Manager)
	scale, ok := out.(*unstructured.Unstructured)
	if !ok {
		return Response{}, fmt.Errorf("scale field manager returned %T", out)
	}
	next := parent.DeepCopy()
	// The parent's replica count is the Scale's, 0 when the Scale has none (Go int32).
	replicas := any(int64(0))
	if r, ok, _ := unstructured.NestedFieldCopy(scale.Object, "spec", "replicas"); ok {
		replicas = r
	}
	_ = unstructured.SetNestedField(next.Object, replicas, replicasPath...)
	back, err := handler.ToParent(scale.GetManagedFields())
	if err != nil {
		return Response{}, fmt.Errorf("scale entries to the parent: %w", err)
	}
	next.SetManagedFields(back)
	return Response{Object: next.Object}, nil
}

// scaleConverter types autoscaling/v1 Scale objects. client-go's schema has no type for
// Scale (it is only ever a subresource body); kube-apiserver's OpenAPI does, and it is
// plain structs: ObjectMeta, spec.replicas, status.replicas and status.selector, all
// granular.
type scaleConverter struct {
	t typed.ParseableType
}

// NewScaleConverter builds the Scale type on top of the built-in schema (for ObjectMeta).
func NewScaleConverter(builtin managedfields.TypeConverter) (managedfields.TypeConverter, error) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"})
	tv, err := builtin.ObjectToTyped(u)
	if err != nil {
		return nil, fmt.Errorf("reading the built-in schema: %w", err)
	}
	str, num := smdschema.String, smdschema.Numeric
	named := func(n string) smdschema.TypeRef { return smdschema.TypeRef{NamedType: &n} }
	scalar := func(s *smdschema.Scalar) smdschema.TypeRef {
		return smdschema.TypeRef{Inlined: smdschema.Atom{Scalar: s}}
	}
	types := append([]smdschema.TypeDef(nil), tv.Schema().Types...)
	types = append(types,
		smdschema.TypeDef{Name: "io.k8s.api.autoscaling.v1.Scale", Atom: smdschema.Atom{Map: &smdschema.Map{Fields: []smdschema.StructField{
			{Name: "apiVersion", Type: scalar(&str)},
			{Name: "kind", Type: scalar(&str)},
			{Name: "metadata", Type: named("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")},
			{Name: "spec", Type: named("io.k8s.api.autoscaling.v1.ScaleSpec")},
			{Name: "status", Type: named("io.k8s.api.autoscaling.v1.ScaleStatus")},
		}}}},
		smdschema.TypeDef{Name: "io.k8s.api.autoscaling.v1.ScaleSpec", Atom: smdschema.Atom{Map: &smdschema.Map{Fields: []smdschema.StructField{
			{Name: "replicas", Type: scalar(&num)},
		}}}},
		smdschema.TypeDef{Name: "io.k8s.api.autoscaling.v1.ScaleStatus", Atom: smdschema.Atom{Map: &smdschema.Map{Fields: []smdschema.StructField{
			{Name: "replicas", Type: scalar(&num)},
			{Name: "selector", Type: scalar(&str)},
		}}}},
	)
	name := "io.k8s.api.autoscaling.v1.Scale"
	return &scaleConverter{t: typed.ParseableType{Schema: &smdschema.Schema{Types: types}, TypeRef: named(name)}}, nil
}

func (c *scaleConverter) ObjectToTyped(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("scale converter: %T is not unstructured", obj)
	}
	return c.t.FromUnstructured(u.Object, opts...)
}

func (c *scaleConverter) TypedToObject(v *typed.TypedValue) (runtime.Object, error) {
	m, ok := v.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("scale converter: not an object")
	}
	return &unstructured.Unstructured{Object: m}, nil
}
