package advice

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/conversion"
	"github.com/ssa-diff/ssa-diff/schema"
)

// minor is the Kubernetes minor the advice about apiVersions refers to, " 1.37" (with its
// leading space): the minor of the schemas given; without schemas none is named ("").
func (a *analysis) minor() string {
	if a.opts.Schemas != nil {
		return " " + a.opts.Schemas.Minor().String()
	}
	return ""
}

// Retirement says when a built-in apiVersion of a kind stopped being served, or was
// deprecated, and what replaces it.
type Retirement struct {
	Group, Version string
	// Kind is the kind concerned; "" means every kind of the group version.
	Kind string
	// Removed is the release that stopped serving it ("1.25"); "" when it is only deprecated.
	Removed string
	// Deprecated is the release that deprecated it, when known.
	Deprecated string
	// Replacement is the apiVersion to use instead ("policy/v1"), "" when there is none.
	Replacement string
	// Note says what else to know (a renamed field, no replacement at all).
	Note string
}

// Retirements is the table of built-in apiVersions that Kubernetes stopped serving up to the
// newest minor predicted, and of those deprecated but still served. Beta and alpha versions
// superseded by a stable one and not listed here are found from the schemas (see Analyze).
func Retirements() []Retirement {
	return []Retirement{
		{Group: "extensions", Version: "v1beta1", Kind: "Deployment", Removed: "1.16", Replacement: "apps/v1", Note: "spec.selector is required in apps/v1"},
		{Group: "extensions", Version: "v1beta1", Kind: "DaemonSet", Removed: "1.16", Replacement: "apps/v1", Note: "spec.selector is required and updateStrategy defaults to RollingUpdate in apps/v1"},
		{Group: "extensions", Version: "v1beta1", Kind: "ReplicaSet", Removed: "1.16", Replacement: "apps/v1"},
		{Group: "extensions", Version: "v1beta1", Kind: "NetworkPolicy", Removed: "1.16", Replacement: "networking.k8s.io/v1"},
		{Group: "extensions", Version: "v1beta1", Kind: "PodSecurityPolicy", Removed: "1.16", Note: "PodSecurityPolicy is gone since 1.25; use Pod Security Admission (namespace labels)"},
		{Group: "extensions", Version: "v1beta1", Kind: "Ingress", Removed: "1.22", Replacement: "networking.k8s.io/v1", Note: "backends are service.name/service.port in v1 and pathType is required"},
		{Group: "extensions", Version: "v1beta1", Removed: "1.22", Note: "its kinds moved to apps/v1, networking.k8s.io/v1 and policy/v1"},
		{Group: "apps", Version: "v1beta1", Removed: "1.16", Replacement: "apps/v1", Note: "spec.selector is required in apps/v1"},
		{Group: "apps", Version: "v1beta2", Removed: "1.16", Replacement: "apps/v1"},
		{Group: "networking.k8s.io", Version: "v1beta1", Kind: "Ingress", Removed: "1.22", Replacement: "networking.k8s.io/v1", Note: "backends are service.name/service.port in v1 and pathType is required"},
		{Group: "networking.k8s.io", Version: "v1beta1", Kind: "IngressClass", Removed: "1.22", Replacement: "networking.k8s.io/v1"},
		{Group: "admissionregistration.k8s.io", Version: "v1beta1", Kind: "MutatingWebhookConfiguration", Removed: "1.22", Replacement: "admissionregistration.k8s.io/v1", Note: "sideEffects and admissionReviewVersions are required in v1"},
		{Group: "admissionregistration.k8s.io", Version: "v1beta1", Kind: "ValidatingWebhookConfiguration", Removed: "1.22", Replacement: "admissionregistration.k8s.io/v1", Note: "sideEffects and admissionReviewVersions are required in v1"},
		{Group: "apiextensions.k8s.io", Version: "v1beta1", Kind: "CustomResourceDefinition", Removed: "1.22", Replacement: "apiextensions.k8s.io/v1", Note: "v1 requires a structural schema per version"},
		{Group: "apiregistration.k8s.io", Version: "v1beta1", Kind: "APIService", Removed: "1.22", Replacement: "apiregistration.k8s.io/v1"},
		{Group: "authentication.k8s.io", Version: "v1beta1", Kind: "TokenReview", Removed: "1.22", Replacement: "authentication.k8s.io/v1"},
		{Group: "authorization.k8s.io", Version: "v1beta1", Removed: "1.22", Replacement: "authorization.k8s.io/v1"},
		{Group: "certificates.k8s.io", Version: "v1beta1", Kind: "CertificateSigningRequest", Removed: "1.22", Replacement: "certificates.k8s.io/v1", Note: "spec.signerName is required in v1"},
		{Group: "coordination.k8s.io", Version: "v1beta1", Kind: "Lease", Removed: "1.22", Replacement: "coordination.k8s.io/v1"},
		{Group: "rbac.authorization.k8s.io", Version: "v1beta1", Removed: "1.22", Replacement: "rbac.authorization.k8s.io/v1"},
		{Group: "scheduling.k8s.io", Version: "v1beta1", Kind: "PriorityClass", Removed: "1.22", Replacement: "scheduling.k8s.io/v1"},
		{Group: "storage.k8s.io", Version: "v1beta1", Kind: "CSIDriver", Removed: "1.22", Replacement: "storage.k8s.io/v1"},
		{Group: "storage.k8s.io", Version: "v1beta1", Kind: "CSINode", Removed: "1.22", Replacement: "storage.k8s.io/v1"},
		{Group: "storage.k8s.io", Version: "v1beta1", Kind: "StorageClass", Removed: "1.22", Replacement: "storage.k8s.io/v1"},
		{Group: "storage.k8s.io", Version: "v1beta1", Kind: "VolumeAttachment", Removed: "1.22", Replacement: "storage.k8s.io/v1"},
		{Group: "storage.k8s.io", Version: "v1beta1", Kind: "CSIStorageCapacity", Removed: "1.27", Replacement: "storage.k8s.io/v1"},
		{Group: "batch", Version: "v1beta1", Kind: "CronJob", Removed: "1.25", Replacement: "batch/v1"},
		{Group: "discovery.k8s.io", Version: "v1beta1", Kind: "EndpointSlice", Removed: "1.25", Replacement: "discovery.k8s.io/v1", Note: "topology is replaced by nodeName and zone in v1"},
		{Group: "events.k8s.io", Version: "v1beta1", Kind: "Event", Removed: "1.25", Replacement: "events.k8s.io/v1"},
		{Group: "autoscaling", Version: "v2beta1", Kind: "HorizontalPodAutoscaler", Removed: "1.25", Replacement: "autoscaling/v2"},
		{Group: "autoscaling", Version: "v2beta2", Kind: "HorizontalPodAutoscaler", Removed: "1.26", Replacement: "autoscaling/v2"},
		{Group: "policy", Version: "v1beta1", Kind: "PodDisruptionBudget", Removed: "1.25", Replacement: "policy/v1", Note: "an empty selector selects every pod of the namespace in policy/v1"},
		{Group: "policy", Version: "v1beta1", Kind: "PodSecurityPolicy", Removed: "1.25", Note: "PodSecurityPolicy has no replacement kind; use Pod Security Admission (namespace labels)"},
		{Group: "node.k8s.io", Version: "v1beta1", Kind: "RuntimeClass", Removed: "1.25", Replacement: "node.k8s.io/v1"},
		{Group: "flowcontrol.apiserver.k8s.io", Version: "v1alpha1", Removed: "1.21", Replacement: "flowcontrol.apiserver.k8s.io/v1"},
		{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta1", Removed: "1.26", Replacement: "flowcontrol.apiserver.k8s.io/v1"},
		{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta2", Removed: "1.29", Replacement: "flowcontrol.apiserver.k8s.io/v1"},
		{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta3", Removed: "1.32", Replacement: "flowcontrol.apiserver.k8s.io/v1", Note: "limited.assuredConcurrencyShares is nominalConcurrencyShares in v1"},
		{Group: "", Version: "v1", Kind: "ComponentStatus", Deprecated: "1.19", Note: "read component health from their /livez and /readyz endpoints"},
		{Group: "", Version: "v1", Kind: "Endpoints", Deprecated: "1.33", Note: "use EndpointSlice (discovery.k8s.io/v1); the control plane mirrors Endpoints into EndpointSlices"},
	}
}

// RetirementOf finds the table's entry for a group, version and kind.
func RetirementOf(gvk schema.GVK) (Retirement, bool) {
	var groupWide *Retirement
	for _, r := range Retirements() {
		if r.Group != gvk.Group || r.Version != gvk.Version {
			continue
		}
		if r.Kind == gvk.Kind {
			return r, true
		}
		if r.Kind == "" && groupWide == nil {
			rr := r
			groupWide = &rr
		}
	}
	if groupWide != nil {
		return *groupWide, true
	}
	return Retirement{}, false
}

// How apiversion-deprecated ends: for a kind the server writes, and for one it only reads.
const (
	deprecationWarned = ": the server answers every write with a deprecation warning"
	onlyRead          = ": the server only reads it and refuses every write (405 MethodNotAllowed)"
)

// apiVersions: apiversion-removed, apiversion-deprecated and apiversion-mismatch.
func (a *analysis) apiVersions() {
	gvk := schema.GVKOf(a.in.Manifest)
	if gvk.Kind == "" {
		return
	}
	av := gvk.APIVersion()
	if r, ok := RetirementOf(gvk); ok {
		ad := retirementAdvice(gvk, r, a.minor())
		if a.res != nil && a.res.Rejection != nil && a.res.Rejection.Code == 405 {
			// A kind the server only reads: no write reaches the deprecation warning.
			ad.Message = strings.Replace(ad.Message, deprecationWarned, onlyRead, 1)
		}
		a.add(ad)
		if r.Removed != "" {
			return // the request cannot happen; how its managers would convert is moot
		}
	} else if stable, ok := a.supersededBy(gvk); ok {
		a.add(Advice{ID: IDAPIVersionDeprecated, Severity: SeverityInfo,
			Message: fmt.Sprintf("%s %s is a pre-release version superseded by the stable %s: pre-release versions are off by default on new clusters and are removed a few releases after the stable one ships", gvk.Kind, av, stable),
			Fix:     fmt.Sprintf("change apiVersion to %s", stable)})
	}
	a.mismatch(gvk)
}

func retirementAdvice(gvk schema.GVK, r Retirement, minor string) Advice {
	av := gvk.APIVersion()
	var fix string
	switch {
	case r.Replacement == "" && r.Note != "":
		fix = r.Note
	case r.Replacement == "":
		fix = "stop using " + gvk.Kind
	default:
		fix = "change apiVersion to " + r.Replacement
		if r.Note != "" {
			fix += " (" + r.Note + ")"
		}
	}
	if r.Removed == "" {
		msg := fmt.Sprintf("%s %s is deprecated since Kubernetes %s", gvk.Kind, av, r.Deprecated)
		return Advice{ID: IDAPIVersionDeprecated, Severity: SeverityInfo, Message: msg + deprecationWarned, Fix: fix}
	}
	return Advice{ID: IDAPIVersionRemoved, Severity: SeverityWarning,
		Message: fmt.Sprintf("%s %s is not served since Kubernetes %s: a%s server has no such resource, and the apply fails with no matches for kind %q in version %q", gvk.Kind, av, r.Removed, minor, gvk.Kind, av),
		Fix:     fix}
}

// supersededBy finds the stable version of a built-in kind whose manifest uses an alpha or
// beta version.
func (a *analysis) supersededBy(gvk schema.GVK) (string, bool) {
	if a.opts.Schemas == nil || !isPrerelease(gvk.Version) {
		return "", false
	}
	t, ok := a.opts.Schemas.Lookup(gvk)
	if !ok || t.Source != schema.SourceBuiltin {
		return "", false
	}
	for _, g := range a.opts.Schemas.Versions(gvk.Group, gvk.Kind) {
		if !isPrerelease(g.Version) {
			if st, ok := a.opts.Schemas.Lookup(g); ok && st.Source == schema.SourceBuiltin {
				return g.APIVersion(), true
			}
		}
	}
	return "", false
}

func isPrerelease(v string) bool {
	return strings.Contains(v, "alpha") || strings.Contains(v, "beta")
}

// mismatch: the live object's managers recorded their fields at other apiVersions than the
// manifest's (rules.md version.own-version, version.conversion). The server converts their field sets through its internal
// version, and so does the engine where it knows the server's conversion (the built-in
// conversions, a CRD's strategy None): those need no advice. What remains is said: entries
// at versions the server no longer serves, which it drops, and conversions the engine
// makes by structure (a CRD's webhook, a kind known only from an OpenAPI document).
func (a *analysis) mismatch(gvk schema.GVK) {
	if lg := schema.GVKOf(a.live); lg.Kind != "" && (lg.Group != gvk.Group || lg.Kind != gvk.Kind) {
		return // a body of another kind (an autoscaling/v1 Scale to /scale) is no version of the object
	}
	av := gvk.APIVersion()
	dropped, approximate := map[string][]string{}, map[string][]string{}
	for _, key := range sortedKeys(a.before) {
		ref := a.before.Ref(key)
		if ref.APIVersion == "" || ref.APIVersion == av {
			continue
		}
		switch a.conversionTo(gvk, ref.APIVersion) {
		case conversionDropped:
			dropped[ref.APIVersion] = unique(append(dropped[ref.APIVersion], ref.Manager))
		case conversionApproximate:
			approximate[ref.APIVersion] = unique(append(approximate[ref.APIVersion], ref.Manager))
		}
	}
	liveAV, _ := a.live["apiVersion"].(string)
	liveOther := liveAV != "" && liveAV != av && a.conversionTo(gvk, liveAV) == conversionApproximate
	if len(dropped) == 0 && len(approximate) == 0 && !liveOther {
		return
	}
	var parts, managers, targets []string
	for _, v := range sortedStrings(approximate) {
		parts = append(parts, fmt.Sprintf("%s at %s", quoteAll(approximate[v]), v))
		managers = append(managers, approximate[v]...)
		targets = append(targets, v)
	}
	var msg string
	switch {
	case len(parts) > 0:
		msg = fmt.Sprintf("the manifest is %s, but the live object's managers recorded their fields as %s: the server converts their field sets through its internal version, ssa-diff (which does not know that conversion) by structure, so ownership of fields the versions name differently is approximate",
			av, strings.Join(parts, ", "))
	case liveOther:
		msg = fmt.Sprintf("the manifest is %s and the live object was read as %s: the server converts between them; the prediction reads the live object with the manifest's schema", av, liveAV)
		targets = append(targets, liveAV)
	}
	var drops []string
	for _, v := range sortedStrings(dropped) {
		drops = append(drops, fmt.Sprintf("%s at %s", quoteAll(dropped[v]), v))
		managers = append(managers, dropped[v]...)
	}
	if len(drops) > 0 {
		d := fmt.Sprintf("managedFields entries of %s are at versions kube-apiserver%s no longer serves: the server drops them at this write, and their managers own nothing any more", strings.Join(drops, ", "), a.minor())
		if msg == "" {
			msg = d
		} else {
			msg += "; " + d
		}
	}
	fix := "nothing to do, unless those managers still write: they must use a served version"
	if len(targets) > 0 {
		fix = fmt.Sprintf("write the manifest at %s, the version the object's managers use, or check the fields that differ between the versions", targets[0])
	}
	a.add(Advice{ID: IDAPIVersionMismatch, Severity: SeverityWarning, Message: msg, Fix: fix, Managers: unique(managers)})
}

// How the server's conversion of an object to another version of its kind is predicted.
const (
	conversionExact       = iota // as the server does (or no conversion at all)
	conversionDropped            // the server has no such version: entries there are dropped
	conversionApproximate        // by structure, for want of the server's conversion
)

// conversionTo says how the engine converts an object of gvk to the other apiVersion.
func (a *analysis) conversionTo(gvk schema.GVK, apiVersion string) int {
	other := schema.GVKFromAPIVersionKind(apiVersion, gvk.Kind)
	if other.Group != gvk.Group {
		return conversionApproximate
	}
	if a.opts.Schemas == nil {
		if r, ok := RetirementOf(other); ok && r.Removed != "" {
			return conversionDropped
		}
		if builtinConverts(gvk, other) {
			return conversionExact
		}
		return conversionApproximate
	}
	t, ok := a.opts.Schemas.Lookup(other)
	switch {
	case !ok && a.opts.Schemas.Serving(other) == schema.NotServed:
		return conversionDropped
	case !ok:
		return conversionApproximate
	case t.Source == schema.SourceBuiltin && !t.Served:
		return conversionDropped
	case t.Source == schema.SourceBuiltin && builtinConverts(gvk, other):
		return conversionExact
	case t.Source == schema.SourceCRD && t.Conversion == schema.ConversionNone:
		return conversionExact
	}
	return conversionApproximate
}

// builtinConverts reports that package conversion converts the built-in kind between the
// two versions.
func builtinConverts(a, b schema.GVK) bool {
	vs := conversion.Versions(a.Group, a.Kind)
	return slices.Contains(vs, a.Version) && slices.Contains(vs, b.Version)
}

func sortedStrings[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
