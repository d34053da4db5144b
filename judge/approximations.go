package judge

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/schema"
)

// This file finds what a prediction rests on that ssa-diff could not see, each with a
// machine-readable reason (report.Approximation), so that --fail-on approximate can fail
// on them:
//
//   - no-schema: the kind has no schema (no CRD given, none among the inputs, no OpenAPI
//     document), or a CRD version without one; the engine falls back to the deduced type,
//     the same test the engine makes (schema.Registry.Resolve);
//   - openapi-v2: the kind's schema comes from an OpenAPI v2 document;
//   - version-conversion: the live object's managers recorded fields at another served
//     version of the kind, or the live object was read at another version than the
//     manifest's: the engine converts by structure, the server through its internal
//     version;
//   - webhook: a mutating or validating admission webhook the live state declares
//     intercepts the request (its rules, scope and object selector match): it may change
//     or refuse what ssa-diff predicts.

// The reasons of approximations.
const (
	// ReasonNoSchema: the kind has no schema, or its CRD version none; the prediction uses
	// the deduced type.
	ReasonNoSchema = "no-schema"
	// ReasonOpenAPIV2: the kind's schema comes from an OpenAPI v2 document.
	ReasonOpenAPIV2 = "openapi-v2"
	// ReasonVersionConversion: the prediction converts between versions by structure.
	ReasonVersionConversion = "version-conversion"
	// ReasonWebhook: an admission webhook of the live state intercepts the request and may
	// change or refuse it.
	ReasonWebhook = "webhook"
)

// Approximation is one thing a prediction rests on that ssa-diff could not see.
type Approximation struct {
	// Reason is ReasonNoSchema, ReasonOpenAPIV2, ReasonVersionConversion or ReasonWebhook.
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// Approximations are what the prediction of an apply to gvk rests on (manifest and live
// are the request's objects, live nil for a create), and warnings, the prediction's, less
// those an approximation says better (the engine's words for a kind without a schema).
func (j *Judge) Approximations(gvk schema.GVK, manifest, live map[string]any, warnings []string) ([]Approximation, []string) {
	reg := j.Schemas
	if reg == nil {
		return nil, warnings
	}
	var out []Approximation
	add := func(reason, msg string) {
		out = append(out, Approximation{Reason: reason, Message: msg})
	}
	t, known := reg.Lookup(gvk)
	switch {
	case (!known || t.Deduced) && reg.Serving(gvk) == schema.NotServed:
		// Refused before any schema matters (kubectl's "no matches for kind", the
		// server's 404): nothing is approximated.
		_, engineWords := reg.Resolve(gvk)
		warnings = without(warnings, engineWords)
	case !known || t.Deduced:
		// The engine warned with the registry's words; these name the flag that fixes it.
		_, engineWords := reg.Resolve(gvk)
		warnings = without(warnings, engineWords)
		what := "its CustomResourceDefinition with --crd FILE (or an OpenAPI v3 document with --schema FILE)"
		if known {
			what = "a CustomResourceDefinition whose version " + gvk.Version + " has a schema (--crd FILE)"
		}
		add(ReasonNoSchema, fmt.Sprintf("no schema for %s: predicted with the deduced type, under which every list is atomic (owned, replaced and conflicting as a whole), so ownership and conflicts are coarser than on the cluster; give %s", gvkName(gvk), what))
	case t.Source == schema.SourceOpenAPIV2:
		add(ReasonOpenAPIV2, fmt.Sprintf("the schema of %s comes from an OpenAPI v2 document (%s), which carries no defaults and simplified custom schemas: list items keyed by defaulted fields may not match; give the OpenAPI v3 document (/openapi/v3/...) with --schema", gvkName(gvk), t.Origin))
	}
	if live != nil {
		lv := schema.GVKOf(live)
		if lv.Group == gvk.Group && lv.Kind == gvk.Kind && lv.Version != "" && lv.Version != gvk.Version {
			add(ReasonVersionConversion, fmt.Sprintf("the live object was read at %s and the manifest applies %s: ssa-diff converts between them by structure, the server through its internal version", lv.APIVersion(), gvk.APIVersion()))
		}
		byVersion := map[string][]string{}
		md, _ := live["metadata"].(map[string]any)
		entries, _ := md["managedFields"].([]any)
		for _, e := range entries {
			// Only the entries' apiVersion and manager: cheaper than reading them whole.
			em, _ := e.(map[string]any)
			av, _ := em["apiVersion"].(string)
			manager, _ := em["manager"].(string)
			ev := schema.GVKFromAPIVersionKind(av, gvk.Kind)
			if av == "" || ev.Group != gvk.Group || ev.Version == gvk.Version {
				continue
			}
			if _, served := reg.Lookup(ev); !served {
				continue // dropped, as the server drops them: nothing approximate
			}
			byVersion[av] = appendUniqueString(byVersion[av], manager)
		}
		versions := make([]string, 0, len(byVersion))
		for v := range byVersion {
			versions = append(versions, v)
		}
		sort.Strings(versions)
		for _, v := range versions {
			add(ReasonVersionConversion, fmt.Sprintf("managers recorded fields at %s (%s): their ownership is compared after ssa-diff converts the object by structure, where the server converts through its internal version (renamed fields may differ)", v, strings.Join(byVersion[v], ", ")))
		}
	}
	for _, w := range j.Webhooks {
		if msg := w.intercepts(gvk, t, manifest, live); msg != "" {
			add(ReasonWebhook, msg)
		}
	}
	return out, warnings
}

func gvkName(gvk schema.GVK) string {
	if gvk.Group == "" {
		return gvk.Version + " " + gvk.Kind
	}
	return gvk.Group + "/" + gvk.Version + " " + gvk.Kind
}

func without(list, drop []string) []string {
	if len(drop) == 0 {
		return list
	}
	out := list[:0:0]
	for _, s := range list {
		if !containsString(drop, s) {
			out = append(out, s)
		}
	}
	return out
}

func appendUniqueString(list []string, s string) []string {
	if containsString(list, s) {
		return list
	}
	return append(list, s)
}

// Webhook is one admission webhook of a MutatingWebhookConfiguration or
// ValidatingWebhookConfiguration of the live state.
type Webhook struct {
	config, name string
	mutating     bool
	src          string
	rules        []webhookRule
	objectSel    map[string]any // a metav1.LabelSelector, nil for none
	equivalent   bool           // matchPolicy Equivalent: other versions of a resource too
}

type webhookRule struct {
	groups, versions, resources, operations []string
	scope                                   string
}

// LiveObject is an object of the live state, and where it was read (a file and line, as a
// message names it).
type LiveObject struct {
	Object map[string]any
	Source string
}

// IsWebhookConfiguration reports the kinds ReadWebhooks reads.
func IsWebhookConfiguration(gvk schema.GVK) bool {
	return gvk.Group == "admissionregistration.k8s.io" && (gvk.Kind == "MutatingWebhookConfiguration" || gvk.Kind == "ValidatingWebhookConfiguration")
}

// ReadWebhooks reads the admission webhooks of the live objects.
func ReadWebhooks(live []LiveObject) []Webhook {
	var out []Webhook
	for _, o := range live {
		gvk := schema.GVKOf(o.Object)
		if !IsWebhookConfiguration(gvk) {
			continue
		}
		md, _ := o.Object["metadata"].(map[string]any)
		config, _ := md["name"].(string)
		hooks, _ := o.Object["webhooks"].([]any)
		for _, h := range hooks {
			m, _ := h.(map[string]any)
			w := Webhook{config: config, mutating: gvk.Kind == "MutatingWebhookConfiguration", src: o.Source, equivalent: true}
			w.name, _ = m["name"].(string)
			if mp, _ := m["matchPolicy"].(string); mp == "Exact" {
				w.equivalent = false
			}
			w.objectSel, _ = m["objectSelector"].(map[string]any)
			rules, _ := m["rules"].([]any)
			for _, r := range rules {
				rm, _ := r.(map[string]any)
				rule := webhookRule{groups: stringList(rm["apiGroups"]), versions: stringList(rm["apiVersions"]),
					resources: stringList(rm["resources"]), operations: stringList(rm["operations"])}
				rule.scope, _ = rm["scope"].(string)
				w.rules = append(w.rules, rule)
			}
			out = append(out, w)
		}
	}
	return out
}

func stringList(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// intercepts says how the webhook intercepts an apply to gvk ("" when it does not): the
// operation is CREATE when there is no live object, else UPDATE; the resource is the
// main one (the applier's); the object selector is checked against the manifest's and
// the live object's labels, as the server checks the new and the old object.
func (w Webhook) intercepts(gvk schema.GVK, t *schema.Type, manifest, live map[string]any) string {
	op := "CREATE"
	if live != nil {
		op = "UPDATE"
	}
	resource, namespaced := "", false
	if t != nil {
		resource, namespaced = t.Resource, t.Namespaced
	}
	if resource == "" {
		resource = strings.ToLower(gvk.Kind) + "s" // unknown: the usual plural
	}
	matched := false
	for _, r := range w.rules {
		if !anyOf(r.operations, op) || !anyOf(r.groups, gvk.Group) {
			continue
		}
		if !w.equivalent && !anyOf(r.versions, gvk.Version) {
			continue
		}
		if !resourceMatches(r.resources, resource) {
			continue
		}
		switch r.scope {
		case "Namespaced":
			if !namespaced {
				continue
			}
		case "Cluster":
			if namespaced {
				continue
			}
		}
		matched = true
		break
	}
	if !matched {
		return ""
	}
	if w.objectSel != nil && !selectorMatches(w.objectSel, stringMap(manifest, "labels")) && (live == nil || !selectorMatches(w.objectSel, stringMap(live, "labels"))) {
		return ""
	}
	kind, does := "validating", "may refuse it"
	if w.mutating {
		kind, does = "mutating", "may change or refuse it"
	}
	return fmt.Sprintf("the %s admission webhook %q (%s %q, live %s) intercepts this %s and %s: ssa-diff cannot call it", kind, w.name,
		map[bool]string{true: "MutatingWebhookConfiguration", false: "ValidatingWebhookConfiguration"}[w.mutating], w.config, w.src, op, does)
}

func anyOf(list []string, s string) bool {
	for _, x := range list {
		if x == "*" || x == s {
			return true
		}
	}
	return false
}

// resourceMatches reads a rule's resources for the main resource: "*", "resource";
// subresource entries ("*/*", "deployments/status") are not about it.
func resourceMatches(list []string, resource string) bool {
	for _, r := range list {
		if r == "*" || r == resource {
			return true
		}
	}
	return false
}

// selectorMatches evaluates a metav1.LabelSelector (matchLabels and matchExpressions);
// an empty selector matches everything.
func selectorMatches(sel map[string]any, labels map[string]string) bool {
	if ml, ok := sel["matchLabels"].(map[string]any); ok {
		for k, v := range ml {
			if s, _ := v.(string); labels[k] != s {
				return false
			}
		}
	}
	exprs, _ := sel["matchExpressions"].([]any)
	for _, e := range exprs {
		m, _ := e.(map[string]any)
		key, _ := m["key"].(string)
		op, _ := m["operator"].(string)
		values := stringList(m["values"])
		v, has := labels[key]
		switch op {
		case "In":
			if !has || !containsString(values, v) {
				return false
			}
		case "NotIn":
			if has && containsString(values, v) {
				return false
			}
		case "Exists":
			if !has {
				return false
			}
		case "DoesNotExist":
			if has {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// stringMap is an object's metadata labels or annotations, their string values.
func stringMap(obj map[string]any, key string) map[string]string {
	md, _ := obj["metadata"].(map[string]any)
	m, _ := md[key].(map[string]any)
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}
