package server

import (
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// FieldManagementOnly is a Model without defaulting, conversion and registry rules: the
// object is what field management alone makes of it (as the client-go and
// controller-runtime fakes do), reset fields aside.
type FieldManagementOnly struct {
	// Kubernetes is the minor whose field manager's rules (reset fields, the apply patch's
	// messages) the model follows.
	Kubernetes kube.Minor
}

// Minor is the minor whose field manager's rules the model follows.
func (f FieldManagementOnly) Minor() kube.Minor { return f.Kubernetes }

// Default does nothing.
func (FieldManagementOnly) Default(*schema.Type, map[string]any) error { return nil }

// EmptyObject is {apiVersion, kind} for custom resources and {metadata: {}} otherwise.
func (FieldManagementOnly) EmptyObject(t *schema.Type) map[string]any {
	if t.Source != schema.SourceBuiltin {
		return map[string]any{"apiVersion": t.GVK.APIVersion(), "kind": t.GVK.Kind}
	}
	return map[string]any{"metadata": map[string]any{}}
}

// DefaultOwned does nothing.
func (FieldManagementOnly) DefaultOwned(*schema.Type, map[string]any) error { return nil }

// DefaultApplied does nothing.
func (FieldManagementOnly) DefaultApplied(*schema.Type, map[string]any) error { return nil }

// ReadStored reads obj as given.
func (FieldManagementOnly) ReadStored(_ *schema.Type, obj map[string]any) map[string]any { return obj }

// SemanticallyEqual cannot tell: objects compare as JSON.
func (FieldManagementOnly) SemanticallyEqual(*schema.Type, map[string]any, map[string]any) bool {
	return false
}

// Hub converts nothing.
func (FieldManagementOnly) Hub(*schema.Type) string { return "" }

// Convert is never called: Hub converts nothing.
func (FieldManagementOnly) Convert(obj map[string]any, _ string) (map[string]any, error) {
	return obj, nil
}

// DecodeBody accepts every body.
func (FieldManagementOnly) DecodeBody(map[string]any) ([]string, error) { return nil, nil }

// KeepDecoded keeps nothing.
func (FieldManagementOnly) KeepDecoded(*schema.Type, string, bool) bool { return false }

// AllowCreateOnUpdate lets every PUT create, as the client-go fakes do.
func (FieldManagementOnly) AllowCreateOnUpdate(*schema.Type) bool { return true }

// PatchMeta knows no Go type: strategic merge patches are not taken.
func (FieldManagementOnly) PatchMeta(*schema.Type) (strategicpatch.LookupPatchMeta, bool) {
	return nil, false
}

// PrepareForCreate does nothing.
func (FieldManagementOnly) PrepareForCreate(*schema.Type, map[string]any, map[string]any) error {
	return nil
}

// PrepareForUpdate puts the reset fields back.
func (FieldManagementOnly) PrepareForUpdate(t *schema.Type, subresource string, _, obj, old map[string]any) error {
	RestoreResetFields(t, subresource, obj, old)
	return nil
}

// Admit admits every write unchanged.
func (FieldManagementOnly) Admit(AdmissionRequest) Admission { return Admission{} }

// ValidateAdmission admits every write.
func (FieldManagementOnly) ValidateAdmission(AdmissionRequest) Admission { return Admission{} }

// Assigned knows of nothing the server assigns.
func (FieldManagementOnly) Assigned(*schema.Type, bool, map[string]any) []string { return nil }

// Validate checks only what every kind shares: an update cannot change metadata.uid.
func (FieldManagementOnly) Validate(_ *schema.Type, _ string, obj, old map[string]any) Validation {
	return Validation{Errors: UIDChanged(obj, old)}
}

// ErrorGroup is the group itself.
func (FieldManagementOnly) ErrorGroup(group, _ string) string { return group }

// UIDChanged is the one check of the registry's validation every kind shares and that
// needs no knowledge of the kind: an update cannot change metadata.uid (rules.md
// create.uid). A body without a uid keeps the stored one. old is nil on a create.
func UIDChanged(obj, old map[string]any) field.ErrorList {
	if old == nil {
		return nil
	}
	uid, _ := metadata(obj)["uid"].(string)
	oldUID, _ := metadata(old)["uid"].(string)
	if uid == "" || uid == oldUID {
		return nil
	}
	return field.ErrorList{field.Invalid(field.NewPath("metadata", "uid"), uid, "field is immutable")}
}

func metadata(obj map[string]any) map[string]any {
	md, _ := obj["metadata"].(map[string]any)
	return md
}
