package core

import (
	"fmt"
	"net"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	unversionedvalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The volumes of a pod template, every source; the sources a PersistentVolume shares with
// them are checked by the same functions.

const (
	fileModeErrorMsg     = "must be a number between 0 and 0777 (octal), both inclusive"
	emptyDirModeErrorMsg = "must be a number between 0 and 01777 (octal), both inclusive"
	oneVolumeType        = "may not specify more than 1 volume type"
)

var pdPartitionErrorMsg = validation.InclusiveRangeError(1, 255)

// ValidateVolumes checks a pod's volumes and returns the sources of the valid ones by
// name (what mounts and devices may refer to). podMeta is the pod's metadata, nil for a
// template: with it, a claim named after the pod's ephemeral volumes is refused.
func ValidateVolumes(volumes []api.Volume, podMeta *metav1.ObjectMeta, fldPath *field.Path, opts PodValidationOptions) (map[string]api.VolumeSource, field.ErrorList) {
	var errs field.ErrorList
	names := sets.Set[string]{}
	created := sets.Set[string]{}
	if podMeta != nil && podMeta.Name != "" {
		for _, v := range volumes {
			if v.Ephemeral != nil {
				created.Insert(podMeta.Name + "-" + v.Name)
			}
		}
	}
	sources := make(map[string]api.VolumeSource)
	for i := range volumes {
		v := &volumes[i]
		p := fldPath.Index(i)
		namePath := p.Child("name")
		el := validateVolumeSource(&v.VolumeSource, p, v.Name, podMeta, opts)
		if v.Name == "" {
			el = append(el, field.Required(namePath, ""))
		} else {
			el = append(el, ValidateDNS1123Label(v.Name, namePath)...)
		}
		if names.Has(v.Name) {
			el = append(el, field.Duplicate(namePath, v.Name))
		}
		if len(el) == 0 {
			names.Insert(v.Name)
			sources[v.Name] = v.VolumeSource
		} else {
			errs = append(errs, el...)
		}
		if v.PersistentVolumeClaim != nil && created.Has(v.PersistentVolumeClaim.ClaimName) {
			errs = append(errs, field.Invalid(p.Child("persistentVolumeClaim").Child("claimName"), v.PersistentVolumeClaim.ClaimName,
				"must not reference a PVC that gets created for an ephemeral volume"))
		}
	}
	return sources, errs
}

// oneSource counts the sources of a volume: the first one set is checked, any later one
// is refused.
type oneSource struct {
	n    int
	errs field.ErrorList
}

// add checks a source that is set: name is the path the refusal names, check its rules.
func (o *oneSource) add(set bool, p *field.Path, check func() field.ErrorList) {
	if !set {
		return
	}
	if o.n > 0 {
		o.errs = append(o.errs, field.Forbidden(p, oneVolumeType))
		return
	}
	o.n++
	o.errs = append(o.errs, check()...)
}

// validateVolumeSource checks that exactly one source is set, and that source. Some paths
// are the server's own (gcePersistentDisk's rules under "persistentDisk", cephFS's under
// "cephfs", the downward API's refusal under "downwarAPI").
func validateVolumeSource(s *api.VolumeSource, fldPath *field.Path, volName string, podMeta *metav1.ObjectMeta, opts PodValidationOptions) field.ErrorList {
	var o oneSource
	if s.EmptyDir != nil {
		o.n++
		if s.EmptyDir.SizeLimit != nil && s.EmptyDir.SizeLimit.Sign() < 0 {
			o.errs = append(o.errs, field.Forbidden(fldPath.Child("emptyDir").Child("sizeLimit"), "SizeLimit field must be a valid resource quantity"))
		}
		if m := s.EmptyDir.Mode; m != nil && (*m > 01777 || *m < 0) {
			o.errs = append(o.errs, field.Invalid(fldPath.Child("emptyDir").Child("mode"), *m, emptyDirModeErrorMsg))
		}
	}
	o.add(s.HostPath != nil, fldPath.Child("hostPath"), func() field.ErrorList {
		return validateHostPathVolumeSource(s.HostPath, fldPath.Child("hostPath"))
	})
	o.add(s.GitRepo != nil, fldPath.Child("gitRepo"), func() field.ErrorList {
		return validateGitRepoVolumeSource(s.GitRepo, fldPath.Child("gitRepo"))
	})
	o.add(s.GCEPersistentDisk != nil, fldPath.Child("gcePersistentDisk"), func() field.ErrorList {
		return validatePDName(s.GCEPersistentDisk.PDName, "pdName", s.GCEPersistentDisk.Partition, fldPath.Child("persistentDisk"))
	})
	o.add(s.AWSElasticBlockStore != nil, fldPath.Child("awsElasticBlockStore"), func() field.ErrorList {
		return validatePDName(s.AWSElasticBlockStore.VolumeID, "volumeID", s.AWSElasticBlockStore.Partition, fldPath.Child("awsElasticBlockStore"))
	})
	o.add(s.Secret != nil, fldPath.Child("secret"), func() field.ErrorList {
		return validateSecretVolumeSource(s.Secret, fldPath.Child("secret"))
	})
	o.add(s.NFS != nil, fldPath.Child("nfs"), func() field.ErrorList { return validateNFSVolumeSource(s.NFS, fldPath.Child("nfs")) })
	o.add(s.ISCSI != nil, fldPath.Child("iscsi"), func() field.ErrorList { return validateISCSIVolumeSource(s.ISCSI, fldPath.Child("iscsi")) })
	if s.ISCSI != nil && s.ISCSI.InitiatorName != nil && len(volName+":"+s.ISCSI.TargetPortal) > 64 {
		o.errs = append(o.errs, field.Invalid(fldPath.Child("name"), volName, iscsiNameTooLong))
	}
	o.add(s.Glusterfs != nil, fldPath.Child("glusterfs"), func() field.ErrorList {
		return validateGlusterfs(s.Glusterfs.EndpointsName, s.Glusterfs.Path, fldPath.Child("glusterfs"))
	})
	o.add(s.Flocker != nil, fldPath.Child("flocker"), func() field.ErrorList { return validateFlockerVolumeSource(s.Flocker, fldPath.Child("flocker")) })
	o.add(s.PersistentVolumeClaim != nil, fldPath.Child("persistentVolumeClaim"), func() field.ErrorList {
		if s.PersistentVolumeClaim.ClaimName == "" {
			return field.ErrorList{field.Required(fldPath.Child("persistentVolumeClaim").Child("claimName"), "")}
		}
		return nil
	})
	o.add(s.RBD != nil, fldPath.Child("rbd"), func() field.ErrorList {
		return validateRBD(s.RBD.CephMonitors, s.RBD.RBDImage, fldPath.Child("rbd"))
	})
	o.add(s.Cinder != nil, fldPath.Child("cinder"), func() field.ErrorList {
		var errs field.ErrorList
		if s.Cinder.VolumeID == "" {
			errs = append(errs, field.Required(fldPath.Child("cinder").Child("volumeID"), ""))
		}
		if s.Cinder.SecretRef != nil && s.Cinder.SecretRef.Name == "" {
			errs = append(errs, field.Required(fldPath.Child("cinder").Child("secretRef", "name"), ""))
		}
		return errs
	})
	o.add(s.CephFS != nil, fldPath.Child("cephFS"), func() field.ErrorList {
		return validateCephFSMonitors(s.CephFS.Monitors, fldPath.Child("cephfs"))
	})
	o.add(s.Quobyte != nil, fldPath.Child("quobyte"), func() field.ErrorList { return validateQuobyteVolumeSource(s.Quobyte, fldPath.Child("quobyte")) })
	o.add(s.DownwardAPI != nil, fldPath.Child("downwarAPI"), func() field.ErrorList {
		return validateDownwardAPIVolumeSource(s.DownwardAPI, fldPath.Child("downwardAPI"), opts)
	})
	o.add(s.FC != nil, fldPath.Child("fc"), func() field.ErrorList { return validateFCVolumeSource(s.FC, fldPath.Child("fc")) })
	o.add(s.FlexVolume != nil, fldPath.Child("flexVolume"), func() field.ErrorList {
		return validateFlex(s.FlexVolume.Driver, s.FlexVolume.Options, fldPath.Child("flexVolume"))
	})
	o.add(s.ConfigMap != nil, fldPath.Child("configMap"), func() field.ErrorList {
		return validateConfigMapVolumeSource(s.ConfigMap, fldPath.Child("configMap"))
	})
	o.add(s.AzureFile != nil, fldPath.Child("azureFile"), func() field.ErrorList {
		return validateAzureFileNames(s.AzureFile.SecretName, s.AzureFile.ShareName, fldPath.Child("azureFile"))
	})
	o.add(s.VsphereVolume != nil, fldPath.Child("vsphereVolume"), func() field.ErrorList {
		return requiredString(s.VsphereVolume.VolumePath, fldPath.Child("vsphereVolume").Child("volumePath"))
	})
	o.add(s.PhotonPersistentDisk != nil, fldPath.Child("photonPersistentDisk"), func() field.ErrorList {
		return requiredString(s.PhotonPersistentDisk.PdID, fldPath.Child("photonPersistentDisk").Child("pdID"))
	})
	o.add(s.PortworxVolume != nil, fldPath.Child("portworxVolume"), func() field.ErrorList {
		return requiredString(s.PortworxVolume.VolumeID, fldPath.Child("portworxVolume").Child("volumeID"))
	})
	o.add(s.AzureDisk != nil, fldPath.Child("azureDisk"), func() field.ErrorList { return validateAzureDisk(s.AzureDisk, fldPath.Child("azureDisk")) })
	o.add(s.StorageOS != nil, fldPath.Child("storageos"), func() field.ErrorList {
		var ref *api.LocalObjectReference = s.StorageOS.SecretRef
		errs := validateStorageOSNames(s.StorageOS.VolumeName, s.StorageOS.VolumeNamespace, fldPath.Child("storageos"))
		if ref != nil && ref.Name == "" {
			errs = append(errs, field.Required(fldPath.Child("storageos").Child("secretRef", "name"), ""))
		}
		return errs
	})
	o.add(s.Projected != nil, fldPath.Child("projected"), func() field.ErrorList {
		return validateProjectedVolumeSource(s.Projected, fldPath.Child("projected"), opts)
	})
	o.add(s.ScaleIO != nil, fldPath.Child("scaleIO"), func() field.ErrorList {
		return validateScaleIO(s.ScaleIO.Gateway, s.ScaleIO.System, s.ScaleIO.VolumeName, fldPath.Child("scaleIO"))
	})
	o.add(s.CSI != nil, fldPath.Child("csi"), func() field.ErrorList { return validateCSIVolumeSource(s.CSI, fldPath.Child("csi"), opts) })
	o.add(s.Ephemeral != nil, fldPath.Child("ephemeral"), func() field.ErrorList {
		errs := validateEphemeralVolumeSource(s.Ephemeral, fldPath.Child("ephemeral"), opts)
		if podMeta != nil && podMeta.Name != "" && volName != "" {
			claim := podMeta.Name + "-" + volName
			for _, msg := range ValidatePersistentVolumeName(claim, false) {
				errs = append(errs, field.Invalid(fldPath.Child("name"), volName, fmt.Sprintf("PVC name %q: %v", claim, msg)))
			}
		}
		return errs
	})
	o.add(s.Image != nil, fldPath.Child("image"), func() field.ErrorList {
		var errs field.ErrorList
		missing := s.Image.Reference == "" && !opts.AllowEmptyImageVolumeReference
		if !opts.Server.AtLeast(37) {
			// Kubernetes 1.37 required the reference in pod templates too
			// (pkg/apis/core/validation/validation.go validateImageVolumeSource,
			// v1.36.3:9653 → v1.37.2:10018): before, only a Pod's.
			missing = s.Image.Reference == "" && opts.ResourceIsPod
		}
		if missing {
			errs = append(errs, field.Required(fldPath.Child("image").Child("reference"), ""))
		}
		return append(errs, validatePullPolicy(s.Image.PullPolicy, fldPath.Child("image").Child("pullPolicy"))...)
	})
	if o.n == 0 {
		o.errs = append(o.errs, field.Required(fldPath, "must specify a volume type"))
	}
	return o.errs
}

func requiredString(v string, p *field.Path) field.ErrorList {
	if v == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	return nil
}

var supportedHostPathTypes = &lazySet[api.HostPathType]{items: []api.HostPathType{api.HostPathUnset, api.HostPathDirectoryOrCreate, api.HostPathDirectory,
	api.HostPathFileOrCreate, api.HostPathFile, api.HostPathSocket, api.HostPathCharDev, api.HostPathBlockDev}}

func validateHostPathVolumeSource(h *api.HostPathVolumeSource, fldPath *field.Path) field.ErrorList {
	if h.Path == "" {
		return field.ErrorList{field.Required(fldPath.Child("path"), "")}
	}
	errs := validatePathNoBacksteps(h.Path, fldPath.Child("path"))
	if h.Type != nil && !supportedHostPathTypes.get().Has(*h.Type) {
		errs = append(errs, field.NotSupported(fldPath.Child("type"), h.Type, sets.List(supportedHostPathTypes.get())))
	}
	return errs
}

func validateGitRepoVolumeSource(g *api.GitRepoVolumeSource, fldPath *field.Path) field.ErrorList {
	errs := requiredString(g.Repository, fldPath.Child("repository"))
	return append(errs, validateLocalDescendingPath(g.Directory, fldPath.Child("directory"))...)
}

// validatePDName: a disk's id and its partition in 0-255 (GCE PD, AWS EBS).
func validatePDName(id, idField string, partition int32, fldPath *field.Path) field.ErrorList {
	errs := requiredString(id, fldPath.Child(idField))
	if partition < 0 || partition > 255 {
		errs = append(errs, field.Invalid(fldPath.Child("partition"), partition, pdPartitionErrorMsg))
	}
	return errs
}

// validateItemsSource: the name, default mode, default user and items of a secret or
// config map volume.
func validateItemsSource(name string, nameField string, mode *int32, user *int64, items []api.KeyToPath, fldPath *field.Path) field.ErrorList {
	errs := requiredString(name, fldPath.Child(nameField))
	if mode != nil && (*mode > 0777 || *mode < 0) {
		errs = append(errs, field.Invalid(fldPath.Child("defaultMode"), *mode, fileModeErrorMsg))
	}
	errs = append(errs, validateUserField(user, fldPath.Child("defaultUser"))...)
	for i := range items {
		errs = append(errs, validateKeyToPath(&items[i], fldPath.Child("items").Index(i))...)
	}
	return errs
}

func validateSecretVolumeSource(s *api.SecretVolumeSource, fldPath *field.Path) field.ErrorList {
	return validateItemsSource(s.SecretName, "secretName", s.DefaultMode, s.DefaultUser, s.Items, fldPath)
}

func validateConfigMapVolumeSource(s *api.ConfigMapVolumeSource, fldPath *field.Path) field.ErrorList {
	return validateItemsSource(s.Name, "name", s.DefaultMode, s.DefaultUser, s.Items, fldPath)
}

func validateKeyToPath(kp *api.KeyToPath, fldPath *field.Path) field.ErrorList {
	errs := requiredString(kp.Key, fldPath.Child("key"))
	errs = append(errs, requiredString(kp.Path, fldPath.Child("path"))...)
	errs = append(errs, ValidateLocalNonReservedPath(kp.Path, fldPath.Child("path"))...)
	if kp.Mode != nil && (*kp.Mode > 0777 || *kp.Mode < 0) {
		errs = append(errs, field.Invalid(fldPath.Child("mode"), *kp.Mode, fileModeErrorMsg))
	}
	return append(errs, validateUserField(kp.User, fldPath.Child("user"))...)
}

func validateUserField(user *int64, fldPath *field.Path) field.ErrorList {
	if user == nil {
		return nil
	}
	var errs field.ErrorList
	for _, msg := range validation.IsValidUserID(*user) {
		errs = append(errs, field.Invalid(fldPath, *user, msg))
	}
	return errs
}

func validateNFSVolumeSource(n *api.NFSVolumeSource, fldPath *field.Path) field.ErrorList {
	errs := requiredString(n.Server, fldPath.Child("server"))
	errs = append(errs, requiredString(n.Path, fldPath.Child("path"))...)
	if !path.IsAbs(n.Path) {
		errs = append(errs, field.Invalid(fldPath.Child("path"), n.Path, "must be an absolute path"))
	}
	return errs
}

const iscsiNameTooLong = "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified."

var (
	iqnFormat = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`iqn\.\d{4}-\d{2}\.([[:alnum:]-.]+)(:[^,;*&$|\s]+)$`) })
	euiFormat = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^eui.[[:alnum:]]{16}$`) })
	naaFormat = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^naa.[[:alnum:]]{32}$`) })
)

// iscsiNameMismatch: the name has one of the three prefixes but not its format.
func iscsiNameMismatch(name string) bool {
	switch {
	case strings.HasPrefix(name, "iqn"):
		return !iqnFormat().MatchString(name)
	case strings.HasPrefix(name, "eui"):
		return !euiFormat().MatchString(name)
	case strings.HasPrefix(name, "naa"):
		return !naaFormat().MatchString(name)
	}
	return false
}

func iscsiKnownPrefix(name string) bool {
	return strings.HasPrefix(name, "iqn") || strings.HasPrefix(name, "eui") || strings.HasPrefix(name, "naa")
}

// validateISCSI holds the rules a pod's and a PV's iSCSI sources share; badPrefix is the
// detail for a name of an unknown form.
func validateISCSIIQN(iqn string, badPrefix string, fldPath *field.Path) field.ErrorList {
	switch {
	case iqn == "":
		return field.ErrorList{field.Required(fldPath.Child("iqn"), "")}
	case !iscsiKnownPrefix(iqn):
		return field.ErrorList{field.Invalid(fldPath.Child("iqn"), iqn, badPrefix)}
	case iscsiNameMismatch(iqn):
		return field.ErrorList{field.Invalid(fldPath.Child("iqn"), iqn, "must be valid format")}
	}
	return nil
}

func validateISCSILunAndCHAP(lun int32, chap bool, hasSecret bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if lun < 0 || lun > 255 {
		errs = append(errs, field.Invalid(fldPath.Child("lun"), lun, validation.InclusiveRangeError(0, 255)))
	}
	if chap && !hasSecret {
		errs = append(errs, field.Required(fldPath.Child("secretRef"), ""))
	}
	return errs
}

func validateISCSIInitiator(initiator *string, badPrefix string, fldPath *field.Path) field.ErrorList {
	if initiator == nil {
		return nil
	}
	var errs field.ErrorList
	name := *initiator
	if !iscsiKnownPrefix(name) {
		errs = append(errs, field.Invalid(fldPath.Child("initiatorname"), name, badPrefix))
	}
	if iscsiNameMismatch(name) {
		errs = append(errs, field.Invalid(fldPath.Child("initiatorname"), name, "must be valid format"))
	}
	return errs
}

func validateISCSIVolumeSource(s *api.ISCSIVolumeSource, fldPath *field.Path) field.ErrorList {
	const badPrefix = "must be valid format starting with iqn, eui, or naa"
	errs := requiredString(s.TargetPortal, fldPath.Child("targetPortal"))
	errs = append(errs, validateISCSIIQN(s.IQN, badPrefix, fldPath)...)
	errs = append(errs, validateISCSILunAndCHAP(s.Lun, s.DiscoveryCHAPAuth || s.SessionCHAPAuth, s.SecretRef != nil, fldPath)...)
	return append(errs, validateISCSIInitiator(s.InitiatorName, badPrefix, fldPath)...)
}

func validateFCVolumeSource(fc *api.FCVolumeSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(fc.TargetWWNs) < 1 && len(fc.WWIDs) < 1 {
		errs = append(errs, field.Required(fldPath.Child("targetWWNs"), "must specify either targetWWNs or wwids, but not both"))
	}
	if len(fc.TargetWWNs) != 0 && len(fc.WWIDs) != 0 {
		errs = append(errs, field.Invalid(fldPath.Child("targetWWNs"), fc.TargetWWNs, "targetWWNs and wwids can not be specified simultaneously"))
	}
	if len(fc.TargetWWNs) != 0 {
		if fc.Lun == nil {
			errs = append(errs, field.Required(fldPath.Child("lun"), "lun is required if targetWWNs is specified"))
		} else if *fc.Lun < 0 || *fc.Lun > 255 {
			errs = append(errs, field.Invalid(fldPath.Child("lun"), fc.Lun, validation.InclusiveRangeError(0, 255)))
		}
	}
	return errs
}

func validateQuobyteVolumeSource(q *api.QuobyteVolumeSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	const registryDetail = "must be a host:port pair or multiple pairs separated by commas"
	switch {
	case q.Registry == "":
		errs = append(errs, field.Required(fldPath.Child("registry"), registryDetail))
	case len(q.Tenant) >= 65:
		errs = append(errs, field.Required(fldPath.Child("tenant"), "must be a UUID and may not exceed a length of 64 characters"))
	default:
		for _, pair := range strings.Split(q.Registry, ",") {
			if _, _, err := net.SplitHostPort(pair); err != nil {
				errs = append(errs, field.Invalid(fldPath.Child("registry"), q.Registry, registryDetail))
			}
		}
	}
	return append(errs, requiredString(q.Volume, fldPath.Child("volume"))...)
}

func validateGlusterfs(endpoints, p string, fldPath *field.Path) field.ErrorList {
	errs := requiredString(endpoints, fldPath.Child("endpoints"))
	return append(errs, requiredString(p, fldPath.Child("path"))...)
}

func validateFlockerVolumeSource(f *api.FlockerVolumeSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if f.DatasetName == "" && f.DatasetUUID == "" {
		errs = append(errs, field.Required(fldPath, "one of datasetName and datasetUUID is required"))
	}
	if f.DatasetName != "" && f.DatasetUUID != "" {
		errs = append(errs, field.Invalid(fldPath, "resource", "datasetName and datasetUUID can not be specified simultaneously"))
	}
	if strings.Contains(f.DatasetName, "/") {
		errs = append(errs, field.Invalid(fldPath.Child("datasetName"), f.DatasetName, "must not contain '/'"))
	}
	return errs
}

func validateRBD(monitors []string, image string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(monitors) == 0 {
		errs = append(errs, field.Required(fldPath.Child("monitors"), ""))
	}
	return append(errs, requiredString(image, fldPath.Child("image"))...)
}

func validateCephFSMonitors(monitors []string, fldPath *field.Path) field.ErrorList {
	if len(monitors) == 0 {
		return field.ErrorList{field.Required(fldPath.Child("monitors"), "")}
	}
	return nil
}

// validateFlex: a driver, and no option key in the kubernetes.io or k8s.io domains.
func validateFlex(driver string, options map[string]string, fldPath *field.Path) field.ErrorList {
	errs := requiredString(driver, fldPath.Child("driver"))
	for k := range options {
		ns := k
		if before, _, ok := strings.Cut(k, "/"); ok {
			ns = before
		}
		n := "." + strings.ToLower(ns)
		if strings.HasSuffix(n, ".kubernetes.io") || strings.HasSuffix(n, ".k8s.io") {
			errs = append(errs, field.Invalid(fldPath.Child("options").Key(k), k, "kubernetes.io and k8s.io namespaces are reserved"))
		}
	}
	return errs
}

func validateAzureFileNames(secret, share string, fldPath *field.Path) field.ErrorList {
	errs := requiredString(secret, fldPath.Child("secretName"))
	return append(errs, requiredString(share, fldPath.Child("shareName"))...)
}

var (
	azureCachingModes = &lazySet[api.AzureDataDiskCachingMode]{items: []api.AzureDataDiskCachingMode{api.AzureDataDiskCachingNone, api.AzureDataDiskCachingReadOnly, api.AzureDataDiskCachingReadWrite}}
	azureDiskKinds    = &lazySet[api.AzureDataDiskKind]{items: []api.AzureDataDiskKind{api.AzureSharedBlobDisk, api.AzureDedicatedBlobDisk, api.AzureManagedDisk}}
)

func validateAzureDisk(a *api.AzureDiskVolumeSource, fldPath *field.Path) field.ErrorList {
	errs := requiredString(a.DiskName, fldPath.Child("diskName"))
	errs = append(errs, requiredString(a.DataDiskURI, fldPath.Child("diskURI"))...)
	if a.CachingMode != nil && !azureCachingModes.get().Has(*a.CachingMode) {
		errs = append(errs, field.NotSupported(fldPath.Child("cachingMode"), *a.CachingMode, sets.List(azureCachingModes.get())))
	}
	if a.Kind != nil && !azureDiskKinds.get().Has(*a.Kind) {
		errs = append(errs, field.NotSupported(fldPath.Child("kind"), *a.Kind, sets.List(azureDiskKinds.get())))
	}
	if a.Kind != nil && *a.Kind == api.AzureManagedDisk && !strings.HasPrefix(a.DataDiskURI, "/subscriptions/") {
		errs = append(errs, field.NotSupported(fldPath.Child("diskURI"), a.DataDiskURI,
			[]string{"/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"}))
	}
	if a.Kind != nil && *a.Kind != api.AzureManagedDisk && !strings.HasPrefix(a.DataDiskURI, "https://") {
		errs = append(errs, field.NotSupported(fldPath.Child("diskURI"), a.DataDiskURI,
			[]string{"https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"}))
	}
	return errs
}

func validateScaleIO(gateway, system, volume string, fldPath *field.Path) field.ErrorList {
	errs := requiredString(gateway, fldPath.Child("gateway"))
	errs = append(errs, requiredString(system, fldPath.Child("system"))...)
	return append(errs, requiredString(volume, fldPath.Child("volumeName"))...)
}

func validateStorageOSNames(volume, namespace string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if volume == "" {
		errs = append(errs, field.Required(fldPath.Child("volumeName"), ""))
	} else {
		errs = append(errs, ValidateDNS1123Label(volume, fldPath.Child("volumeName"))...)
	}
	if namespace != "" {
		errs = append(errs, ValidateDNS1123Label(namespace, fldPath.Child("volumeNamespace"))...)
	}
	return errs
}

func validateCSIVolumeSource(c *api.CSIVolumeSource, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	errs := ValidateCSIDriverName(opts.Server, c.Driver, fldPath.Child("driver"))
	if ref := c.NodePublishSecretRef; ref != nil {
		if ref.Name == "" {
			errs = append(errs, field.Required(fldPath.Child("nodePublishSecretRef", "name"), ""))
		} else {
			// The server reports a bad secret name on "csi.name".
			for _, msg := range ValidateSecretName(ref.Name, false) {
				errs = append(errs, field.Invalid(fldPath.Child("name"), ref.Name, msg))
			}
		}
	}
	return errs
}

// ValidateCSIDriverName: on the server cfg, a driver name, 63 characters at most, a DNS subdomain in lower
// case.
func ValidateCSIDriverName(cfg *serverconfig.Config, driver string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if driver == "" {
		errs = append(errs, field.Required(fldPath, ""))
		// Kubernetes 1.35 stopped there (pkg/apis/core/validation/validation.go
		// ValidateCSIDriverName, v1.34.4:1756 → v1.35.4:1817): 1.34 goes on to refuse the
		// empty name as a DNS subdomain too.
		if cfg.AtLeast(35) {
			return errs
		}
	}
	if len(driver) > 63 {
		errs = append(errs, field.TooLong(fldPath, "", 63))
	}
	for _, msg := range wellformed.IsDNS1123Subdomain(strings.ToLower(driver)) {
		errs = append(errs, field.Invalid(fldPath, driver, msg))
	}
	return errs
}

func validateEphemeralVolumeSource(e *api.EphemeralVolumeSource, fldPath *field.Path, podOpts PodValidationOptions) field.ErrorList {
	if e.VolumeClaimTemplate == nil {
		return field.ErrorList{field.Required(fldPath.Child("volumeClaimTemplate"), "")}
	}
	opts := ValidationOptionsForPersistentVolumeClaimTemplate(podOpts.Server, e.VolumeClaimTemplate, nil)
	return ValidatePersistentVolumeClaimTemplate(e.VolumeClaimTemplate, fldPath.Child("volumeClaimTemplate"), opts)
}

var volumeDownwardFields = volumeFieldPaths

func validateDownwardAPIVolumeFile(f *api.DownwardAPIVolumeFile, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	errs := requiredString(f.Path, fldPath.Child("path"))
	errs = append(errs, ValidateLocalNonReservedPath(f.Path, fldPath.Child("path"))...)
	switch {
	case f.FieldRef != nil:
		errs = append(errs, validateObjectFieldSelector(f.FieldRef, volumeDownwardFields.get(), fldPath.Child("fieldRef"))...)
		if f.ResourceFieldRef != nil {
			errs = append(errs, field.Invalid(fldPath, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
		}
	case f.ResourceFieldRef != nil:
		errs = append(errs, validateContainerResourceFieldSelector(f.ResourceFieldRef, fldPath.Child("resourceFieldRef"), true)...)
	default:
		errs = append(errs, field.Required(fldPath, "one of fieldRef and resourceFieldRef is required"))
	}
	if f.Mode != nil && (*f.Mode > 0777 || *f.Mode < 0) {
		errs = append(errs, field.Invalid(fldPath.Child("mode"), *f.Mode, fileModeErrorMsg))
	}
	return append(errs, validateUserField(f.User, fldPath.Child("user"))...)
}

// validateDownwardAPIVolumeSource: the mode, user and items (reported on the source's
// own path, not per item).
func validateDownwardAPIVolumeSource(d *api.DownwardAPIVolumeSource, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	if m := d.DefaultMode; m != nil && (*m > 0777 || *m < 0) {
		errs = append(errs, field.Invalid(fldPath.Child("defaultMode"), *m, fileModeErrorMsg))
	}
	errs = append(errs, validateUserField(d.DefaultUser, fldPath.Child("defaultUser"))...)
	for i := range d.Items {
		errs = append(errs, validateDownwardAPIVolumeFile(&d.Items[i], fldPath, opts)...)
	}
	return errs
}

func validateProjectedVolumeSource(pv *api.ProjectedVolumeSource, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	if m := pv.DefaultMode; m != nil && (*m > 0777 || *m < 0) {
		errs = append(errs, field.Invalid(fldPath.Child("defaultMode"), *m, fileModeErrorMsg))
	}
	errs = append(errs, validateUserField(pv.DefaultUser, fldPath.Child("defaultUser"))...)
	return append(errs, validateProjectionSources(pv, fldPath, opts)...)
}

var podCertificateKeyTypes = []string{"RSA3072", "RSA4096", "ECDSAP256", "ECDSAP384", "ECDSAP521", "ED25519"}

// The longest maxExpirationSeconds of a pod certificate: 91 days, 24 hours for
// kubernetes.io signers.
const (
	maxPodCertificateExpiration           = 91 * 24 * 3600
	maxKubernetesPodCertificateExpiration = 24 * 3600
)

// validateProjectionSources checks each projected source (one kind per source) and that
// no two write the same path.
func validateProjectionSources(projection *api.ProjectedVolumeSource, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	paths := sets.Set[string]{}
	// claim records a path; a repeat is refused on the volume's path with value shown.
	claim := func(p string, shown string) {
		if paths.Has(p) {
			errs = append(errs, field.Invalid(fldPath, shown, "conflicting duplicate paths"))
			return
		}
		paths.Insert(p)
	}
	for i := range projection.Sources {
		src := &projection.Sources[i]
		n := 0
		sp := fldPath.Child("sources").Index(i)
		if s := src.Secret; s != nil {
			n++
			p := sp.Child("secret")
			errs = append(errs, requiredString(s.Name, p.Child("name"))...)
			for j := range s.Items {
				errs = append(errs, validateKeyToPath(&s.Items[j], p.Child("items").Index(j))...)
				if s.Items[j].Path != "" {
					claim(s.Items[j].Path, s.Name)
				}
			}
		}
		if c := src.ConfigMap; c != nil {
			n++
			p := sp.Child("configMap")
			errs = append(errs, requiredString(c.Name, p.Child("name"))...)
			for j := range c.Items {
				errs = append(errs, validateKeyToPath(&c.Items[j], p.Child("items").Index(j))...)
				if c.Items[j].Path != "" {
					claim(c.Items[j].Path, c.Name)
				}
			}
		}
		if d := src.DownwardAPI; d != nil {
			n++
			p := sp.Child("downwardAPI")
			for j := range d.Items {
				errs = append(errs, validateDownwardAPIVolumeFile(&d.Items[j], p, opts)...)
				if d.Items[j].Path != "" {
					claim(d.Items[j].Path, d.Items[j].Path)
				}
			}
		}
		if t := src.ServiceAccountToken; t != nil {
			n++
			p := sp.Child("serviceAccountToken")
			if exp := t.ExpirationSeconds; exp == nil {
				errs = append(errs, field.Required(p.Child("expirationSeconds"), ""))
			} else {
				if *exp < 10*60 {
					errs = append(errs, field.Invalid(p.Child("expirationSeconds"), *exp, "may not specify a duration less than 10 minutes"))
				}
				if *exp > 1<<32 {
					errs = append(errs, field.Invalid(p.Child("expirationSeconds"), *exp, "may not specify a duration larger than 2^32 seconds"))
				}
			}
			// The server reports the token's path on the volume's path.
			if t.Path == "" {
				errs = append(errs, field.Required(fldPath.Child("path"), ""))
			} else if !opts.AllowNonLocalProjectedTokenPath {
				errs = append(errs, ValidateLocalNonReservedPath(t.Path, fldPath.Child("path"))...)
			}
			errs = append(errs, validateUserField(t.User, p.Child("user"))...)
		}
		if b := src.ClusterTrustBundle; b != nil {
			n++
			p := sp.Child("clusterTrustBundle")
			switch {
			case b.Name != nil && b.SignerName != nil:
				errs = append(errs, field.Invalid(p, b, "only one of name and signerName may be used"))
			case b.Name != nil:
				if *b.Name == "" {
					errs = append(errs, field.Required(p.Child("name"), "must be a valid object name"))
				}
				for _, msg := range clusterTrustBundleNameProblems(*b.Name) {
					errs = append(errs, field.Invalid(p.Child("name"), *b.Name, fmt.Sprintf("not a valid clustertrustbundlename: %v", msg)))
				}
				if b.LabelSelector != nil {
					errs = append(errs, field.Invalid(p.Child("labelSelector"), b.LabelSelector, "labelSelector must be unset if name is specified"))
				}
			case b.SignerName != nil:
				if *b.SignerName == "" {
					errs = append(errs, field.Required(p.Child("signerName"), "must be a valid signer name"))
				}
				errs = append(errs, ValidateSignerName(p.Child("signerName"), *b.SignerName)...)
				errs = append(errs, wellformed.ValidateLabelSelector(b.LabelSelector,
					unversionedvalidation.LabelSelectorValidationOptions{}, p.Child("labelSelector"))...)
			default:
				errs = append(errs, field.Required(p, "either name or signerName must be specified"))
			}
			errs = append(errs, requiredString(b.Path, p.Child("path"))...)
			errs = append(errs, validateUserField(b.User, p.Child("user"))...)
			errs = append(errs, ValidateLocalNonReservedPath(b.Path, p.Child("path"))...)
			claim(b.Path, b.Path)
		}
		if c := src.PodCertificate; c != nil {
			n++
			p := sp.Child("podCertificate")
			errs = append(errs, ValidateSignerName(p.Child("signerName"), c.SignerName)...)
			if c.UserAnnotations != nil {
				errs = append(errs, validateUserAnnotations(c.UserAnnotations, p.Child("userAnnotations"))...)
			}
			errs = append(errs, validateUserField(c.User, p.Child("user"))...)
			if !contains(podCertificateKeyTypes, c.KeyType) {
				errs = append(errs, field.NotSupported(p.Child("keyType"), c.KeyType, podCertificateKeyTypes))
			}
			if m := c.MaxExpirationSeconds; m != nil {
				if *m < 3600 {
					errs = append(errs, field.Invalid(p.Child("maxExpirationSeconds"), *m, "if provided, maxExpirationSeconds must be >= 3600"))
				}
				limit := maxPodCertificateExpiration
				if IsKubernetesSignerName(c.SignerName) {
					limit = maxKubernetesPodCertificateExpiration
				}
				if *m > int32(limit) {
					errs = append(errs, field.Invalid(p.Child("maxExpirationSeconds"), *m, fmt.Sprintf("if provided, maxExpirationSeconds must be <= %d", limit)))
				}
			}
			count := 0
			for _, f := range []struct {
				value, name string
			}{{c.CredentialBundlePath, "credentialBundlePath"}, {c.KeyPath, "keyPath"}, {c.CertificateChainPath, "certificateChainPath"}} {
				if f.value == "" {
					continue
				}
				count++
				errs = append(errs, ValidateLocalNonReservedPath(f.value, p.Child(f.name))...)
				claim(f.value, f.value)
			}
			if count == 0 {
				errs = append(errs, field.Required(p, "specify at least one of credentialBundlePath, keyPath, and certificateChainPath"))
			}
		}
		if n > 1 {
			errs = append(errs, field.Forbidden(sp, "may not specify more than 1 volume type per source"))
		}
	}
	return errs
}

// validateUserAnnotations: keys are domain-prefixed (compared in lower case) and the total
// size within the annotation limit.
func validateUserAnnotations(annotations map[string]string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for k := range annotations {
		errs = append(errs, validation.IsDomainPrefixedKey(fldPath, strings.ToLower(k))...)
	}
	if err := apimachineryvalidation.ValidateAnnotationsSize(annotations); err != nil {
		errs = append(errs, field.TooLong(fldPath, "", apimachineryvalidation.TotalAnnotationSizeLimitB))
	}
	return errs
}

// validateLocalDescendingPath: a relative path without "..".
func validateLocalDescendingPath(target string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if path.IsAbs(target) {
		errs = append(errs, field.Invalid(fldPath, target, "must be a relative path"))
	}
	return append(errs, validatePathNoBacksteps(target, fldPath)...)
}

// validatePathNoBacksteps: no ".." element.
func validatePathNoBacksteps(target string, fldPath *field.Path) field.ErrorList {
	for _, part := range strings.Split(filepath.ToSlash(target), "/") {
		if part == ".." {
			return field.ErrorList{field.Invalid(fldPath, target, "must not contain '..'")}
		}
	}
	return nil
}

// ValidateLocalNonReservedPath: a relative path without ".." that does not start with
// "..".
func ValidateLocalNonReservedPath(target string, fldPath *field.Path) field.ErrorList {
	errs := validateLocalDescendingPath(target, fldPath)
	if strings.HasPrefix(target, "..") && !strings.HasPrefix(target, "../") {
		errs = append(errs, field.Invalid(fldPath, target, "must not start with '..'"))
	}
	return errs
}
