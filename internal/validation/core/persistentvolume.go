package core

import (
	"fmt"
	"path"
	"sync"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// PersistentVolume: its spec (every volume source a PV may have), updates, and the
// plugin-specific rule the registry adds (mount options).

// PersistentVolumeSpecValidationOptions are the server's switches for a PV spec.
type PersistentVolumeSpecValidationOptions struct {
	// Server is the kube-apiserver whose rules apply (ValidationOptionsForPersistentVolume
	// sets it); it must be set.
	Server *serverconfig.Config
	// EnableVolumeAttributesClass checks volumeAttributesClassName.
	EnableVolumeAttributesClass bool
	// AllowInvalidLabelValueInRequiredNodeAffinity keeps what the stored PV had.
	AllowInvalidLabelValueInRequiredNodeAffinity bool
}

// ValidationOptionsForPersistentVolume are the options of the server cfg for a PV written
// over oldPv (nil on a create).
func ValidationOptionsForPersistentVolume(cfg *serverconfig.Config, pv, oldPv *api.PersistentVolume) PersistentVolumeSpecValidationOptions {
	opts := PersistentVolumeSpecValidationOptions{Server: cfg, EnableVolumeAttributesClass: cfg.Enabled(features.VolumeAttributesClass)}
	if oldPv == nil {
		return opts
	}
	if oldPv.Spec.VolumeAttributesClassName != nil {
		opts.EnableVolumeAttributesClass = true
	}
	if na := oldPv.Spec.NodeAffinity; na != nil && na.Required != nil {
		opts.AllowInvalidLabelValueInRequiredNodeAffinity = hasInvalidLabelValueInNodeSelectorTerms(na.Required.NodeSelectorTerms)
	}
	return opts
}

func hasInvalidLabelValueInNodeSelectorTerms(terms []api.NodeSelectorTerm) bool {
	for _, t := range terms {
		for _, e := range t.MatchExpressions {
			for _, v := range e.Values {
				if len(wellformed.IsValidLabelValue(v)) > 0 {
					return true
				}
			}
		}
	}
	return false
}

var supportedReclaimPolicies = &lazySet[api.PersistentVolumeReclaimPolicy]{items: []api.PersistentVolumeReclaimPolicy{api.PersistentVolumeReclaimDelete, api.PersistentVolumeReclaimRecycle, api.PersistentVolumeReclaimRetain}}

const inlineDetail = "may not be specified in the context of inline volumes"

// ValidatePersistentVolumeSpec checks a PV spec; inline is true for the spec a
// VolumeAttachment carries inline.
func ValidatePersistentVolumeSpec(spec *api.PersistentVolumeSpec, pvName string, inline bool, fldPath *field.Path, opts PersistentVolumeSpecValidationOptions) field.ErrorList {
	var errs field.ErrorList
	if inline {
		if spec.ClaimRef != nil {
			errs = append(errs, field.Forbidden(fldPath.Child("claimRef"), inlineDetail))
		}
		if len(spec.Capacity) != 0 {
			errs = append(errs, field.Forbidden(fldPath.Child("capacity"), inlineDetail))
		}
		if spec.CSI == nil {
			errs = append(errs, field.Required(fldPath.Child("csi"), "has to be specified in the context of inline volumes"))
		}
	}
	if len(spec.AccessModes) == 0 {
		errs = append(errs, field.Required(fldPath.Child("accessModes"), ""))
	}
	errs = append(errs, validateAccessModes(spec.AccessModes, fldPath.Child("accessModes"))...)
	if !inline {
		capPath := fldPath.Child("capacity")
		if len(spec.Capacity) == 0 {
			errs = append(errs, field.Required(capPath, ""))
		}
		if _, ok := spec.Capacity[api.ResourceStorage]; !ok || len(spec.Capacity) > 1 {
			errs = append(errs, field.NotSupported(capPath, spec.Capacity, []api.ResourceName{api.ResourceStorage}))
		}
		for r, q := range spec.Capacity {
			errs = append(errs, validateBasicResource(q, capPath.Key(string(r)))...)
			errs = append(errs, ValidatePositiveQuantityValue(q, capPath.Key(string(r)))...)
		}
	}
	if policy := spec.PersistentVolumeReclaimPolicy; policy != "" {
		p := fldPath.Child("persistentVolumeReclaimPolicy")
		switch {
		case inline && policy != api.PersistentVolumeReclaimRetain:
			errs = append(errs, field.Forbidden(p, "may only be "+string(api.PersistentVolumeReclaimRetain)+" in the context of inline volumes"))
		case !inline && !supportedReclaimPolicies.get().Has(policy):
			errs = append(errs, field.NotSupported(p, policy, sets.List(supportedReclaimPolicies.get())))
		}
	}
	nodeAffinitySet := false
	if spec.NodeAffinity != nil {
		if inline {
			errs = append(errs, field.Forbidden(fldPath.Child("nodeAffinity"), inlineDetail))
		} else {
			nodeAffinitySet = true
			if spec.NodeAffinity.Required != nil {
				errs = append(errs, ValidateNodeSelector(spec.NodeAffinity.Required, opts.AllowInvalidLabelValueInRequiredNodeAffinity, fldPath.Child("nodeAffinity").Child("required"))...)
			} else {
				errs = append(errs, field.Required(fldPath.Child("nodeAffinity").Child("required"), "must specify required node constraints"))
			}
		}
	}
	var o oneSource
	o.add(spec.HostPath != nil, fldPath.Child("hostPath"), func() field.ErrorList {
		return validateHostPathVolumeSource(spec.HostPath, fldPath.Child("hostPath"))
	})
	o.add(spec.GCEPersistentDisk != nil, fldPath.Child("gcePersistentDisk"), func() field.ErrorList {
		return validatePDName(spec.GCEPersistentDisk.PDName, "pdName", spec.GCEPersistentDisk.Partition, fldPath.Child("persistentDisk"))
	})
	o.add(spec.AWSElasticBlockStore != nil, fldPath.Child("awsElasticBlockStore"), func() field.ErrorList {
		return validatePDName(spec.AWSElasticBlockStore.VolumeID, "volumeID", spec.AWSElasticBlockStore.Partition, fldPath.Child("awsElasticBlockStore"))
	})
	o.add(spec.Glusterfs != nil, fldPath.Child("glusterfs"), func() field.ErrorList {
		g := spec.Glusterfs
		p := fldPath.Child("glusterfs")
		errs := validateGlusterfs(g.EndpointsName, g.Path, p)
		if ns := g.EndpointsNamespace; ns != nil {
			if *ns == "" {
				errs = append(errs, field.Invalid(p.Child("endpointsNamespace"), *ns, "if the endpointnamespace is set, it must be a valid namespace name"))
			} else {
				for _, msg := range ValidateNamespaceName(*ns, false) {
					errs = append(errs, field.Invalid(p.Child("endpointsNamespace"), *ns, msg))
				}
			}
		}
		return errs
	})
	o.add(spec.Flocker != nil, fldPath.Child("flocker"), func() field.ErrorList { return validateFlockerVolumeSource(spec.Flocker, fldPath.Child("flocker")) })
	o.add(spec.NFS != nil, fldPath.Child("nfs"), func() field.ErrorList { return validateNFSVolumeSource(spec.NFS, fldPath.Child("nfs")) })
	o.add(spec.RBD != nil, fldPath.Child("rbd"), func() field.ErrorList {
		return validateRBD(spec.RBD.CephMonitors, spec.RBD.RBDImage, fldPath.Child("rbd"))
	})
	o.add(spec.Quobyte != nil, fldPath.Child("quobyte"), func() field.ErrorList { return validateQuobyteVolumeSource(spec.Quobyte, fldPath.Child("quobyte")) })
	o.add(spec.CephFS != nil, fldPath.Child("cephFS"), func() field.ErrorList {
		return validateCephFSMonitors(spec.CephFS.Monitors, fldPath.Child("cephfs"))
	})
	o.add(spec.ISCSI != nil, fldPath.Child("iscsi"), func() field.ErrorList {
		return validateISCSIPersistentVolumeSource(spec.ISCSI, pvName, fldPath.Child("iscsi"))
	})
	o.add(spec.Cinder != nil, fldPath.Child("cinder"), func() field.ErrorList {
		c := spec.Cinder
		p := fldPath.Child("cinder")
		errs := requiredString(c.VolumeID, p.Child("volumeID"))
		if c.SecretRef != nil {
			errs = append(errs, requiredString(c.SecretRef.Name, p.Child("secretRef", "name"))...)
			errs = append(errs, requiredString(c.SecretRef.Namespace, p.Child("secretRef", "namespace"))...)
		}
		return errs
	})
	o.add(spec.FC != nil, fldPath.Child("fc"), func() field.ErrorList { return validateFCVolumeSource(spec.FC, fldPath.Child("fc")) })
	if spec.FlexVolume != nil {
		// A flex volume is counted but never refused as a second source.
		o.n++
		o.errs = append(o.errs, validateFlex(spec.FlexVolume.Driver, spec.FlexVolume.Options, fldPath.Child("flexVolume"))...)
	}
	o.add(spec.AzureFile != nil, fldPath.Child("azureFile"), func() field.ErrorList {
		a := spec.AzureFile
		p := fldPath.Child("azureFile")
		errs := validateAzureFileNames(a.SecretName, a.ShareName, p)
		if a.SecretNamespace != nil && *a.SecretNamespace == "" {
			errs = append(errs, field.Required(p.Child("secretNamespace"), ""))
		}
		return errs
	})
	o.add(spec.VsphereVolume != nil, fldPath.Child("vsphereVolume"), func() field.ErrorList {
		return requiredString(spec.VsphereVolume.VolumePath, fldPath.Child("vsphereVolume").Child("volumePath"))
	})
	o.add(spec.PhotonPersistentDisk != nil, fldPath.Child("photonPersistentDisk"), func() field.ErrorList {
		return requiredString(spec.PhotonPersistentDisk.PdID, fldPath.Child("photonPersistentDisk").Child("pdID"))
	})
	o.add(spec.PortworxVolume != nil, fldPath.Child("portworxVolume"), func() field.ErrorList {
		return requiredString(spec.PortworxVolume.VolumeID, fldPath.Child("portworxVolume").Child("volumeID"))
	})
	o.add(spec.AzureDisk != nil, fldPath.Child("azureDisk"), func() field.ErrorList { return validateAzureDisk(spec.AzureDisk, fldPath.Child("azureDisk")) })
	o.add(spec.ScaleIO != nil, fldPath.Child("scaleIO"), func() field.ErrorList {
		return validateScaleIO(spec.ScaleIO.Gateway, spec.ScaleIO.System, spec.ScaleIO.VolumeName, fldPath.Child("scaleIO"))
	})
	o.add(spec.Local != nil, fldPath.Child("local"), func() field.ErrorList {
		var errs field.ErrorList
		if spec.Local.Path == "" {
			errs = append(errs, field.Required(fldPath.Child("local").Child("path"), ""))
		} else {
			errs = append(errs, validatePathNoBacksteps(spec.Local.Path, fldPath.Child("local").Child("path"))...)
		}
		if !nodeAffinitySet {
			errs = append(errs, field.Required(fldPath.Child("nodeAffinity"), "Local volume requires node affinity"))
		}
		return errs
	})
	o.add(spec.StorageOS != nil, fldPath.Child("storageos"), func() field.ErrorList {
		s := spec.StorageOS
		p := fldPath.Child("storageos")
		errs := validateStorageOSNames(s.VolumeName, s.VolumeNamespace, p)
		if s.SecretRef != nil {
			errs = append(errs, requiredString(s.SecretRef.Name, p.Child("secretRef", "name"))...)
			errs = append(errs, requiredString(s.SecretRef.Namespace, p.Child("secretRef", "namespace"))...)
		}
		return errs
	})
	o.add(spec.CSI != nil, fldPath.Child("csi"), func() field.ErrorList {
		return validateCSIPersistentVolumeSource(opts.Server, spec.CSI, fldPath.Child("csi"))
	})
	errs = append(errs, o.errs...)
	if o.n == 0 {
		errs = append(errs, field.Required(fldPath, "must specify a volume type"))
	}
	if spec.HostPath != nil && path.Clean(spec.HostPath.Path) == "/" && spec.PersistentVolumeReclaimPolicy == api.PersistentVolumeReclaimRecycle {
		errs = append(errs, field.Forbidden(fldPath.Child("persistentVolumeReclaimPolicy"), "may not be 'recycle' for a hostPath mount of '/'"))
	}
	if spec.StorageClassName != "" {
		if inline {
			errs = append(errs, field.Forbidden(fldPath.Child("storageClassName"), inlineDetail))
		} else {
			for _, msg := range ValidateClassName(spec.StorageClassName, false) {
				errs = append(errs, field.Invalid(fldPath.Child("storageClassName"), spec.StorageClassName, msg))
			}
		}
	}
	if m := spec.VolumeMode; m != nil {
		switch {
		case inline && *m != api.PersistentVolumeFilesystem:
			errs = append(errs, field.Forbidden(fldPath.Child("volumeMode"), "may not specify volumeMode other than "+string(api.PersistentVolumeFilesystem)+" in the context of inline volumes"))
		case !inline && !supportedVolumeModes.get().Has(*m):
			errs = append(errs, field.NotSupported(fldPath.Child("volumeMode"), *m, sets.List(supportedVolumeModes.get())))
		}
	}
	if c := spec.VolumeAttributesClassName; c != nil && opts.EnableVolumeAttributesClass {
		if *c == "" {
			errs = append(errs, field.Required(fldPath.Child("volumeAttributesClassName"), "an empty string is disallowed"))
		} else {
			for _, msg := range ValidateClassName(*c, false) {
				errs = append(errs, field.Invalid(fldPath.Child("volumeAttributesClassName"), *c, msg))
			}
		}
		if spec.CSI == nil {
			errs = append(errs, field.Required(fldPath.Child("csi"), "has to be specified when using volumeAttributesClassName"))
		}
	}
	return errs
}

func validateISCSIPersistentVolumeSource(s *api.ISCSIPersistentVolumeSource, pvName string, fldPath *field.Path) field.ErrorList {
	const badPrefix = "must be valid format"
	errs := requiredString(s.TargetPortal, fldPath.Child("targetPortal"))
	if s.InitiatorName != nil && len(pvName+":"+s.TargetPortal) > 64 {
		errs = append(errs, field.Invalid(fldPath.Child("targetportal"), s.TargetPortal, iscsiNameTooLong))
	}
	errs = append(errs, validateISCSIIQN(s.IQN, badPrefix, fldPath)...)
	errs = append(errs, validateISCSILunAndCHAP(s.Lun, s.DiscoveryCHAPAuth || s.SessionCHAPAuth, s.SecretRef != nil, fldPath)...)
	if s.SecretRef != nil && s.SecretRef.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("secretRef", "name"), ""))
	}
	return append(errs, validateISCSIInitiator(s.InitiatorName, badPrefix, fldPath)...)
}

func validateCSIPersistentVolumeSource(cfg *serverconfig.Config, c *api.CSIPersistentVolumeSource, fldPath *field.Path) field.ErrorList {
	errs := ValidateCSIDriverName(cfg, c.Driver, fldPath.Child("driver"))
	errs = append(errs, requiredString(c.VolumeHandle, fldPath.Child("volumeHandle"))...)
	for _, ref := range []struct {
		ref  *api.SecretReference
		name string
	}{{c.ControllerPublishSecretRef, "controllerPublishSecretRef"}, {c.ControllerExpandSecretRef, "controllerExpandSecretRef"},
		{c.NodePublishSecretRef, "nodePublishSecretRef"}, {c.NodeExpandSecretRef, "nodeExpandSecretRef"}} {
		if ref.ref != nil {
			errs = append(errs, validatePVSecretReference(ref.ref, fldPath.Child(ref.name))...)
		}
	}
	return errs
}

// validatePVSecretReference: a secret's name (a subdomain) and namespace (a label).
func validatePVSecretReference(ref *api.SecretReference, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if ref.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), ""))
	} else {
		errs = append(errs, ValidateDNS1123Subdomain(ref.Name, fldPath.Child("name"))...)
	}
	if ref.Namespace == "" {
		errs = append(errs, field.Required(fldPath.Child("namespace"), ""))
	} else {
		errs = append(errs, ValidateDNS1123Label(ref.Namespace, fldPath.Child("namespace"))...)
	}
	return errs
}

// ValidatePersistentVolume checks a PV: metadata (cluster-scoped) and spec.
func ValidatePersistentVolume(pv *api.PersistentVolume, opts PersistentVolumeSpecValidationOptions) field.ErrorList {
	errs := ValidateObjectMeta(&pv.ObjectMeta, false, ValidatePersistentVolumeName, field.NewPath("metadata"))
	return append(errs, ValidatePersistentVolumeSpec(&pv.Spec, pv.Name, false, field.NewPath("spec"), opts)...)
}

// mountOptionSources are the PV sources that take the mount-options annotation.
func mountOptionsSupported(spec *api.PersistentVolumeSpec) bool {
	return spec.GCEPersistentDisk != nil || spec.AWSElasticBlockStore != nil || spec.Glusterfs != nil ||
		spec.NFS != nil || spec.RBD != nil || spec.Quobyte != nil || spec.ISCSI != nil || spec.Cinder != nil ||
		spec.CephFS != nil || spec.AzureFile != nil || spec.VsphereVolume != nil || spec.AzureDisk != nil ||
		spec.PhotonPersistentDisk != nil
}

// validatePersistentVolumePlugin is the registry's plugin-specific rule: the
// mount-options annotation only on sources that support it.
func validatePersistentVolumePlugin(pv *api.PersistentVolume) field.ErrorList {
	if mountOptionsSupported(&pv.Spec) {
		return nil
	}
	if _, ok := pv.Annotations[api.MountOptionAnnotation]; ok {
		return field.ErrorList{field.Forbidden(field.NewPath("metadata").Child("annotations", api.MountOptionAnnotation), "may not specify mount options for this volume type")}
	}
	return nil
}

// ValidatePersistentVolumeUpdate checks what an update may change: the volume source is
// immutable (a diff of the internal sources in the refusal), so are the volume mode and,
// once set, node affinity (beta to GA topology labels aside).
func ValidatePersistentVolumeUpdate(newPv, oldPv *api.PersistentVolume, opts PersistentVolumeSpecValidationOptions) field.ErrorList {
	errs := ValidatePersistentVolume(newPv, opts)
	newSource := newPv.Spec.PersistentVolumeSource
	if oldPv.Spec.CSI != nil && oldPv.Spec.CSI.ControllerExpandSecretRef == nil && newSource.CSI != nil && newSource.CSI.ControllerExpandSecretRef != nil {
		csi := *newSource.CSI
		csi.ControllerExpandSecretRef = nil
		newSource.CSI = &csi
	}
	if !equality.Semantic.DeepEqual(newSource, oldPv.Spec.PersistentVolumeSource) {
		errs = append(errs, field.Forbidden(field.NewPath("spec", "persistentvolumesource"),
			fmt.Sprintf("spec.persistentvolumesource is immutable after creation\n%v", diff.Diff(oldPv.Spec.PersistentVolumeSource, newSource))))
	}
	errs = append(errs, ValidateImmutableField(newPv.Spec.VolumeMode, oldPv.Spec.VolumeMode, field.NewPath("volumeMode"))...)
	// MutablePVNodeAffinity (1.35 on, off by default) would let the affinity change; the
	// port knows only the rule without it.
	if !opts.Server.Enabled(features.MutablePVNodeAffinity) && oldPv.Spec.NodeAffinity != nil {
		if !nodeAffinityEqualAllowingGALabels(newPv.Spec.NodeAffinity, oldPv.Spec.NodeAffinity) {
			errs = append(errs, field.Invalid(field.NewPath("nodeAffinity"), newPv.Spec.NodeAffinity, fieldImmutableErrorMsg+", except for updating from beta label to GA"))
		}
	}
	if !equality.Semantic.DeepEqual(oldPv.Spec.VolumeAttributesClassName, newPv.Spec.VolumeAttributesClassName) && opts.EnableVolumeAttributesClass &&
		oldPv.Spec.VolumeAttributesClassName != nil && newPv.Spec.VolumeAttributesClassName == nil {
		errs = append(errs, field.Forbidden(field.NewPath("spec", "volumeAttributesClassName"), "update from non-nil value to nil is forbidden"))
	}
	return errs
}

// betaToGALabels are the node labels a PV's node affinity may move from beta to GA.
var betaToGALabels = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"failure-domain.beta.kubernetes.io/zone":   "topology.kubernetes.io/zone",
		"failure-domain.beta.kubernetes.io/region": "topology.kubernetes.io/region",
		"beta.kubernetes.io/os":                    "kubernetes.io/os",
		"beta.kubernetes.io/arch":                  "kubernetes.io/arch",
		"beta.kubernetes.io/instance-type":         "node.kubernetes.io/instance-type",
	}
})

// nodeAffinityEqualAllowingGALabels is semantic equality where a requirement's key may
// have moved from a beta label to its GA one.
func nodeAffinityEqualAllowingGALabels(newNA, oldNA *api.VolumeNodeAffinity) bool {
	eq := equality.Semantic.Copy()
	if err := eq.AddFunc(func(n, o api.NodeSelectorRequirement) bool {
		if o.Key != n.Key && betaToGALabels()[o.Key] == n.Key {
			o.Key = n.Key
		}
		return equality.Semantic.DeepEqual(n, o)
	}); err != nil {
		return false
	}
	return eq.DeepEqual(newNA, oldNA)
}

// ValidatePersistentVolumeStatusUpdate checks an update through /status.
func ValidatePersistentVolumeStatusUpdate(newPv, oldPv *api.PersistentVolume) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&newPv.ObjectMeta, &oldPv.ObjectMeta, field.NewPath("metadata"))
	if newPv.ResourceVersion == "" {
		errs = append(errs, field.Required(field.NewPath("resourceVersion"), ""))
	}
	return errs
}
