package core

import (
	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Pod: a write through /resize (in-place vertical scaling, rules.md sub.resize).
//
// The resize strategy has already put the stored pod back but for the containers' resources
// and resize policies (package internal/strategy), so what is validated here is what a
// resize may change: the containers must be the same ones in the same order, no request or
// limit may disappear, only cpu and memory may move, and the QoS class must stay. The
// server's ValidatePodResize (pkg/apis/core/validation/validation.go) at each minor:
// pod-level resources refused outright in 1.34, resized with
// InPlacePodLevelResourcesVerticalScaling from 1.35; init containers other than sidecars
// resized with InPlacePodVerticalScalingInitContainers from 1.35; node-allocatable
// resource claims refused in 1.36; volumes compared from 1.37
// (InPlacePodVerticalScalingMemoryBackedVolumes).

// ValidatePodResize is the validation of a pod written through /resize.
func ValidatePodResize(newPod, oldPod *api.Pod, opts PodValidationOptions) field.ErrorList {
	cfg := opts.Server
	errs := ValidateObjectMetaUpdate(&newPod.ObjectMeta, &oldPod.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validatePodMetadataAndSpec(newPod, opts)...)
	podLevel := func(p *api.Pod) bool {
		return p.Spec.Resources != nil && len(p.Spec.Resources.Requests)+len(p.Spec.Resources.Limits) > 0
	}
	if !cfg.AtLeast(35) && (podLevel(oldPod) || podLevel(newPod)) {
		// 1.34 resizes no pod with pod-level resources, and says nothing else (v1.34.4
		// validation.go ValidatePodResize; 1.35 resizes them with
		// InPlacePodLevelResourcesVerticalScaling).
		return field.ErrorList{field.Forbidden(field.NewPath(""), "pods with pod-level resources cannot be resized")}
	}
	if _, ok := oldPod.Annotations[api.MirrorPodAnnotationKey]; ok {
		return field.ErrorList{field.Forbidden(field.NewPath(""), "static pods cannot be resized")}
	}
	if oldPod.Spec.OS != nil && oldPod.Spec.OS.Name == api.Windows {
		return field.ErrorList{field.Forbidden(field.NewPath(""), "windows pods cannot be resized")}
	}
	specPath := field.NewPath("spec")
	if podQOSClass(cfg, oldPod) != computePodQOS(cfg, newPod) {
		errs = append(errs, field.Invalid(specPath, newPod.Status.QOSClass, "Pod QOS Class may not change as a result of resizing"))
	}
	if !resizeSupportedOnNode(oldPod) {
		errs = append(errs, field.Forbidden(specPath, "Pod running on node without support for resize"))
	}
	// spec is the new spec with what a resize may change set back to the old values, to be
	// compared with the old spec: the parts set back are copies (validators only read).
	spec := newPod.Spec
	spec.Containers = append([]api.Container(nil), newPod.Spec.Containers...)
	spec.InitContainers = append([]api.Container(nil), newPod.Spec.InitContainers...)
	if r := newPod.Spec.Resources; r != nil {
		c := *r
		spec.Resources = &c
	}
	// 1.35 and later: a resize of pod-level resources is taken only with its feature gate.
	if cfg.AtLeast(35) && (podLevel(oldPod) || podLevel(newPod)) {
		if !opts.InPlacePodLevelResourcesVerticalScalingEnabled {
			return append(errs, field.Forbidden(field.NewPath(""), "resize of pods with pod-level resources is forbidden when InPlacePodLevelResourcesVerticalScalingEnabled feature gate is disabled"))
		}
		errs = append(errs, validatePodLevelResize(newPod, oldPod, &spec, specPath)...)
	}
	if cfg.AtLeast(36) && len(oldPod.Status.NodeAllocatableResourceClaimStatuses) > 0 && !cfg.AtLeast(37) {
		// 1.36 alone refused any resize of a pod holding node-allocatable resource claims
		// (v1.36.3 ValidatePodResize part 3; 1.37 checks the pod-level resources cover them).
		errs = append(errs, field.Forbidden(specPath, "pods with node allocatable resource claims cannot be resized"))
	}
	if order := validateResizeOrder(newPod, oldPod, specPath); order != nil {
		return append(errs, order...)
	}
	initResizable := cfg.Enabled(features.InPlacePodVerticalScalingInitContainers)
	for i := range oldPod.Spec.InitContainers {
		if !initResizable && !isSidecar(&oldPod.Spec.InitContainers[i]) {
			continue
		}
		errs = append(errs, validateResourcesKept(&newPod.Spec.InitContainers[i].Resources, &oldPod.Spec.InitContainers[i].Resources,
			specPath.Child("initContainers").Index(i).Child("resources"))...)
	}
	for i := range oldPod.Spec.Containers {
		errs = append(errs, validateResourcesKept(&newPod.Spec.Containers[i].Resources, &oldPod.Spec.Containers[i].Resources,
			specPath.Child("containers").Index(i).Child("resources"))...)
	}
	for i := range spec.Containers {
		c := &spec.Containers[i]
		withOldCPUMemory(c, &oldPod.Spec.Containers[i])
		if !equality.Semantic.DeepEqual(*c, oldPod.Spec.Containers[i]) {
			errs = append(errs, field.Forbidden(specPath, "only cpu and memory resources are mutable"))
		}
	}
	for i := range spec.InitContainers {
		c, old := &spec.InitContainers[i], &oldPod.Spec.InitContainers[i]
		sidecar := isSidecar(c)
		changed := !equality.Semantic.DeepEqual(*c, *old)
		switch {
		case sidecar || initResizable:
			withOldCPUMemory(c, old)
			if !equality.Semantic.DeepEqual(*c, *old) {
				if cfg.AtLeast(35) {
					errs = append(errs, field.Forbidden(specPath.Child("initContainers").Index(i), "only cpu and memory resources for init or sidecar containers are mutable"))
				} else {
					// 1.34 named the spec and sidecars alone (v1.34.4 ValidatePodResize).
					errs = append(errs, field.Forbidden(specPath, "only cpu and memory resources for sidecar containers are mutable"))
				}
			}
			if changed && !sidecar && cfg.AtLeast(35) {
				for _, p := range c.ResizePolicy {
					if p.RestartPolicy == api.RestartContainer {
						errs = append(errs, field.Forbidden(specPath.Child("initContainers").Index(i), "non-sidecar init containers with a resize policy of RestartContainer cannot be resized"))
					}
				}
			}
		case changed:
			errs = append(errs, field.Forbidden(specPath, "resources for non-sidecar init containers are immutable"))
		}
	}
	if opts.InPlacePodVerticalScalingMemoryBackedVolumesEnabled {
		errs = append(errs, validateResizeVolumes(newPod.Spec.Volumes, oldPod.Spec.Volumes)...)
		spec.Volumes = oldPod.Spec.Volumes
	} else if cfg.AtLeast(37) && !equality.Semantic.DeepEqual(newPod.Spec.Volumes, oldPod.Spec.Volumes) { // 1.37: volumes immutable on resize
		errs = append(errs, field.Forbidden(specPath.Child("volumes"), "volumes are immutable on resize when InPlacePodVerticalScalingMemoryBackedVolumes feature gate is disabled"))
	}
	if len(errs) > 0 {
		return errs
	}
	if !equality.Semantic.DeepEqual(spec, oldPod.Spec) {
		errs = append(errs, field.Forbidden(specPath, "only cpu and memory resources are mutable"))
	}
	return errs
}

// resizeSupportedOnNode: a pod with a running container reports that container's
// resources when its node resizes in place; one without, or with no running container,
// is taken to be on such a node.
func resizeSupportedOnNode(pod *api.Pod) bool {
	for _, c := range pod.Status.ContainerStatuses {
		if c.State.Running != nil {
			return c.Resources != nil
		}
	}
	return true
}

// validateResizeOrder: a resize neither adds, removes, renames nor reorders containers.
func validateResizeOrder(newPod, oldPod *api.Pod, specPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	check := func(list, oldList []api.Container, name string) {
		if len(list) != len(oldList) {
			errs = append(errs, field.Forbidden(specPath.Child(name), name+" may not be added or removed on resize"))
			return
		}
		for i := range oldList {
			if list[i].Name != oldList[i].Name {
				errs = append(errs, field.Forbidden(specPath.Child(name).Index(i).Child("name"), name+" may not be renamed or reordered on resize"))
			}
		}
	}
	check(newPod.Spec.Containers, oldPod.Spec.Containers, "containers")
	check(newPod.Spec.InitContainers, oldPod.Spec.InitContainers, "initContainers")
	return errs
}

// validateResourcesKept: a resize removes no request and no limit.
func validateResourcesKept(res, old *api.ResourceRequirements, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if removedResource(res.Requests, old.Requests) {
		errs = append(errs, field.Forbidden(p.Child("requests"), "resource requests cannot be removed"))
	}
	if removedResource(res.Limits, old.Limits) {
		errs = append(errs, field.Forbidden(p.Child("limits"), "resource limits cannot be removed"))
	}
	return errs
}

func removedResource(list, old api.ResourceList) bool {
	if len(old) > len(list) {
		return true
	}
	for name := range old {
		if _, ok := list[name]; !ok {
			return true
		}
	}
	return false
}

// withOldCPUMemory sets c's cpu and memory requests and limits to old's (absent where old
// has none), so that what is left to compare is what a resize may not change.
func withOldCPUMemory(c, old *api.Container) {
	c.Resources = api.ResourceRequirements{
		Limits:   oldCPUMemory(c.Resources.Limits, old.Resources.Limits),
		Requests: oldCPUMemory(c.Resources.Requests, old.Resources.Requests),
		Claims:   c.Resources.Claims,
	}
}

func oldCPUMemory(list, old api.ResourceList) api.ResourceList {
	if list == nil && old == nil {
		return nil
	}
	out := make(api.ResourceList, len(list))
	for k, v := range list {
		if k != api.ResourceCPU && k != api.ResourceMemory {
			out[k] = v
		}
	}
	for _, k := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
		if v, ok := old[k]; ok {
			out[k] = v
		}
	}
	return out
}

// validatePodLevelResize checks a resize of pod-level resources (1.36 on): none removed,
// only cpu and memory changed. spec's pod-level resources are left as the old ones where
// the change is allowed.
func validatePodLevelResize(newPod, oldPod *api.Pod, spec *api.PodSpec, specPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if oldPod.Spec.Resources != nil && newPod.Spec.Resources == nil {
		return append(errs, field.Forbidden(specPath.Child("resources"), "pod-level resources cannot be removed"))
	}
	if old := oldPod.Spec.Resources; old != nil {
		if removedResource(newPod.Spec.Resources.Requests, old.Requests) {
			errs = append(errs, field.Forbidden(specPath.Child("resources").Child("requests"), "pod-level resource requests cannot be removed"))
		}
		if removedResource(newPod.Spec.Resources.Limits, old.Limits) {
			errs = append(errs, field.Forbidden(specPath.Child("resources").Child("limits"), "pod-level resource limits cannot be removed"))
		}
	}
	if res := spec.Resources; res != nil {
		var oldReqs, oldLims api.ResourceList
		if oldPod.Spec.Resources != nil {
			oldReqs, oldLims = oldPod.Spec.Resources.Requests, oldPod.Spec.Resources.Limits
		}
		res.Requests = oldCPUMemory(res.Requests, oldReqs)
		res.Limits = oldCPUMemory(res.Limits, oldLims)
		if oldPod.Spec.Resources == nil && len(res.Requests) == 0 && len(res.Limits) == 0 && len(res.Claims) == 0 {
			spec.Resources = nil
		}
	}
	if !equality.Semantic.DeepEqual(spec.Resources, oldPod.Spec.Resources) {
		errs = append(errs, field.Forbidden(specPath, "only cpu and memory resources are mutable at pod-level"))
	}
	return errs
}

// validateResizeVolumes (InPlacePodVerticalScalingMemoryBackedVolumes): the same volumes
// in the same order, only a memory-backed emptyDir's sizeLimit changed, and never added or
// removed.
func validateResizeVolumes(vols, old []api.Volume) field.ErrorList {
	var errs field.ErrorList
	if len(vols) != len(old) {
		return append(errs, field.Forbidden(field.NewPath("spec").Child("volumes"), "volumes may not be added or removed on resize"))
	}
	for i := range vols {
		v, o := vols[i], old[i]
		p := field.NewPath("spec").Child("volumes").Index(i)
		if v.Name != o.Name {
			errs = append(errs, field.Forbidden(p.Child("name"), "volumes may not be renamed or reordered on resize"))
			continue
		}
		cmp := v
		if v.EmptyDir != nil && o.EmptyDir != nil {
			ed := *v.EmptyDir
			ed.SizeLimit = o.EmptyDir.SizeLimit
			cmp.EmptyDir = &ed
		}
		if !equality.Semantic.DeepEqual(cmp, o) {
			errs = append(errs, field.Forbidden(p, "only sizeLimit of memory-backed emptyDir volumes is mutable on resize"))
			continue
		}
		if v.EmptyDir == nil || o.EmptyDir == nil {
			continue
		}
		had := o.EmptyDir.SizeLimit != nil && !o.EmptyDir.SizeLimit.IsZero()
		has := v.EmptyDir.SizeLimit != nil && !v.EmptyDir.SizeLimit.IsZero()
		switch {
		case had != has:
			errs = append(errs, field.Forbidden(p.Child("emptyDir").Child("sizeLimit"), "adding or removing sizeLimit on an existing volume is not allowed"))
		case o.EmptyDir.SizeLimit != nil && v.EmptyDir.SizeLimit != nil && o.EmptyDir.SizeLimit.Cmp(*v.EmptyDir.SizeLimit) != 0 &&
			v.EmptyDir.Medium != api.StorageMediumMemory:
			errs = append(errs, field.Forbidden(p.Child("emptyDir").Child("sizeLimit"), "sizeLimit is only mutable for memory-backed emptyDir volumes"))
		}
	}
	return errs
}

// podQOSClass is the class a stored pod has: its status says, else it is computed.
func podQOSClass(cfg *serverconfig.Config, pod *api.Pod) api.PodQOSClass {
	if pod.Status.QOSClass != "" {
		return pod.Status.QOSClass
	}
	return computePodQOS(cfg, pod)
}

// computePodQOS is the QoS class of a pod's spec (the strategy's podQOS on the internal
// type): pod-level resources decide when the pod has them (up to 1.36 whenever
// spec.resources is there; from 1.37, with PodLevelResourcesFixKubeletQOSClass, when they
// name cpu, memory or hugepages); else each container's class, all alike, or Burstable.
func computePodQOS(cfg *serverconfig.Config, pod *api.Pod) api.PodQOSClass {
	if r := pod.Spec.Resources; r != nil && cfg.Enabled(features.PodLevelResources) {
		switch {
		case !cfg.Enabled(features.PodLevelResourcesFixKubeletQOSClass):
			return summedRequirementsQOS(r)
		case podLevelNamed(r):
			return requirementsQOS(r)
		}
	}
	var class api.PodQOSClass
	for _, list := range [][]api.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range list {
			c := requirementsQOS(&list[i].Resources)
			switch {
			case c == api.PodQOSBurstable:
				return c
			case class == "":
				class = c
			case class != c:
				return api.PodQOSBurstable
			}
		}
	}
	if class == "" {
		return api.PodQOSBestEffort
	}
	return class
}

func podLevelNamed(r *api.ResourceRequirements) bool {
	for _, list := range []api.ResourceList{r.Requests, r.Limits} {
		for name := range list {
			if name == api.ResourceCPU || name == api.ResourceMemory || len(name) > 10 && name[:10] == "hugepages-" {
				return true
			}
		}
	}
	return false
}

// requirementsQOS: BestEffort without requests or limits; else cpu and memory each
// BestEffort (zero request and limit), Guaranteed (equal, not zero) or Burstable; both
// alike give their class, else Burstable.
func requirementsQOS(r *api.ResourceRequirements) api.PodQOSClass {
	if len(r.Requests) == 0 && len(r.Limits) == 0 {
		return api.PodQOSBestEffort
	}
	var class api.PodQOSClass
	for _, name := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
		req, lim := r.Requests[name], r.Limits[name]
		c := api.PodQOSGuaranteed
		switch {
		case !req.Equal(lim):
			return api.PodQOSBurstable
		case req.IsZero():
			c = api.PodQOSBestEffort
		}
		if class != "" && class != c {
			return api.PodQOSBurstable
		}
		class = c
	}
	return class
}

// summedRequirementsQOS is the class of pod-level resources before 1.37: BestEffort
// without a positive cpu or memory request or limit; Guaranteed when cpu and memory are
// both limited and each positive request equals its limit; else Burstable.
func summedRequirementsQOS(r *api.ResourceRequirements) api.PodQOSClass {
	positive := func(list api.ResourceList) api.ResourceList {
		out := api.ResourceList{}
		for _, name := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
			if q, ok := list[name]; ok && q.Sign() > 0 {
				out[name] = q
			}
		}
		return out
	}
	reqs, lims := positive(r.Requests), positive(r.Limits)
	if len(reqs) == 0 && len(lims) == 0 {
		return api.PodQOSBestEffort
	}
	if len(lims) != 2 || len(reqs) != len(lims) {
		return api.PodQOSBurstable
	}
	for name, q := range reqs {
		if l, ok := lims[name]; !ok || l.Cmp(q) != 0 {
			return api.PodQOSBurstable
		}
	}
	return api.PodQOSGuaranteed
}
