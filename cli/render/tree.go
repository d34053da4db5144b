package render

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ssa-diff/ssa-diff/cli/input"
)

// kustomizationNames are the names of a kustomization file, as kustomize looks for them.
var kustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// KustomizationFile returns the kustomization file of dir ("" when it has none).
func KustomizationFile(dir string) string {
	for _, n := range kustomizationNames {
		p := filepath.Join(dir, n)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// node is one kustomization of a build: what it includes, and the patches it applies.
type node struct {
	dir  string // the directory, as a path from the current directory
	file string // its kustomization file
	// files are the resource files it names (cleaned paths), children and components the
	// kustomizations it includes.
	files      []string
	children   []*node
	components []*node
	patches    []*patch
	// generators are its configMapGenerator and secretGenerator entries.
	generators []generator
	doc        *input.Object
	tree       map[string]interface{}
}

// generator is one entry of configMapGenerator or secretGenerator.
type generator struct {
	kind, name string
	line       int
}

// tree is every kustomization a build reads, from its root.
type tree struct {
	root  *node
	nodes map[string]*node // by cleaned directory
	// read counts the bytes of the kustomization files read.
	read int64
}

// scan reads the kustomization in dir and every local kustomization it includes. A path
// that is not a local file or directory (a remote base, a URL) is an error: kustomize
// would fetch it.
func scan(dir string) (*tree, error) {
	t := &tree{nodes: map[string]*node{}}
	root, err := t.visit(dir)
	if err != nil {
		return nil, err
	}
	t.root = root
	return t, nil
}

// visit reads one kustomization; one met again (a base two overlays share, or a cycle,
// which kustomize reports) is read once.
func (t *tree) visit(dir string) (*node, error) {
	key := filepath.Clean(dir)
	if n, ok := t.nodes[key]; ok {
		return n, nil
	}
	file := KustomizationFile(dir)
	if file == "" {
		return nil, fmt.Errorf("%s: no kustomization.yaml, kustomization.yml or Kustomization in the directory", dir)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	t.read += int64(len(data))
	n := &node{dir: key, file: file}
	objs, errs := input.Split(input.Parse(file, data))
	if len(errs) > 0 {
		return nil, errs[0]
	}
	if len(objs) != 1 {
		return nil, fmt.Errorf("%s: a kustomization is one YAML document, not %d", file, len(objs))
	}
	n.doc = objs[0]
	n.tree = objs[0].Object
	t.nodes[key] = n

	// Every path the kustomization names must be local: kustomize fetches the others.
	for _, ref := range pathsNamed(n.tree) {
		if err := checkLocal(n, ref); err != nil {
			return nil, err
		}
	}
	for _, field := range []string{"resources", "bases", "components"} {
		for i, r := range stringsAt(n.tree, field) {
			p := filepath.Join(dir, r)
			info, err := os.Stat(p)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %s %q: %w", file, n.doc.Line(fmt.Sprintf("/%s/%d", field, i)), field, r, err)
			}
			if !info.IsDir() {
				n.files = append(n.files, filepath.Clean(p))
				continue
			}
			child, err := t.visit(p)
			if err != nil {
				return nil, err
			}
			if field == "components" {
				n.components = append(n.components, child)
			} else {
				n.children = append(n.children, child)
			}
		}
	}
	if n.patches, err = t.patches(n); err != nil {
		return nil, err
	}
	for _, g := range []struct{ field, kind string }{{"configMapGenerator", "ConfigMap"}, {"secretGenerator", "Secret"}} {
		items, _ := n.tree[g.field].([]interface{})
		for i, it := range items {
			m, _ := it.(map[string]interface{})
			name, _ := m["name"].(string)
			n.generators = append(n.generators, generator{kind: g.kind, name: name, line: n.doc.Line(fmt.Sprintf("/%s/%d", g.field, i))})
		}
	}
	return n, nil
}

// pathRef is a path a kustomization names, with where it names it.
type pathRef struct {
	field   string // as the kustomization spells it: resources, patches[2].path …
	pointer string
	value   string
}

// pathsNamed lists the paths a kustomization names: what kustomize loads as a file or a
// directory (and would fetch, for a URL or a remote base).
func pathsNamed(k map[string]interface{}) []pathRef {
	var out []pathRef
	add := func(field, ptr string, v interface{}) {
		if s, ok := v.(string); ok && s != "" {
			out = append(out, pathRef{field, ptr, s})
		}
	}
	for _, f := range []string{"resources", "bases", "components", "crds", "configurations", "generators", "transformers", "validators"} {
		list, _ := k[f].([]interface{})
		for i, v := range list {
			if s, _ := v.(string); strings.Contains(s, "\n") {
				continue // an inline generator or transformer configuration
			}
			add(fmt.Sprintf("%s[%d]", f, i), fmt.Sprintf("/%s/%d", f, i), v)
		}
	}
	for _, f := range []string{"patches", "patchesJson6902", "replacements"} {
		list, _ := k[f].([]interface{})
		for i, v := range list {
			m, _ := v.(map[string]interface{})
			add(fmt.Sprintf("%s[%d].path", f, i), fmt.Sprintf("/%s/%d/path", f, i), m["path"])
		}
	}
	psm, _ := k["patchesStrategicMerge"].([]interface{})
	for i, v := range psm {
		if s, _ := v.(string); !strings.Contains(s, "\n") && !strings.Contains(s, ":") {
			add(fmt.Sprintf("patchesStrategicMerge[%d]", i), fmt.Sprintf("/patchesStrategicMerge/%d", i), v)
		}
	}
	for _, f := range []string{"configMapGenerator", "secretGenerator"} {
		list, _ := k[f].([]interface{})
		for i, v := range list {
			m, _ := v.(map[string]interface{})
			for _, sub := range []string{"files", "envs"} {
				files, _ := m[sub].([]interface{})
				for j, fv := range files {
					s, _ := fv.(string)
					if sub == "files" {
						if _, after, ok := strings.Cut(s, "="); ok {
							s = after
						}
					}
					add(fmt.Sprintf("%s[%d].%s[%d]", f, i, sub, j), fmt.Sprintf("/%s/%d/%s/%d", f, i, sub, j), s)
				}
			}
			add(fmt.Sprintf("%s[%d].env", f, i), fmt.Sprintf("/%s/%d/env", f, i), m["env"])
		}
	}
	if o, ok := k["openapi"].(map[string]interface{}); ok {
		add("openapi.path", "/openapi/path", o["path"])
	}
	return out
}

// errRemote says why a remote reference is not followed.
var errRemote = errors.New("ssa-diff does not fetch what a kustomization names from elsewhere (a pull request must not make the gate fetch URLs): render it with `kubectl kustomize DIR` and give the output on standard input (-f -)")

// checkLocal refuses a path that is not a local file or directory: kustomize would fetch a
// URL or clone a repository for it.
func checkLocal(n *node, ref pathRef) error {
	v := ref.value
	line := n.doc.Line(ref.pointer)
	if strings.Contains(v, "://") || strings.HasPrefix(v, "git@") || strings.HasPrefix(v, "git::") || strings.Contains(v, "?ref=") {
		return fmt.Errorf("%s:%d: %s: %q is remote: %w", n.file, line, ref.field, v, errRemote)
	}
	if _, err := os.Stat(filepath.Join(n.dir, v)); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%s:%d: %s: %q is not a local file or directory (remote bases are not fetched: render them with `kubectl kustomize DIR` and give the output on standard input, -f -)", n.file, line, ref.field, v)
		}
		return fmt.Errorf("%s:%d: %s: %w", n.file, line, ref.field, err)
	}
	return nil
}

// stringsAt returns the strings of the list at key.
func stringsAt(m map[string]interface{}, key string) []string {
	list, _ := m[key].([]interface{})
	var out []string
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// chain returns the kustomizations an object of file passes through, from the one that
// names the file (or, for a generated object, whose kustomization file it is) up to the
// root, with the components each includes; nil when no kustomization names it.
func (t *tree) chain(file string) []*node {
	file = filepath.Clean(file)
	var path []*node
	seen := map[*node]bool{}
	var find func(n *node) bool
	find = func(n *node) bool {
		if seen[n] {
			return false
		}
		seen[n] = true
		path = append(path, n)
		if filepath.Clean(n.file) == file {
			return true
		}
		for _, f := range n.files {
			if f == file {
				return true
			}
		}
		for _, c := range append(append([]*node(nil), n.children...), n.components...) {
			if find(c) {
				return true
			}
		}
		path = path[:len(path)-1]
		return false
	}
	if !find(t.root) {
		return nil
	}
	// Deepest first: the order kustomize applies their patches.
	out := make([]*node, 0, len(path))
	for i := len(path) - 1; i >= 0; i-- {
		out = append(out, path[i])
	}
	return out
}
