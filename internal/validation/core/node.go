package core

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	api "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/features"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	avoidpods "github.com/ssa-diff/ssa-diff/internal/validation/core/avoidpods"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/api/equality"
	metavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

// A feature a node declares: an UpperCamelCase segment, then '/'-separated segments.
var nodeFeatureName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][a-zA-Z0-9]*(\/[a-zA-Z][a-zA-Z0-9]*)*$`) })

// ValidateNode checks a Node (the main resource validates it on updates too): its
// metadata and the annotations the scheduler reads, its taints, the quantities and declared
// features of its status, and its pod CIDRs (one per IP family). Status may be set on
// create; config sources are dropped then (PrepareForCreate).
func ValidateNode(cfg *serverconfig.Config, n *api.Node) field.ErrorList {
	meta := field.NewPath("metadata")
	errs := ValidateObjectMeta(&n.ObjectMeta, false, wellformed.NameIsDNSSubdomain, meta)
	errs = append(errs, nodeAnnotations(n.Annotations, meta.Child("annotations"))...)
	if len(n.Spec.Taints) > 0 {
		// The server names them under metadata.
		errs = append(errs, nodeTaints(n.Spec.Taints, meta.Child("taints"))...)
	}
	errs = append(errs, nodeResources(n)...)
	if swap := n.Status.NodeInfo.Swap; swap != nil && swap.Capacity != nil {
		errs = append(errs, ValidatePositiveField(*swap.Capacity, meta.Child("nodeSwapStatus").Child("capacity"))...)
	}
	errs = append(errs, nodeDeclaredFeatures(cfg, n.Status.DeclaredFeatures, field.NewPath("status", "declaredFeatures"))...)
	if cidrs := n.Spec.PodCIDRs; len(cidrs) > 0 {
		p := field.NewPath("spec", "podCIDRs")
		for i, c := range cidrs {
			errs = append(errs, IsValidCIDRForLegacyField(cfg, p.Index(i), c, nil)...)
		}
		if len(cidrs) > 1 {
			dual, err := netutils.IsDualStackCIDRStrings(cidrs)
			if err != nil {
				errs = append(errs, field.InternalError(p, fmt.Errorf("invalid PodCIDRs. failed to check with dual stack with error:%v", err)))
			}
			if !dual || len(cidrs) > 2 {
				errs = append(errs, field.Invalid(p, cidrs, "may specify no more than one CIDR for each IP family"))
			}
		}
	}
	return errs
}

// ValidateNodeUpdate checks an update of a Node, through the main resource (after
// ValidateNode) or /status: a pod CIDR, once given, and the external ID never change, a
// provider ID is only ever set, and the addresses are unique.
func ValidateNodeUpdate(cfg *serverconfig.Config, n, old *api.Node) field.ErrorList {
	meta := field.NewPath("metadata")
	errs := ValidateObjectMetaUpdate(&n.ObjectMeta, &old.ObjectMeta, meta)
	errs = append(errs, nodeAnnotations(n.Annotations, meta.Child("annotations"))...)
	errs = append(errs, nodeResources(n)...)
	errs = append(errs, nodeDeclaredFeatures(cfg, n.Status.DeclaredFeatures, field.NewPath("status", "declaredFeatures"))...)
	seen := map[api.NodeAddress]bool{}
	for i, a := range n.Status.Addresses {
		if seen[a] {
			errs = append(errs, field.Duplicate(field.NewPath("status", "addresses").Index(i), a))
		}
		seen[a] = true
	}
	if oldCIDRs := old.Spec.PodCIDRs; len(oldCIDRs) > 0 {
		changed := field.Forbidden(field.NewPath("spec", "podCIDRs"), "node updates may not change podCIDR except from \"\" to valid")
		if len(oldCIDRs) != len(n.Spec.PodCIDRs) {
			errs = append(errs, changed)
		} else {
			for i, c := range oldCIDRs {
				if c != n.Spec.PodCIDRs[i] {
					errs = append(errs, changed)
				}
			}
		}
	}
	// Declarative validation has these as alpha rules only: the handwritten ones count.
	providerID := field.NewPath("spec", "providerID")
	if !cfg.AtLeast(37) {
		// Kubernetes 1.37 split the rule in two Invalid errors
		// (pkg/apis/core/validation/validation.go ValidateNodeUpdate, v1.36.3:7385-7387 →
		// v1.37.2:7704-7710): up to 1.36 any change of a set provider ID is one Forbidden.
		if old.Spec.ProviderID != "" && old.Spec.ProviderID != n.Spec.ProviderID {
			errs = append(errs, field.Forbidden(providerID, "node updates may not change providerID except from \"\" to valid"))
		}
	} else if old.Spec.ProviderID != "" && n.Spec.ProviderID != "" && old.Spec.ProviderID != n.Spec.ProviderID {
		errs = append(errs, field.Invalid(providerID, nil, "field cannot be modified once set").WithOrigin("update").MarkCoveredByDeclarative())
	}
	if cfg.AtLeast(37) && old.Spec.ProviderID != "" && n.Spec.ProviderID == "" {
		errs = append(errs, field.Invalid(providerID, nil, "field cannot be cleared once set").WithOrigin("update").MarkCoveredByDeclarative())
	}
	if n.Spec.ConfigSource != nil {
		errs = append(errs, nodeConfigSource(n.Spec.ConfigSource, true, field.NewPath("spec", "configSource"))...)
	}
	if c := n.Status.Config; c != nil {
		p := field.NewPath("status", "config")
		for _, s := range []struct {
			name string
			src  *api.NodeConfigSource
		}{{"assigned", c.Assigned}, {"active", c.Active}, {"lastKnownGood", c.LastKnownGood}} {
			if s.src != nil {
				errs = append(errs, nodeConfigSource(s.src, false, p.Child(s.name))...)
			}
		}
	}
	if len(n.Spec.Taints) > 0 {
		errs = append(errs, nodeTaints(n.Spec.Taints, meta.Child("taints"))...)
	}
	if n.Spec.DoNotUseExternalID != old.Spec.DoNotUseExternalID {
		errs = append(errs, field.Forbidden(field.NewPath("spec", "externalID"), "may not be updated"))
	}
	return errs
}

// nodeResources: the capacity and allocatable quantities are not negative (and whole for
// the resources counted in units).
func nodeResources(n *api.Node) field.ErrorList {
	var errs field.ErrorList
	for k, v := range n.Status.Capacity {
		errs = append(errs, ValidateResourceQuantityValue(k, v, field.NewPath("status", "capacity", string(k)))...)
	}
	for k, v := range n.Status.Allocatable {
		errs = append(errs, ValidateResourceQuantityValue(k, v, field.NewPath("status", "allocatable", string(k)))...)
	}
	return errs
}

// nodeDeclaredFeatures: well-formed names, sorted, each once.
func nodeDeclaredFeatures(cfg *serverconfig.Config, features []string, fldPath *field.Path) field.ErrorList {
	if !cfg.AtLeast(35) {
		// Kubernetes 1.35 added the field and its checks (validateNodeDeclaredFeatures).
		return nil
	}
	var errs field.ErrorList
	for i, f := range features {
		switch {
		case len(f) > validation.DNS1123SubdomainMaxLength:
			errs = append(errs, field.Invalid(fldPath.Index(i), f, fmt.Sprintf("invalid feature name %q: must be no more than %d characters", f, validation.DNS1123SubdomainMaxLength)))
		case !nodeFeatureName().MatchString(f):
			errs = append(errs, field.Invalid(fldPath.Index(i), f, fmt.Sprintf("invalid feature name %q: must start with an UpperCamelCase segment, with subsequent segments separated by '/' (e.g., MyFeature or MyFeature/mySubFeature), and contain only alphanumeric characters and slashes", f)))
		}
		if i+1 < len(features) {
			next := features[i+1]
			if f == next {
				errs = append(errs, field.Duplicate(fldPath.Index(i+1), next))
			} else if f > next {
				errs = append(errs, field.Invalid(fldPath.Index(i+1), next, "list must be sorted alphabetically"))
			}
		}
	}
	return errs
}

// nodeTaints: label-like keys and values, a known effect, and each key once per effect.
func nodeTaints(taints []api.Taint, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	keysByEffect := map[api.TaintEffect]map[string]bool{}
	for i, t := range taints {
		p := fldPath.Index(i)
		errs = append(errs, metavalidation.ValidateLabelName(t.Key, p.Child("key"))...)
		if msgs := wellformed.IsValidLabelValue(t.Value); len(msgs) != 0 {
			errs = append(errs, field.Invalid(p.Child("value"), t.Value, strings.Join(msgs, ";")))
		}
		errs = append(errs, validateTaintEffect(&t.Effect, false, p.Child("effect"))...)
		if keysByEffect[t.Effect][t.Key] {
			dup := field.Duplicate(p, t)
			dup.Detail = "taints must be unique by key and effect pair"
			errs = append(errs, dup)
			continue
		}
		if keysByEffect[t.Effect] == nil {
			keysByEffect[t.Effect] = map[string]bool{}
		}
		keysByEffect[t.Effect][t.Key] = true
	}
	return errs
}

// nodeAnnotations checks the JSON annotations the scheduler once read: taints, and pods to
// avoid.
func nodeAnnotations(annotations map[string]string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if v := annotations[api.TaintsAnnotationKey]; v != "" {
		var taints []api.Taint
		if err := json.Unmarshal([]byte(v), &taints); err != nil {
			errs = append(errs, field.Invalid(fldPath, api.TaintsAnnotationKey, err.Error()))
		} else if len(taints) > 0 {
			errs = append(errs, nodeTaints(taints, fldPath.Child(api.TaintsAnnotationKey))...)
		}
	}
	if v := annotations[api.PreferAvoidPodsAnnotationKey]; v != "" {
		var avoid avoidpods.AvoidPods
		if err := json.Unmarshal([]byte(v), &avoid); err != nil {
			return append(errs, field.Invalid(fldPath.Child("AvoidPods"), api.PreferAvoidPodsAnnotationKey, err.Error()))
		}
		for i, e := range avoid.PreferAvoidPods {
			p := fldPath.Child(api.PreferAvoidPodsAnnotationKey).Index(i).Child("PodSignature")
			switch ctl := e.PodSignature.PodController; {
			case ctl == nil:
				errs = append(errs, field.Required(p, ""))
			case ctl.Controller != nil && !*ctl.Controller:
				errs = append(errs, field.Invalid(p.Child("PodController").Child("Controller"), *ctl.Controller, "must point to a controller"))
			}
			// (A podController without controller makes the server fail: not predicted.)
		}
	}
	return errs
}

// nodeConfigSource checks a (deprecated) kubelet config source: exactly one reference,
// a ConfigMap's, whose uid and resourceVersion a spec must not give (inSpec) and a status
// must.
func nodeConfigSource(src *api.NodeConfigSource, inSpec bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	count := 0
	if cm := src.ConfigMap; cm != nil {
		count++
		p := fldPath.Child("configMap")
		if inSpec {
			if cm.UID != "" {
				errs = append(errs, field.Forbidden(p.Child("uid"), "uid must not be set in spec"))
			}
			if cm.ResourceVersion != "" {
				errs = append(errs, field.Forbidden(p.Child("resourceVersion"), "resourceVersion must not be set in spec"))
			}
		} else {
			if cm.UID == "" {
				errs = append(errs, field.Required(p.Child("uid"), ""))
			}
			if cm.ResourceVersion == "" {
				errs = append(errs, field.Required(p.Child("resourceVersion"), ""))
			}
		}
		if cm.Namespace == "" {
			errs = append(errs, field.Required(p.Child("namespace"), ""))
		} else {
			for _, msg := range wellformed.NameIsDNSLabel(cm.Namespace, false) {
				errs = append(errs, field.Invalid(p.Child("namespace"), cm.Namespace, msg))
			}
		}
		if cm.Name == "" {
			errs = append(errs, field.Required(p.Child("name"), ""))
		} else {
			for _, msg := range wellformed.NameIsDNSSubdomain(cm.Name, false) {
				errs = append(errs, field.Invalid(p.Child("name"), cm.Name, msg))
			}
		}
		if cm.KubeletConfigKey == "" {
			errs = append(errs, field.Required(p.Child("kubeletConfigKey"), ""))
		} else {
			for _, msg := range wellformed.IsConfigMapKey(cm.KubeletConfigKey) {
				errs = append(errs, field.Invalid(p.Child("kubeletConfigKey"), cm.KubeletConfigKey, msg))
			}
		}
	}
	if count != 1 {
		errs = append(errs, field.Invalid(fldPath, src, "exactly one reference subfield must be non-nil"))
	}
	return errs
}

// nodeDeclarative is the declarative validation 1.37 enforces for a Node on the server
// cfg: with the InPlacePodVerticalScalingSchedulerPreemption gate off (alpha, the
// default), a spec may not give podPreemptionPolicy — checked only when the spec and the
// field changed (a stored value is kept: PrepareForUpdate). Its other rules are alpha.
func nodeDeclarative(cfg *serverconfig.Config, obj, old any) field.ErrorList {
	if cfg.Enabled(features.InPlacePodVerticalScalingSchedulerPreemption) {
		return nil
	}
	n := obj.(*api.Node)
	if o, ok := old.(*api.Node); ok && o != nil {
		if equality.Semantic.DeepEqual(n.Spec, o.Spec) || equality.Semantic.DeepEqual(n.Spec.PodPreemptionPolicy, o.Spec.PodPreemptionPolicy) {
			return nil
		}
	}
	if n.Spec.PodPreemptionPolicy != nil {
		return field.ErrorList{field.Forbidden(field.NewPath("spec", "podPreemptionPolicy"), "")}
	}
	return nil
}

// nodeWarnings: deprecated or removed fields, and pod CIDRs written ambiguously.
func nodeWarnings(cfg *serverconfig.Config, n *api.Node) []string {
	var ws []string
	if n.Spec.ConfigSource != nil {
		ws = append(ws, "spec.configSource: the feature is removed")
	}
	if n.Spec.DoNotUseExternalID != "" {
		ws = append(ws, "spec.externalID: this field is deprecated, and is unused by Kubernetes")
	}
	// Kubernetes 1.32: pod CIDRs are not warned of (1.33.13 added GetWarningsForCIDR to
	// pkg/registry/core/node/strategy.go).
	for i, c := range n.Spec.PodCIDRs {
		if !cfg.AtLeast(33) {
			break
		}
		ws = append(ws, validation.GetWarningsForCIDR(field.NewPath("spec", "podCIDRs").Index(i), c)...)
	}
	return ws
}
