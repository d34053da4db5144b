package core

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// podSpecStrategy is the registry strategy of the kinds built on the pod template and of
// persistent volumes and claims, or nil for another kind.
func podSpecStrategy(cfg *serverconfig.Config, kind string) *registry.Strategy {
	switch kind {
	case "Pod":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				pod := obj.(*api.Pod)
				opts := GetValidationOptionsFromPodSpecAndMeta(cfg, &pod.Spec, nil, &pod.ObjectMeta, nil)
				opts.ResourceIsPod = true
				return ValidatePodCreate(pod, opts)
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				pod, oldPod := obj.(*api.Pod), old.(*api.Pod)
				opts := GetValidationOptionsFromPodSpecAndMeta(cfg, &pod.Spec, &oldPod.Spec, &pod.ObjectMeta, &oldPod.ObjectMeta)
				opts.ResourceIsPod = true
				return ValidatePodUpdate(pod, oldPod, opts)
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				pod, oldPod := obj.(*api.Pod), old.(*api.Pod)
				opts := GetValidationOptionsFromPodSpecAndMeta(cfg, &pod.Spec, &oldPod.Spec, &pod.ObjectMeta, &oldPod.ObjectMeta)
				opts.ResourceIsPod = true
				return ValidatePodStatusUpdate(pod, oldPod, opts)
			},
			ValidateResizeUpdate: func(obj, old any) field.ErrorList {
				pod, oldPod := obj.(*api.Pod), old.(*api.Pod)
				opts := GetValidationOptionsFromPodSpecAndMeta(cfg, &pod.Spec, &oldPod.Spec, &pod.ObjectMeta, &oldPod.ObjectMeta)
				opts.ResourceIsPod = true
				return ValidatePodResize(pod, oldPod, opts)
			},
			ValidateEphemeralContainersUpdate: func(obj, old any) field.ErrorList {
				pod, oldPod := obj.(*api.Pod), old.(*api.Pod)
				opts := GetValidationOptionsFromPodSpecAndMeta(cfg, &pod.Spec, &oldPod.Spec, &pod.ObjectMeta, &oldPod.ObjectMeta)
				opts.ResourceIsPod = true
				return ValidatePodEphemeralContainersUpdate(pod, oldPod, opts)
			},
			Declarative:            podDeclarative,
			WarningsOnCreate:       func(obj any) []string { return podWarningsOnCreate(cfg, obj.(*api.Pod)) },
			WarningsOnStatusUpdate: func(obj, _ any) []string { return podStatusWarnings(cfg, obj) },
		}
	case "PodTemplate":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				t := obj.(*api.PodTemplate)
				return ValidatePodTemplate(t, GetValidationOptionsFromPodTemplate(cfg, &t.Template, nil))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				t, oldT := obj.(*api.PodTemplate), old.(*api.PodTemplate)
				return ValidatePodTemplateUpdate(t, oldT, GetValidationOptionsFromPodTemplate(cfg, &t.Template, &oldT.Template))
			},
			Declarative:      podTemplateDeclarative,
			WarningsOnCreate: func(obj any) []string { return podTemplateWarningsOnCreate(cfg, obj.(*api.PodTemplate)) },
			WarningsOnUpdate: func(obj, old any) []string {
				return podTemplateWarningsOnUpdate(cfg, obj.(*api.PodTemplate), old.(*api.PodTemplate))
			},
		}
	case "ReplicationController":
		return &registry.Strategy{
			Namespaced: true,
			Validate: func(obj any) field.ErrorList {
				rc := obj.(*api.ReplicationController)
				return ValidateReplicationController(rc, GetValidationOptionsFromPodTemplate(cfg, rc.Spec.Template, nil))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				rc, oldRC := obj.(*api.ReplicationController), old.(*api.ReplicationController)
				opts := GetValidationOptionsFromPodTemplate(cfg, rc.Spec.Template, oldRC.Spec.Template)
				var errs field.ErrorList
				if !cfg.AtLeast(35) {
					// Kubernetes 1.35 stopped validating an update as a create first
					// (pkg/registry/core/replicationcontroller/strategy.go ValidateUpdate,
					// v1.34.4:174-182 → v1.35.4:161): 1.34 reports the spec's errors twice.
					errs = ValidateReplicationController(rc, opts)
				}
				errs = append(errs, ValidateReplicationControllerUpdate(rc, oldRC, opts)...)
				return append(errs, nonConvertibleFields(rc, oldRC)...)
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				return ValidateReplicationControllerStatusUpdate(obj.(*api.ReplicationController), old.(*api.ReplicationController))
			},
			Declarative: replicationControllerDeclarative,
			WarningsOnCreate: func(obj any) []string {
				return replicationControllerWarningsOnCreate(cfg, obj.(*api.ReplicationController))
			},
			WarningsOnUpdate: func(obj, old any) []string {
				return replicationControllerWarningsOnUpdate(cfg, obj.(*api.ReplicationController), old.(*api.ReplicationController))
			},
		}
	case "PersistentVolume":
		return &registry.Strategy{
			Validate: func(obj any) field.ErrorList {
				pv := obj.(*api.PersistentVolume)
				errs := ValidatePersistentVolume(pv, ValidationOptionsForPersistentVolume(cfg, pv, nil))
				return append(errs, validatePersistentVolumePlugin(pv)...)
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				pv, oldPV := obj.(*api.PersistentVolume), old.(*api.PersistentVolume)
				opts := ValidationOptionsForPersistentVolume(cfg, pv, oldPV)
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
				return ValidatePersistentVolumeClaim(pvc, ValidationOptionsForPersistentVolumeClaim(cfg, pvc, nil))
			},
			ValidateUpdate: func(obj, old any) field.ErrorList {
				pvc, oldPVC := obj.(*api.PersistentVolumeClaim), old.(*api.PersistentVolumeClaim)
				opts := ValidationOptionsForPersistentVolumeClaim(cfg, pvc, oldPVC)
				var errs field.ErrorList
				if !cfg.AtLeast(35) {
					// Kubernetes 1.35 stopped validating the claim before its update, which
					// validates it again (pkg/registry/core/persistentvolumeclaim/strategy.go
					// ValidateUpdate, v1.34.4:122-126 → v1.35.4:125): 1.34 reports each of
					// its errors twice.
					errs = ValidatePersistentVolumeClaim(pvc, opts)
				}
				return append(errs, ValidatePersistentVolumeClaimUpdate(pvc, oldPVC, opts)...)
			},
			ValidateStatusUpdate: func(obj, old any) field.ErrorList {
				pvc, oldPVC := obj.(*api.PersistentVolumeClaim), old.(*api.PersistentVolumeClaim)
				return ValidatePersistentVolumeClaimStatusUpdate(pvc, oldPVC, ValidationOptionsForPersistentVolumeClaim(cfg, pvc, oldPVC))
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
