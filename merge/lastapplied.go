package merge

import (
	"encoding/json"
	"maps"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"

	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

func hasLastApplied(obj map[string]any) bool {
	s, _ := annotations(obj)[LastAppliedAnnotation].(string)
	return s != ""
}

// setLastApplied rewrites the last-applied annotation from the applied configuration
// (rules.md kubectl.annotation-sync): the configuration without that annotation, as compact JSON with sorted keys
// and a trailing newline. Past the annotations size limit the annotation is deleted (rules.md kubectl.annotation-too-large).
func setLastApplied(obj, cfg map[string]any) {
	// cfg with its metadata copied, which alone changes (the annotations are a new map).
	c := make(map[string]any, len(cfg))
	for k, v := range cfg {
		c[k] = v
	}
	// The server reads and writes annotations as a map of strings: a null value becomes "",
	// null annotations disappear.
	if md := metadataOf(c); md != nil {
		md = maps.Clone(md)
		c["metadata"] = md
		if raw, ok := md["annotations"]; ok {
			if a := stringMap(raw); a != nil {
				delete(a, LastAppliedAnnotation)
				md["annotations"] = a
			} else {
				delete(md, "annotations")
			}
		}
	}
	// What json.Encoder writes: encoding/json.Marshal's text and a newline.
	text, err := fieldsjson.AppendJSON(nil, c)
	if err != nil {
		return
	}
	text = append(text, '\n')
	a := stringMap(annotations(obj))
	if a == nil {
		a = map[string]any{}
	}
	ensureMetadata(obj)["annotations"] = a
	a[LastAppliedAnnotation] = string(text)
	total := 0
	for k, v := range a {
		s, _ := v.(string)
		total += len(k) + len(s)
	}
	if total > maxAnnotationsSize {
		delete(a, LastAppliedAnnotation)
	}
}

// allowedConflictsFromLastApplied is the set of fields a kubectl apply may take over without
// force (rules.md kubectl.relaxation): the fields of the last-applied configuration whose values the live
// object still has. ok is false when there is no usable annotation (rules.md kubectl.no-relaxation).
func (r *request) allowedConflictsFromLastApplied(live map[string]any) (*smdpath.Set, bool) {
	s, _ := annotations(live)[LastAppliedAnnotation].(string)
	if s == "" {
		return nil, false
	}
	liveTyped, err := r.parse(live, true)
	if err != nil {
		return nil, false
	}
	var last map[string]any
	if err := json.Unmarshal([]byte(s), &last); err != nil || last == nil {
		return nil, false
	}
	last = unstructured.CopyAsDecoded(last)
	if av, _ := last["apiVersion"].(string); av != r.ep.GVK.APIVersion() {
		return nil, false
	}
	lastTyped, err := r.parse(last, true)
	if err != nil {
		return nil, false
	}
	set, err := lastTyped.ToFieldSet()
	if err != nil {
		return nil, false
	}
	cmp, err := lastTyped.Compare(liveTyped)
	if err != nil {
		return nil, false
	}
	return set.Difference(cmp.Modified).Difference(cmp.Added).Difference(cmp.Removed), true
}

// stringMap copies an annotations-like map with null values as "", as the API's string-map
// accessors read it; nil when v is not a map.
func stringMap(v any) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		if x == nil {
			x = ""
		}
		out[k] = x
	}
	return out
}
