package schema

import (
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// ScaleGVK is the kind of the body of every /scale request the API server serves:
// autoscaling/v1 Scale, whatever the parent's group (its Deployment, ReplicaSet,
// StatefulSet, ReplicationController and custom resources with a scale subresource alike).
var ScaleGVK = GVK{Group: "autoscaling", Version: "v1", Kind: "Scale"}

// scaleTypeName is the OpenAPI name of the Scale type.
const scaleTypeName = "io.k8s.api.autoscaling.v1.Scale"

// ScaleType is the type of the autoscaling/v1 Scale, as the field manager of a /scale
// request types it: metadata the ObjectMeta of the registry's release, spec.replicas and
// status.replicas numbers, status.selector a string. The Scale is never stored (its fields
// are the parent's), so the registry's kinds do not list it; its Resource is empty.
func (r *Registry) ScaleType() *Type {
	r.scale.once.Do(func() {
		s := &smdschema.Schema{Types: append(r.release.Closure("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"), scaleTypes()...)}
		name := scaleTypeName
		r.scale.t = &Type{
			GVK:       ScaleGVK,
			Parseable: typed.ParseableType{Schema: s, TypeRef: smdschema.TypeRef{NamedType: &name}},
			Source:    SourceBuiltin,
			Served:    true,
		}
	})
	return r.scale.t
}

// scaleTypes are the Scale's own types, as kube-apiserver's OpenAPI describes them.
func scaleTypes() []smdschema.TypeDef {
	str := func(s string) *string { return &s }
	scalar := func(s smdschema.Scalar) smdschema.TypeRef {
		return smdschema.TypeRef{Inlined: smdschema.Atom{Scalar: &s}}
	}
	named := func(n string) smdschema.TypeRef { return smdschema.TypeRef{NamedType: str(n)} }
	structOf := func(fields ...smdschema.StructField) smdschema.Atom {
		return smdschema.Atom{Map: &smdschema.Map{Fields: fields}}
	}
	return []smdschema.TypeDef{
		{Name: scaleTypeName, Atom: structOf(
			smdschema.StructField{Name: "apiVersion", Type: scalar(smdschema.String)},
			smdschema.StructField{Name: "kind", Type: scalar(smdschema.String)},
			smdschema.StructField{Name: "metadata", Type: named("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"), Default: map[string]any{}},
			smdschema.StructField{Name: "spec", Type: named("io.k8s.api.autoscaling.v1.ScaleSpec"), Default: map[string]any{}},
			smdschema.StructField{Name: "status", Type: named("io.k8s.api.autoscaling.v1.ScaleStatus"), Default: map[string]any{}},
		)},
		{Name: "io.k8s.api.autoscaling.v1.ScaleSpec", Atom: structOf(
			smdschema.StructField{Name: "replicas", Type: scalar(smdschema.Numeric)},
		)},
		{Name: "io.k8s.api.autoscaling.v1.ScaleStatus", Atom: structOf(
			smdschema.StructField{Name: "replicas", Type: scalar(smdschema.Numeric), Default: int64(0)},
			smdschema.StructField{Name: "selector", Type: scalar(smdschema.String)},
		)},
	}
}
