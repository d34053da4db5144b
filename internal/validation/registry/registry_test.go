package registry

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

type object struct{ metav1.ObjectMeta }

func (o *object) GetObjectMeta() metav1.Object { return &o.ObjectMeta }

func texts(errs field.ErrorList) string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return strings.Join(out, "\n")
}

// TestDeclarativeFrom137: a strategy running declarative validation has its enforced
// errors joined to the handwritten ones only from 1.37 (the covered handwritten error
// dropped, the declarative one appended, a repeated text once); up to 1.36 the
// handwritten list is the answer as it is.
func TestDeclarativeFrom137(t *testing.T) {
	replicas := field.NewPath("spec", "replicas")
	s := &Strategy{
		Namespaced: true,
		Validate: func(any) field.ErrorList {
			return field.ErrorList{
				field.Invalid(replicas, -1, "must be greater than or equal to 0").WithOrigin("minimum").MarkCoveredByDeclarative(),
				field.Required(field.NewPath("spec", "selector"), ""),
				field.Required(field.NewPath("spec", "selector"), ""),
			}
		},
		Declarative: func(obj, old any) field.ErrorList {
			return field.ErrorList{field.Invalid(replicas, -1, "must be greater than or equal to 0").WithOrigin("minimum").MarkBeta()}
		},
	}
	obj := &object{metav1.ObjectMeta{Name: "x", Namespace: "ns"}}
	handwritten := "spec.replicas: Invalid value: -1: must be greater than or equal to 0\n" +
		"spec.selector: Required value\nspec.selector: Required value"
	joined := "spec.selector: Required value\nspec.replicas: Invalid value: -1: must be greater than or equal to 0"
	for m, want := range map[int]string{34: handwritten, 35: handwritten, 36: handwritten, 37: joined} {
		if got := texts(ValidateCreate(serverconfig.MustFor(kube.Minor(m)), s, obj)); got != want {
			t.Errorf("1.%d:\n got: %s\nwant: %s", m, got, want)
		}
	}
}

// TestMetadataInTheMinorsWords: the registry's answer carries apimachinery's messages as the
// minor has them (package objectmeta), the generic metadata checks included.
func TestMetadataInTheMinorsWords(t *testing.T) {
	s := &Strategy{Namespaced: true, Validate: func(any) field.ErrorList { return nil }}
	obj := &object{metav1.ObjectMeta{Name: "x", Namespace: "ns", ResourceVersion: "1", OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Name: "o", UID: "1"}}}}
	for m, want := range map[int]string{
		36: `metadata.ownerReferences.kind: Invalid value: "": must not be empty`,
		37: `metadata.ownerReferences[0].kind: Required value: must not be empty`,
	} {
		if got := texts(ValidateCreate(serverconfig.MustFor(kube.Minor(m)), s, obj)); got != want {
			t.Errorf("1.%d create:\n got: %s\nwant: %s", m, got, want)
		}
		// An update checks the references twice: with the object's metadata, then with its update.
		old := &object{metav1.ObjectMeta{Name: "x", Namespace: "ns", ResourceVersion: "1"}}
		s.ValidateUpdate = func(obj, old any) field.ErrorList { return nil }
		if got := texts(ValidateUpdate(serverconfig.MustFor(kube.Minor(m)), s, obj, old, "")); got != want+"\n"+want {
			t.Errorf("1.%d update:\n got: %s\nwant: %s", m, got, want)
		}
	}
}
