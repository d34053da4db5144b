package wellformed

import (
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateLabels is metav1validation.ValidateLabels, which runs only when a label is not
// well formed.
func ValidateLabels(labels map[string]string, fldPath *field.Path) field.ErrorList {
	if Labels(labels) {
		return nil
	}
	return metav1validation.ValidateLabels(labels, fldPath)
}

// ValidateAnnotations is apimachinery's ValidateAnnotations, which runs only when an
// annotation is not well formed or they are too large.
func ValidateAnnotations(annotations map[string]string, fldPath *field.Path) field.ErrorList {
	if Annotations(annotations) {
		return nil
	}
	return apimachineryvalidation.ValidateAnnotations(annotations, fldPath)
}

// NameIsDNSSubdomain is apimachinery's NameIsDNSSubdomain (a ValidateNameFunc), which runs
// only for a prefix (generateName) or a name that is no DNS-1123 subdomain.
func NameIsDNSSubdomain(name string, prefix bool) []string {
	if !prefix && DNS1123Subdomain(name) {
		return nil
	}
	return apimachineryvalidation.NameIsDNSSubdomain(name, prefix)
}

// NameIsDNSLabel is apimachinery's NameIsDNSLabel (a ValidateNameFunc, and
// ValidateNamespaceName), which runs only for a prefix (generateName) or a name that is no
// DNS-1123 label.
func NameIsDNSLabel(name string, prefix bool) []string {
	if !prefix && DNS1123Label(name) {
		return nil
	}
	return apimachineryvalidation.NameIsDNSLabel(name, prefix)
}

// Meta is m as apimachinery's metadata validation of a new object should read it
// (ValidateObjectMetaAccessor, ValidateObjectMetaAccessorUpdate's new metadata): its labels
// and annotations, when well formed, hidden (nil), which those checks find nothing wrong
// with, as they would have found nothing in them. Everything else is m's. It is for
// validation only: nothing else may read it.
func Meta(m metav1.Object) metav1.Object {
	labels, annotations := m.GetLabels(), m.GetAnnotations()
	if len(labels) == 0 && len(annotations) == 0 {
		return m
	}
	if Labels(labels) {
		labels = nil
	}
	if Annotations(annotations) {
		annotations = nil
	}
	return &checkedMeta{Object: m, labels: labels, annotations: annotations}
}

// checkedMeta is an object's metadata with its well-formed labels and annotations hidden.
type checkedMeta struct {
	metav1.Object
	labels, annotations map[string]string
}

func (m *checkedMeta) GetLabels() map[string]string      { return m.labels }
func (m *checkedMeta) GetAnnotations() map[string]string { return m.annotations }

// ValidateLabelSelector is metav1validation.ValidateLabelSelector, whose check of the
// matchLabels runs only when one is not well formed (its expressions are checked by it
// always).
func ValidateLabelSelector(ps *metav1.LabelSelector, opts metav1validation.LabelSelectorValidationOptions, fldPath *field.Path) field.ErrorList {
	if ps == nil || len(ps.MatchLabels) == 0 || !Labels(ps.MatchLabels) {
		return metav1validation.ValidateLabelSelector(ps, opts, fldPath)
	}
	if len(ps.MatchExpressions) == 0 {
		return nil
	}
	return metav1validation.ValidateLabelSelector(&metav1.LabelSelector{MatchExpressions: ps.MatchExpressions}, opts, fldPath)
}
