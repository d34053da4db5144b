package core

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	unversionedvalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// PodValidationOptions are the server's switches for validating a pod spec: feature gates
// at their 1.37 defaults, and leniencies kept for what a stored object already has (an
// update must not be refused for a value that was valid when it was written).
type PodValidationOptions struct {
	AllowInvalidPodDeletionCost                             bool
	AllowInvalidLabelValueInSelector                        bool
	AllowIndivisibleHugePagesValues                         bool
	AllowInvalidTopologySpreadConstraintLabelSelector       bool
	AllowNonLocalProjectedTokenPath                         bool
	AllowNamespacedSysctlsForHostNetAndHostIPC              bool
	ResourceIsPod                                           bool
	AllowRelaxedEnvironmentVariableValidation               bool
	AllowOnlyRecursiveSELinuxChangePolicy                   bool
	PodLevelResourcesEnabled                                bool
	InPlacePodLevelResourcesVerticalScalingEnabled          bool
	InPlacePodVerticalScalingMemoryBackedVolumesEnabled     bool
	AllowSidecarResizePolicy                                bool
	AllowInvalidLabelValueInRequiredNodeAffinity            bool
	AllowMatchLabelKeysInPodTopologySpread                  bool
	AllowMatchLabelKeysInPodTopologySpreadSelectorMerge     bool
	OldPodViolatesMatchLabelKeysValidation                  bool
	OldPodViolatesLegacyMatchLabelKeysValidation            bool
	AllowEnvFilesValidation                                 bool
	AllowContainerRestartPolicyRules                        bool
	AllowExistingRestartContainerForNonSidecarInitContainer bool
	AllowUserNamespacesWithVolumeDevices                    bool
	AllowTaintTolerationComparisonOperators                 bool
	AllowUserNamespacesHostNetworkSupport                   bool
	AllowRestartAllContainers                               bool
	AllowImageVolumeWithDigest                              bool
	AllowEmptyImageVolumeReference                          bool
	AllowSysAdminWhenPrivilegeEscalationFalse               bool
}

// The feature gates the pod options depend on, at their 1.37 defaults.
const (
	podDeletionCostGate                      = true  // PodDeletionCost
	podLevelResourcesGate                    = true  // PodLevelResources
	inPlacePodVerticalScalingGate            = true  // InPlacePodVerticalScaling
	inPlacePodLevelResourcesVerticalScaling  = true  // InPlacePodLevelResourcesVerticalScaling
	inPlacePodVerticalScalingMemoryBacked    = false // InPlacePodVerticalScalingMemoryBackedVolumes
	containerRestartRulesGate                = true  // ContainerRestartRules
	restartAllContainersGate                 = true  // RestartAllContainersOnContainerExits
	imageVolumeWithDigestGate                = false // ImageVolumeWithDigest
	relaxedEnvironmentVariableValidationGate = true  // RelaxedEnvironmentVariableValidation
	envFilesGate                             = true  // EnvFiles
	userNamespacesHostNetworkSupportGate     = false // UserNamespacesHostNetworkSupport
	seLinuxMountGate                         = true  // SELinuxMount
	taintTolerationComparisonOperatorsGate   = false // TaintTolerationComparisonOperators
)

// GetValidationOptionsFromPodSpecAndMeta are the options the server derives for a pod
// spec written over oldPodSpec (nil on a create).
func GetValidationOptionsFromPodSpecAndMeta(podSpec, oldPodSpec *api.PodSpec, podMeta, oldPodMeta *metav1.ObjectMeta) PodValidationOptions {
	opts := PodValidationOptions{
		AllowInvalidPodDeletionCost:                             !podDeletionCostGate,
		PodLevelResourcesEnabled:                                podLevelResourcesGate,
		AllowSidecarResizePolicy:                                inPlacePodVerticalScalingGate,
		AllowMatchLabelKeysInPodTopologySpread:                  matchLabelKeysInPodTopologySpreadGate,
		AllowMatchLabelKeysInPodTopologySpreadSelectorMerge:     matchLabelKeysInPodTopologySpreadSelectorMergeGate,
		InPlacePodLevelResourcesVerticalScalingEnabled:          inPlacePodLevelResourcesVerticalScaling,
		InPlacePodVerticalScalingMemoryBackedVolumesEnabled:     inPlacePodVerticalScalingMemoryBacked,
		AllowContainerRestartPolicyRules:                        containerRestartRulesGate,
		AllowRestartAllContainers:                               restartAllContainersGate,
		AllowImageVolumeWithDigest:                              imageVolumeWithDigestGate,
		AllowExistingRestartContainerForNonSidecarInitContainer: hasRestartContainerForNonSidecarInitContainer(oldPodSpec),
		AllowRelaxedEnvironmentVariableValidation:               relaxedEnvironmentVariableValidationGate,
		AllowEnvFilesValidation:                                 envFilesGate || anyContainer(oldPodSpec, usesFileKeyRef),
		AllowOnlyRecursiveSELinuxChangePolicy:                   !seLinuxMountGate && !(oldPodSpec != nil && oldPodSpec.SecurityContext != nil && oldPodSpec.SecurityContext.SELinuxChangePolicy != nil),
		AllowTaintTolerationComparisonOperators:                 taintTolerationComparisonOperatorsGate || usesComparisonTolerations(oldPodSpec),
	}
	opts.AllowUserNamespacesHostNetworkSupport = userNamespacesHostNetworkSupportGate ||
		(oldPodSpec != nil && oldPodSpec.HostUsers != nil && !*oldPodSpec.HostUsers && oldPodSpec.HostNetwork)
	if oldPodSpec != nil {
		opts.AllowIndivisibleHugePagesValues = usesIndivisibleHugePages(oldPodSpec)
		opts.AllowInvalidLabelValueInSelector = hasInvalidLabelValueInAffinitySelector(oldPodSpec)
		if na := affinityNode(oldPodSpec); na != nil && na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			opts.AllowInvalidLabelValueInRequiredNodeAffinity = hasInvalidLabelValueInNodeSelectorTerms(na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms)
		}
		for _, c := range oldPodSpec.TopologySpreadConstraints {
			if len(unversionedvalidation.ValidateLabelSelector(c.LabelSelector, unversionedvalidation.LabelSelectorValidationOptions{}, nil)) != 0 {
				opts.AllowInvalidTopologySpreadConstraintLabelSelector = true
			}
		}
		if opts.AllowMatchLabelKeysInPodTopologySpread {
			for _, c := range oldPodSpec.TopologySpreadConstraints {
				if opts.AllowMatchLabelKeysInPodTopologySpreadSelectorMerge {
					if len(ValidateMatchLabelKeysAndMismatchLabelKeys(nil, c.MatchLabelKeys, nil, c.LabelSelector)) != 0 {
						opts.OldPodViolatesMatchLabelKeysValidation = true
					}
				} else if len(ValidateMatchLabelKeysInTopologySpread(nil, c.MatchLabelKeys, c.LabelSelector)) != 0 {
					opts.OldPodViolatesLegacyMatchLabelKeysValidation = true
				}
			}
		}
		opts.AllowNonLocalProjectedTokenPath = hasNonLocalProjectedTokenPath(oldPodSpec)
		if sc := oldPodSpec.SecurityContext; sc != nil {
			for _, s := range sc.Sysctls {
				if ValidateHostSysctl(s.Name, oldPodSpec, nil) != nil {
					opts.AllowNamespacedSysctlsForHostNetAndHostIPC = true
					break
				}
			}
		}
		opts.AllowSidecarResizePolicy = opts.AllowSidecarResizePolicy || hasSidecarResizePolicy(oldPodSpec)
		opts.AllowContainerRestartPolicyRules = opts.AllowContainerRestartPolicyRules || restartRulesInUse(oldPodSpec)
		opts.AllowRestartAllContainers = opts.AllowRestartAllContainers || restartAllContainersInUse(oldPodSpec)
		opts.AllowUserNamespacesWithVolumeDevices = oldPodSpec.HostUsers != nil && !*oldPodSpec.HostUsers && anyContainer(oldPodSpec, func(c *api.Container) bool { return len(c.VolumeDevices) > 0 })
		opts.AllowEmptyImageVolumeReference = hasEmptyImageVolumeReference(oldPodSpec)
		opts.AllowSysAdminWhenPrivilegeEscalationFalse = anyContainer(oldPodSpec, sysAdminWithoutEscalation)
	}
	if oldPodMeta != nil && !opts.AllowInvalidPodDeletionCost {
		_, err := deletionCost(oldPodMeta.Annotations)
		opts.AllowInvalidPodDeletionCost = err != nil
	}
	return opts
}

// GetValidationOptionsFromPodTemplate are the options for a pod template written over
// oldTemplate (nil when new; either may be nil).
func GetValidationOptionsFromPodTemplate(template, oldTemplate *api.PodTemplateSpec) PodValidationOptions {
	var spec, oldSpec *api.PodSpec
	var meta, oldMeta *metav1.ObjectMeta
	if template != nil {
		spec, meta = &template.Spec, &template.ObjectMeta
	}
	if oldTemplate != nil {
		oldSpec, oldMeta = &oldTemplate.Spec, &oldTemplate.ObjectMeta
	}
	return GetValidationOptionsFromPodSpecAndMeta(spec, oldSpec, meta, oldMeta)
}

// anyContainer: some init, regular or ephemeral container of spec (nil: none) has the
// property.
func anyContainer(spec *api.PodSpec, has func(*api.Container) bool) bool {
	if spec == nil {
		return false
	}
	found := false
	visitContainers(spec, nil, func(c *api.Container, _ *field.Path) bool {
		found = has(c)
		return !found
	})
	return found
}

func usesFileKeyRef(c *api.Container) bool {
	for _, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.FileKeyRef != nil {
			return true
		}
	}
	return false
}

// sysAdminWithoutEscalation: CAP_SYS_ADMIN added while privilege escalation is not
// explicitly allowed.
func sysAdminWithoutEscalation(c *api.Container) bool {
	sc := c.SecurityContext
	if sc == nil || (sc.AllowPrivilegeEscalation != nil && *sc.AllowPrivilegeEscalation) || sc.Capabilities == nil {
		return false
	}
	for _, cap := range sc.Capabilities.Add {
		if string(cap) == "CAP_SYS_ADMIN" {
			return true
		}
	}
	return false
}

func usesComparisonTolerations(spec *api.PodSpec) bool {
	if spec == nil {
		return false
	}
	for _, t := range spec.Tolerations {
		if t.Operator == api.TolerationOpLt || t.Operator == api.TolerationOpGt {
			return true
		}
	}
	return false
}

func hugePagesIndivisible(list api.ResourceList) bool {
	for name, q := range list {
		if isHugePageResourceName(name) && !hugePageSizeDivides(name, q) {
			return true
		}
	}
	return false
}

func usesIndivisibleHugePages(spec *api.PodSpec) bool {
	return anyContainer(spec, func(c *api.Container) bool {
		return hugePagesIndivisible(c.Resources.Limits) || hugePagesIndivisible(c.Resources.Requests)
	}) || hugePagesIndivisible(spec.Overhead)
}

func hasInvalidLabelValueInAffinitySelector(spec *api.PodSpec) bool {
	a := spec.Affinity
	if a == nil {
		return false
	}
	bad := func(terms []api.PodAffinityTerm, weighted []api.WeightedPodAffinityTerm) bool {
		for _, t := range terms {
			if len(ValidatePodAffinityTermSelector(t, false, nil)) != 0 {
				return true
			}
		}
		for _, t := range weighted {
			if len(ValidatePodAffinityTermSelector(t.PodAffinityTerm, false, nil)) != 0 {
				return true
			}
		}
		return false
	}
	if pa := a.PodAffinity; pa != nil && bad(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution) {
		return true
	}
	if pa := a.PodAntiAffinity; pa != nil && bad(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution) {
		return true
	}
	return false
}

func affinityNode(spec *api.PodSpec) *api.NodeAffinity {
	if spec.Affinity == nil {
		return nil
	}
	return spec.Affinity.NodeAffinity
}

func hasNonLocalProjectedTokenPath(spec *api.PodSpec) bool {
	for _, v := range spec.Volumes {
		if v.Projected == nil {
			continue
		}
		for _, s := range v.Projected.Sources {
			if s.ServiceAccountToken != nil && len(ValidateLocalNonReservedPath(s.ServiceAccountToken.Path, nil)) != 0 {
				return true
			}
		}
	}
	return false
}

func isSidecar(c *api.Container) bool {
	return c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways
}

func hasSidecarResizePolicy(spec *api.PodSpec) bool {
	for i := range spec.InitContainers {
		if isSidecar(&spec.InitContainers[i]) && len(spec.InitContainers[i].ResizePolicy) > 0 {
			return true
		}
	}
	return false
}

func hasRestartContainerForNonSidecarInitContainer(spec *api.PodSpec) bool {
	if spec == nil {
		return false
	}
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if isSidecar(c) {
			continue
		}
		for _, p := range c.ResizePolicy {
			if p.RestartPolicy == api.RestartContainer {
				return true
			}
		}
	}
	return false
}

func restartRulesInUse(spec *api.PodSpec) bool {
	for _, c := range spec.InitContainers {
		if (c.RestartPolicy != nil && *c.RestartPolicy != api.ContainerRestartPolicyAlways) || len(c.RestartPolicyRules) > 0 {
			return true
		}
	}
	for _, c := range spec.Containers {
		if c.RestartPolicy != nil {
			return true
		}
	}
	return false
}

func restartAllContainersInUse(spec *api.PodSpec) bool {
	restartsAll := func(rules []api.ContainerRestartRule) bool {
		for _, r := range rules {
			if r.Action == api.ContainerRestartRuleActionRestartAllContainers {
				return true
			}
		}
		return false
	}
	for _, c := range spec.Containers {
		if restartsAll(c.RestartPolicyRules) {
			return true
		}
	}
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if restartsAll(c.RestartPolicyRules) || (isSidecar(c) && len(c.RestartPolicyRules) > 0) {
			return true
		}
	}
	return false
}

func hasEmptyImageVolumeReference(spec *api.PodSpec) bool {
	for _, v := range spec.Volumes {
		if v.Image != nil && v.Image.Reference == "" {
			return true
		}
	}
	return false
}
