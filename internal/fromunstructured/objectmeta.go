package fromunstructured

import (
	"encoding/json"

	"github.com/ssa-diff/ssa-diff/internal/jsontext"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ObjectMeta converts an object's metadata as the converter converts it into
// metav1.ObjectMeta, or reports false. A managedFields entry's fieldsV1 may be a map or
// JSON text (json.RawMessage, as package input keeps a dump's).
func ObjectMeta(md map[string]any) (*metav1.ObjectMeta, bool) {
	om := &metav1.ObjectMeta{}
	o := Object{m: md}
	ReadObjectMeta(&o, om)
	return om, o.OK()
}

// ReadObjectMeta reads the members of an object's metadata into om.
func ReadObjectMeta(o *Object, om *metav1.ObjectMeta) {
	String(o, "name", &om.Name)
	String(o, "generateName", &om.GenerateName)
	String(o, "namespace", &om.Namespace)
	//lint:ignore SA1019 the converter fills it from a selfLink a client wrote: so does this
	String(o, "selfLink", &om.SelfLink)
	String(o, "uid", &om.UID)
	String(o, "resourceVersion", &om.ResourceVersion)
	o.Int64("generation", &om.Generation)
	o.Time("creationTimestamp", &om.CreationTimestamp)
	o.TimePtr("deletionTimestamp", &om.DeletionTimestamp)
	o.Int64Ptr("deletionGracePeriodSeconds", &om.DeletionGracePeriodSeconds)
	o.StringMap("labels", &om.Labels)
	o.StringMap("annotations", &om.Annotations)
	List(o, "ownerReferences", &om.OwnerReferences, readOwnerReference)
	o.StringList("finalizers", &om.Finalizers)
	List(o, "managedFields", &om.ManagedFields, readManagedFieldsEntry)
}

func readOwnerReference(o *Object, r *metav1.OwnerReference) {
	String(o, "apiVersion", &r.APIVersion)
	String(o, "kind", &r.Kind)
	String(o, "name", &r.Name)
	String(o, "uid", &r.UID)
	o.BoolPtr("controller", &r.Controller)
	o.BoolPtr("blockOwnerDeletion", &r.BlockOwnerDeletion)
}

func readManagedFieldsEntry(o *Object, e *metav1.ManagedFieldsEntry) {
	String(o, "manager", &e.Manager)
	String(o, "operation", &e.Operation)
	String(o, "apiVersion", &e.APIVersion)
	o.TimePtr("time", &e.Time)
	String(o, "fieldsType", &e.FieldsType)
	if v, ok := o.Value("fieldsV1"); ok {
		var ok bool
		e.FieldsV1, ok = fieldsV1(v)
		o.check(ok)
	}
	String(o, "subresource", &e.Subresource)
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
		var ok bool
		if data, ok = marshalled(v); !ok {
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

// LabelSelector reads a label selector into sel.
func LabelSelector(o *Object, sel *metav1.LabelSelector) {
	o.StringMap("matchLabels", &sel.MatchLabels)
	List(o, "matchExpressions", &sel.MatchExpressions, func(o *Object, r *metav1.LabelSelectorRequirement) {
		String(o, "key", &r.Key)
		String(o, "operator", &r.Operator)
		o.StringList("values", &r.Values)
	})
}
