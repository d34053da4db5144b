package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// applySources are the apply configurations of the client modules: applyconfiguration-gen
// writes the SMD schema of the types it knows into internal/internal.go, converted from the
// same generated OpenAPI definitions the server reads. Where a release has them, the
// embedded types are theirs, as ssa-diff has always embedded; they are held to the server's
// types (semanticallyEqual). apiextensions-apiserver's has no CustomResourceDefinition
// types before v0.37 and kube-aggregator has no apply configurations before v0.36: there,
// the server's types are taken.
var applySources = []struct{ module, dir string }{
	{"k8s.io/client-go", "applyconfigurations/internal"},
	{"k8s.io/apiextensions-apiserver", "pkg/client/applyconfiguration/internal"},
	{"k8s.io/kube-aggregator", "pkg/client/applyconfiguration/internal"},
}

// mergeApplyConfigurations returns every type of the apply configurations, plus the
// server's types they lack, sorted by name. The type of every kind (roots, each with the
// types it reaches) must mean the same to SMD as the server's.
func mergeApplyConfigurations(server []smdschema.TypeDef, roots []string) ([]smdschema.TypeDef, error) {
	byName := map[string]smdschema.TypeDef{}
	origin := map[string]string{}
	for _, src := range applySources {
		types, err := readApplySchema(src.module, src.dir)
		if err != nil {
			return nil, err
		}
		for _, td := range types {
			if prev, ok := byName[td.Name]; ok {
				if !equalTypeDef(&prev, &td) {
					return nil, fmt.Errorf("type %s differs between %s and %s", td.Name, origin[td.Name], src.module)
				}
				continue
			}
			byName[td.Name] = td
			origin[td.Name] = src.module
		}
	}
	serverSchema := &smdschema.Schema{Types: server}
	ours := &smdschema.Schema{}
	for _, td := range byName {
		ours.Types = append(ours.Types, td)
	}
	for _, td := range server {
		if _, ok := byName[td.Name]; !ok {
			td = fieldsByName(td)
			byName[td.Name] = td
			ours.Types = append(ours.Types, td)
		}
	}
	cmp := newSemantic(ours, serverSchema)
	var differ []string
	for _, name := range roots {
		if !cmp.named(name, name) {
			differ = append(differ, name)
		}
	}
	if len(differ) > 0 {
		sort.Strings(differ)
		return nil, fmt.Errorf("the types of these kinds differ from the server's: %s", strings.Join(differ, ", "))
	}
	types := make([]smdschema.TypeDef, 0, len(byName))
	for _, td := range byName {
		types = append(types, td)
	}
	sort.Slice(types, func(i, j int) bool { return types[i].Name < types[j].Name })
	return types, nil
}

// fieldsByName is a type of the server's schema with its fields sorted by name: the server's
// type converter builds them from OpenAPI properties, a map, so their order changes from
// run to run (apply configurations keep the Go types' order). The order means nothing to
// structured-merge-diff; sorting makes the generated tables the same on every run.
func fieldsByName(td smdschema.TypeDef) smdschema.TypeDef {
	if td.Map == nil || len(td.Map.Fields) < 2 {
		return td
	}
	fields := slices.Clone(td.Map.Fields)
	sort.SliceStable(fields, func(i, j int) bool { return fields[i].Name < fields[j].Name })
	td.Map = &smdschema.Map{Fields: fields, Unions: td.Map.Unions, ElementType: td.Map.ElementType, ElementRelationship: td.Map.ElementRelationship}
	return td
}

// readApplySchema reads the schemaYAML literal of a module's apply configurations; none
// when the release has no such package.
func readApplySchema(module, dir string) ([]smdschema.TypeDef, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m %s: %w", module, err)
	}
	file := filepath.Join(strings.TrimSpace(string(out)), dir, "internal.go")
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		if strings.Contains(err.Error(), "no such file") {
			return nil, nil
		}
		return nil, err
	}
	var text string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "schemaYAML" || len(vs.Values) != 1 {
			return true
		}
		if call, ok := vs.Values[0].(*ast.CallExpr); ok && len(call.Args) == 1 {
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				text, _ = strconv.Unquote(lit.Value)
			}
		}
		return false
	})
	if text == "" {
		return nil, fmt.Errorf("%s: no schemaYAML", file)
	}
	p, err := typed.NewParser(typed.YAMLObject(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return p.Schema.Types, nil
}
