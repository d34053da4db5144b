package appliers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/go-openapi/jsonpointer"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// A FluxIgnoreRule is one entry of a Flux Kustomization's spec.ignore
// (kustomize.toolkit.fluxcd.io/v1 IgnoreRule): JSON pointers (RFC 6901) that
// kustomize-controller leaves out of its drift detection, and out of what it applies when
// they drifted, in the objects its Target selects (every object when nil).
type FluxIgnoreRule struct {
	Paths  []string      `json:"paths"`
	Target *FluxSelector `json:"target,omitempty"`
}

// A FluxSelector is an ignore rule's target: regular expressions matched whole against an
// object's API group, version, kind, name and namespace (an empty one matches anything),
// and label selector expressions over its annotations and labels.
type FluxSelector struct {
	Group              string `json:"group,omitempty"`
	Version            string `json:"version,omitempty"`
	Kind               string `json:"kind,omitempty"`
	Name               string `json:"name,omitempty"`
	Namespace          string `json:"namespace,omitempty"`
	AnnotationSelector string `json:"annotationSelector,omitempty"`
	LabelSelector      string `json:"labelSelector,omitempty"`
}

// ParseFluxIgnoreRule reads one rule written as JSON, as the Kustomization writes it
// ({"paths": [...], "target": {...}}), and checks it as kustomize-controller compiles it:
// each regular expression and selector must parse, and each path must be a JSON pointer
// below the object's root.
func ParseFluxIgnoreRule(s string) (FluxIgnoreRule, error) {
	var r FluxIgnoreRule
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return FluxIgnoreRule{}, fmt.Errorf("not an ignore rule ({\"paths\": [\"/spec/replicas\"], \"target\": {\"kind\": \"Deployment\"}}): %w", err)
	}
	if dec.More() {
		return FluxIgnoreRule{}, fmt.Errorf("not an ignore rule: more than one JSON value")
	}
	if _, err := r.compile(); err != nil {
		return FluxIgnoreRule{}, err
	}
	return r, nil
}

// fluxIgnore is spec.ignore as ssa's CompileIgnoreRules keeps it: one list of paths per
// target. The rules without a target share one key there, so of those only the last
// counts; the others keep their order (Flux walks them in a map's order, which decides
// nothing unless two paths remove items of one list).
type fluxIgnore []fluxIgnoreEntry

type fluxIgnoreEntry struct {
	sel   *fluxSelectorRegex // nil: every object
	paths []string
}

type fluxSelectorRegex struct {
	group, version, kind, name, namespace *regexp.Regexp
	labels, annotations                   labels.Selector
}

func compileFluxIgnore(rules []FluxIgnoreRule) (fluxIgnore, error) {
	var out fluxIgnore
	untargeted := -1
	for i, r := range rules {
		sel, err := r.compile()
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		switch {
		case sel != nil:
			out = append(out, fluxIgnoreEntry{sel: sel, paths: r.Paths})
		case untargeted >= 0:
			out[untargeted].paths = r.Paths
		default:
			untargeted = len(out)
			out = append(out, fluxIgnoreEntry{paths: r.Paths})
		}
	}
	return out, nil
}

// compile checks the rule's paths and compiles its target (nil without one).
func (r FluxIgnoreRule) compile() (*fluxSelectorRegex, error) {
	for j, p := range r.Paths {
		if !strings.HasPrefix(p, "/") {
			return nil, fmt.Errorf("paths[%d]: %q is not a JSON pointer below the object's root (it starts with /)", j, p)
		}
		if _, err := jsonpointer.New(p); err != nil {
			return nil, fmt.Errorf("paths[%d]: %w", j, err)
		}
	}
	if r.Target == nil {
		return nil, nil
	}
	sel, err := r.Target.compile()
	if err != nil {
		return nil, fmt.Errorf("target: %w", err)
	}
	return sel, nil
}

func (s *FluxSelector) compile() (*fluxSelectorRegex, error) {
	r := &fluxSelectorRegex{}
	for _, f := range []struct {
		name, expr string
		re         **regexp.Regexp
	}{{"group", s.Group, &r.group}, {"version", s.Version, &r.version}, {"kind", s.Kind, &r.kind}, {"name", s.Name, &r.name}, {"namespace", s.Namespace, &r.namespace}} {
		if f.expr == "" {
			continue
		}
		re, err := regexp.Compile("^(?:" + f.expr + ")$")
		if err != nil {
			return nil, fmt.Errorf("invalid %s regex: %w", f.name, err)
		}
		*f.re = re
	}
	var err error
	if s.LabelSelector != "" {
		if r.labels, err = labels.Parse(s.LabelSelector); err != nil {
			return nil, fmt.Errorf("invalid label selector: %w", err)
		}
	}
	if s.AnnotationSelector != "" {
		if r.annotations, err = labels.Parse(s.AnnotationSelector); err != nil {
			return nil, fmt.Errorf("invalid annotation selector: %w", err)
		}
	}
	return r, nil
}

// matches is ssa's SelectorRegex.MatchUnstructured on a decoded object.
func (s *fluxSelectorRegex) matches(obj map[string]any) bool {
	if s == nil {
		return true
	}
	md := metadataOf(obj)
	apiVersion := unstructured.Str(obj, "apiVersion")
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group, version = "", apiVersion
	}
	for _, f := range []struct {
		re *regexp.Regexp
		s  string
	}{{s.namespace, unstructured.Str(md, "namespace")}, {s.name, unstructured.Str(md, "name")},
		{s.group, group}, {s.version, version}, {s.kind, unstructured.Str(obj, "kind")}} {
		if f.re != nil && !f.re.MatchString(f.s) {
			return false
		}
	}
	if s.labels != nil && !s.labels.Matches(labels.Set(stringMap(obj, "labels"))) {
		return false
	}
	return s.annotations == nil || s.annotations.Matches(labels.Set(stringMap(obj, "annotations")))
}

// paths are the paths of the entries whose target selects obj, in order.
func (ig fluxIgnore) paths(obj map[string]any) []string {
	var out []string
	for _, e := range ig {
		if e.sel.matches(obj) {
			out = append(out, e.paths...)
		}
	}
	return out
}

// without is obj with paths removed as ssa removes them — a JSON patch of remove
// operations, in order, applied with evanphx/json-patch v5 allowing missing paths and
// negative indices — in a copy; obj itself when there are none.
func without(obj map[string]any, paths []string) (map[string]any, error) {
	if len(paths) == 0 {
		return obj, nil
	}
	ops := make([]map[string]string, len(paths))
	for i, p := range paths {
		ops[i] = map[string]string{"op": "remove", "path": p}
	}
	return patchJSON(obj, ops)
}

// patchJSON applies a JSON patch of ops to a copy of obj, decoding the result as the
// client decodes objects.
func patchJSON(obj map[string]any, ops any) (map[string]any, error) {
	if obj == nil {
		return nil, nil
	}
	doc, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(ops)
	if err != nil {
		return nil, err
	}
	patch, err := jsonpatch.DecodePatch(raw)
	if err != nil {
		return nil, err
	}
	out, err := patch.ApplyWithOptions(doc, &jsonpatch.ApplyOptions{SupportNegativeIndices: true, AllowMissingPathOnRemove: true})
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return unstructured.CopyAsDecoded(m), nil
}

// fluxDriftedIgnoring is ssa's hasDriftedWithIgnore: fluxDrifted on copies of both
// objects without the paths the rules name for the dry-run result.
func fluxDriftedIgnoring(live, dry map[string]any, ig fluxIgnore) (bool, error) {
	if len(ig) == 0 || dry == nil {
		return fluxDrifted(live, dry), nil
	}
	paths := ig.paths(dry)
	a, err := without(live, paths)
	if err != nil {
		return false, err
	}
	b, err := without(dry, paths)
	if err != nil {
		return false, err
	}
	return fluxDrifted(a, b), nil
}

// fluxIgnoredPayload is the manifest kustomize-controller applies to an existing object
// under ignore rules (ssa computeDriftedPaths, then applyDriftResult): of each path the
// rules name for the dry-run result whose value differs between the live object and the
// dry-run result, the field is left out when an Apply entry of another manager (of the
// main resource) owns it, and otherwise set to the live value (when the manifest has it).
// The paths left out and those set to the live value are named.
func fluxIgnoredPayload(cfg, live, dry map[string]any, ig fluxIgnore, manager string) (payload map[string]any, stripped, adopted []string, err error) {
	var replace []map[string]any
	applied := appliedEntries(live)
	for _, p := range ig.paths(dry) {
		lv, lok := lookupPointer(live, p)
		dv, dok := lookupPointer(dry, p)
		// apimachinery's semantic equality, on decoded JSON: an empty object or list is never
		// a nil one there, a null only equals a null, numbers of different types differ.
		if lok == dok && unstructured.Equal(lv, dv) {
			continue
		}
		if ownedByAnotherApplier(live, applied, p, manager) {
			stripped = append(stripped, p)
			continue
		}
		if _, ok := lookupPointer(cfg, p); ok {
			adopted = append(adopted, p)
			replace = append(replace, map[string]any{"op": "replace", "path": p, "value": lv})
		}
	}
	payload = cfg
	if len(stripped) > 0 {
		if payload, err = without(payload, stripped); err != nil {
			return nil, nil, nil, err
		}
	}
	if len(replace) > 0 {
		if payload, err = patchJSON(payload, replace); err != nil {
			return nil, nil, nil, err
		}
	}
	return payload, stripped, adopted, nil
}

// lookupPointer is the value at a JSON pointer, as go-openapi's jsonpointer finds it.
func lookupPointer(obj map[string]any, p string) (any, bool) {
	ptr, err := jsonpointer.New(p)
	if err != nil {
		return nil, false
	}
	v, _, err := ptr.Get(obj)
	if err != nil {
		return nil, false
	}
	return v, true
}

// ownedByAnotherApplier is ssa's isFieldOwnedByOtherApplyManager: the pointer, written as
// a fieldsV1 path, is in the fields of an Apply entry of the main resource whose manager
// is not manager. A list index becomes the key (k:) of the entries' keys whose fields all
// equal the live item's, compared as decoded JSON (so a key holding a number never
// matches: the item's integer is not the key's float); a pointer that cannot be written
// so is owned by nobody else.
func ownedByAnotherApplier(live map[string]any, applied []appliedFields, p string, manager string) bool {
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	var path []string
	var at any = live
	indexed := false
	for _, raw := range segs {
		seg := strings.ReplaceAll(strings.ReplaceAll(raw, "~1", "/"), "~0", "~")
		idx, err := strconv.Atoi(seg)
		if err != nil {
			path = append(path, "f:"+seg)
			m, _ := at.(map[string]any)
			at = m[seg]
			continue
		}
		// ssa finds the list by the names before the index, so below an index it finds none.
		list, _ := at.([]any)
		if indexed || idx < 0 || idx >= len(list) {
			return false
		}
		indexed = true
		item, ok := list[idx].(map[string]any)
		if !ok {
			return false
		}
		key := ""
		for _, a := range applied {
			node := walkFields(a.fields, path)
			for k := range node {
				if strings.HasPrefix(k, "k:") && keyMatches(item, k) && (key == "" || k < key) {
					key = k
				}
			}
		}
		if key == "" {
			return false
		}
		path = append(path, key)
		at = item
	}
	for _, a := range applied {
		if a.manager != manager && fieldsContain(a.fields, path) {
			return true
		}
	}
	return false
}

// appliedFields are the fields of one Apply entry of the main resource, decoded.
type appliedFields struct {
	manager string
	fields  map[string]any
}

// appliedEntries are ssa's parseManagedFieldsApply: the live object's Apply entries of the
// main resource with their fieldsV1 decoded (entries without, or unreadable, left out).
func appliedEntries(live map[string]any) []appliedFields {
	entries, _, err := fieldpath.EntriesOf(live)
	if err != nil {
		return nil
	}
	var applied []appliedFields
	for _, e := range entries {
		if e.Subresource != "" || e.Operation != fieldpath.OperationApply || len(e.FieldsV1) == 0 {
			continue
		}
		var f map[string]any
		if json.Unmarshal(e.FieldsV1, &f) != nil {
			continue
		}
		applied = append(applied, appliedFields{e.Manager, f})
	}
	return applied
}

// keyMatches reports whether every field of a k: key equals the item's.
func keyMatches(item map[string]any, k string) bool {
	var kv map[string]any
	if json.Unmarshal([]byte(strings.TrimPrefix(k, "k:")), &kv) != nil {
		return false
	}
	for name, v := range kv {
		if !unstructured.Equal(item[name], v) {
			return false
		}
	}
	return true
}

func walkFields(fields map[string]any, path []string) map[string]any {
	for _, seg := range path {
		child, ok := fields[seg].(map[string]any)
		if !ok {
			return nil
		}
		fields = child
	}
	return fields
}

func fieldsContain(fields map[string]any, path []string) bool {
	if len(path) == 0 {
		return false
	}
	for i, seg := range path {
		child, ok := fields[seg]
		if !ok {
			return false
		}
		if i == len(path)-1 {
			return true
		}
		if fields, ok = child.(map[string]any); !ok {
			return false
		}
	}
	return true
}
