package core

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// podSpecStrategy is the registry strategy of the kinds built on the pod template and of
// persistent volumes and claims, or nil for another kind.
func podSpecStrategy(kind string) *registry.Strategy {
	switch kind {
	case "Pod":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				pod := obj.(*api.Pod)
				opts := GetValidationOptionsFromPodSpecAndMeta(&pod.Spec, nil, &pod.ObjectMeta, nil)
				opts.ResourceIsPod = true
				return ValidatePodCreate(pod, opts)
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				pod, oldPod := obj.(*api.Pod), old.(*api.Pod)
				opts := GetValidationOptionsFromPodSpecAndMeta(&pod.Spec, &oldPod.Spec, &pod.ObjectMeta, &oldPod.ObjectMeta)
				opts.ResourceIsPod = true
				return ValidatePodUpdate(pod, oldPod, opts)
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				pod, oldPod := obj.(*api.Pod), old.(*api.Pod)
				opts := GetValidationOptionsFromPodSpecAndMeta(&pod.Spec, &oldPod.Spec, &pod.ObjectMeta, &oldPod.ObjectMeta)
				opts.ResourceIsPod = true
				return ValidatePodStatusUpdate(pod, oldPod, opts)
			},
			Declarative:            podDeclarative,
			WarningsOnCreate:       podWarningsOnCreate,
			WarningsOnStatusUpdate: podStatusWarnings,
		}
	case "PodTemplate":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				t := obj.(*api.PodTemplate)
				return ValidatePodTemplate(t, GetValidationOptionsFromPodTemplate(&t.Template, nil))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				t, oldT := obj.(*api.PodTemplate), old.(*api.PodTemplate)
				return ValidatePodTemplateUpdate(t, oldT, GetValidationOptionsFromPodTemplate(&t.Template, &oldT.Template))
			},
			Declarative:      podTemplateDeclarative,
			WarningsOnCreate: podTemplateWarningsOnCreate,
			WarningsOnUpdate: podTemplateWarningsOnUpdate,
		}
	case "ReplicationController":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				rc := obj.(*api.ReplicationController)
				return ValidateReplicationController(rc, GetValidationOptionsFromPodTemplate(rc.Spec.Template, nil))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				rc, oldRC := obj.(*api.ReplicationController), old.(*api.ReplicationController)
				errs := ValidateReplicationControllerUpdate(rc, oldRC, GetValidationOptionsFromPodTemplate(rc.Spec.Template, oldRC.Spec.Template))
				return append(errs, nonConvertibleFields(rc, oldRC)...)
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateReplicationControllerStatusUpdate(obj.(*api.ReplicationController), old.(*api.ReplicationController))
			},
			Declarative:      replicationControllerDeclarative,
			WarningsOnCreate: replicationControllerWarningsOnCreate,
			WarningsOnUpdate: replicationControllerWarningsOnUpdate,
		}
	case "PersistentVolume":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList {
				pv := obj.(*api.PersistentVolume)
				errs := ValidatePersistentVolume(pv, ValidationOptionsForPersistentVolume(pv, nil))
				return append(errs, validatePersistentVolumePlugin(pv)...)
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				pv, oldPV := obj.(*api.PersistentVolume), old.(*api.PersistentVolume)
				opts := ValidationOptionsForPersistentVolume(pv, oldPV)
				errs := ValidatePersistentVolume(pv, opts)
				errs = append(errs, validatePersistentVolumePlugin(pv)...)
				return append(errs, ValidatePersistentVolumeUpdate(pv, oldPV, opts)...)
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidatePersistentVolumeStatusUpdate(obj.(*api.PersistentVolume), old.(*api.PersistentVolume))
			},
			Declarative:      registry.NoDeclarativeRules,
			WarningsOnCreate: func(obj any) []string { return GetWarningsForPersistentVolume(obj.(*api.PersistentVolume)) },
			WarningsOnUpdate: func(obj, _ any) []string { return GetWarningsForPersistentVolume(obj.(*api.PersistentVolume)) },
		}
	case "PersistentVolumeClaim":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				pvc := obj.(*api.PersistentVolumeClaim)
				return ValidatePersistentVolumeClaim(pvc, ValidationOptionsForPersistentVolumeClaim(pvc, nil))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				pvc, oldPVC := obj.(*api.PersistentVolumeClaim), old.(*api.PersistentVolumeClaim)
				return ValidatePersistentVolumeClaimUpdate(pvc, oldPVC, ValidationOptionsForPersistentVolumeClaim(pvc, oldPVC))
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				pvc, oldPVC := obj.(*api.PersistentVolumeClaim), old.(*api.PersistentVolumeClaim)
				return ValidatePersistentVolumeClaimStatusUpdate(pvc, oldPVC, ValidationOptionsForPersistentVolumeClaim(pvc, oldPVC))
			},
			Declarative: persistentVolumeClaimDeclarative,
			WarningsOnCreate: func(obj any) []string {
				return GetWarningsForPersistentVolumeClaim(obj.(*api.PersistentVolumeClaim))
			},
			WarningsOnUpdate: func(obj, _ any) []string {
				return GetWarningsForPersistentVolumeClaim(obj.(*api.PersistentVolumeClaim))
			},
		}
	}
	return nil
}
