package core

import (
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	unversionedvalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// PodValidationOptions are the server's switches for validating a pod spec: the server
// whose rules apply (its minor and feature gates), and leniencies kept for what a stored
// object already has (an update must not be refused for a value that was valid when it
// was written).
type PodValidationOptions struct {
	// Server is the kube-apiserver whose rules apply: its minor picks the rules that
	// changed between releases, its gates the rules that follow them. It must be set
	// (GetValidationOptionsFromPodSpecAndMeta does).
	Server                                                  *serverconfig.Config
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
	AllowPodLifecycleSleepActionZeroValue                   bool
	AllowRelaxedDNSSearchValidation                         bool
}

// GetValidationOptionsFromPodSpecAndMeta are the options the server cfg derives for a
// pod spec written over oldPodSpec (nil on a create): pkg/api/pod/util.go
// GetValidationOptionsFromPodSpecAndMeta, which reads the gates of cfg.
func GetValidationOptionsFromPodSpecAndMeta(cfg *serverconfig.Config, podSpec, oldPodSpec *api.PodSpec, podMeta, oldPodMeta *metav1.ObjectMeta) PodValidationOptions {
	opts := PodValidationOptions{
		Server:                                              cfg,
		AllowInvalidPodDeletionCost:                         !cfg.Enabled(features.PodDeletionCost),
		PodLevelResourcesEnabled:                            cfg.Enabled(features.PodLevelResources),
		AllowSidecarResizePolicy:                            cfg.Enabled(features.InPlacePodVerticalScaling),
		AllowMatchLabelKeysInPodTopologySpread:              cfg.Enabled(features.MatchLabelKeysInPodTopologySpread),
		AllowMatchLabelKeysInPodTopologySpreadSelectorMerge: cfg.Enabled(features.MatchLabelKeysInPodTopologySpreadSelectorMerge),
		InPlacePodLevelResourcesVerticalScalingEnabled:      cfg.Enabled(features.InPlacePodLevelResourcesVerticalScaling),
		InPlacePodVerticalScalingMemoryBackedVolumesEnabled: cfg.Enabled(features.InPlacePodVerticalScalingMemoryBackedVolumes),
		AllowContainerRestartPolicyRules:                    cfg.Enabled(features.ContainerRestartRules),
		AllowRestartAllContainers:                           cfg.Enabled(features.RestartAllContainersOnContainerExits),
		AllowImageVolumeWithDigest:                          cfg.Enabled(features.ImageVolumeWithDigest),
		AllowRelaxedEnvironmentVariableValidation:           cfg.Enabled(features.RelaxedEnvironmentVariableValidation),
		AllowEnvFilesValidation:                             cfg.Enabled(features.EnvFiles) || anyContainer(oldPodSpec, usesFileKeyRef),
		AllowOnlyRecursiveSELinuxChangePolicy:               !cfg.Enabled(features.SELinuxMount) && !(oldPodSpec != nil && oldPodSpec.SecurityContext != nil && oldPodSpec.SecurityContext.SELinuxChangePolicy != nil),
		AllowTaintTolerationComparisonOperators:             cfg.Enabled(features.TaintTolerationComparisonOperators) || usesComparisonTolerations(oldPodSpec),
		// Kubernetes 1.36 added the refusal of RestartContainer resize policies on
		// non-sidecar init containers, with this leniency (pkg/api/pod/util.go
		// hasRestartContainerForNonSidecarInitContainer, v1.36.3:435); the rule reads the
		// minor (validateInitContainerResizePolicy).
		AllowExistingRestartContainerForNonSidecarInitContainer: hasRestartContainerForNonSidecarInitContainer(oldPodSpec),
	}
	// Kubernetes 1.32: a zero sleep and a search domain "." or with an underscore are
	// refused unless the stored spec has one (PodLifecycleSleepActionAllowZero and
	// RelaxedDNSSearchValidation off; pkg/api/pod/util.go v1.32.13
	// podLifecycleSleepActionZeroValueInUse, useRelaxedDNSSearchValidation). On from 1.33.
	opts.AllowPodLifecycleSleepActionZeroValue = cfg.AtLeast(33) || cfg.Enabled(features.PodLifecycleSleepActionAllowZero) || anyContainer(oldPodSpec, sleepsZero)
	opts.AllowRelaxedDNSSearchValidation = cfg.AtLeast(33) || cfg.Enabled(features.RelaxedDNSSearchValidation) || dotOrUnderscoreSearch(oldPodSpec)
	opts.AllowUserNamespacesHostNetworkSupport = cfg.Enabled(features.UserNamespacesHostNetworkSupport) ||
		(oldPodSpec != nil && oldPodSpec.HostUsers != nil && !*oldPodSpec.HostUsers && oldPodSpec.HostNetwork)
	if oldPodSpec != nil {
		opts.AllowIndivisibleHugePagesValues = usesIndivisibleHugePages(oldPodSpec)
		opts.AllowInvalidLabelValueInSelector = hasInvalidLabelValueInAffinitySelector(oldPodSpec)
		if na := affinityNode(oldPodSpec); na != nil && na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			opts.AllowInvalidLabelValueInRequiredNodeAffinity = hasInvalidLabelValueInNodeSelectorTerms(na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms)
		}
		for _, c := range oldPodSpec.TopologySpreadConstraints {
			if len(wellformed.ValidateLabelSelector(c.LabelSelector, unversionedvalidation.LabelSelectorValidationOptions{}, nil)) != 0 {
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
		// Kubernetes 1.35 added RestartAllContainers (pkg/api/pod/util.go
		// restartAllContainersActionInUse, v1.35.4): 1.34 has no such leniency, and its
		// rules are dropped with ContainerRestartRules off.
		if cfg.AtLeast(35) {
			opts.AllowRestartAllContainers = opts.AllowRestartAllContainers || restartAllContainersInUse(oldPodSpec)
		}
		opts.AllowUserNamespacesWithVolumeDevices = oldPodSpec.HostUsers != nil && !*oldPodSpec.HostUsers && anyContainer(oldPodSpec, func(c *api.Container) bool { return len(c.VolumeDevices) > 0 })
		opts.AllowEmptyImageVolumeReference = hasEmptyImageVolumeReference(oldPodSpec)
		// Kubernetes 1.37 added this leniency (pkg/api/pod/util.go
		// useAllowSysAdminWhenPrivilegeEscalationFalse, v1.37.2:496): up to 1.36 the
		// combination is refused on every write.
		if cfg.AtLeast(37) {
			opts.AllowSysAdminWhenPrivilegeEscalationFalse = anyContainer(oldPodSpec, sysAdminWithoutEscalation)
		}
	}
	if oldPodMeta != nil && !opts.AllowInvalidPodDeletionCost {
		_, err := deletionCost(oldPodMeta.Annotations)
		opts.AllowInvalidPodDeletionCost = err != nil
	}
	return opts
}

// GetValidationOptionsFromPodTemplate are the options of the server cfg for a pod
// template written over oldTemplate (nil when new; either may be nil).
func GetValidationOptionsFromPodTemplate(cfg *serverconfig.Config, template, oldTemplate *api.PodTemplateSpec) PodValidationOptions {
	var spec, oldSpec *api.PodSpec
	var meta, oldMeta *metav1.ObjectMeta
	if template != nil {
		spec, meta = &template.Spec, &template.ObjectMeta
	}
	if oldTemplate != nil {
		oldSpec, oldMeta = &oldTemplate.Spec, &oldTemplate.ObjectMeta
	}
	return GetValidationOptionsFromPodSpecAndMeta(cfg, spec, oldSpec, meta, oldMeta)
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

// sleepsZero: a hook of the container sleeps 0 seconds.
func sleepsZero(c *api.Container) bool {
	l := c.Lifecycle
	return l != nil && (l.PreStop != nil && l.PreStop.Sleep != nil && l.PreStop.Sleep.Seconds == 0 ||
		l.PostStart != nil && l.PostStart.Sleep != nil && l.PostStart.Sleep.Seconds == 0)
}

// dotOrUnderscoreSearch: a search domain of the spec is "." or has an underscore.
func dotOrUnderscoreSearch(spec *api.PodSpec) bool {
	if spec == nil || spec.DNSConfig == nil {
		return false
	}
	for _, s := range spec.DNSConfig.Searches {
		if s == "." || strings.Contains(s, "_") {
			return true
		}
	}
	return false
}
