package core

import (
	"reflect"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateConfigMap checks a ConfigMap: its metadata, the keys of data and binaryData (no
// key in both), and their total size.
func ValidateConfigMap(cm *api.ConfigMap) field.ErrorList {
	errs := ValidateObjectMeta(&cm.ObjectMeta, true, wellformed.NameIsDNSSubdomain, field.NewPath("metadata"))
	size := 0
	for k, v := range cm.Data {
		for _, msg := range wellformed.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(field.NewPath("data").Key(k), k, msg))
		}
		if _, dup := cm.BinaryData[k]; dup {
			errs = append(errs, field.Invalid(field.NewPath("data").Key(k), k, "duplicate of key present in binaryData"))
		}
		size += len(v)
	}
	for k, v := range cm.BinaryData {
		for _, msg := range wellformed.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(field.NewPath("binaryData").Key(k), k, msg))
		}
		size += len(v)
	}
	if size > api.MaxSecretSize {
		// The empty path stands for the whole object.
		errs = append(errs, field.TooLong(field.NewPath(""), "", api.MaxSecretSize))
	}
	return errs
}

// ValidateConfigMapUpdate checks an update of a ConfigMap: once immutable, it stays so and
// its data cannot change (rules.md valid.update).
func ValidateConfigMapUpdate(cm, old *api.ConfigMap) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&cm.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	if old.Immutable != nil && *old.Immutable {
		const detail = "field is immutable when `immutable` is set"
		if cm.Immutable == nil || !*cm.Immutable {
			errs = append(errs, field.Forbidden(field.NewPath("immutable"), detail))
		}
		if !reflect.DeepEqual(cm.Data, old.Data) {
			errs = append(errs, field.Forbidden(field.NewPath("data"), detail))
		}
		if !reflect.DeepEqual(cm.BinaryData, old.BinaryData) {
			errs = append(errs, field.Forbidden(field.NewPath("binaryData"), detail))
		}
	}
	return append(errs, ValidateConfigMap(cm)...)
}
