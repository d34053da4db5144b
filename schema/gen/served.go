package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/sets"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	_ "k8s.io/kubernetes/pkg/features" // registers kube-apiserver's feature gates, at this release's defaults
)

// servedFacts reads, from the sources of the release this build links, what kube-apiserver
// serves with its default configuration: the group-versions its default API resource
// configuration enables (k8s.io/kubernetes pkg/controlplane DefaultAPIResourceConfigSource,
// and DefaultGenericAPIResourceConfigSource it starts from; the apiextensions and
// aggregator servers' DefaultAPIResourceConfigSource), and in each the resources its REST
// storage providers register (pkg/registry/*/rest, apiextensions-apiserver pkg/apiserver,
// kube-aggregator pkg/registry/apiservice/rest), with their /status and /scale, under the
// feature gates at this release's defaults (k8s.io/kubernetes pkg/features, linked). One
// line per served resource: "group/version resource [status] [scale]", sorted.
//
// The storage providers are read, not run: running them needs the whole control plane and
// its storage. Every `if resource := "…"; ….ResourceEnabled(…)` block is read, with the
// conditions on its storage[…] assignments; a condition it cannot decide is an error.
func servedFacts(m minor) (string, []apiJSON, error) {
	kube, err := moduleDir("k8s.io/kubernetes")
	if err != nil {
		return "", nil, err
	}
	r := &servedReader{groups: map[string]string{}, enabled: sets.New[string](), mentioned: sets.New[string](), served: map[string]map[string]bool{}}
	if err := r.config(filepath.Join(kube, "pkg/controlplane/instance.go"), "DefaultAPIResourceConfigSource"); err != nil {
		return "", nil, err
	}
	aee, err := moduleDir("k8s.io/apiextensions-apiserver")
	if err != nil {
		return "", nil, err
	}
	agg, err := moduleDir("k8s.io/kube-aggregator")
	if err != nil {
		return "", nil, err
	}
	for _, c := range []string{filepath.Join(aee, "pkg/apiserver/apiserver.go"), filepath.Join(agg, "pkg/apiserver/apiserver.go")} {
		if err := r.config(c, "DefaultAPIResourceConfigSource"); err != nil {
			return "", nil, err
		}
	}
	files, err := filepath.Glob(filepath.Join(kube, "pkg/registry/*/rest/*.go"))
	if err != nil {
		return "", nil, err
	}
	files = append(files, filepath.Join(aee, "pkg/apiserver/apiserver.go"), filepath.Join(agg, "pkg/registry/apiservice/rest/storage_apiservice.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		if err := r.storage(f); err != nil {
			return "", nil, err
		}
	}
	installs, err := filepath.Glob(filepath.Join(kube, "pkg/apis/*/install/install.go"))
	if err != nil {
		return "", nil, err
	}
	registered, err := r.registered(append(installs,
		filepath.Join(aee, "pkg/apis/apiextensions/install/install.go"), filepath.Join(agg, "pkg/apis/apiregistration/install/install.go")))
	if err != nil {
		return "", nil, err
	}
	var lines []string
	for gvr, subs := range r.served {
		if !subs[""] || !r.enabled.Has(strings.Fields(gvr)[0]) {
			continue
		}
		line := gvr
		for _, s := range []string{"status", "scale"} {
			if subs[s] {
				line += " " + s
			}
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return "", nil, fmt.Errorf("no served resource found")
	}
	sort.Strings(lines)
	return fmt.Sprintf("# The resources kube-apiserver %s serves with its default configuration, and their\n"+
		"# /status and /scale, read from its sources by schema/gen (served.go). DO NOT EDIT.\n", m.kubernetes) +
		strings.Join(lines, "\n") + "\n", r.apis(registered), nil
}

// withoutRemoved leaves out of each group-version's storage the resources the server stops
// serving by their API lifecycle: a kind whose Go type says it is removed at this release
// or before (APILifecycleRemoved, k8s.io/api's prerelease-lifecycle) is not served even when
// --runtime-config enables its version, as the generic server's resource expiration
// evaluator decides for a released (non-alpha) build. The resources without a kind of the
// index are kept.
func withoutRemoved(apis []apiJSON, kinds []kind, m minor) []apiJSON {
	types := map[string]reflect.Type{}
	for _, k := range kinds {
		if k.resource != "" {
			types[k.group+"/"+k.version+" "+k.resource] = k.goType
		}
	}
	type removedInterface interface{ APILifecycleRemoved() (major, minor int) }
	out := make([]apiJSON, len(apis))
	for i, a := range apis {
		out[i] = a
		out[i].Resources = nil
		for _, res := range a.Resources {
			if t, ok := types[a.GroupVersion+" "+res]; ok {
				if rm, ok := reflect.New(t).Interface().(removedInterface); ok {
					if major, minor := rm.APILifecycleRemoved(); major == 1 && minor <= m.number {
						continue
					}
				}
			}
			out[i].Resources = append(out[i].Resources, res)
		}
	}
	return out
}

func moduleDir(module string) (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		return "", fmt.Errorf("go list -m %s: %w", module, err)
	}
	return strings.TrimSpace(string(out)), nil
}

type servedReader struct {
	groups  map[string]string // import path of a k8s.io/api-style package -> its GroupName
	enabled sets.Set[string]  // "group/version"
	// mentioned are the group-versions the default configuration names, enabled or not:
	// those --runtime-config's api/all, api/ga, api/beta and api/alpha switch.
	mentioned sets.Set[string]
	// served: "group/version resource" -> "" and the subresources, of every group-version
	// with storage, enabled by default or not.
	served map[string]map[string]bool
}

// registered reads the group-versions the API servers' schemes register (the install
// packages' AddToScheme calls of versioned packages): those --runtime-config may name.
func (r *servedReader) registered(files []string) (sets.Set[string], error) {
	out := sets.New[string]()
	for _, file := range files {
		f, imports, err := parse(file)
		if err != nil {
			return nil, err
		}
		var problem error
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || problem != nil {
				return problem == nil
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "AddToScheme" {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			path, ok := imports[id.Name]
			if !ok || !versionRE.MatchString(path[strings.LastIndex(path, "/")+1:]) {
				return true // the internal version
			}
			group, ok := r.groups[path]
			if !ok {
				// A versioned package names its group, or takes its internal package's.
				if group, err = groupName(path); err != nil {
					if group, err = groupName(path[:strings.LastIndex(path, "/")]); err != nil {
						problem = fmt.Errorf("%s: %w", file, err)
						return false
					}
				}
				r.groups[path] = group
			}
			out.Insert(group + "/" + path[strings.LastIndex(path, "/")+1:])
			return true
		})
		if problem != nil {
			return nil, problem
		}
	}
	if out.Len() == 0 {
		return nil, fmt.Errorf("no registered group-version found")
	}
	return out, nil
}

var versionRE = regexp.MustCompile(`^v[0-9]+((alpha|beta)[0-9]+)?$`)

// apis is what --runtime-config needs of the release, one entry per group-version
// registered, named by the default configuration or holding storage, sorted.
func (r *servedReader) apis(registered sets.Set[string]) []apiJSON {
	byGV := map[string]*apiJSON{}
	get := func(gv string) *apiJSON {
		a := byGV[gv]
		if a == nil {
			a = &apiJSON{GroupVersion: gv}
			byGV[gv] = a
		}
		return a
	}
	for gv := range registered {
		get(gv).Registered = true
	}
	for gv := range r.mentioned {
		get(gv).Default = map[bool]string{true: "on", false: "off"}[r.enabled.Has(gv)]
	}
	for gvr, subs := range r.served {
		if subs[""] {
			f := strings.Fields(gvr)
			a := get(f[0])
			a.Resources = append(a.Resources, f[1])
		}
	}
	out := make([]apiJSON, 0, len(byGV))
	for _, a := range byGV {
		if !a.Registered && a.Default == "" {
			continue // storage of a group no server registers (a test group): never served
		}
		sort.Strings(a.Resources)
		out = append(out, *a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GroupVersion < out[j].GroupVersion })
	return out
}

// parse reads a Go file and its imports (name -> path).
func parse(file string) (*ast.File, map[string]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		return nil, nil, err
	}
	imports := map[string]string{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = p
	}
	return f, imports, nil
}

// groupVersion resolves alias.SchemeGroupVersion to "group/version".
func (r *servedReader) groupVersion(e ast.Expr, imports map[string]string) (string, error) {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "SchemeGroupVersion" {
		return "", fmt.Errorf("not a SchemeGroupVersion: %T", e)
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", fmt.Errorf("not a package's SchemeGroupVersion")
	}
	path, ok := imports[id.Name]
	if !ok {
		return "", fmt.Errorf("package %s not imported", id.Name)
	}
	group, ok := r.groups[path]
	if !ok {
		g, err := groupName(path)
		if err != nil {
			return "", err
		}
		r.groups[path], group = g, g
	}
	return group + "/" + path[strings.LastIndex(path, "/")+1:], nil
}

// groupName reads the GroupName constant of a types package (register.go).
func groupName(pkg string) (string, error) {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", pkg).Output()
	if err != nil {
		return "", fmt.Errorf("go list %s: %w", pkg, err)
	}
	dir := strings.TrimSpace(string(out))
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			return "", err
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, n := range vs.Names {
					if n.Name == "GroupName" && i < len(vs.Values) {
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
							return strconv.Unquote(lit.Value)
						}
					}
				}
			}
		}
	}
	return "", fmt.Errorf("%s: no GroupName", pkg)
}

// config reads a DefaultAPIResourceConfigSource-style function: which group-versions its
// ResourceConfig enables. Only EnableVersions and DisableVersions of whole versions (and
// calls of another such function of the file) are understood: the result names what is
// enabled, and anything else is an error.
func (r *servedReader) config(file, fn string) error {
	f, imports, err := parse(file)
	if err != nil {
		return err
	}
	vars := map[string][]ast.Expr{}
	funcs := map[string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if vs, ok := s.(*ast.ValueSpec); ok {
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							if cl, ok := vs.Values[i].(*ast.CompositeLit); ok {
								vars[n.Name] = cl.Elts
							}
						}
					}
				}
			}
		case *ast.FuncDecl:
			funcs[d.Name.Name] = d
		}
	}
	var visit func(name string) error
	visit = func(name string) error {
		fd := funcs[name]
		if fd == nil {
			return fmt.Errorf("%s: no func %s", file, name)
		}
		for _, st := range fd.Body.List {
			switch st := st.(type) {
			case *ast.AssignStmt:
				if call, ok := st.Rhs[0].(*ast.CallExpr); ok {
					if id, ok := call.Fun.(*ast.Ident); ok {
						if err := visit(id.Name); err != nil {
							return err
						}
						continue
					}
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "NewResourceConfig" {
						continue
					}
				}
				return fmt.Errorf("%s: %s: unexpected assignment", file, name)
			case *ast.ExprStmt:
				call, ok := st.X.(*ast.CallExpr)
				sel, ok2 := call.Fun.(*ast.SelectorExpr)
				if !ok || !ok2 || sel.Sel.Name != "EnableVersions" && sel.Sel.Name != "DisableVersions" {
					return fmt.Errorf("%s: %s: a call this reader does not know (only EnableVersions and DisableVersions)", file, name)
				}
				var gvs []ast.Expr
				for _, a := range call.Args {
					if id, ok := a.(*ast.Ident); ok && call.Ellipsis.IsValid() {
						gvs = append(gvs, vars[id.Name]...)
						continue
					}
					gvs = append(gvs, a)
				}
				for _, e := range gvs {
					gv, err := r.groupVersion(e, imports)
					if err != nil {
						return fmt.Errorf("%s: %s: %w", file, name, err)
					}
					r.mentioned.Insert(gv)
					if sel.Sel.Name == "EnableVersions" {
						r.enabled.Insert(gv)
					} else {
						r.enabled.Delete(gv)
					}
				}
			case *ast.ReturnStmt:
			default:
				return fmt.Errorf("%s: %s: unexpected statement", file, name)
			}
		}
		return nil
	}
	return visit(fn)
}

// storage reads the `if resource := "…"; ….ResourceEnabled(gv.WithResource(resource))`
// blocks of a storage provider.
func (r *servedReader) storage(file string) error {
	f, imports, err := parse(file)
	if err != nil {
		return err
	}
	var problem error
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			ifs, ok := n.(*ast.IfStmt)
			if !ok || problem != nil {
				return problem == nil
			}
			resource, ok := resourceInit(ifs.Init)
			if !ok {
				return true
			}
			gvs, take, err := r.enabledCond(ifs.Cond, imports, f, fd)
			if err != nil {
				problem = fmt.Errorf("%s: resource %s: %w", file, resource, err)
				return false
			}
			for _, gv := range gvs {
				if !take {
					continue
				}
				if err := r.assignments(ifs.Body, true, gv+" "+resource); err != nil {
					problem = fmt.Errorf("%s: resource %s: %w", file, resource, err)
				}
			}
			return false
		})
	}
	return problem
}

// paramGroupVersions resolves a group-version that is a parameter of fd: the arguments
// every call of fd in the file passes for it.
func (r *servedReader) paramGroupVersions(name string, f *ast.File, fd *ast.FuncDecl, imports map[string]string) ([]string, error) {
	index, i := -1, 0
	for _, p := range fd.Type.Params.List {
		for _, n := range p.Names {
			if n.Name == name {
				index = i
			}
			i++
		}
	}
	if index < 0 {
		return nil, fmt.Errorf("%s is not a parameter of %s", name, fd.Name.Name)
	}
	var gvs []string
	var problem error
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || problem != nil {
			return problem == nil
		}
		called := ""
		switch fn := call.Fun.(type) {
		case *ast.SelectorExpr:
			called = fn.Sel.Name
		case *ast.Ident:
			called = fn.Name
		}
		if called != fd.Name.Name || len(call.Args) <= index {
			return true
		}
		gv, err := r.groupVersion(call.Args[index], imports)
		if err != nil {
			problem = err
			return false
		}
		gvs = append(gvs, gv)
		return true
	})
	if problem == nil && len(gvs) == 0 {
		problem = fmt.Errorf("%s is never called", fd.Name.Name)
	}
	return gvs, problem
}

// resourceInit reads `resource := "name"`.
func resourceInit(s ast.Stmt) (string, bool) {
	as, ok := s.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return "", false
	}
	if id, ok := as.Lhs[0].(*ast.Ident); !ok || id.Name != "resource" {
		return "", false
	}
	lit, ok := as.Rhs[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	v, _ := strconv.Unquote(lit.Value)
	return v, true
}

// enabledCond reads the block's condition: the ResourceEnabled call (its group-version),
// `&& !p.Generic` (true: kube-apiserver is not the generic control plane), and
// `x != nil && …` where the block only overrides an earlier registration (take false).
func (r *servedReader) enabledCond(e ast.Expr, imports map[string]string, f *ast.File, fd *ast.FuncDecl) (gvs []string, take bool, err error) {
	var terms []ast.Expr
	var split func(e ast.Expr)
	split = func(e ast.Expr) {
		if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.LAND {
			split(b.X)
			split(b.Y)
			return
		}
		terms = append(terms, e)
	}
	split(e)
	take = true
	for _, t := range terms {
		switch t := t.(type) {
		case *ast.CallExpr:
			sel, ok := t.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "ResourceEnabled" || len(t.Args) != 1 {
				return nil, false, fmt.Errorf("unknown condition")
			}
			inner, ok := t.Args[0].(*ast.CallExpr)
			if !ok {
				return nil, false, fmt.Errorf("unknown ResourceEnabled argument")
			}
			isel, ok := inner.Fun.(*ast.SelectorExpr)
			if !ok || isel.Sel.Name != "WithResource" {
				return nil, false, fmt.Errorf("unknown ResourceEnabled argument")
			}
			if id, ok := isel.X.(*ast.Ident); ok {
				gvs, err = r.paramGroupVersions(id.Name, f, fd, imports)
			} else {
				var gv string
				gv, err = r.groupVersion(isel.X, imports)
				gvs = []string{gv}
			}
			if err != nil {
				return nil, false, err
			}
		case *ast.UnaryExpr:
			if sel, ok := t.X.(*ast.SelectorExpr); ok && t.Op == token.NOT && sel.Sel.Name == "Generic" {
				continue
			}
			return nil, false, fmt.Errorf("unknown condition")
		case *ast.BinaryExpr:
			if t.Op == token.NEQ {
				if id, ok := t.Y.(*ast.Ident); ok && id.Name == "nil" {
					take = false // an override of storage registered before
					continue
				}
			}
			return nil, false, fmt.Errorf("unknown condition")
		default:
			return nil, false, fmt.Errorf("unknown condition")
		}
	}
	if len(gvs) == 0 {
		return nil, false, fmt.Errorf("no ResourceEnabled")
	}
	return gvs, take, nil
}

// assignments records storage[resource] and storage[resource+"/sub"] assignments of a
// block that runs when on is true.
func (r *servedReader) assignments(b *ast.BlockStmt, on bool, key string) error {
	for _, st := range b.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if len(st.Lhs) != 1 {
				continue
			}
			ix, ok := st.Lhs[0].(*ast.IndexExpr)
			if !ok {
				continue
			}
			if id, ok := ix.X.(*ast.Ident); !ok || id.Name != "storage" {
				continue
			}
			sub, ok := subresource(ix.Index)
			if !ok {
				return fmt.Errorf("unknown storage key")
			}
			if sub != "" && sub != "status" && sub != "scale" {
				continue
			}
			if on {
				if r.served[key] == nil {
					r.served[key] = map[string]bool{}
				}
				r.served[key][sub] = true
			}
		case *ast.IfStmt:
			cond, known, err := r.gate(st.Cond)
			if err != nil {
				return err
			}
			if !known {
				// A condition on something else (an error, an optional storage): it must
				// guard nothing the index depends on. When its branch returns (an error),
				// the else branch is the way on.
				if guards(st.Body, key) {
					return fmt.Errorf("storage registered under a condition this reader cannot decide")
				}
				eb, _ := st.Else.(*ast.BlockStmt)
				if eb == nil {
					continue
				}
				if n := len(st.Body.List); n > 0 {
					if _, ret := st.Body.List[n-1].(*ast.ReturnStmt); ret {
						if err := r.assignments(eb, on, key); err != nil {
							return err
						}
						continue
					}
				}
				if guards(eb, key) {
					return fmt.Errorf("storage registered under a condition this reader cannot decide")
				}
				continue
			}
			if err := r.assignments(st.Body, on && cond, key); err != nil {
				return err
			}
			if eb, ok := st.Else.(*ast.BlockStmt); ok {
				if err := r.assignments(eb, on && !cond, key); err != nil {
					return err
				}
			}
		case *ast.BlockStmt:
			if err := r.assignments(st, on, key); err != nil {
				return err
			}
		}
	}
	return nil
}

// guards reports whether a block registers the resource, its /status or its /scale.
func guards(b *ast.BlockStmt, key string) bool {
	probe := &servedReader{served: map[string]map[string]bool{}}
	if err := probe.assignments(b, true, key); err != nil {
		return true
	}
	s := probe.served[key]
	return s[""] || s["status"] || s["scale"]
}

// subresource reads resource or resource+"/sub".
func subresource(e ast.Expr) (string, bool) {
	if id, ok := e.(*ast.Ident); ok && id.Name == "resource" {
		return "", true
	}
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != token.ADD {
		return "", false
	}
	if id, ok := b.X.(*ast.Ident); !ok || id.Name != "resource" {
		return "", false
	}
	lit, ok := b.Y.(*ast.BasicLit)
	if !ok {
		return "", false
	}
	v, _ := strconv.Unquote(lit.Value)
	return strings.TrimPrefix(v, "/"), strings.HasPrefix(v, "/")
}

// gate decides `utilfeature.DefaultFeatureGate.Enabled(features.X)` (and its negation) at
// this release's defaults, and `….IsVersionRegistered(…)` (true: kube-apiserver's scheme
// registers every version it has types of). known is false for any other condition.
func (r *servedReader) gate(e ast.Expr) (value, known bool, err error) {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		v, known, err := r.gate(u.X)
		return !v, known, err
	}
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false, false, nil
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false, false, nil
	}
	switch sel.Sel.Name {
	case "IsVersionRegistered":
		return true, true, nil
	case "Enabled":
		if len(call.Args) != 1 {
			return false, false, nil
		}
		fsel, ok := call.Args[0].(*ast.SelectorExpr)
		if !ok {
			return false, false, nil
		}
		return gateEnabled(fsel.Sel.Name)
	}
	return false, false, nil
}

func gateEnabled(name string) (v, known bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("feature gate %s: %v", name, p)
		}
	}()
	return utilfeature.DefaultFeatureGate.Enabled(featuregate.Feature(name)), true, nil
}
