package render

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/schema"
	"sigs.k8s.io/kustomize/api/resource"
)

// attributor finds, for each built object, the file and document it came from, and the
// lines of its fields.
type attributor struct {
	tree  *tree
	dir   string // the kustomization built, as given
	via   string
	files map[string][]*input.Object // resource files read again, by path
}

// attribute gives o the source its origin names and a locator of its fields.
func (a *attributor) attribute(o *input.Object, r *resource.Resource, origin *resource.Origin) {
	av, kind, _, name := o.Meta()
	group := schema.GVKFromAPIVersionKind(av, kind).Group
	src := input.Source{File: a.dir, Via: a.via}
	names := []string{name}
	var doc *input.Object
	var chain []*node
	switch {
	case origin == nil:
	case origin.ConfiguredIn != "":
		// A generator's object: at the generator's entry.
		file := filepath.Clean(filepath.Join(a.dir, origin.ConfiguredIn))
		src.File = file
		chain = a.tree.chain(file)
		if len(chain) > 0 {
			owner := chain[0]
			src.Line = owner.doc.Source.Line
			best := ""
			for _, g := range owner.generators {
				if g.kind == kind && strings.Contains(name, g.name) && len(g.name) > len(best) {
					best, src.Line = g.name, g.line
				}
			}
			if best != "" {
				names = append(names, best)
			}
		}
	case origin.Path != "":
		file := filepath.Clean(filepath.Join(a.dir, origin.Path))
		src.File = file
		chain = a.tree.chain(file)
		if doc = a.document(file, group, kind, name); doc != nil {
			src.Document, src.Line = doc.Source.Document, doc.Source.Line
			_, _, _, orig := doc.Meta()
			names = append(names, orig)
		}
	}
	var patches []*patch
	for _, n := range chain {
		for _, c := range n.components {
			patches = append(patches, c.patches...)
		}
		patches = append(patches, n.patches...)
	}
	var mine []*patch
	for _, p := range patches {
		if p.applies(r, kind, names) {
			mine = append(mine, p)
		}
	}
	o.Attribute(src, func(tree map[string]any, path string) (string, int) {
		return locate(tree, path, doc, mine, src)
	})
}

// locate finds where the field at path was written: the last patch that sets it, else the
// resource document at the field or its closest enclosing field.
func locate(tree map[string]any, path string, doc *input.Object, patches []*patch, src input.Source) (string, int) {
	for i := len(patches) - 1; i >= 0; i-- {
		p := patches[i]
		if p.doc != nil {
			if line, whole := p.doc.FieldLine(p.tree, path); whole && line > 0 {
				return p.file, line + p.shift
			}
			continue
		}
		if len(p.ops) > 0 {
			ptr := input.PointerOfPath(tree, path)
			for j := len(p.ops) - 1; j >= 0; j-- {
				op := p.ops[j]
				if op.path == ptr || strings.HasPrefix(ptr, op.path+"/") {
					return p.file, op.line + p.shift
				}
			}
		}
	}
	if doc != nil {
		line, _ := doc.FieldLine(doc.Object, path)
		return doc.Source.File, line
	}
	return src.File, src.Line
}

// document finds the document of file that an object of group, kind and name (as built)
// came from: the one of that kind whose name the built name holds (kustomize adds
// prefixes and suffixes), the longest such; else the first of that kind.
func (a *attributor) document(file, group, kind, name string) *input.Object {
	objs, ok := a.files[file]
	if !ok {
		data, err := os.ReadFile(file)
		if err == nil {
			objs, _ = input.Split(input.Parse(file, data))
		}
		a.files[file] = objs
	}
	var best, first *input.Object
	bestLen := -1
	for _, o := range objs {
		av, k, _, n := o.Meta()
		if k != kind || schema.GVKFromAPIVersionKind(av, k).Group != group {
			continue
		}
		if first == nil {
			first = o
		}
		if n != "" && strings.Contains(name, n) && len(n) > bestLen {
			best, bestLen = o, len(n)
		}
	}
	if best != nil {
		return best
	}
	return first
}
