package objectmeta

import (
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/kube"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func minor(m int) *serverconfig.Config { return serverconfig.MustFor(kube.Minor(m)) }

// texts are the errors as the server prints them, one per line.
func texts(errs field.ErrorList) string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return strings.Join(out, "\n")
}

// metaErrors are the errors of apimachinery v0.37.2's ObjectMeta validation of meta, in
// the words of cfg's release.
func metaErrors(cfg *serverconfig.Config, meta *metav1.ObjectMeta) string {
	errs := apimachineryvalidation.ValidateObjectMeta(meta, true, apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	return texts(Errors(cfg, errs))
}

const regex = "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"

// TestLabelKey: a label or annotation key with two '/' is "a qualified name" in 1.34
// (apimachinery v0.34.4 pkg/util/validation/validation.go:57) and "a valid label key" from
// 1.35 (v0.35.4 pkg/api/validate/content/kube.go:59); other label-key messages are alike.
func TestLabelKey(t *testing.T) {
	meta := &metav1.ObjectMeta{Name: "x", Namespace: "ns", Labels: map[string]string{"a/b/c": "v"}, Annotations: map[string]string{"d/e/f": ""}}
	qualified := `metadata.labels: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ` + regex + "\n" +
		`metadata.annotations: Invalid value: "d/e/f": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ` + regex
	labelKey := strings.ReplaceAll(qualified, "a qualified name", "a valid label key")
	for m, want := range map[int]string{34: qualified, 35: labelKey, 36: labelKey, 37: labelKey} {
		if got := metaErrors(minor(m), meta); got != want {
			t.Errorf("1.%d:\n got: %s\nwant: %s", m, got, want)
		}
	}
	// Elsewhere too: a toleration key checked by the core group's own validation.
	var errs field.ErrorList
	for _, msg := range validation.IsQualifiedName("x/y/z") {
		errs = append(errs, field.Invalid(field.NewPath("spec", "tolerations").Index(0).Child("key"), "x/y/z", msg))
	}
	if got := texts(Errors(minor(34), errs)); !strings.Contains(got, `"x/y/z": a qualified name must consist of`) {
		t.Errorf("1.34 toleration key: %s", got)
	}
	// Messages about the parts of a key are the same in every release.
	meta = &metav1.ObjectMeta{Name: "x", Namespace: "ns", Labels: map[string]string{"/a": "v"}}
	if a, b := metaErrors(minor(34), meta), metaErrors(minor(37), meta); a != b || !strings.Contains(a, "prefix part must be non-empty") {
		t.Errorf("a key with an empty prefix: 1.34 %s, 1.37 %s", a, b)
	}
}

// TestOwnerReferences: up to 1.36 an owner reference's errors are Invalid on the list's
// path (apimachinery v0.36.3 pkg/api/validation/objectmeta.go:69-105); 1.37 indexes them
// and answers Required for empty fields (v0.37.2:72-114).
func TestOwnerReferences(t *testing.T) {
	yes := true
	meta := &metav1.ObjectMeta{Name: "x", Namespace: "ns", OwnerReferences: []metav1.OwnerReference{
		{APIVersion: "v1", Kind: "Pod", Name: "p", UID: "1"},
		{APIVersion: "", Kind: "", Name: "", UID: "2"},
		{APIVersion: "apps/", Kind: "Deployment", Name: "d", UID: "3", Controller: &yes},
		{APIVersion: "a/b/c", Kind: "Deployment", Name: "d", UID: "4", Controller: &yes},
		{APIVersion: "v1", Kind: "Event", Name: "e", UID: "5"},
		{APIVersion: "v1", Kind: "Pod", Name: "q"},
	}}
	old := strings.Join([]string{
		`metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty`,
		`metadata.ownerReferences.kind: Invalid value: "": must not be empty`,
		`metadata.ownerReferences.name: Invalid value: "": must not be empty`,
		`metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty`,
		`metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty`,
		`metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"Pod","name":"p","uid":"1"},{"apiVersion":"","kind":"","name":"","uid":"2"},{"apiVersion":"apps/","kind":"Deployment","name":"d","uid":"3","controller":true},{"apiVersion":"a/b/c","kind":"Deployment","name":"d","uid":"4","controller":true},{"apiVersion":"v1","kind":"Event","name":"e","uid":"5"},{"apiVersion":"v1","kind":"Pod","name":"q","uid":""}]: Only one reference can have Controller set to true. Found "true" in references for Deployment/d and Deployment/d`,
		`metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"5"}: /v1, Kind=Event is disallowed from being an owner`,
		`metadata.ownerReferences.uid: Invalid value: "": must not be empty`,
	}, "\n")
	latest := strings.Join([]string{
		`metadata.ownerReferences[1].apiVersion: Required value: must not be empty`,
		`metadata.ownerReferences[1].kind: Required value: must not be empty`,
		`metadata.ownerReferences[1].name: Required value: must not be empty`,
		`metadata.ownerReferences[2].apiVersion: Invalid value: "apps/": must be <group>/<version> or <version>`,
		`metadata.ownerReferences[3].apiVersion: Invalid value: "a/b/c": must be <group>/<version> or <version>`,
		`metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"Pod","name":"p","uid":"1"},{"apiVersion":"","kind":"","name":"","uid":"2"},{"apiVersion":"apps/","kind":"Deployment","name":"d","uid":"3","controller":true},{"apiVersion":"a/b/c","kind":"Deployment","name":"d","uid":"4","controller":true},{"apiVersion":"v1","kind":"Event","name":"e","uid":"5"},{"apiVersion":"v1","kind":"Pod","name":"q","uid":""}]: Only one reference can have Controller set to true. Found "true" in references for Deployment/d and Deployment/d`,
		`metadata.ownerReferences[4]: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"5"}: /v1, Kind=Event is disallowed from being an owner`,
		`metadata.ownerReferences[5].uid: Required value: must not be empty`,
	}, "\n")
	for m, want := range map[int]string{34: old, 35: old, 36: old, 37: latest} {
		if got := metaErrors(minor(m), meta); got != want {
			t.Errorf("1.%d:\n got: %s\nwant: %s", m, got, want)
		}
	}
}

// TestManagedFields: an entry's operation other than Apply or Update is Invalid "must be
// `Apply` or `Update`" up to 1.36 (apimachinery v0.36.3 pkg/apis/meta/v1/validation/
// validation.go:276), Required or Unsupported in 1.37 (v0.37.2:291-303).
func TestManagedFields(t *testing.T) {
	meta := &metav1.ObjectMeta{Name: "x", Namespace: "ns", ManagedFields: []metav1.ManagedFieldsEntry{
		{Manager: "m", Operation: "", FieldsType: "FieldsV1"},
		{Manager: "m", Operation: "Foo", FieldsType: "FieldsV1"},
	}}
	old := "metadata.managedFields[0].operation: Invalid value: \"\": must be `Apply` or `Update`\n" +
		"metadata.managedFields[1].operation: Invalid value: \"Foo\": must be `Apply` or `Update`"
	latest := "metadata.managedFields[0].operation: Required value: must not be empty\n" +
		`metadata.managedFields[1].operation: Unsupported value: "Foo": supported values: "Apply", "Update"`
	for m, want := range map[int]string{34: old, 36: old, 37: latest} {
		if got := metaErrors(minor(m), meta); got != want {
			t.Errorf("1.%d:\n got: %s\nwant: %s", m, got, want)
		}
	}
}

// TestConditions: metav1 conditions up to 1.36 (apimachinery v0.36.3
// pkg/apis/meta/v1/validation/validation.go:289-355) and in 1.37 (v0.37.2:316-388).
func TestConditions(t *testing.T) {
	now := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	conds := []metav1.Condition{
		{Type: "Ready", Status: "True", Reason: "Fine", LastTransitionTime: now},
		{Type: "Ready", Status: "", Reason: "Fine", LastTransitionTime: now},
		{Type: "", Status: "Maybe", Reason: "Fine", LastTransitionTime: now},
	}
	p := field.NewPath("status", "conditions")
	old := strings.Join([]string{
		`status.conditions[1].type: Duplicate value: "Ready"`,
		`status.conditions[1].status: Unsupported value: "": supported values: "False", "True", "Unknown"`,
		`status.conditions[2].type: Invalid value: "": name part must be non-empty`,
		`status.conditions[2].type: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
		`status.conditions[2].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"`,
	}, "\n")
	latest := strings.Join([]string{
		`status.conditions[1]: Duplicate value: "Ready"`,
		`status.conditions[1].status: Required value`,
		`status.conditions[2].type: Required value: is required`,
		`status.conditions[2].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"`,
	}, "\n")
	for m, want := range map[int]string{34: old, 36: old, 37: latest} {
		if got := texts(ValidateConditions(minor(m), conds, p)); got != want {
			t.Errorf("1.%d:\n got: %s\nwant: %s", m, got, want)
		}
	}
}

// TestIPWarnings: the warning for a non-canonical IP or CIDR up to 1.35 (apimachinery
// v0.35.4 pkg/util/validation/ip.go:118,236) and from 1.36.
func TestIPWarnings(t *testing.T) {
	ws := func() []string {
		w := validation.GetWarningsForIP(field.NewPath("spec", "externalIPs").Index(0), "010.1.2.3")
		return append(w, validation.GetWarningsForCIDR(field.NewPath("spec", "loadBalancerSourceRanges").Index(0), "1.2.3.4/16")...)
	}
	old := []string{`spec.externalIPs[0]: non-standard IP address "010.1.2.3" will be considered invalid in a future Kubernetes release: use "10.1.2.3"`,
		`spec.loadBalancerSourceRanges[0]: CIDR value "1.2.3.4/16" is ambiguous in this context (should be "1.2.0.0/16" or "1.2.3.4/32"?)`}
	latest := []string{`spec.externalIPs[0]: non-standard IP address "010.1.2.3" is invalid: use "10.1.2.3"`, old[1]}
	for m, want := range map[int][]string{34: old, 35: old, 36: latest, 37: latest} {
		if got := Warnings(minor(m), ws()); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("1.%d:\n got: %q\nwant: %q", m, got, want)
		}
	}
	cidr := validation.GetWarningsForCIDR(field.NewPath("spec", "podCIDRs").Index(0), "010.0.0.0/8")
	if got := Warnings(minor(35), cidr); len(got) != 1 || got[0] != `spec.podCIDRs[0]: non-standard CIDR value "010.0.0.0/8" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8"` {
		t.Errorf("1.35 CIDR: %q", got)
	}
}

// Up to 1.33 an owner reference's empty kind, name or uid is named in the message ("kind
// must not be empty"; apimachinery v0.33.13 pkg/api/validation/objectmeta.go:77-83); 1.34
// says "must not be empty". Recorded: conformance/testdata/minors owner-reference-empty-kind.
func TestOwnerReferenceFieldNamedBefore134(t *testing.T) {
	meta := &metav1.ObjectMeta{Name: "x", Namespace: "ns", OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1"}}}
	for minor, want := range map[int][]string{
		33: {`metadata.ownerReferences.kind: Invalid value: "": kind must not be empty`, `metadata.ownerReferences.name: Invalid value: "": name must not be empty`, `metadata.ownerReferences.uid: Invalid value: "": uid must not be empty`},
		34: {`metadata.ownerReferences.kind: Invalid value: "": must not be empty`, `metadata.ownerReferences.name: Invalid value: "": must not be empty`, `metadata.ownerReferences.uid: Invalid value: "": must not be empty`},
	} {
		// A literal server: the minor is all Errors reads.
		if got := metaErrors(&serverconfig.Config{Minor: kube.Minor(minor)}, meta); got != strings.Join(want, "\n") {
			t.Errorf("1.%d:\n%s\nwant\n%s", minor, got, strings.Join(want, "\n"))
		}
	}
}
