package core

import (
	"context"
	"fmt"
	"strings"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/api/validate"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The declarative validation 1.37 enforces under a pod spec (standard rules, no stability
// tag): eviction responders (an alpha field the registry keeps only when the stored object
// has it), and in a pod's status the node-allocatable claim statuses and volume health.
// Declarative validation runs on the served (v1) object and skips what an update leaves
// unchanged, level by level.

// declarativeOp is the operation declarative validation runs for old (nil on a create).
func declarativeOp(updating bool) operation.Operation {
	if updating {
		return operation.Operation{Type: operation.Update}
	}
	return operation.Operation{Type: operation.Create}
}

// ValidatePodTemplateSpecDeclarative is the declarative validation of a pod template at
// fldPath (old nil on a create); the caller skips it when the template is unchanged.
func ValidatePodTemplateSpecDeclarative(t, old *api.PodTemplateSpec, fldPath *field.Path) field.ErrorList {
	// Every enforced rule is about eviction responders: without them there is nothing to
	// check, and no need to compare the templates.
	if t == nil || len(t.Spec.EvictionResponders) == 0 {
		return nil
	}
	var oldSpec *api.PodSpec
	if old != nil {
		if equality.Semantic.DeepEqual(*t, *old) {
			return nil
		}
		oldSpec = &old.Spec
	}
	return podSpecDeclarative(&t.Spec, oldSpec, fldPath.Child("spec"))
}

// podSpecDeclarative is the declarative validation of a pod spec (old nil on a create).
func podSpecDeclarative(spec, old *api.PodSpec, fldPath *field.Path) field.ErrorList {
	if len(spec.EvictionResponders) == 0 || old != nil && equality.Semantic.DeepEqual(*spec, *old) {
		return nil
	}
	var oldList []api.EvictionResponder
	if old != nil {
		oldList = old.EvictionResponders
	}
	return validateEvictionRespondersDeclarative(spec.EvictionResponders, oldList, old != nil, fldPath.Child("evictionResponders"))
}

// servedEvictionResponder prints an eviction responder as the served type does.
type servedEvictionResponder struct {
	Name     string `json:"name"`
	Priority *int32 `json:"priority"`
}

// validateEvictionRespondersDeclarative: at most 10, unique names, each with a prefixed
// name outside the reserved domains and a priority in 1000-100000.
func validateEvictionRespondersDeclarative(list, old []api.EvictionResponder, updating bool, fldPath *field.Path) field.ErrorList {
	if updating && equality.Semantic.DeepEqual(list, old) {
		return nil
	}
	ctx, op := context.Background(), declarativeOp(updating)
	if len(list) > MaxPodEvictionResponders {
		return validate.MaxItems(ctx, op, fldPath, list, nil, MaxPodEvictionResponders)
	}
	if len(list) == 0 {
		return nil
	}
	var errs field.ErrorList
	for _, i := range duplicateIndexes(len(list), func(i, j int) bool { return list[i].Name == list[j].Name }) {
		errs = append(errs, field.Duplicate(fldPath.Index(i), servedEvictionResponder{list[i].Name, list[i].Priority}))
	}
	for i := range list {
		r := &list[i]
		var o *api.EvictionResponder
		for j := range old {
			if old[j].Name == r.Name {
				o = &old[j]
				break
			}
		}
		if updating && o != nil && equality.Semantic.DeepEqual(*r, *o) {
			continue
		}
		p := fldPath.Index(i)
		if !(o != nil && updating) {
			// A matched old item has the same name: the name is not checked again.
			if r.Name == "" {
				errs = append(errs, field.Required(p.Child("name"), ""))
			} else {
				errs = append(errs, reservedDomainSuffix(p.Child("name"), r.Name, ".k8s.io", ".kubernetes.io")...)
				errs = append(errs, validate.PrefixedLabelKey(ctx, op, p.Child("name"), &r.Name, nil)...)
			}
		}
		if o != nil && updating && int32PtrEqual(r.Priority, o.Priority) {
			continue
		}
		pp := p.Child("priority")
		if r.Priority == nil {
			errs = append(errs, field.Required(pp, ""))
			continue
		}
		if *r.Priority >= 0 && *r.Priority < 1000 {
			errs = append(errs, field.Invalid(pp, *r.Priority, "priorities 0-999 are reserved for responders with *.k8s.io suffix"))
		}
		errs = append(errs, validate.Maximum(ctx, op, pp, r.Priority, nil, 100000)...)
		errs = append(errs, validate.Minimum(ctx, op, pp, r.Priority, nil, 0)...)
	}
	return errs
}

// MaxPodEvictionResponders is the most eviction responders a pod may have.
const MaxPodEvictionResponders = 10

// reservedDomainSuffix refuses a key whose domain is one of the reserved ones or below.
func reservedDomainSuffix(fldPath *field.Path, value string, suffixes ...string) field.ErrorList {
	domain, _, _ := strings.Cut(value, "/")
	domain = strings.TrimRight(strings.TrimSpace(strings.ToLower(domain)), ".")
	for _, s := range suffixes {
		if strings.HasSuffix(domain, s) || domain == strings.Trim(s, ".") {
			shown := make([]string, len(suffixes))
			for i, r := range suffixes {
				shown[i] = "*" + r
			}
			return field.ErrorList{field.Invalid(fldPath, value, fmt.Sprintf("domain names %s are reserved", strings.Join(shown, ", ")))}
		}
	}
	return nil
}

// duplicateIndexes are the indexes of the items that repeat an earlier one, in order.
func duplicateIndexes(n int, same func(i, j int) bool) []int {
	var dups []int
	seen := make([]bool, n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if !seen[j] && same(i, j) {
				seen[j] = true
			}
		}
	}
	for j, d := range seen {
		if d {
			dups = append(dups, j)
		}
	}
	return dups
}

// podDeclarative is the declarative validation of a Pod: its spec and status.
func podDeclarative(obj, oldObj any) field.ErrorList {
	pod := obj.(*api.Pod)
	var old *api.Pod
	if oldObj != nil {
		old = oldObj.(*api.Pod)
	}
	var oldSpec *api.PodSpec
	var oldStatus *api.PodStatus
	if old != nil {
		oldSpec, oldStatus = &old.Spec, &old.Status
	}
	errs := podSpecDeclarative(&pod.Spec, oldSpec, field.NewPath("spec"))
	return append(errs, podStatusDeclarative(&pod.Status, oldStatus, field.NewPath("status"))...)
}

// podTemplateDeclarative is the declarative validation of a PodTemplate.
func podTemplateDeclarative(obj, oldObj any) field.ErrorList {
	t := obj.(*api.PodTemplate)
	var old *api.PodTemplateSpec
	if oldObj != nil {
		old = &oldObj.(*api.PodTemplate).Template
	}
	return ValidatePodTemplateSpecDeclarative(&t.Template, old, field.NewPath("template"))
}

// servedVolumeHealthCondition, servedPodVolumeHealth and the node-allocatable types print
// status items as the served types do.
type servedVolumeHealthCondition struct {
	Status  api.VolumeHealthStatusType `json:"status"`
	Reason  string                     `json:"reason"`
	Message string                     `json:"message,omitempty"`
}

type servedPodVolumeHealth struct {
	Name               string                        `json:"name"`
	HealthConditions   []servedVolumeHealthCondition `json:"healthConditions,omitempty"`
	LastTransitionTime metav1.Time                   `json:"lastTransitionTime,omitempty"`
}

type servedMappedResources struct {
	Name     api.ResourceName   `json:"name"`
	Quantity *resource.Quantity `json:"quantity"`
}

type servedOverheadResources struct {
	Name         api.ResourceName   `json:"name"`
	PerPod       *resource.Quantity `json:"perPod,omitempty"`
	PerContainer *resource.Quantity `json:"perContainer,omitempty"`
}

type servedNodeAllocatableClaimStatus struct {
	ResourceClaimName string                    `json:"resourceClaimName"`
	Containers        []string                  `json:"containers,omitempty"`
	Mapping           []servedMappedResources   `json:"mapping,omitempty"`
	Overhead          []servedOverheadResources `json:"overhead,omitempty"`
}

func servedConditions(cs []api.VolumeHealthCondition) []servedVolumeHealthCondition {
	if cs == nil {
		return nil
	}
	out := make([]servedVolumeHealthCondition, len(cs))
	for i, c := range cs {
		out[i] = servedVolumeHealthCondition{c.Status, c.Reason, c.Message}
	}
	return out
}

// podStatusDeclarative: node-allocatable claim statuses unique by claim and each valid;
// volume health unique by name and each valid.
func podStatusDeclarative(st, old *api.PodStatus, fldPath *field.Path) field.ErrorList {
	updating := old != nil
	if len(st.NodeAllocatableResourceClaimStatuses) == 0 && len(st.VolumeHealth) == 0 || updating && equality.Semantic.DeepEqual(*st, *old) {
		return nil
	}
	var errs field.ErrorList
	var oldClaims []api.NodeAllocatableResourceClaimStatus
	var oldHealth []api.PodVolumeHealth
	if old != nil {
		oldClaims, oldHealth = old.NodeAllocatableResourceClaimStatuses, old.VolumeHealth
	}
	claims := st.NodeAllocatableResourceClaimStatuses
	if !(updating && equality.Semantic.DeepEqual(claims, oldClaims)) && len(claims) > 0 {
		p := fldPath.Child("nodeAllocatableResourceClaimStatuses")
		for _, i := range duplicateIndexes(len(claims), func(i, j int) bool { return claims[i].ResourceClaimName == claims[j].ResourceClaimName }) {
			errs = append(errs, field.Duplicate(p.Index(i), servedClaimStatus(&claims[i])))
		}
		for i := range claims {
			c := &claims[i]
			var o *api.NodeAllocatableResourceClaimStatus
			for j := range oldClaims {
				if oldClaims[j].ResourceClaimName == c.ResourceClaimName {
					o = &oldClaims[j]
					break
				}
			}
			if updating && o != nil && equality.Semantic.DeepEqual(*c, *o) {
				continue
			}
			errs = append(errs, nodeAllocatableClaimStatusDeclarative(c, o, updating, p.Index(i))...)
		}
	}
	if !(updating && equality.Semantic.DeepEqual(st.VolumeHealth, oldHealth)) && len(st.VolumeHealth) > 0 {
		errs = append(errs, podVolumeHealthDeclarative(st.VolumeHealth, oldHealth, updating, fldPath.Child("volumeHealth"))...)
	}
	return errs
}

func servedClaimStatus(c *api.NodeAllocatableResourceClaimStatus) servedNodeAllocatableClaimStatus {
	out := servedNodeAllocatableClaimStatus{ResourceClaimName: c.ResourceClaimName, Containers: c.Containers}
	if c.Mapping != nil {
		out.Mapping = make([]servedMappedResources, len(c.Mapping))
		for i, m := range c.Mapping {
			out.Mapping[i] = servedMappedResources{m.Name, m.Quantity}
		}
	}
	if c.Overhead != nil {
		out.Overhead = make([]servedOverheadResources, len(c.Overhead))
		for i, o := range c.Overhead {
			out.Overhead[i] = servedOverheadResources{o.Name, o.PerPod, o.PerContainer}
		}
	}
	return out
}

func nodeAllocatableClaimStatusDeclarative(c, o *api.NodeAllocatableResourceClaimStatus, updating bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	correlated := updating && o != nil
	if !(correlated && c.ResourceClaimName == o.ResourceClaimName) && c.ResourceClaimName == "" {
		errs = append(errs, field.Required(p.Child("resourceClaimName"), ""))
	}
	var oldContainers []string
	var oldMapping []api.NodeAllocatableMappedResources
	var oldOverhead []api.NodeAllocatableOverheadResources
	if o != nil {
		oldContainers, oldMapping, oldOverhead = o.Containers, o.Mapping, o.Overhead
	}
	if !(correlated && equality.Semantic.DeepEqual(c.Containers, oldContainers)) && len(c.Containers) > 0 {
		for _, i := range duplicateIndexes(len(c.Containers), func(i, j int) bool { return c.Containers[i] == c.Containers[j] }) {
			errs = append(errs, field.Duplicate(p.Child("containers").Index(i), c.Containers[i]))
		}
	}
	if !(correlated && equality.Semantic.DeepEqual(c.Mapping, oldMapping)) && len(c.Mapping) > 0 {
		mp := p.Child("mapping")
		for _, i := range duplicateIndexes(len(c.Mapping), func(i, j int) bool { return c.Mapping[i].Name == c.Mapping[j].Name }) {
			errs = append(errs, field.Duplicate(mp.Index(i), servedMappedResources{c.Mapping[i].Name, c.Mapping[i].Quantity}))
		}
		for i := range c.Mapping {
			m := &c.Mapping[i]
			var om *api.NodeAllocatableMappedResources
			for j := range oldMapping {
				if oldMapping[j].Name == m.Name {
					om = &oldMapping[j]
					break
				}
			}
			if correlated && om != nil && equality.Semantic.DeepEqual(*m, *om) {
				continue
			}
			itemCorrelated := correlated && om != nil
			if !itemCorrelated && m.Name == "" {
				errs = append(errs, field.Required(mp.Index(i).Child("name"), ""))
			}
			if !(itemCorrelated && equality.Semantic.DeepEqual(m.Quantity, om.Quantity)) && m.Quantity == nil {
				errs = append(errs, field.Required(mp.Index(i).Child("quantity"), ""))
			}
		}
	}
	if !(correlated && equality.Semantic.DeepEqual(c.Overhead, oldOverhead)) && len(c.Overhead) > 0 {
		op := p.Child("overhead")
		for _, i := range duplicateIndexes(len(c.Overhead), func(i, j int) bool { return c.Overhead[i].Name == c.Overhead[j].Name }) {
			o := c.Overhead[i]
			errs = append(errs, field.Duplicate(op.Index(i), servedOverheadResources{o.Name, o.PerPod, o.PerContainer}))
		}
		for i := range c.Overhead {
			ov := &c.Overhead[i]
			var oo *api.NodeAllocatableOverheadResources
			for j := range oldOverhead {
				if oldOverhead[j].Name == ov.Name {
					oo = &oldOverhead[j]
					break
				}
			}
			if correlated && oo != nil && equality.Semantic.DeepEqual(*ov, *oo) {
				continue
			}
			if !(correlated && oo != nil) && ov.Name == "" {
				errs = append(errs, field.Required(op.Index(i).Child("name"), ""))
			}
		}
	}
	return errs
}

var volumeHealthStatusTypes = []api.VolumeHealthStatusType{"DataLoss", "Degraded", "Inaccessible"}

func podVolumeHealthDeclarative(list, old []api.PodVolumeHealth, updating bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, i := range duplicateIndexes(len(list), func(i, j int) bool { return list[i].Name == list[j].Name }) {
		h := list[i]
		errs = append(errs, field.Duplicate(p.Index(i), servedPodVolumeHealth{h.Name, servedConditions(h.HealthConditions), h.LastTransitionTime}))
	}
	for i := range list {
		h := &list[i]
		var o *api.PodVolumeHealth
		for j := range old {
			if old[j].Name == h.Name {
				o = &old[j]
				break
			}
		}
		if updating && o != nil && equality.Semantic.DeepEqual(*h, *o) {
			continue
		}
		correlated := updating && o != nil
		ip := p.Index(i)
		if !correlated && h.Name == "" {
			errs = append(errs, field.Required(ip.Child("name"), ""))
		}
		var oldConds []api.VolumeHealthCondition
		if o != nil {
			oldConds = o.HealthConditions
		}
		if !(correlated && equality.Semantic.DeepEqual(h.HealthConditions, oldConds)) {
			errs = append(errs, volumeHealthConditionsDeclarative(h.HealthConditions, oldConds, correlated, ip.Child("healthConditions"))...)
		}
	}
	return errs
}

// volumeHealthConditionsDeclarative: at most 16, unique by status and reason, each with
// a known status, a reason of 256 bytes at most and a message of 1024.
func volumeHealthConditionsDeclarative(list, old []api.VolumeHealthCondition, updating bool, p *field.Path) field.ErrorList {
	ctx, op := context.Background(), declarativeOp(updating)
	if len(list) > 16 {
		return validate.MaxItems(ctx, op, p, list, nil, 16)
	}
	var errs field.ErrorList
	same := func(a, b *api.VolumeHealthCondition) bool { return a.Status == b.Status && a.Reason == b.Reason }
	for _, i := range duplicateIndexes(len(list), func(i, j int) bool { return same(&list[i], &list[j]) }) {
		c := list[i]
		errs = append(errs, field.Duplicate(p.Index(i), servedVolumeHealthCondition{c.Status, c.Reason, c.Message}))
	}
	for i := range list {
		c := &list[i]
		var o *api.VolumeHealthCondition
		for j := range old {
			if same(&old[j], c) {
				o = &old[j]
				break
			}
		}
		if updating && o != nil && *c == *o {
			continue
		}
		correlated := updating && o != nil
		ip := p.Index(i)
		if !(correlated && c.Status == o.Status) {
			if c.Status == "" {
				errs = append(errs, field.Required(ip.Child("status"), ""))
			} else if !contains(volumeHealthStatusTypes, c.Status) {
				errs = append(errs, field.NotSupported(ip.Child("status"), c.Status, volumeHealthStatusTypes))
			}
		}
		if !(correlated && c.Reason == o.Reason) {
			if c.Reason == "" {
				errs = append(errs, field.Required(ip.Child("reason"), ""))
			} else {
				errs = append(errs, validate.MaxBytes(ctx, op, ip.Child("reason"), &c.Reason, nil, 256)...)
			}
		}
		if !(correlated && c.Message == o.Message) && c.Message != "" {
			errs = append(errs, validate.MaxBytes(ctx, op, ip.Child("message"), &c.Message, nil, 1024)...)
		}
	}
	return errs
}

// persistentVolumeClaimDeclarative is the declarative validation of a claim: its status's
// volume health conditions.
func persistentVolumeClaimDeclarative(obj, oldObj any) field.ErrorList {
	pvc := obj.(*api.PersistentVolumeClaim)
	var old *api.PersistentVolumeClaimStatus
	if oldObj != nil {
		old = &oldObj.(*api.PersistentVolumeClaim).Status
	}
	st := &pvc.Status
	updating := old != nil
	if st.HealthStatus == nil || updating && equality.Semantic.DeepEqual(*st, *old) {
		return nil
	}
	hs := st.HealthStatus
	var oldHS *api.VolumeHealthStatus
	if old != nil {
		oldHS = old.HealthStatus
	}
	if hs == nil || (updating && equality.Semantic.DeepEqual(hs, oldHS)) {
		return nil
	}
	var oldConds []api.VolumeHealthCondition
	if oldHS != nil {
		oldConds = oldHS.HealthConditions
	}
	p := field.NewPath("status", "healthStatus", "healthConditions")
	correlated := updating && oldHS != nil
	if correlated && equality.Semantic.DeepEqual(hs.HealthConditions, oldConds) {
		return nil
	}
	return volumeHealthConditionsDeclarative(hs.HealthConditions, oldConds, correlated, p)
}
