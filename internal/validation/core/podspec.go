package core

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The pod spec and pod template spec: what Pod, PodTemplate, ReplicationController and
// every workload kind of other groups share.

// ValidatePodTemplateSpec checks a pod template: labels, annotations (the pod-specific
// ones too), the spec, seccomp and AppArmor annotations against the fields, and no
// ephemeral containers.
func ValidatePodTemplateSpec(spec *api.PodTemplateSpec, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	errs := wellformed.ValidateLabels(spec.Labels, fldPath.Child("labels"))
	errs = append(errs, wellformed.ValidateAnnotations(spec.Annotations, fldPath.Child("annotations"))...)
	errs = append(errs, ValidatePodSpecificAnnotations(spec.Annotations, &spec.Spec, fldPath.Child("annotations"), opts)...)
	errs = append(errs, ValidatePodSpec(&spec.Spec, nil, fldPath.Child("spec"), opts)...)
	errs = append(errs, validateSeccompAnnotationsAndFields(spec.Annotations, &spec.Spec, fldPath.Child("spec"))...)
	errs = append(errs, validateAppArmorAnnotationsAndFieldsMatchOnCreate(spec.Annotations, &spec.Spec, fldPath.Child("spec"))...)
	if len(spec.Spec.EphemeralContainers) > 0 {
		errs = append(errs, field.Forbidden(fldPath.Child("spec", "ephemeralContainers"), "ephemeral containers not allowed in pod template"))
	}
	return errs
}

// ValidatePodSpecificAnnotations checks the annotations that mean something for a pod:
// mirror pods, tolerations, deletion cost, seccomp and AppArmor.
func ValidatePodSpecificAnnotations(annotations map[string]string, spec *api.PodSpec, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	if v, mirror := annotations[api.MirrorPodAnnotationKey]; mirror && spec.NodeName == "" {
		errs = append(errs, field.Invalid(fldPath.Key(api.MirrorPodAnnotationKey), v, "must set spec.nodeName if mirror pod annotation is set"))
	}
	if annotations[api.TolerationsAnnotationKey] != "" {
		errs = append(errs, validateTolerationsInPodAnnotations(annotations, fldPath, opts)...)
	}
	if !opts.AllowInvalidPodDeletionCost {
		if _, err := deletionCost(annotations); err != nil {
			errs = append(errs, field.Invalid(fldPath.Key(api.PodDeletionCost), annotations[api.PodDeletionCost], "must be a 32bit integer"))
		}
	}
	errs = append(errs, ValidateSeccompPodAnnotations(annotations, fldPath)...)
	return append(errs, ValidateAppArmorPodAnnotations(annotations, spec, fldPath)...)
}

// validateTolerationsInPodAnnotations: the tolerations annotation parses (into the
// internal type, as the server reads it) and its tolerations are valid.
func validateTolerationsInPodAnnotations(annotations map[string]string, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var tolerations []api.Toleration
	if err := json.Unmarshal([]byte(annotations[api.TolerationsAnnotationKey]), &tolerations); err != nil {
		return field.ErrorList{field.Invalid(fldPath, api.TolerationsAnnotationKey, err.Error())}
	}
	if len(tolerations) == 0 {
		return nil
	}
	return ValidateTolerations(tolerations, fldPath.Child(api.TolerationsAnnotationKey), opts, false)
}

// deletionCost reads the pod-deletion-cost annotation: an int32 without "+" or leading
// zeros.
func deletionCost(annotations map[string]string) (int32, error) {
	v, ok := annotations[api.PodDeletionCost]
	if !ok {
		return 0, nil
	}
	if v == "" || !(v[0] == '-' || v == "0" || (v[0] >= '1' && v[0] <= '9')) {
		return 0, fmt.Errorf("invalid value %q", v)
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, err
	}
	return int32(n), nil
}

// ValidatePodSpec checks a pod spec. podMeta is the pod's metadata, nil for a template.
func ValidatePodSpec(spec *api.PodSpec, podMeta *metav1.ObjectMeta, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	if spec.TerminationGracePeriodSeconds == nil {
		errs = append(errs, field.Required(fldPath.Child("terminationGracePeriodSeconds"), ""))
	}
	grace := spec.TerminationGracePeriodSeconds
	hostUsers := spec.HostUsers == nil || *spec.HostUsers
	volumes, vErrs := ValidateVolumes(spec.Volumes, podMeta, fldPath.Child("volumes"), opts)
	errs = append(errs, vErrs...)
	claimNames := sets.Set[string]{}
	for _, c := range spec.ResourceClaims {
		if c.Name != "" {
			claimNames.Insert(c.Name)
		}
	}
	errs = append(errs, validatePodResourceClaims(podMeta, spec.ResourceClaims, fldPath.Child("resourceClaims"))...)
	errs = append(errs, validateContainers(spec.Containers, spec.OS, volumes, claimNames, grace, fldPath.Child("containers"), opts, &spec.RestartPolicy, hostUsers)...)
	errs = append(errs, validateInitContainers(spec.InitContainers, spec.OS, spec.Containers, volumes, claimNames, grace, fldPath.Child("initContainers"), opts, &spec.RestartPolicy, hostUsers)...)
	errs = append(errs, validateEphemeralContainers(spec.EphemeralContainers, spec.Containers, spec.InitContainers, volumes, claimNames, fldPath.Child("ephemeralContainers"), opts, &spec.RestartPolicy, hostUsers)...)
	if opts.PodLevelResourcesEnabled {
		errs = append(errs, validatePodResources(spec, claimNames, fldPath, opts)...)
	}
	errs = append(errs, validatePodHostNetworkDeps(spec, fldPath, opts)...)
	errs = append(errs, validateRestartPolicy(spec.RestartPolicy, fldPath.Child("restartPolicy"))...)
	errs = append(errs, validateDNSPolicy(&spec.DNSPolicy, fldPath.Child("dnsPolicy"))...)
	errs = append(errs, wellformed.ValidateLabels(spec.NodeSelector, fldPath.Child("nodeSelector"))...)
	errs = append(errs, validatePodSpecSecurityContext(spec.SecurityContext, spec, fldPath.Child("securityContext"), opts)...)
	// Kubernetes 1.37 checks shareProcessNamespace against hostPID here, after the security
	// context, on spec.shareProcessNamespace; up to 1.36 the security context's checks did,
	// on spec.securityContext.shareProcessNamespace (validatePodSpecSecurityContext).
	if opts.Server.AtLeast(37) {
		errs = append(errs, validateShareProcessNamespace(spec, fldPath)...)
	}
	for i, s := range spec.ImagePullSecrets {
		if !reflect.DeepEqual(api.LocalObjectReference{Name: s.Name}, s) {
			errs = append(errs, field.Invalid(fldPath.Child("imagePullSecrets").Index(i), s, "only name may be set"))
		}
	}
	errs = append(errs, validateAffinity(spec.Affinity, opts, fldPath.Child("affinity"))...)
	errs = append(errs, validatePodDNSConfig(spec.DNSConfig, &spec.DNSPolicy, fldPath.Child("dnsConfig"), opts)...)
	for i, g := range spec.ReadinessGates {
		errs = append(errs, ValidateQualifiedName(string(g.ConditionType), fldPath.Child("readinessGates").Index(i).Child("conditionType"))...)
	}
	errs = append(errs, validateSchedulingGates(spec.SchedulingGates, fldPath.Child("schedulingGates"))...)
	errs = append(errs, validateTopologySpreadConstraints(spec.TopologySpreadConstraints, fldPath.Child("topologySpreadConstraints"), opts)...)
	errs = append(errs, validateWindowsHostProcessPod(spec, fldPath)...)
	errs = append(errs, validateHostUsers(spec, fldPath, opts)...)
	errs = append(errs, validatePodHostName(spec, fldPath)...)
	if spec.ServiceAccountName != "" {
		for _, msg := range ValidateServiceAccountName(spec.ServiceAccountName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("serviceAccountName"), spec.ServiceAccountName, msg))
		}
	}
	if spec.DeprecatedServiceAccount != spec.ServiceAccountName {
		errs = append(errs, field.Invalid(fldPath.Child("deprecatedServiceAccount"), spec.DeprecatedServiceAccount, fmt.Sprintf("must be the same as serviceAccountName: %q", spec.ServiceAccountName)))
	}
	if spec.NodeName != "" {
		for _, msg := range ValidateNodeName(spec.NodeName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("nodeName"), spec.NodeName, msg))
		}
	}
	if d := spec.ActiveDeadlineSeconds; d != nil && (*d < 1 || *d > math.MaxInt32) {
		errs = append(errs, field.Invalid(fldPath.Child("activeDeadlineSeconds"), *d, validation.InclusiveRangeError(1, math.MaxInt32)))
	}
	if spec.Hostname != "" {
		errs = append(errs, ValidateDNS1123Label(spec.Hostname, fldPath.Child("hostname"))...)
	}
	if spec.Subdomain != "" {
		errs = append(errs, ValidateDNS1123Label(spec.Subdomain, fldPath.Child("subdomain"))...)
	}
	if len(spec.Tolerations) > 0 {
		errs = append(errs, ValidateTolerations(spec.Tolerations, fldPath.Child("tolerations"), opts, true)...)
	}
	errs = append(errs, ValidateHostAliases(spec.HostAliases, fldPath.Child("hostAliases"), opts)...)
	if spec.PriorityClassName != "" {
		for _, msg := range ValidatePriorityClassName(spec.PriorityClassName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("priorityClassName"), spec.PriorityClassName, msg))
		}
	}
	if spec.RuntimeClassName != nil {
		errs = append(errs, ValidateRuntimeClassName(*spec.RuntimeClassName, fldPath.Child("runtimeClassName"))...)
	}
	if p := spec.PreemptionPolicy; p != nil {
		switch *p {
		case api.PreemptLowerPriority, api.PreemptNever:
		case "":
			errs = append(errs, field.Required(fldPath.Child("preemptionPolicy"), ""))
		default:
			errs = append(errs, field.NotSupported(fldPath.Child("preemptionPolicy"), p, []api.PreemptionPolicy{api.PreemptLowerPriority, api.PreemptNever}))
		}
	}
	if spec.Overhead != nil {
		errs = append(errs, ValidateContainerResourceRequirements(&api.ResourceRequirements{Limits: spec.Overhead}, nil, fldPath.Child("overhead"), opts)...)
	}
	if spec.OS != nil {
		switch osErrs := validateOS(spec.OS, fldPath.Child("os")); {
		case len(osErrs) > 0:
			errs = append(errs, osErrs...)
		case spec.OS.Name == api.Linux:
			errs = append(errs, validateLinux(spec, fldPath)...)
		case spec.OS.Name == api.Windows:
			errs = append(errs, validateWindows(opts.Server, spec, fldPath)...)
		}
	}
	if g := spec.SchedulingGroup; g != nil {
		p := fldPath.Child("schedulingGroup")
		if g.PodGroupName == nil {
			errs = append(errs, field.Invalid(p.Child("podGroupName"), g.PodGroupName, "must specify one of: `podGroupName`"))
		} else {
			for _, msg := range ValidatePodGroupName(*g.PodGroupName, false) {
				errs = append(errs, field.Invalid(p.Child("podGroupName"), *g.PodGroupName, msg))
			}
		}
		if len(spec.EvictionResponders) > 0 {
			errs = append(errs, field.Forbidden(p, "may not be set when evictionResponders is set").WithOrigin("dependentForbidden").MarkCoveredByDeclarative())
		}
	}
	return append(errs, validateFileKeyRefVolumes(spec, fldPath)...)
}

func validateOS(os *api.PodOS, fldPath *field.Path) field.ErrorList {
	switch os.Name {
	case "":
		return field.ErrorList{field.Required(fldPath.Child("name"), "")}
	case api.Linux, api.Windows:
		return nil
	}
	return field.ErrorList{field.NotSupported(fldPath, os.Name, []api.OSName{api.Linux, api.Windows})}
}

func validateRestartPolicy(policy api.RestartPolicy, fldPath *field.Path) field.ErrorList {
	switch policy {
	case api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever:
		return nil
	case "":
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return field.ErrorList{field.NotSupported(fldPath, policy, []api.RestartPolicy{api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever})}
}

func validateDNSPolicy(policy *api.DNSPolicy, fldPath *field.Path) field.ErrorList {
	switch *policy {
	case api.DNSClusterFirstWithHostNet, api.DNSClusterFirst, api.DNSDefault, api.DNSNone:
		return nil
	case "":
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return field.ErrorList{field.NotSupported(fldPath, policy, []api.DNSPolicy{api.DNSClusterFirstWithHostNet, api.DNSClusterFirst, api.DNSDefault, api.DNSNone})}
}

// The DNS limits of Linux's resolver.
const (
	maxDNSNameservers     = 3
	maxDNSSearchPaths     = 32
	maxDNSSearchListChars = 2048
)

// validateShareProcessNamespace: a pod sharing its process namespace may not use the
// host's. Kubernetes 1.37 moved the host namespace fields to the pod spec and this rule
// after the pod security context's (pkg/apis/core/validation/validation.go
// validateShareProcessNamespace, v1.37.2:4807,5736-5741): up to 1.36 it was the security
// context's, checked after its supplemental groups and named under it
// (validatePodSpecSecurityContext, v1.36.3:5557: spec.securityContext.shareProcessNamespace).
// fldPath is the pod spec's path from 1.37, the security context's before.
func validateShareProcessNamespace(spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	if spec.ShareProcessNamespace != nil && spec.HostPID && *spec.ShareProcessNamespace {
		return field.ErrorList{field.Invalid(fldPath.Child("shareProcessNamespace"), *spec.ShareProcessNamespace, "ShareProcessNamespace and HostPID cannot both be enabled")}
	}
	return nil
}

// validatePodDNSConfig: nameservers required with dnsPolicy None; limits on nameservers
// and search domains; named options.
func validatePodDNSConfig(cfg *api.PodDNSConfig, policy *api.DNSPolicy, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	if policy != nil && *policy == api.DNSNone {
		if cfg == nil {
			return field.ErrorList{field.Required(fldPath, fmt.Sprintf("must provide `dnsConfig` when `dnsPolicy` is %s", api.DNSNone))}
		}
		if len(cfg.Nameservers) == 0 {
			return field.ErrorList{field.Required(fldPath.Child("nameservers"), fmt.Sprintf("must provide at least one DNS nameserver when `dnsPolicy` is %s", api.DNSNone))}
		}
	}
	if cfg == nil {
		return nil
	}
	var errs field.ErrorList
	if len(cfg.Nameservers) > maxDNSNameservers {
		errs = append(errs, field.Invalid(fldPath.Child("nameservers"), cfg.Nameservers, fmt.Sprintf("must not have more than %v nameservers", maxDNSNameservers)))
	}
	for i, ns := range cfg.Nameservers {
		errs = append(errs, IsValidIPForLegacyField(opts.Server, fldPath.Child("nameservers").Index(i), ns, nil)...)
	}
	if len(cfg.Searches) > maxDNSSearchPaths {
		errs = append(errs, field.Invalid(fldPath.Child("searches"), cfg.Searches, fmt.Sprintf("must not have more than %v search paths", maxDNSSearchPaths)))
	}
	if len(strings.Join(cfg.Searches, " ")) > maxDNSSearchListChars {
		errs = append(errs, field.Invalid(fldPath.Child("searches"), cfg.Searches, fmt.Sprintf("must not have more than %v characters (including spaces) in the search list", maxDNSSearchListChars)))
	}
	for i, s := range cfg.Searches {
		if !opts.AllowRelaxedDNSSearchValidation {
			// Kubernetes 1.32 (RelaxedDNSSearchValidation off, and a stored spec without a
			// "." or an underscore): a search domain is a DNS subdomain, its trailing dot
			// taken off.
			errs = append(errs, ValidateDNS1123Subdomain(strings.TrimSuffix(s, "."), fldPath.Child("searches").Index(i))...)
		} else if s != "." {
			errs = append(errs, ValidateDNS1123SubdomainWithUnderScore(strings.TrimSuffix(s, "."), fldPath.Child("searches").Index(i))...)
		}
	}
	for i, o := range cfg.Options {
		if o.Name == "" {
			errs = append(errs, field.Required(fldPath.Child("options").Index(i), "must not be empty"))
		}
	}
	return errs
}

// ValidateHostAliases: each alias has an IP and subdomain host names.
func ValidateHostAliases(aliases []api.HostAlias, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	for i, a := range aliases {
		errs = append(errs, IsValidIPForLegacyField(opts.Server, fldPath.Index(i).Child("ip"), a.IP, nil)...)
		for j, h := range a.Hostnames {
			errs = append(errs, ValidateDNS1123Subdomain(h, fldPath.Index(i).Child("hostnames").Index(j))...)
		}
	}
	return errs
}

// validateSchedulingGates: qualified names, no repeats.
func validateSchedulingGates(gates []api.PodSchedulingGate, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := sets.Set[string]{}
	for i, g := range gates {
		errs = append(errs, ValidateQualifiedName(g.Name, fldPath.Index(i))...)
		if seen.Has(g.Name) {
			errs = append(errs, field.Duplicate(fldPath.Index(i), g.Name))
		}
		seen.Insert(g.Name)
	}
	return errs
}

// validatePodHostNetworkDeps: with hostNetwork, a host port equals its container port
// (for a pod; a template may leave it 0).
func validatePodHostNetworkDeps(spec *api.PodSpec, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	if !spec.HostNetwork {
		return nil
	}
	var errs field.ErrorList
	for i, c := range spec.Containers {
		portsPath := fldPath.Child("containers").Index(i).Child("ports")
		for j, port := range c.Ports {
			if (opts.ResourceIsPod || port.HostPort != 0) && port.HostPort != port.ContainerPort {
				errs = append(errs, field.Invalid(portsPath.Index(j).Child("hostPort"), port.HostPort, "must match `containerPort` when `hostNetwork` is true"))
			}
		}
	}
	return errs
}

// validateHostUsers: a pod in a user namespace shares no other namespace with the host
// and has no block devices.
func validateHostUsers(spec *api.PodSpec, fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	if spec.HostUsers == nil || *spec.HostUsers {
		return nil
	}
	var errs field.ErrorList
	const detail = "when `hostUsers` is false"
	if !opts.AllowUserNamespacesHostNetworkSupport && spec.HostNetwork {
		errs = append(errs, field.Forbidden(fldPath.Child("hostNetwork"), detail))
	}
	if spec.HostPID {
		errs = append(errs, field.Forbidden(fldPath.Child("HostPID"), detail))
	}
	if spec.HostIPC {
		errs = append(errs, field.Forbidden(fldPath.Child("HostIPC"), detail))
	}
	if !opts.AllowUserNamespacesWithVolumeDevices {
		visitContainers(spec, fldPath, func(c *api.Container, cp *field.Path) bool {
			if len(c.VolumeDevices) > 0 {
				errs = append(errs, field.Forbidden(cp.Child("volumeDevices"), detail))
			}
			return true
		})
	}
	return errs
}

// validatePodHostName: hostnameOverride is a subdomain of 64 characters at most, without
// setHostnameAsFQDN or hostNetwork.
func validatePodHostName(spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	h := spec.HostnameOverride
	if h == nil {
		return nil
	}
	var errs field.ErrorList
	p := fldPath.Child("hostnameOverride")
	if spec.SetHostnameAsFQDN != nil && *spec.SetHostnameAsFQDN {
		errs = append(errs, field.Forbidden(p, "may not be specified when setHostnameAsFQDN is true"))
	}
	if spec.HostNetwork {
		errs = append(errs, field.Forbidden(p, "may not be specified when hostNetwork is true"))
	}
	if len(*h) > 64 {
		errs = append(errs, field.TooLong(p, "", 64))
	}
	return append(errs, ValidateDNS1123Subdomain(*h, p)...)
}

// validateFileKeyRefVolumes: an env var read from a file names an emptyDir volume.
func validateFileKeyRefVolumes(spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	sources := make(map[string]*api.VolumeSource, len(spec.Volumes))
	for i := range spec.Volumes {
		sources[spec.Volumes[i].Name] = &spec.Volumes[i].VolumeSource
	}
	visitContainers(spec, fldPath, func(c *api.Container, cp *field.Path) bool {
		for j, env := range c.Env {
			if env.ValueFrom == nil || env.ValueFrom.FileKeyRef == nil {
				continue
			}
			name := env.ValueFrom.FileKeyRef.VolumeName
			p := cp.Child("env").Index(j).Child("valueFrom").Child("fileKeyRef").Child("volumeName")
			if s, ok := sources[name]; !ok {
				errs = append(errs, field.NotFound(p, name))
			} else if s.EmptyDir == nil {
				errs = append(errs, field.Invalid(p, name, "referenced volume must be of type emptyDir"))
			}
		}
		return true
	})
	return errs
}

// validatePodResourceClaims: named, unique, one of a claim or a template; none on a
// mirror (static) pod.
func validatePodResourceClaims(podMeta *metav1.ObjectMeta, claims []api.PodResourceClaim, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := sets.New[string]()
	for i, claim := range claims {
		if podMeta != nil {
			if _, mirror := podMeta.Annotations[api.MirrorPodAnnotationKey]; mirror {
				errs = append(errs, field.Forbidden(field.NewPath(""), "static pods do not support resource claims"))
				continue
			}
		}
		p := fldPath.Index(i)
		switch {
		case claim.Name == "":
			errs = append(errs, field.Required(p.Child("name"), ""))
		case names.Has(claim.Name):
			errs = append(errs, field.Duplicate(p.Child("name"), claim.Name))
		default:
			errs = append(errs, ValidateDNS1123Label(claim.Name, p.Child("name"))...)
			names.Insert(claim.Name)
		}
		if claim.ResourceClaimName != nil && claim.ResourceClaimTemplateName != nil {
			errs = append(errs, field.Invalid(p, claim, "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"))
		}
		if claim.ResourceClaimName == nil && claim.ResourceClaimTemplateName == nil {
			errs = append(errs, field.Invalid(p, claim, "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"))
		}
		if n := claim.ResourceClaimName; n != nil {
			for _, msg := range ValidateResourceClaimName(*n, false) {
				errs = append(errs, field.Invalid(p.Child("resourceClaimName"), *n, msg))
			}
		}
		if n := claim.ResourceClaimTemplateName; n != nil {
			for _, msg := range ValidateResourceClaimTemplateName(*n, false) {
				errs = append(errs, field.Invalid(p.Child("resourceClaimTemplateName"), *n, msg))
			}
		}
	}
	return errs
}

// validatePodResources checks pod-level resources: not on Windows, no claims, valid names
// and quantities, and consistent with the containers'.
func validatePodResources(spec *api.PodSpec, claimNames sets.Set[string], fldPath *field.Path, opts PodValidationOptions) field.ErrorList {
	if spec.Resources == nil {
		return nil
	}
	p := fldPath.Child("resources")
	if spec.OS != nil && spec.OS.Name == api.Windows {
		return field.ErrorList{field.Forbidden(p, "may not be set for a windows pod")}
	}
	var errs field.ErrorList
	if spec.Resources.Claims != nil {
		errs = append(errs, field.Forbidden(p.Child("claims"), "claims may not be set for Resources at pod-level"))
	}
	errs = append(errs, validatePodResourceRequirements(spec.Resources, claimNames, p, opts)...)
	return append(errs, validatePodResourceConsistency(spec, p)...)
}

// validatePodResourceConsistency: pod-level requests cover the containers' aggregate
// requests, pod-level hugepages limits their aggregate limits, and each container's
// limit stays within the pod's.
func validatePodResourceConsistency(spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	requests := aggregateContainerResources(spec, func(c *api.Container) api.ResourceList { return c.Resources.Requests })
	for name, total := range requests {
		podValue, ok := spec.Resources.Requests[name]
		if !ok {
			continue
		}
		if total.Cmp(podValue) > 0 {
			errs = append(errs, field.Invalid(fldPath.Child("requests").Key(string(name)), podValue.String(), fmt.Sprintf("must be greater than or equal to aggregate container requests of %s", total.String())))
		}
	}
	limits := aggregateContainerResources(spec, func(c *api.Container) api.ResourceList { return c.Resources.Limits })
	for name, total := range limits {
		if !isHugePageResourceName(name) {
			continue
		}
		podValue, ok := spec.Resources.Limits[name]
		if !ok {
			continue
		}
		if total.Cmp(podValue) > 0 {
			errs = append(errs, field.Invalid(fldPath.Child("limits").Key(string(name)), podValue.String(), fmt.Sprintf("must be greater than or equal to aggregate container limits of %s", total.String())))
		}
	}
	for i, c := range spec.Containers {
		for name, limit := range c.Resources.Limits {
			podValue, ok := spec.Resources.Limits[name]
			if !ok {
				continue
			}
			if limit.Cmp(podValue) > 0 {
				errs = append(errs, field.Invalid(fldPath.Child("containers").Index(i).Key(string(name)).Child("limits"), limit.String(), fmt.Sprintf("must be less than or equal to pod limits of %s", podValue.String())))
			}
		}
	}
	return errs
}

// aggregateContainerResources is what a pod's containers need together: the regular
// containers and sidecars summed, or the largest need while an init container runs
// (it plus the sidecars started before it), whichever is larger per resource.
func aggregateContainerResources(spec *api.PodSpec, of func(*api.Container) api.ResourceList) api.ResourceList {
	total := api.ResourceList{}
	for i := range spec.Containers {
		addResources(total, of(&spec.Containers[i]))
	}
	sidecars := api.ResourceList{}
	initPeak := api.ResourceList{}
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		own := of(c)
		var need api.ResourceList
		if c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways {
			addResources(total, own)
			addResources(sidecars, own)
			need = sidecars
		} else {
			need = api.ResourceList{}
			addResources(need, own)
			addResources(need, sidecars)
		}
		maxResources(initPeak, need)
	}
	maxResources(total, initPeak)
	return total
}

func addResources(list, more api.ResourceList) {
	for name, q := range more {
		if v, ok := list[name]; ok {
			v.Add(q)
			list[name] = v
		} else {
			list[name] = q.DeepCopy()
		}
	}
}

func maxResources(list, other api.ResourceList) {
	for name, q := range other {
		if v, ok := list[name]; !ok || q.Cmp(v) > 0 {
			list[name] = q.DeepCopy()
		}
	}
}
