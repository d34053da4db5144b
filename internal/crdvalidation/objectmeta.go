package crdvalidation

import (
	"encoding/json"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/jsontext"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// This file converts an object's metadata into metav1.ObjectMeta without reflection, for
// the metadata a decoded object has: strings, int64 numbers, booleans, nulls, maps and
// lists of them, and managedFields' fieldsV1 as a map or as JSON text (json.RawMessage).
// It gives what apimachinery's runtime.DefaultUnstructuredConverter.FromUnstructured —
// the strategy's conversion — gives of such metadata, value for value: a key absent or
// null leaves its field zero, keys it does not know are ignored, times are parsed as
// metav1.Time's UnmarshalJSON parses them and fieldsV1 is its json.Marshal text. Any
// value of another type or that the converter would refuse (a number for a string, a
// time that does not parse) makes it give up, and the converter, which words the error,
// converts the metadata instead.

// objectMetaDirect converts md as FromUnstructured would, or reports false.
func objectMetaDirect(md map[string]any) (*metav1.ObjectMeta, bool) {
	om := &metav1.ObjectMeta{}
	for k, v := range md {
		if v == nil {
			continue // a null: the zero value, as when absent
		}
		ok := true
		switch k {
		case "name":
			om.Name, ok = v.(string)
		case "generateName":
			om.GenerateName, ok = v.(string)
		case "namespace":
			om.Namespace, ok = v.(string)
		case "selfLink":
			om.SelfLink, ok = v.(string)
		case "uid":
			var s string
			s, ok = v.(string)
			om.UID = types.UID(s)
		case "resourceVersion":
			om.ResourceVersion, ok = v.(string)
		case "generation":
			om.Generation, ok = v.(int64)
		case "creationTimestamp":
			om.CreationTimestamp, ok = timeOf(v)
		case "deletionTimestamp":
			var t metav1.Time
			t, ok = timeOf(v)
			om.DeletionTimestamp = &t
		case "deletionGracePeriodSeconds":
			var n int64
			n, ok = v.(int64)
			om.DeletionGracePeriodSeconds = &n
		case "labels":
			om.Labels, ok = stringMap(v)
		case "annotations":
			om.Annotations, ok = stringMap(v)
		case "ownerReferences":
			om.OwnerReferences, ok = ownerReferences(v)
		case "finalizers":
			om.Finalizers, ok = stringList(v)
		case "managedFields":
			om.ManagedFields, ok = managedFields(v)
		}
		if !ok {
			return nil, false
		}
	}
	return om, true
}

// timeOf is a time written as a string, as metav1.Time's UnmarshalJSON reads it.
func timeOf(v any) (metav1.Time, bool) {
	s, ok := v.(string)
	if !ok {
		return metav1.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return metav1.Time{}, false
	}
	return metav1.Time{Time: t.Local()}, true
}

func stringMap(v any) (map[string]string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	if m == nil {
		return nil, true
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		if e == nil {
			out[k] = ""
			continue
		}
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out[k] = s
	}
	return out, true
}

func stringList(v any) ([]string, bool) {
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	if l == nil {
		return nil, true
	}
	out := make([]string, len(l))
	for i, e := range l {
		if e == nil {
			continue
		}
		if out[i], ok = e.(string); !ok {
			return nil, false
		}
	}
	return out, true
}

func ownerReferences(v any) ([]metav1.OwnerReference, bool) {
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	if l == nil {
		return nil, true
	}
	out := make([]metav1.OwnerReference, len(l))
	for i, e := range l {
		if e == nil {
			continue
		}
		m, ok := e.(map[string]any)
		if !ok {
			return nil, false
		}
		r := &out[i]
		for k, v := range m {
			if v == nil {
				continue
			}
			switch k {
			case "apiVersion":
				r.APIVersion, ok = v.(string)
			case "kind":
				r.Kind, ok = v.(string)
			case "name":
				r.Name, ok = v.(string)
			case "uid":
				var s string
				s, ok = v.(string)
				r.UID = types.UID(s)
			case "controller":
				var b bool
				b, ok = v.(bool)
				r.Controller = &b
			case "blockOwnerDeletion":
				var b bool
				b, ok = v.(bool)
				r.BlockOwnerDeletion = &b
			}
			if !ok {
				return nil, false
			}
		}
	}
	return out, true
}

func managedFields(v any) ([]metav1.ManagedFieldsEntry, bool) {
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	if l == nil {
		return nil, true
	}
	out := make([]metav1.ManagedFieldsEntry, len(l))
	for i, e := range l {
		if e == nil {
			continue
		}
		m, ok := e.(map[string]any)
		if !ok {
			return nil, false
		}
		entry := &out[i]
		for k, v := range m {
			if v == nil {
				continue
			}
			switch k {
			case "manager":
				entry.Manager, ok = v.(string)
			case "operation":
				var s string
				s, ok = v.(string)
				entry.Operation = metav1.ManagedFieldsOperationType(s)
			case "apiVersion":
				entry.APIVersion, ok = v.(string)
			case "time":
				var t metav1.Time
				t, ok = timeOf(v)
				entry.Time = &t
			case "fieldsType":
				entry.FieldsType, ok = v.(string)
			case "fieldsV1":
				entry.FieldsV1, ok = fieldsV1(v)
			case "subresource":
				entry.Subresource, ok = v.(string)
			}
			if !ok {
				return nil, false
			}
		}
	}
	return out, true
}

// fieldsV1 is what FieldsV1's UnmarshalJSON makes of v's JSON: text that is already what
// json.Marshal writes (jsontext.Scanner.CanonicalSet: a dump's fieldsV1 kept as text) is
// taken as it is, anything else is marshalled.
func fieldsV1(v any) (*metav1.FieldsV1, bool) {
	data, canonical := v.(json.RawMessage)
	if canonical {
		s := jsontext.NewScanner(data)
		_, canonical = s.CanonicalSet(0, maxFieldsDepth)
		canonical = canonical && s.AtEnd()
	}
	if !canonical {
		var err error
		if data, err = json.Marshal(v); err != nil {
			return nil, false
		}
	}
	f := &metav1.FieldsV1{}
	if string(data) != "null" {
		f.SetRawBytes(data)
	}
	return f, true
}

// maxFieldsDepth bounds the nesting of fieldsV1 text taken as it is; deeper text is
// marshalled (whose own limit then applies).
const maxFieldsDepth = 1000
