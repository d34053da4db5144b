package defaulting

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/wire/autoscalingv1"
	"github.com/ssa-diff/ssa-diff/internal/wire/autoscalingv2"
	apiv1 "k8s.io/api/autoscaling/v1"
	apiv2 "k8s.io/api/autoscaling/v2"
)

// TestWireTypesAreKubernetes holds the wire types of internal/wire (what internal/conversion
// decodes and encodes HorizontalPodAutoscalers with) to k8s.io/api's: the same type names,
// the same fields in the same order with the same JSON tags, the same Go kinds (a named
// string of k8s.io/api is a string), recursively.
func TestWireTypesAreKubernetes(t *testing.T) {
	for _, c := range []struct{ ours, theirs reflect.Type }{
		{reflect.TypeOf(autoscalingv1.HorizontalPodAutoscaler{}), reflect.TypeOf(apiv1.HorizontalPodAutoscaler{})},
		{reflect.TypeOf(autoscalingv1.MetricSpec{}), reflect.TypeOf(apiv1.MetricSpec{})},
		{reflect.TypeOf(autoscalingv1.MetricStatus{}), reflect.TypeOf(apiv1.MetricStatus{})},
		{reflect.TypeOf(autoscalingv1.HorizontalPodAutoscalerCondition{}), reflect.TypeOf(apiv1.HorizontalPodAutoscalerCondition{})},
		{reflect.TypeOf(autoscalingv2.HorizontalPodAutoscaler{}), reflect.TypeOf(apiv2.HorizontalPodAutoscaler{})},
	} {
		sameType(t, c.ours.Name(), c.ours, c.theirs, map[reflect.Type]bool{})
	}
}

func sameType(t *testing.T, at string, ours, theirs reflect.Type, seen map[reflect.Type]bool) {
	t.Helper()
	if ours.Kind() != theirs.Kind() {
		t.Errorf("%s: %s, k8s.io/api has %s", at, ours, theirs)
		return
	}
	switch ours.Kind() {
	case reflect.Pointer, reflect.Slice:
		sameType(t, at, ours.Elem(), theirs.Elem(), seen)
	case reflect.Map:
		sameType(t, at+"[key]", ours.Key(), theirs.Key(), seen)
		sameType(t, at, ours.Elem(), theirs.Elem(), seen)
	case reflect.Struct:
		if ours.PkgPath() != theirs.PkgPath() {
			// Our own type: the same name and fields as theirs.
			if ours.Name() != theirs.Name() {
				t.Errorf("%s: type %s, k8s.io/api's is %s", at, ours.Name(), theirs.Name())
			}
		} else if ours != theirs {
			t.Errorf("%s: %s, k8s.io/api has %s", at, ours, theirs)
		}
		if seen[ours] || ours.PkgPath() == theirs.PkgPath() {
			return
		}
		seen[ours] = true
		if ours.NumField() != theirs.NumField() {
			t.Errorf("%s: %d fields, k8s.io/api's %s has %d", at, ours.NumField(), theirs.Name(), theirs.NumField())
			return
		}
		for i := 0; i < ours.NumField(); i++ {
			o, th := ours.Field(i), theirs.Field(i)
			where := at + "." + o.Name
			if o.Name != th.Name || o.Tag.Get("json") != th.Tag.Get("json") || o.Anonymous != th.Anonymous {
				t.Errorf("%s: field %s `json:%q`, k8s.io/api's is %s `json:%q`", where, o.Name, o.Tag.Get("json"), th.Name, th.Tag.Get("json"))
				continue
			}
			sameType(t, where, o.Type, th.Type, seen)
		}
	}
}
