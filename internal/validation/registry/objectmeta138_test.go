package registry

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// 1.38's declarative rules of object metadata, as recorded from kube-apiserver
// v1.38.0-beta.0 (conformance/testdata/minors/1.38/owner-reference-empty-kind,
// and owner-reference-empty-name-and-uid, recorded in commit 9a94031): each empty field of an owner reference is a bare
// Required, and the handwritten "must not be empty" it covers is marked so.
func TestObjectMetaDeclarativeAt138(t *testing.T) {
	meta := &metav1.ObjectMeta{Name: "settings", OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment"}}}
	errs := objectMetaDeclarative(meta, nil)
	if got := errs.ToAggregate().Error(); got != "[metadata.ownerReferences[0].name: Required value, metadata.ownerReferences[0].uid: Required value]" {
		t.Errorf("create: %s", got)
	}
	for _, e := range errs {
		if !e.IsBeta() {
			t.Errorf("%s: not beta", e)
		}
	}
	// An update that leaves the references alone checks none of them.
	if errs := objectMetaDeclarative(meta, meta.DeepCopy()); len(errs) != 0 {
		t.Errorf("unchanged references: %v", errs)
	}
	// A changed uid is immutable, told without its value; an emptied one is not checked.
	old := meta.DeepCopy()
	old.OwnerReferences, meta.OwnerReferences = nil, nil
	old.UID, meta.UID = "a", "b"
	if got := objectMetaDeclarative(meta, old).ToAggregate().Error(); got != "metadata.uid: Invalid value: null: field is immutable" {
		t.Errorf("uid changed: %s", got)
	}
	meta.UID = ""
	if errs := objectMetaDeclarative(meta, old); len(errs) != 0 {
		t.Errorf("uid emptied: %v", errs)
	}
	handwritten := field.ErrorList{
		field.Required(field.NewPath("metadata", "ownerReferences").Index(0).Child("kind"), "must not be empty"),
		field.Invalid(field.NewPath("metadata", "namespace"), "b", "field is immutable"),
		field.Invalid(field.NewPath("metadata", "labels"), "x", "field is immutable"),
	}
	covered := objectMetaCovered(handwritten)
	if !covered[0].CoveredByDeclarative || !covered[1].CoveredByDeclarative || covered[1].Origin != "immutable" || covered[2].CoveredByDeclarative {
		t.Errorf("covered: %+v", covered)
	}
}
