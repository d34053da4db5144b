// Package objectmeta puts the messages of k8s.io/apimachinery's validation in the words of
// the Kubernetes minor predicted. ssa-diff links apimachinery v0.37.2 alone, while every
// release validates object metadata (names, label and annotation keys, owner references,
// managed fields), label keys wherever they appear, metav1 conditions and IP addresses with
// the apimachinery of its own minor: where those changed, the text 1.37's code writes is
// turned back into the older release's here, in one place, for every kind — the built-in
// kinds' registry (package registry) and the custom resources' validation call it.
package objectmeta

import (
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Errors is errs, written by validation code linked at apimachinery v0.37.2 (Kubernetes
// 1.37), as cfg's release writes them: label keys as 1.34 words them (1.35 changed it),
// managed-fields operations and owner references as 1.34-1.36 report them. The errors are changed in place where they differ (errs is the
// caller's to give away) and the list is returned.
func Errors(cfg *serverconfig.Config, errs field.ErrorList) field.ErrorList {
	if cfg.AtLeast(37) || len(errs) == 0 {
		return errs
	}
	for i, e := range errs {
		if !cfg.AtLeast(35) {
			e.Detail = labelKeyDetail(e.Detail)
		}
		errs[i] = ownerReferenceError(managedFieldsError(e))
		if !cfg.AtLeast(34) {
			errs[i] = ownerReferenceField(errs[i])
		}
	}
	return errs
}

// Kubernetes 1.34 shortened the message of an owner reference's empty kind, name or uid
// (apimachinery pkg/api/validation/objectmeta.go validateOwnerReference, v0.33.13:77-83 →
// v0.34.4): 1.32 and 1.33 name the field, "kind must not be empty".
func ownerReferenceField(e *field.Error) *field.Error {
	if e.Type != field.ErrorTypeInvalid || e.Detail != "must not be empty" {
		return e
	}
	for _, rest := range []string{"kind", "name", "uid"} {
		if f := e.Field; f == "metadata.ownerReferences."+rest || strings.HasSuffix(f, ".metadata.ownerReferences."+rest) {
			e.Detail = rest + " must not be empty"
		}
	}
	return e
}

// Kubernetes 1.35 changed the message of a label key with more than one '/':
// apimachinery pkg/util/validation/validation.go IsQualifiedName (v0.34.4) said "a
// qualified name must consist of …", content.IsLabelKey (pkg/api/validate/content/kube.go,
// v0.35.4 on, which IsQualifiedName became) says "a valid label key must consist of …";
// the rest of the text, and every other label-key message, is the same. 1.34 has no
// "a valid label key" message anywhere, so every one 1.37's code writes was a qualified
// name's in 1.34 — labels, annotation keys, selectors, node selectors, toleration keys,
// topology keys, resource and finalizer names alike.
func labelKeyDetail(detail string) string {
	const labelKey, qualifiedName = "a valid label key must consist of", "a qualified name must consist of"
	if !strings.Contains(detail, labelKey) {
		return detail
	}
	return strings.ReplaceAll(detail, labelKey, qualifiedName)
}

// Kubernetes 1.37 changed the validation of owner references: apimachinery
// pkg/api/validation/objectmeta.go validateOwnerReference and ValidateOwnerReferences
// (v0.36.3:69-105 → v0.37.2:72-114). Up to 1.36 an owner reference's errors are on the
// list's path without an index (metadata.ownerReferences.kind) and all of them are Invalid:
// "version must not be empty" for an apiVersion without a version (empty, unparsable, or
// "group/"), "must not be empty" for an empty kind, name or uid; 1.37 indexes the path and
// answers Required "must not be empty" for an empty field and Invalid "must be
// <group>/<version> or <version>" for an apiVersion without a version. A banned owner is
// reported on the list (1.36) instead of the item (1.37). The conditions are the same, so
// each 1.37 error is one 1.36 error.
func ownerReferenceError(e *field.Error) *field.Error {
	list, rest, ok := ownerReferencePath(e.Field)
	if !ok {
		return e
	}
	switch {
	case rest == "" && e.Type == field.ErrorTypeInvalid && strings.HasSuffix(e.Detail, " is disallowed from being an owner"):
		return &field.Error{Type: field.ErrorTypeInvalid, Field: list, BadValue: e.BadValue, Detail: e.Detail}
	case rest == "apiVersion" && e.Type == field.ErrorTypeRequired && e.Detail == "must not be empty":
		return &field.Error{Type: field.ErrorTypeInvalid, Field: list + ".apiVersion", BadValue: "", Detail: "version must not be empty"}
	case rest == "apiVersion" && e.Type == field.ErrorTypeInvalid && e.Detail == "must be <group>/<version> or <version>":
		return &field.Error{Type: field.ErrorTypeInvalid, Field: list + ".apiVersion", BadValue: e.BadValue, Detail: "version must not be empty"}
	case (rest == "kind" || rest == "name" || rest == "uid") && e.Type == field.ErrorTypeRequired && e.Detail == "must not be empty":
		return &field.Error{Type: field.ErrorTypeInvalid, Field: list + "." + rest, BadValue: "", Detail: "must not be empty"}
	}
	return e
}

// ownerReferencePath splits "….metadata.ownerReferences[i].rest" (or "…[i]") into the
// list's path and rest; ok is false for any other path.
func ownerReferencePath(p string) (list, rest string, ok bool) {
	const seg = "metadata.ownerReferences["
	at := strings.Index(p, seg)
	if at < 0 || (at > 0 && p[at-1] != '.') {
		return "", "", false
	}
	open := at + len(seg) - 1
	end := strings.IndexByte(p[open:], ']')
	if end < 0 {
		return "", "", false
	}
	end += open
	if item := p[open+1 : end]; item == "" || strings.Trim(item, "0123456789") != "" {
		return "", "", false
	}
	rest = p[end+1:]
	if rest != "" {
		if rest[0] != '.' {
			return "", "", false
		}
		rest = rest[1:]
	}
	return p[:open], rest, true
}

// Kubernetes 1.37 changed the check of a managed fields entry's operation: apimachinery
// pkg/apis/meta/v1/validation/validation.go ValidateManagedFields (v0.36.3:269-277 →
// v0.37.2:280-305): up to 1.36 any operation but Apply and Update, the empty one
// included, is Invalid "must be `Apply` or `Update`"; 1.37 answers Required "must not be
// empty" for an empty one and Unsupported (supported values: "Apply", "Update") for
// another.
func managedFieldsError(e *field.Error) *field.Error {
	const seg = "metadata.managedFields["
	at := strings.Index(e.Field, seg)
	if at < 0 || !strings.HasSuffix(e.Field, "].operation") {
		return e
	}
	switch {
	case e.Type == field.ErrorTypeRequired && e.Detail == "must not be empty":
		return &field.Error{Type: field.ErrorTypeInvalid, Field: e.Field, BadValue: "", Detail: "must be `Apply` or `Update`"}
	case e.Type == field.ErrorTypeNotSupported:
		return &field.Error{Type: field.ErrorTypeInvalid, Field: e.Field, BadValue: e.BadValue, Detail: "must be `Apply` or `Update`"}
	}
	return e
}

// ValidateConditions is apimachinery's ValidateConditions of metav1 conditions as cfg's
// release has it: 1.37's as linked, the errors of 1.34-1.36 otherwise.
func ValidateConditions(cfg *serverconfig.Config, conditions []metav1.Condition, fldPath *field.Path) field.ErrorList {
	if cfg.AtLeast(37) {
		return metav1validation.ValidateConditions(conditions, fldPath)
	}
	// Kubernetes 1.37 changed ValidateConditions and ValidateCondition (apimachinery
	// pkg/apis/meta/v1/validation/validation.go, v0.36.3:289-355 → v0.37.2:316-388): a
	// repeated type was a Duplicate on conditions[i].type (now on conditions[i]), an empty
	// type got the label-name errors (now Required "is required"), an empty status the
	// Unsupported one (now Required).
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, c := range conditions {
		p := fldPath.Index(i)
		if seen[c.Type] {
			errs = append(errs, field.Duplicate(p.Child("type"), c.Type))
		}
		seen[c.Type] = true
		typ, status := p.Child("type").String(), p.Child("status").String()
		for _, e := range metav1validation.ValidateCondition(c, p) {
			switch {
			case e.Type == field.ErrorTypeRequired && e.Field == typ:
				errs = append(errs, metav1validation.ValidateLabelName(c.Type, p.Child("type"))...)
			case e.Type == field.ErrorTypeRequired && e.Field == status:
				errs = append(errs, field.NotSupported(p.Child("status"), c.Status, []string{string(metav1.ConditionFalse), string(metav1.ConditionTrue), string(metav1.ConditionUnknown)}))
			default:
				errs = append(errs, e)
			}
		}
	}
	return Errors(cfg, errs)
}

// Warnings is ws, the warnings of validation code linked at apimachinery v0.37.2, as cfg's
// release words them: 1.36 and later say a non-standard IP "is invalid", 1.34 and 1.35 that
// it "will be considered invalid in a future Kubernetes release".
func Warnings(cfg *serverconfig.Config, ws []string) []string {
	if cfg.AtLeast(36) {
		return ws
	}
	for i, w := range ws {
		ws[i] = ipWarning(w)
	}
	return ws
}

// Kubernetes 1.36 changed the warning for an IP address or CIDR value that is valid but
// not in canonical form: apimachinery pkg/util/validation/ip.go GetWarningsForIP and
// GetWarningsForCIDR (v0.35.4:118,236 → v0.36.3): `<path>: non-standard IP address "x"
// will be considered invalid in a future Kubernetes release: use "y"` became `… "x" is
// invalid: use "y"` (CIDR: `non-standard CIDR value …`).
func ipWarning(w string) string {
	const was, now = " will be considered invalid in a future Kubernetes release: use ", " is invalid: use "
	for _, kind := range []string{": non-standard IP address ", ": non-standard CIDR value "} {
		at := strings.Index(w, kind)
		if at < 0 {
			continue
		}
		if cut := strings.LastIndex(w, now); cut > at {
			return w[:cut] + was + w[cut+len(now):]
		}
	}
	return w
}
