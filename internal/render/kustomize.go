package render

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ssa-diff/ssa-diff/internal/input"
	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// Kustomize builds the kustomization in dir as `kubectl apply -k dir` does and returns its
// objects in the order kubectl sends them, each attributed to the file a person wrote it in
// (see the package documentation), read through loader (its limits, its count of bytes
// and objects). A kustomization that cannot be built is one error entry naming dir.
func Kustomize(loader *input.Loader, dir string) []input.Entry {
	entries, err := kustomize(loader, dir)
	if err != nil {
		var ie *input.Error
		if errors.As(err, &ie) {
			return []input.Entry{{Err: err}}
		}
		return []input.Entry{{Err: input.FileError(dir, fmt.Errorf("kustomize build: %w", err))}}
	}
	return entries
}

func kustomize(loader *input.Loader, dir string) ([]input.Entry, error) {
	t, err := scan(dir)
	if err != nil {
		return nil, err
	}
	if err := loader.Charge(t.read); err != nil {
		return nil, err
	}
	rootFile, err := filepath.Abs(t.root.file)
	if err != nil {
		return nil, err
	}
	userOrigins := false
	for _, m := range stringsAt(t.root.tree, "buildMetadata") {
		userOrigins = userOrigins || m == types.OriginAnnotations
	}
	fsys := &readOnlyFS{FileSystem: filesys.MakeFsOnDisk(), loader: loader, root: rootFile, withOrigins: !userOrigins}
	opts := krusty.MakeDefaultOptions()
	opts.Reorder = krusty.ReorderOptionLegacy // as kubectl's kustomize visitor
	m, err := krusty.MakeKustomizer(opts).Run(fsys, dir)
	if err != nil {
		return nil, err
	}
	if fsys.err != nil {
		return nil, fsys.err
	}
	resources := m.Resources()
	origins := make([]*resource.Origin, len(resources))
	for i, r := range resources {
		if origins[i], err = r.GetOrigin(); err != nil {
			return nil, fmt.Errorf("reading the origin of %s: %w", r.CurId(), err)
		}
	}
	if !userOrigins {
		// What kubectl sends: the build without the annotations it was asked for here.
		if err := m.RemoveOriginAnnotations(); err != nil {
			return nil, err
		}
	}
	a := &attributor{tree: t, dir: dir, via: "kustomize " + filepath.ToSlash(dir), files: map[string][]*input.Object{}}
	var out []input.Entry
	for i, r := range resources {
		text, err := r.AsYAML()
		if err != nil {
			return nil, fmt.Errorf("printing %s: %w", r.CurId(), err)
		}
		name := fmt.Sprintf("%s (kustomize build, object %d)", dir, i)
		for _, e := range loader.ParseRendered(name, text) {
			if e.Object != nil {
				a.attribute(e.Object, r, origins[i])
			}
			out = append(out, e)
		}
	}
	return out, nil
}

// readOnlyFS is the disk as kustomize sees it here: files are read within the loader's
// input limit, nothing is written, and the root kustomization asks for origin annotations.
type readOnlyFS struct {
	filesys.FileSystem
	loader      *input.Loader
	root        string // the root kustomization file, absolute
	withOrigins bool
	err         error // the first limit reached
}

var errReadOnly = errors.New("ssa-diff never writes: a kustomization that needs to write (Helm charts, plugins) cannot be built here")

func (f *readOnlyFS) Create(string) (filesys.File, error) { return nil, errReadOnly }
func (f *readOnlyFS) Mkdir(string) error                  { return errReadOnly }
func (f *readOnlyFS) MkdirAll(string) error               { return errReadOnly }
func (f *readOnlyFS) RemoveAll(string) error              { return errReadOnly }
func (f *readOnlyFS) WriteFile(string, []byte) error      { return errReadOnly }

func (f *readOnlyFS) ReadFile(path string) ([]byte, error) {
	if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
		if err := f.loader.Charge(info.Size()); err != nil {
			if f.err == nil {
				f.err = input.FileError(path, err)
			}
			return nil, err
		}
	}
	data, err := f.FileSystem.ReadFile(path)
	if err != nil || !f.withOrigins {
		return data, err
	}
	if abs, aerr := filepath.Abs(path); aerr == nil && abs == f.root {
		return withOriginAnnotations(data)
	}
	return data, nil
}

func (f *readOnlyFS) Open(path string) (filesys.File, error) {
	if info, err := os.Stat(path); err == nil && !info.IsDir() {
		if err := f.loader.Charge(info.Size()); err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
	}
	return f.FileSystem.Open(path)
}

// withOriginAnnotations is a kustomization with originAnnotations added to its
// buildMetadata.
func withOriginAnnotations(data []byte) ([]byte, error) {
	var doc yamlv3.Node
	if err := yamlv3.Unmarshal(data, &doc); err != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yamlv3.MappingNode {
		// kustomize says what is wrong with it.
		return data, nil
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "buildMetadata" {
			list := m.Content[i+1]
			if list.Kind != yamlv3.SequenceNode {
				return data, nil
			}
			list.Content = append(list.Content, &yamlv3.Node{Kind: yamlv3.ScalarNode, Tag: "!!str", Value: types.OriginAnnotations})
			return encodeNode(&doc, data)
		}
	}
	m.Content = append(m.Content,
		&yamlv3.Node{Kind: yamlv3.ScalarNode, Tag: "!!str", Value: "buildMetadata"},
		&yamlv3.Node{Kind: yamlv3.SequenceNode, Tag: "!!seq", Content: []*yamlv3.Node{{Kind: yamlv3.ScalarNode, Tag: "!!str", Value: types.OriginAnnotations}}})
	return encodeNode(&doc, data)
}

func encodeNode(doc *yamlv3.Node, orig []byte) ([]byte, error) {
	var b bytes.Buffer
	enc := yamlv3.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return orig, nil
	}
	// The same kustomization once more through the reader kustomize uses, to be sure
	// nothing but buildMetadata changed.
	var before, after map[string]any
	if yaml.Unmarshal(orig, &before) != nil || yaml.Unmarshal(b.Bytes(), &after) != nil || len(after) != len(before)+boolInt(before["buildMetadata"] == nil) {
		return orig, nil
	}
	return b.Bytes(), nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
