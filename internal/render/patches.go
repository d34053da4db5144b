package render

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/input"
	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"
)

// patch is one patch document of a kustomization, with where its fields are written.
type patch struct {
	file string // the file that holds it: the patch file, or the kustomization for inline ones
	// shift is added to the lines of doc: an inline patch's lines count in the
	// kustomization file.
	shift int
	// target selects the objects, when the kustomization gives one; otherwise the patch's
	// own kind and name do.
	target *selector
	// doc and tree are a strategic-merge patch (nil for a JSON patch).
	doc  *input.Object
	tree map[string]any
	// ops are a JSON patch's operations: their paths (JSON Pointers) and lines.
	ops []jsonOp
}

type jsonOp struct {
	path string
	line int
}

// selector is a patch's target, matched by kustomize's own code (its resource map's
// Select): group, version, kind, name and namespace as regular expressions, the label and
// annotation selectors. re is nil for a target kustomize refuses (it then matches nothing).
type selector struct {
	sel types.Selector
	re  *types.SelectorRegex
}

// patches reads the patches of a kustomization: patches, patchesStrategicMerge and
// patchesJson6902, in files or inline.
func (t *tree) patches(n *node) ([]*patch, error) {
	var out []*patch
	add := func(field string, i int, m map[string]any, inline any, path string, json6902 bool) error {
		var sel *selector
		if tg, ok := m["target"].(map[string]any); ok {
			sel = newSelector(tg)
		}
		var data []byte
		file, shift := n.file, 0
		switch {
		case path != "":
			file = filepath.Clean(filepath.Join(n.dir, path))
			b, err := os.ReadFile(file)
			if err != nil {
				return fmt.Errorf("%s: %s[%d]: %w", n.file, field, i, err)
			}
			t.read += int64(len(b))
			data = b
		default:
			s, _ := inline.(string)
			if s == "" {
				return nil
			}
			data = []byte(s)
			shift = inlineShift(n, field, i)
		}
		ps, err := parsePatch(file, data, shift, sel, json6902)
		if err != nil {
			return nil // kustomize reports a patch it cannot read; lines are only a help
		}
		out = append(out, ps...)
		return nil
	}
	list, _ := n.tree["patches"].([]any)
	for i, v := range list {
		m, _ := v.(map[string]any)
		p, _ := m["path"].(string)
		if err := add("patches", i, m, m["patch"], p, false); err != nil {
			return nil, err
		}
	}
	psm, _ := n.tree["patchesStrategicMerge"].([]any)
	for i, v := range psm {
		s, _ := v.(string)
		path := ""
		if !strings.Contains(s, "\n") && !strings.Contains(s, ":") {
			path, s = s, ""
		}
		if err := add("patchesStrategicMerge", i, nil, s, path, false); err != nil {
			return nil, err
		}
	}
	j6902, _ := n.tree["patchesJson6902"].([]any)
	for i, v := range j6902 {
		m, _ := v.(map[string]any)
		p, _ := m["path"].(string)
		if err := add("patchesJson6902", i, m, m["patch"], p, true); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// parsePatch reads the documents of a patch: strategic-merge patches, or a JSON patch (a
// list of operations, in YAML or JSON), which is what a patch is when it is a list.
func parsePatch(file string, data []byte, shift int, sel *selector, json6902 bool) ([]*patch, error) {
	var root yamlv3.Node
	list := yamlv3.Unmarshal(data, &root) == nil && len(root.Content) > 0 && root.Content[0].Kind == yamlv3.SequenceNode
	if !list {
		if json6902 {
			return nil, fmt.Errorf("not a JSON patch")
		}
		objs, errs := input.Split(input.Parse(file, data))
		if len(errs) > 0 && len(objs) == 0 {
			return nil, errs[0]
		}
		var out []*patch
		for _, o := range objs {
			out = append(out, &patch{file: file, shift: shift, target: sel, doc: o, tree: o.Object})
		}
		return out, nil
	}
	p := &patch{file: file, shift: shift, target: sel}
	for _, op := range root.Content[0].Content {
		if op.Kind != yamlv3.MappingNode {
			continue
		}
		for k := 0; k+1 < len(op.Content); k += 2 {
			if op.Content[k].Value == "path" {
				p.ops = append(p.ops, jsonOp{path: op.Content[k+1].Value, line: op.Line})
			}
		}
	}
	return []*patch{p}, nil
}

// inlineShift is what turns a line of an inline patch into a line of its kustomization:
// the patch is a block scalar (| or >), whose text starts on the line after its key.
func inlineShift(n *node, field string, i int) int {
	ptr := fmt.Sprintf("/%s/%d", field, i)
	if field != "patchesStrategicMerge" {
		ptr += "/patch"
	}
	line := n.doc.Line(ptr)
	if line <= 0 {
		return 0
	}
	// The key's line holds the indicator; the text starts below it.
	return line
}

func newSelector(m map[string]any) *selector {
	str := func(k string) string { v, _ := m[k].(string); return v }
	s := &selector{sel: types.Selector{
		ResId: resid.ResId{Gvk: resid.Gvk{Group: str("group"), Version: str("version"), Kind: str("kind")},
			Name: str("name"), Namespace: str("namespace")},
		LabelSelector: str("labelSelector"), AnnotationSelector: str("annotationSelector"),
	}}
	s.re, _ = types.NewSelectorRegex(&s.sel)
	return s
}

// matches is kustomize's resource map's Select for one built resource: its original or
// current namespace and name, its group, version and kind, its labels and annotations.
func (s *selector) matches(r *resource.Resource) bool {
	if s.re == nil || r == nil {
		return false
	}
	org, cur := r.OrgId(), r.CurId()
	if !s.re.MatchNamespace(org.EffectiveNamespace()) && !s.re.MatchNamespace(cur.EffectiveNamespace()) {
		return false
	}
	if !s.re.MatchName(org.Name) && !s.re.MatchName(cur.Name) {
		return false
	}
	if !s.re.MatchGvk(r.GetGvk()) {
		return false
	}
	if ok, err := r.MatchesLabelSelector(s.sel.LabelSelector); err != nil || !ok {
		return false
	}
	ok, err := r.MatchesAnnotationSelector(s.sel.AnnotationSelector)
	return err == nil && ok
}

// applies reports whether the patch is about r, the built resource of kind, named names
// (as written and as built).
func (p *patch) applies(r *resource.Resource, kind string, names []string) bool {
	if s := p.target; s != nil {
		return s.matches(r)
	}
	if p.doc == nil {
		return false
	}
	_, pkind, _, pname := p.doc.Meta()
	if pkind != kind || pname == "" {
		return false
	}
	for _, n := range names {
		if n == pname || strings.Contains(n, pname) {
			return true
		}
	}
	return false
}
