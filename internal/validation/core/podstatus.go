package core

import (
	"fmt"
	"math"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

// Pod: updates through /status.

// ValidatePodStatusUpdate checks a status update: conditions, node name and nominated
// node, immutable QoS class, container state transitions the restart policy allows,
// claim statuses, IPs, container users and allocated resource health.
func ValidatePodStatusUpdate(newPod, oldPod *api.Pod, opts PodValidationOptions) field.ErrorList {
	metaPath := field.NewPath("metadata")
	errs := ValidateObjectMetaUpdate(&newPod.ObjectMeta, &oldPod.ObjectMeta, metaPath)
	errs = append(errs, ValidatePodSpecificAnnotationUpdates(newPod, oldPod, metaPath.Child("annotations"), opts)...)
	p := field.NewPath("status")
	st, oldSt := &newPod.Status, &oldPod.Status
	errs = append(errs, validatePodConditions(st.Conditions, p.Child("conditions"))...)
	if newPod.Spec.NodeName != oldPod.Spec.NodeName {
		errs = append(errs, field.Forbidden(p.Child("nodeName"), "may not be changed directly"))
	}
	if st.NominatedNodeName != oldSt.NominatedNodeName && st.NominatedNodeName != "" {
		for _, msg := range ValidateNodeName(st.NominatedNodeName, false) {
			errs = append(errs, field.Invalid(p.Child("nominatedNodeName"), st.NominatedNodeName, msg))
		}
	}
	if opts.Server.Enabled(features.ClearingNominatedNodeNameAfterBinding) && oldPod.Spec.NodeName != "" && st.NominatedNodeName != "" && st.NominatedNodeName != oldSt.NominatedNodeName {
		errs = append(errs, field.Forbidden(p.Child("nominatedNodeName"), "may not be set on pods that are already bound to a node"))
	}
	if st.ObservedGeneration < 0 {
		errs = append(errs, field.Invalid(p.Child("observedGeneration"), st.ObservedGeneration, "must be a non-negative integer"))
	}
	errs = append(errs, ValidateImmutableField(st.QOSClass, oldSt.QOSClass, p.Child("qosClass"))...)
	errs = append(errs, validateContainerStateTransition(st.ContainerStatuses, oldSt.ContainerStatuses, p.Child("containerStatuses"), oldPod.Spec.Containers, &oldPod.Spec, opts, false)...)
	errs = append(errs, validateContainerStateTransition(st.InitContainerStatuses, oldSt.InitContainerStatuses, p.Child("initContainerStatuses"), oldPod.Spec.InitContainers, &oldPod.Spec, opts, true)...)
	errs = append(errs, validateEphemeralContainerStateTransition(st.EphemeralContainerStatuses, oldSt.EphemeralContainerStatuses, p.Child("ephemeralContainerStatuses"))...)
	errs = append(errs, validatePodResourceClaimStatuses(opts.Server, st.ResourceClaimStatuses, newPod.Spec.ResourceClaims, p.Child("resourceClaimStatuses"))...)
	errs = append(errs, validatePodExtendedResourceClaimStatus(st.ExtendedResourceClaimStatus, &newPod.Spec, p.Child("extendedResourceClaimStatus"))...)
	errs = append(errs, validateNodeAllocatableResourceClaimStatus(st, &newPod.Spec, p.Child("nodeAllocatableResourceClaimStatuses"))...)
	if len(st.VolumeHealth) > 0 {
		errs = append(errs, validatePodVolumeHealth(st.VolumeHealth, &newPod.Spec, p.Child("volumeHealth"))...)
	}
	errs = append(errs, validatePodIPs(newPod, oldPod, opts)...)
	errs = append(errs, validateHostIPs(newPod, oldPod, opts)...)
	errs = append(errs, validateContainerStatusUsers(st.ContainerStatuses, p.Child("containerStatuses"), newPod.Spec.OS, opts)...)
	errs = append(errs, validateContainerStatusUsers(st.InitContainerStatuses, p.Child("initContainerStatuses"), newPod.Spec.OS, opts)...)
	errs = append(errs, validateContainerStatusUsers(st.EphemeralContainerStatuses, p.Child("ephemeralContainerStatuses"), newPod.Spec.OS, opts)...)
	errs = append(errs, validateAllocatedResourcesStatus(st.ContainerStatuses, p.Child("containerStatuses"), newPod.Spec.Containers, st, opts)...)
	errs = append(errs, validateAllocatedResourcesStatus(st.InitContainerStatuses, p.Child("initContainerStatuses"), newPod.Spec.InitContainers, st, opts)...)
	for i, cs := range st.EphemeralContainerStatuses {
		if len(cs.AllocatedResourcesStatus) != 0 {
			errs = append(errs, field.Forbidden(p.Child("ephemeralContainerStatuses").Index(i).Child("allocatedResourcesStatus"), "must not be specified in container status"))
		}
	}
	if opts.AllowImageVolumeWithDigest {
		for _, list := range []struct {
			name     string
			statuses []api.ContainerStatus
		}{{"containerStatuses", st.ContainerStatuses}, {"initContainerStatuses", st.InitContainerStatuses}, {"ephemeralContainerStatuses", st.EphemeralContainerStatuses}} {
			for i, cs := range list.statuses {
				for j, vm := range cs.VolumeMounts {
					errs = append(errs, validateVolumeStatus(vm.VolumeStatus, p.Child(list.name).Index(i).Child("volumeMounts").Index(j).Child("volumeStatus"))...)
				}
			}
		}
	}
	return errs
}

var systemPodConditions = &lazySet[api.PodConditionType]{items: []api.PodConditionType{api.PodScheduled, api.PodReady, api.PodInitialized}}

// validatePodConditions: non-negative observed generations, qualified custom types.
func validatePodConditions(conditions []api.PodCondition, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, c := range conditions {
		if c.ObservedGeneration < 0 {
			errs = append(errs, field.Invalid(fldPath.Index(i).Child("observedGeneration"), c.ObservedGeneration, "must be a non-negative integer"))
		}
		if !systemPodConditions.get().Has(c.Type) {
			errs = append(errs, ValidateQualifiedName(string(c.Type), fldPath.Index(i).Child("Type"))...)
		}
	}
	return errs
}

const terminatedForever = "may not be transitioned to non-terminated state"

// validateContainerStateTransition: a terminated container that may not restart stays
// terminated (restart rules and policies of the old spec decide).
func validateContainerStateTransition(newStatuses, oldStatuses []api.ContainerStatus, fldPath *field.Path, containers []api.Container, spec *api.PodSpec, opts PodValidationOptions, initContainers bool) field.ErrorList {
	var errs field.ErrorList
	rules := opts.AllowContainerRestartPolicyRules
	if !opts.Server.AtLeast(35) {
		// Kubernetes 1.35 made both transitions follow the options
		// (pkg/apis/core/validation/validation.go ValidateContainerStateTransition and
		// ValidateInitContainerStateTransition): 1.34 reads the ContainerRestartRules gate
		// itself for regular containers, and lets no rule decide for init containers.
		rules = !initContainers && opts.Server.Enabled(features.ContainerRestartRules)
	}
	if rules {
		if opts.AllowRestartAllContainers && anyRestartsAllContainers(spec) {
			return nil
		}
		for i, old := range oldStatuses {
			if old.State.Terminated == nil {
				continue
			}
			for _, n := range newStatuses {
				if n.Name != old.Name || n.State.Terminated != nil {
					continue
				}
				allowed := false
				for j := range containers {
					if containers[j].Name == old.Name {
						allowed = containerShouldRestart(opts.Server, &containers[j], spec, old.State.Terminated.ExitCode)
						break
					}
				}
				if !allowed {
					errs = append(errs, field.Forbidden(fldPath.Index(i).Child("state"), terminatedForever))
				}
				break
			}
		}
		return errs
	}
	if spec.RestartPolicy == api.RestartPolicyAlways {
		return nil
	}
	for i, old := range oldStatuses {
		if old.State.Terminated == nil || (old.State.Terminated.ExitCode != 0 && spec.RestartPolicy == api.RestartPolicyOnFailure) {
			continue
		}
		if initContainers && restartableInitContainer(spec, old.Name) {
			continue
		}
		for _, n := range newStatuses {
			if old.Name == n.Name && n.State.Terminated == nil {
				errs = append(errs, field.Forbidden(fldPath.Index(i).Child("state"), terminatedForever))
			}
		}
	}
	return errs
}

func restartableInitContainer(spec *api.PodSpec, name string) bool {
	for i := range spec.InitContainers {
		if spec.InitContainers[i].Name == name {
			return isSidecar(&spec.InitContainers[i])
		}
	}
	return false
}

func anyRestartsAllContainers(spec *api.PodSpec) bool {
	for _, list := range [][]api.Container{spec.InitContainers, spec.Containers} {
		for _, c := range list {
			for _, r := range c.RestartPolicyRules {
				if r.Action == api.ContainerRestartRuleActionRestartAllContainers {
					return true
				}
			}
		}
	}
	return false
}

// containerShouldRestart: the first matching restart rule, else the container's restart
// policy, else the pod's, decides whether a container that exited with exitCode restarts.
func containerShouldRestart(cfg *serverconfig.Config, c *api.Container, spec *api.PodSpec, exitCode int32) bool {
	if c.RestartPolicy != nil {
		for _, rule := range c.RestartPolicyRules {
			if rule.ExitCodes == nil {
				continue
			}
			in := contains(rule.ExitCodes.Values, exitCode)
			matched := (rule.ExitCodes.Operator == api.ContainerRestartRuleOnExitCodesOpIn && in) ||
				(rule.ExitCodes.Operator == api.ContainerRestartRuleOnExitCodesOpNotIn && !in)
			if !matched {
				continue
			}
			if rule.Action == api.ContainerRestartRuleActionRestart || (rule.Action == api.ContainerRestartRuleActionRestartAllContainers && cfg.Enabled(features.RestartAllContainersOnContainerExits)) {
				return true
			}
			break
		}
		switch *c.RestartPolicy {
		case api.ContainerRestartPolicyAlways:
			return true
		case api.ContainerRestartPolicyOnFailure:
			return exitCode != 0
		case api.ContainerRestartPolicyNever:
			return false
		}
	}
	switch spec.RestartPolicy {
	case api.RestartPolicyOnFailure:
		return exitCode != 0
	case api.RestartPolicyNever:
		return false
	}
	return true
}

func validateEphemeralContainerStateTransition(newStatuses, oldStatuses []api.ContainerStatus, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, old := range oldStatuses {
		if old.State.Terminated == nil {
			continue
		}
		for _, n := range newStatuses {
			if old.Name == n.Name && n.State.Terminated == nil {
				errs = append(errs, field.Forbidden(fldPath.Index(i).Child("state"), terminatedForever))
			}
		}
	}
	return errs
}

// validatePodResourceClaimStatuses: each status names a claim of the spec, once.
func validatePodResourceClaimStatuses(cfg *serverconfig.Config, statuses []api.PodResourceClaimStatus, claims []api.PodResourceClaim, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := sets.New[string]()
	for i, s := range statuses {
		p := fldPath.Index(i)
		known := false
		for _, c := range claims {
			if c.Name == s.Name {
				known = true
				break
			}
		}
		if !known {
			errs = append(errs, field.Invalid(p.Child("name"), s.Name, "must match the name of an entry in `spec.resourceClaims`"))
		}
		if seen.Has(s.Name) {
			errs = append(errs, field.Duplicate(p.Child("name"), s.Name))
		} else {
			seen.Insert(s.Name)
		}
		if s.ResourceClaimName != nil {
			// Kubernetes 1.36 put the error on the claim name's field
			// (pkg/apis/core/validation/validation.go validatePodResourceClaimStatuses,
			// v1.35.4:6090 → v1.36.3:6136): before, on the entry's name.
			claimPath := p.Child("resourceClaimName")
			if !cfg.AtLeast(36) {
				claimPath = p.Child("name")
			}
			for _, msg := range ValidateResourceClaimName(*s.ResourceClaimName, false) {
				errs = append(errs, field.Invalid(claimPath, s.ResourceClaimName, msg))
			}
		}
	}
	return errs
}

func isNodeAllocatableResourceName(name api.ResourceName) bool {
	return name == api.ResourceCPU || name == api.ResourceMemory || isHugePageResourceName(name)
}

// validateNodeAllocatableResourceClaimStatus: each status names a claim the pod refers
// to, with node-allocatable resources and non-negative quantities.
func validateNodeAllocatableResourceClaimStatus(st *api.PodStatus, spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, s := range st.NodeAllocatableResourceClaimStatuses {
		p := fldPath.Index(i)
		if s.ResourceClaimName == "" {
			continue
		}
		found := false
		for _, c := range spec.ResourceClaims {
			if c.ResourceClaimName != nil && *c.ResourceClaimName == s.ResourceClaimName {
				found = true
				break
			}
		}
		for _, c := range st.ResourceClaimStatuses {
			if !found && c.ResourceClaimName != nil && *c.ResourceClaimName == s.ResourceClaimName {
				found = true
			}
		}
		if !found {
			errs = append(errs, field.Invalid(p.Child("resourceClaimName"), s.ResourceClaimName, "no mapping found in pod reference"))
		}
		for j, m := range s.Mapping {
			mp := p.Child("mapping").Index(j)
			if !isNodeAllocatableResourceName(m.Name) {
				errs = append(errs, field.Invalid(mp.Child("name"), m.Name, "must be a node allocatable resource name"))
			}
			if m.Quantity != nil && m.Quantity.Sign() < 0 {
				errs = append(errs, field.Invalid(mp.Child("quantity"), m.Quantity.String(), "must be non-negative"))
			}
		}
		for j, o := range s.Overhead {
			op := p.Child("overhead").Index(j)
			if !isNodeAllocatableResourceName(o.Name) {
				errs = append(errs, field.Invalid(op.Child("name"), o.Name, "must be a node allocatable resource name"))
			}
			if o.PerPod == nil && o.PerContainer == nil {
				errs = append(errs, field.Invalid(op, "", "at least one of perPod or perContainer must be set"))
				continue
			}
			if o.PerPod != nil && o.PerPod.Sign() < 0 {
				errs = append(errs, field.Invalid(op.Child("perPod"), o.PerPod.String(), "must be non-negative"))
			}
			if o.PerContainer != nil && o.PerContainer.Sign() < 0 {
				errs = append(errs, field.Invalid(op.Child("perContainer"), o.PerContainer.String(), "must be non-negative"))
			}
		}
	}
	return errs
}

// validatePodExtendedResourceClaimStatus: request mappings name containers and their
// extended resource requests, once each; a valid claim name.
func validatePodExtendedResourceClaimStatus(status *api.PodExtendedResourceClaimStatus, spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	if status == nil {
		return nil
	}
	containers := map[string]*api.Container{}
	for i := range spec.InitContainers {
		containers[spec.InitContainers[i].Name] = &spec.InitContainers[i]
	}
	for i := range spec.Containers {
		containers[spec.Containers[i].Name] = &spec.Containers[i]
	}
	var errs field.ErrorList
	rmPath := fldPath.Child("requestMappings")
	if len(status.RequestMappings) == 0 {
		errs = append(errs, field.Required(rmPath, "at least one request mapping is required"))
	}
	type key struct{ container, resource, request string }
	seen := map[key]bool{}
	for i, rm := range status.RequestMappings {
		p := rmPath.Index(i)
		if c, ok := containers[rm.ContainerName]; ok {
			if _, ok := c.Resources.Requests[api.ResourceName(rm.ResourceName)]; !ok {
				errs = append(errs, field.Invalid(p.Child("resourceName"), rm.ResourceName, "must match the extended resource name of an entry in spec.initContainers.resources.requests or spec.containers.resources.requests"))
			}
		} else {
			errs = append(errs, field.Invalid(p.Child("containerName"), rm.ContainerName, "must match the name of an entry in spec.initContainers.name or spec.containers.name"))
		}
		// The server reports a bad request name on the status's own path.
		errs = append(errs, ValidateDNS1123Label(rm.RequestName, fldPath.Child("requestName"))...)
		k := key{rm.ContainerName, rm.ResourceName, rm.RequestName}
		if seen[k] {
			errs = append(errs, field.Duplicate(p.Child("containerName"), rm.ContainerName),
				field.Duplicate(p.Child("resourceName"), rm.ResourceName),
				field.Duplicate(p.Child("requestName"), rm.RequestName))
		}
		seen[k] = true
	}
	if status.ResourceClaimName == "" {
		errs = append(errs, field.Required(fldPath.Child("resourceClaimName"), ""))
	} else {
		for _, msg := range ValidateResourceClaimName(status.ResourceClaimName, false) {
			errs = append(errs, field.Invalid(fldPath.Child("resourceClaimName"), status.ResourceClaimName, msg))
		}
	}
	return errs
}

// validatePodVolumeHealth: each entry names a volume of the spec; reasons are valid.
func validatePodVolumeHealth(health []api.PodVolumeHealth, spec *api.PodSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := sets.New[string]()
	for _, v := range spec.Volumes {
		names.Insert(v.Name)
	}
	for i, h := range health {
		p := fldPath.Index(i)
		if h.Name != "" && !names.Has(h.Name) {
			errs = append(errs, field.NotFound(p.Child("name"), h.Name))
		}
		errs = append(errs, validateVolumeHealthConditions(h.HealthConditions, p.Child("healthConditions"))...)
	}
	return errs
}

// validatePodIPs: valid IPs (kept ones aside), one per family, the first equal to podIP.
func validatePodIPs(pod, oldPod *api.Pod, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("status", "podIPs")
	var kept []string
	if oldPod != nil {
		kept = make([]string, len(oldPod.Status.PodIPs))
		for i, ip := range oldPod.Status.PodIPs {
			kept[i] = ip.IP
		}
	}
	ips := pod.Status.PodIPs
	for i, ip := range ips {
		errs = append(errs, IsValidIPForLegacyField(opts.Server, p.Index(i), ip.IP, kept)...)
	}
	if len(ips) > 1 {
		list := make([]string, len(ips))
		for i, ip := range ips {
			list[i] = ip.IP
		}
		dual, err := netutils.IsDualStackIPStrings(list)
		if err != nil {
			errs = append(errs, field.InternalError(p, fmt.Errorf("failed to check for dual stack with error:%v", err)))
		}
		if !dual || len(list) > 2 {
			errs = append(errs, field.Invalid(p, ips, "may specify no more than one IP for each IP family"))
		}
	}
	hasIP, hasIPs := pod.Status.PodIP != "", len(ips) > 0
	switch {
	case hasIP != hasIPs:
		errs = append(errs, field.Invalid(p, ips, "podIP and podIPs must either both be set or both be unset"))
	case hasIPs && pod.Status.PodIP != ips[0].IP:
		errs = append(errs, field.Invalid(p.Index(0).Child("ip"), ips[0].IP, "must be equal to `podIP`"))
	}
	return errs
}

// validateHostIPs: the first equal to hostIP, valid IPs (kept ones aside), one per
// family.
func validateHostIPs(pod, oldPod *api.Pod, opts PodValidationOptions) field.ErrorList {
	ips := pod.Status.HostIPs
	if len(ips) == 0 {
		return nil
	}
	var errs field.ErrorList
	p := field.NewPath("status", "hostIPs")
	if pod.Status.HostIP != ips[0].IP {
		errs = append(errs, field.Invalid(p.Index(0).Child("ip"), ips[0].IP, "must be equal to `hostIP`"))
	}
	var kept []string
	if oldPod != nil {
		kept = make([]string, len(oldPod.Status.HostIPs))
		for i, ip := range oldPod.Status.HostIPs {
			kept[i] = ip.IP
		}
	}
	for i, ip := range ips {
		errs = append(errs, IsValidIPForLegacyField(opts.Server, p.Index(i), ip.IP, kept)...)
	}
	if len(ips) > 1 {
		list := make([]string, len(ips))
		for i, ip := range ips {
			list[i] = ip.IP
		}
		dual, err := netutils.IsDualStackIPStrings(list)
		if err != nil {
			errs = append(errs, field.InternalError(p, fmt.Errorf("failed to check for dual stack with error:%v", err)))
		}
		if !dual || len(list) > 2 {
			errs = append(errs, field.Invalid(p, ips, "may specify no more than one IP for each IP family"))
		}
	}
	return errs
}

// validateContainerStatusUsers: no Linux user in a Windows pod; a Linux user's ids in
// range.
func validateContainerStatusUsers(statuses []api.ContainerStatus, fldPath *field.Path, os *api.PodOS, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	osName := api.Linux
	if os != nil {
		osName = os.Name
	}
	for i, cs := range statuses {
		if cs.User == nil || cs.User.Linux == nil {
			continue
		}
		up := fldPath.Index(i).Child("user").Child("linux")
		switch osName {
		case api.Windows:
			errs = append(errs, field.Forbidden(up, "cannot be set for a windows pod"))
		case api.Linux:
			u := cs.User.Linux
			if !opts.Server.AtLeast(37) {
				// Kubernetes 1.37 let a container's user id reach 4294967295
				// (pkg/apis/core/validation/validation.go, v1.36.3:9501 IsValidUserID →
				// v1.37.2:9835-9857): up to 1.36 it is a user id of at most 2147483647.
				for _, msg := range validation.IsValidUserID(u.UID) {
					errs = append(errs, field.Invalid(up.Child("uid"), u.UID, msg))
				}
			} else if u.UID < 0 || u.UID > math.MaxUint32 {
				errs = append(errs, field.Invalid(up.Child("uid"), u.UID, fmt.Sprintf("must be between 0 and %d, inclusive", int64(math.MaxUint32))))
			}
			for _, msg := range validation.IsValidGroupID(u.GID) {
				errs = append(errs, field.Invalid(up.Child("gid"), u.GID, msg))
			}
			for g, gid := range u.SupplementalGroups {
				for _, msg := range validation.IsValidGroupID(gid) {
					errs = append(errs, field.Invalid(up.Child("supplementalGroups").Index(g), gid, msg))
				}
			}
		}
	}
	return errs
}

var resourceHealthValues = &lazySet[api.ResourceHealthStatus]{items: []api.ResourceHealthStatus{api.ResourceHealthStatusHealthy, api.ResourceHealthStatusUnhealthy, api.ResourceHealthStatusUnknown}}

// resourceHealthMessageMaxLength is the longest health message.
const resourceHealthMessageMaxLength = 1024

// validateAllocatedResourcesStatus: each allocated resource names a request or claim of
// its container (when the container exists); health values known, messages non-empty
// and short, resource ids unique.
func validateAllocatedResourcesStatus(statuses []api.ContainerStatus, fldPath *field.Path, containers []api.Container, st *api.PodStatus, opts PodValidationOptions) field.ErrorList {
	var errs field.ErrorList
	for i, cs := range statuses {
		for j, ar := range cs.AllocatedResourcesStatus {
			ap := fldPath.Index(i).Child("allocatedResourcesStatus").Index(j)
			var ctr *api.Container
			for k := range containers {
				if containers[k].Name == cs.Name {
					ctr = &containers[k]
					break
				}
			}
			if ctr != nil {
				found := false
				var detail string
				if strings.HasPrefix(string(ar.Name), "claim:") {
					detail = "must match one of the container's resource claims as 'claim:<claimName>/<requestName>' when container.resources.claims[*].request is set or 'claim:<claimName>' when it is empty"
					// Kubernetes 1.37 reworded this and accepted the names of extended
					// resource claims (pkg/apis/core/validation/validation.go, v1.36.3:9569 →
					// v1.37.2:9908,9970-9993).
					extended := opts.Server.AtLeast(37)
					if !extended {
						detail = "must match one of the container's resource claims in a format 'claim:<claimName>/<request>' or 'claim:<claimName>' if request is empty"
					}
					for _, c := range ctr.Resources.Claims {
						if claimStatusName(c.Name, c.Request) == ar.Name {
							found = true
							break
						}
					}
					if !found && extended {
						found = matchesExtendedResourceClaimStatus(ar.Name, ctr, st.ExtendedResourceClaimStatus)
					}
				} else {
					detail = "must match one of the container's resource requests"
					_, found = ctr.Resources.Requests[ar.Name]
				}
				if !found {
					errs = append(errs, field.Invalid(ap.Child("name"), ar.Name, detail))
				}
			}
			ids := sets.New[api.ResourceID]()
			for k, r := range ar.Resources {
				rp := ap.Child("resources").Index(k)
				if !resourceHealthValues.get().Has(r.Health) {
					errs = append(errs, field.NotSupported(rp.Child("health"), r.Health, sets.List(resourceHealthValues.get())))
				}
				if r.Message != nil {
					if *r.Message == "" {
						errs = append(errs, field.Required(rp.Child("message"), "must be non-empty if specified"))
					} else if len(*r.Message) > resourceHealthMessageMaxLength {
						errs = append(errs, field.TooLong(rp.Child("message"), *r.Message, resourceHealthMessageMaxLength))
					}
				}
				if ids.Has(r.ResourceID) {
					errs = append(errs, field.Duplicate(rp.Child("resourceID"), r.ResourceID))
				} else {
					ids.Insert(r.ResourceID)
				}
			}
		}
	}
	return errs
}

func claimStatusName(claim, request string) api.ResourceName {
	if request == "" {
		return api.ResourceName("claim:" + claim)
	}
	return api.ResourceName("claim:" + claim + "/" + request)
}

// matchesExtendedResourceClaimStatus: "claim:<claim>/<request>" names the extended
// resource claim's request mapped to a non-zero request of the container.
func matchesExtendedResourceClaimStatus(name api.ResourceName, ctr *api.Container, status *api.PodExtendedResourceClaimStatus) bool {
	if status == nil {
		return false
	}
	ref, ok := strings.CutPrefix(string(name), "claim:")
	if !ok {
		return false
	}
	claim, request, hasRequest := strings.Cut(ref, "/")
	if claim == "" || !hasRequest || request == "" || claim != status.ResourceClaimName {
		return false
	}
	for _, m := range status.RequestMappings {
		if m.ContainerName != ctr.Name || m.RequestName != request {
			continue
		}
		if q, ok := ctr.Resources.Requests[api.ResourceName(m.ResourceName)]; ok && !q.IsZero() {
			return true
		}
	}
	return false
}

// validateVolumeStatus: an image volume status has a short image reference.
func validateVolumeStatus(vs *api.VolumeStatus, fldPath *field.Path) field.ErrorList {
	if vs == nil || vs.Image == nil {
		return nil
	}
	var errs field.ErrorList
	p := fldPath.Child("imageVolumeStatus")
	if vs.Image.ImageRef == "" {
		errs = append(errs, field.Required(p.Child("imageRef"), "imageRef must not be empty"))
	}
	if len(vs.Image.ImageRef) > 256 {
		errs = append(errs, field.TooLong(p.Child("imageRef"), vs.Image.ImageRef, 256))
	}
	return errs
}
