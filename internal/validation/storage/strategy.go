package storage

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/storage"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Strategy is the validation of a kind of the storage.k8s.io group as its registry
// strategy runs it, or nil when it is not ported.
func Strategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	switch kind {
	case "StorageClass":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateStorageClass(obj.(*api.StorageClass)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				sc := obj.(*api.StorageClass)
				return append(ValidateStorageClass(sc), ValidateStorageClassUpdate(cfg, sc, old.(*api.StorageClass))...)
			},
			Declarative:      storageClassDeclarative,
			WarningsOnCreate: func(obj any) []string { return storageClassWarnings(obj.(*api.StorageClass)) },
			WarningsOnUpdate: func(obj, _ any) []string { return storageClassWarnings(obj.(*api.StorageClass)) },
		}
	case "CSIDriver":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateCSIDriver(cfg, obj.(*api.CSIDriver)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateCSIDriverUpdate(cfg, obj.(*api.CSIDriver), old.(*api.CSIDriver))
			},
			Declarative:      csiDriverDeclarative(cfg),
			WarningsOnCreate: func(obj any) []string { return csiDriverWarningsOnCreate(cfg, obj) },
			WarningsOnUpdate: func(obj, old any) []string { return csiDriverWarningsOnUpdate(cfg, obj, old) },
		}
	case "CSINode":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateCSINode(cfg, obj.(*api.CSINode)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateCSINodeUpdate(cfg, obj.(*api.CSINode), old.(*api.CSINode))
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateCSINodeStatusUpdate(cfg, obj.(*api.CSINode), old.(*api.CSINode))
			},
			Declarative: registry.NoDeclarativeRules,
		}
	case "VolumeAttachment":
		update := func(obj, old any) field.ErrorList {
			return ValidateVolumeAttachmentUpdate(cfg, obj.(*api.VolumeAttachment), old.(*api.VolumeAttachment))
		}
		return &registry.Strategy{
			Validate:             func(obj any) field.ErrorList { return ValidateVolumeAttachment(cfg, obj.(*api.VolumeAttachment)) },
			ValidateUpdate:       update,
			ValidateStatusUpdate: update,
			Declarative:          volumeAttachmentDeclarative,
		}
	case "CSIStorageCapacity":
		return &registry.Strategy{
			Namespaced: true,
			Validate:   func(obj any) field.ErrorList { return ValidateCSIStorageCapacity(obj.(*api.CSIStorageCapacity), false) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateCSIStorageCapacityUpdate(obj.(*api.CSIStorageCapacity), old.(*api.CSIStorageCapacity))
			},
			Declarative:      registry.NoDeclarativeRules,
			WarningsOnCreate: csiStorageCapacityWarnings,
			WarningsOnUpdate: func(obj, _ any) []string { return csiStorageCapacityWarnings(obj) },
		}
	case "VolumeAttributesClass":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList { return ValidateVolumeAttributesClass(obj.(*api.VolumeAttributesClass)) },
			ValidateUpdate: func(obj, old any) field.ErrorList {
				return ValidateVolumeAttributesClassUpdate(cfg, obj.(*api.VolumeAttributesClass), old.(*api.VolumeAttributesClass))
			},
			Declarative: registry.NoDeclarativeRules,
		}
	}
	return nil
}
