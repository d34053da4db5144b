package schemafiles

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
)

// A Set is the --schema documents and --crd objects a run read, kept to be added to the
// registry of another minor. The zero Set holds none.
type Set struct {
	docs []schemaDoc
	crds []crdObject
}

// Read reads the OpenAPI documents of schemaPaths (files, or directories of .json, .yaml
// and .yml files) and the CustomResourceDefinitions of crdPaths into reg, and keeps them.
// It returns the warnings of what it read (a document's, an object of crdPaths that is no
// CRD, ignored), in order, and the first error.
func (s *Set) Read(reg *schema.Registry, loader *input.Loader, schemaPaths, crdPaths []string) ([]string, error) {
	var warnings []string
	warn := func(w string) { warnings = append(warnings, w) }
	if err := s.readSchemas(reg, loader, schemaPaths, warn); err != nil {
		return warnings, err
	}
	return warnings, s.readCRDs(reg, loader, crdPaths, warn)
}

// readSchemas reads the --schema OpenAPI documents of paths into reg.
func (s *Set) readSchemas(reg *schema.Registry, loader *input.Loader, paths []string, warn func(string)) error {
	for _, p := range paths {
		files, err := filesOf(p)
		if err != nil {
			return fmt.Errorf("--schema %s: %w", p, err)
		}
		for _, f := range files {
			data, err := loader.ReadFile(f)
			if err != nil {
				return fmt.Errorf("--schema: %w", err)
			}
			warnings, err := reg.AddOpenAPI(f, data)
			if err != nil {
				return fmt.Errorf("--schema %s: %w", f, err)
			}
			s.docs = append(s.docs, schemaDoc{name: f, data: data})
			for _, w := range warnings {
				warn(fmt.Sprintf("%s: %s", f, w))
			}
		}
	}
	return nil
}

// filesOf is p itself, or the schema files (.json, .yaml, .yml) under the directory p.
func filesOf(p string) ([]string, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	var files []string
	err = filepath.WalkDir(p, func(f string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && input.IsManifestFile(f) {
			files = append(files, f)
		}
		return err
	})
	sort.Strings(files)
	return files, err
}

// readCRDs registers the CustomResourceDefinitions of the --crd files of paths in reg.
func (s *Set) readCRDs(reg *schema.Registry, loader *input.Loader, paths []string, warn func(string)) error {
	for _, p := range paths {
		objs, errs := input.Split(loader.Load(p))
		if len(errs) > 0 {
			return fmt.Errorf("--crd %s: %w", p, errs[0])
		}
		for _, o := range objs {
			if !IsCRD(o.GVK()) {
				warn(fmt.Sprintf("--crd %s: %s is a %s, not a CustomResourceDefinition; ignored", p, o.Source, o.GVK().Kind))
				continue
			}
			// The schema of live objects: the CRD as the server holds it.
			if err := reg.AddStoredCRDObject(o.Source.String(), o.Object); err != nil {
				return fmt.Errorf("--crd %s: %w", o.Source, err)
			}
			s.crds = append(s.crds, crdObject{origin: o.Source.String(), obj: o.Object})
		}
	}
	return nil
}

// Registry is the schema registry of minor v: its built-in kinds, then the --schema
// documents and --crd objects read (Read), which are added again when a run learns its
// minor after reading them.
func (s *Set) Registry(v kube.Minor) (*schema.Registry, error) {
	reg, err := schema.NewRegistry(v)
	if err != nil {
		return nil, err
	}
	for _, d := range s.docs {
		if _, err := reg.AddOpenAPI(d.name, d.data); err != nil {
			return nil, fmt.Errorf("--schema %s: %w", d.name, err)
		}
	}
	for _, o := range s.crds {
		if err := reg.AddStoredCRDObject(o.origin, o.obj); err != nil {
			return nil, fmt.Errorf("--crd %s: %w", o.origin, err)
		}
	}
	return reg, nil
}

// schemaDoc is a --schema document as read.
type schemaDoc struct {
	name string
	data []byte
}

// crdObject is a --crd CustomResourceDefinition as read.
type crdObject struct {
	origin string
	obj    map[string]any
}

// IsCRD reports whether gvk is a CustomResourceDefinition's.
func IsCRD(gvk schema.GVK) bool {
	return gvk.Group == "apiextensions.k8s.io" && gvk.Kind == "CustomResourceDefinition"
}

// RegisterInputs adds to reg the CustomResourceDefinitions among a run's inputs: the live
// ones first, as the server holds them, then the manifests' (the state the apply moves
// to). It returns, by object, the warning of each it could not add, and those warnings
// in order.
func RegisterInputs(reg *schema.Registry, live, manifests []input.Entry) (map[*input.Object]string, []string) {
	byObject := map[*input.Object]string{}
	var warnings []string
	for i, entries := range [][]input.Entry{live, manifests} {
		add := reg.AddCRDObject
		if i == 0 {
			add = reg.AddStoredCRDObject // a CRD the cluster holds: read as the server reads it
		}
		for _, e := range entries {
			if e.Object != nil && IsCRD(e.Object.GVK()) {
				if err := add(e.Object.Source.String(), e.Object.Object); err != nil {
					msg := fmt.Sprintf("the CustomResourceDefinition at %s was not registered: %v", e.Object.Source, err)
					byObject[e.Object] = msg
					warnings = append(warnings, msg)
				}
			}
		}
	}
	return byObject, warnings
}
