//lint:file-ignore SA1019 the generator builds against every minor from 1.32 (go.1.3x.mod); k8s.io/apiextensions-api, which 1.38 points to, exists only from 1.38

// Command gen writes the encoding facts of every built-in Kubernetes API type
// (k8s.io/api, apiextensions-apiserver, kube-aggregator) of every Kubernetes minor
// ssa-diff predicts as a Go table for package internal/defaults: go.mod pins the newest
// release, go.1.<minor>.mod each older one (the same source built with -modfile; the
// parent run builds each with -dump and merges them, a type identical across minors
// stored once).
//
// For each Go type reachable from a registered kind it records what the JSON
// encoding of that type does: field names in declaration order, omitempty and
// omitzero, embedded (inline) structs, pointer/slice/map structure and the
// handful of types with their own JSON form (Quantity, IntOrString, Time, …).
// It also records the `+default=` markers found in the types' source, which
// defaulter-gen turns into field defaults.
//
// It also records, per minor, the defaults of the feature gates the hand-written
// defaulters consult (k8s.io/kubernetes pkg/features, linked).
//
// Usage (from this directory): go run . -o ../zz_generated_types.go
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextscheme "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/scheme"
	aggscheme "k8s.io/kube-aggregator/pkg/client/clientset_generated/clientset/scheme"
)

// kind names as written into the generated table; they must match the
// constants of package defaults.
var special = map[reflect.Type]string{
	reflect.TypeFor[resource.Quantity]():                     "kindQuantity",
	reflect.TypeFor[intstr.IntOrString]():                    "kindIntOrString",
	reflect.TypeFor[metav1.Time]():                           "kindTime",
	reflect.TypeFor[metav1.MicroTime]():                      "kindMicroTime",
	reflect.TypeFor[metav1.Duration]():                       "kindDuration",
	reflect.TypeFor[runtime.RawExtension]():                  "kindRaw",
	reflect.TypeFor[metav1.FieldsV1]():                       "kindRaw",
	reflect.TypeFor[apiextv1.JSON]():                         "kindRaw",
	reflect.TypeFor[apiextv1.JSONSchemaPropsOrArray]():       "kindSchemaOrArray",
	reflect.TypeFor[apiextv1.JSONSchemaPropsOrBool]():        "kindSchemaOrBool",
	reflect.TypeFor[apiextv1.JSONSchemaPropsOrStringArray](): "kindSchemaOrStringArray",
}

// served lists the group-versions kube-apiserver serves by default at some minor
// (pkg/controlplane's stable lists plus apiextensions and the aggregator): every beta
// and alpha version is off by default. A release's scheme has only those its k8s.io/api
// has (storagemigration.k8s.io/v1 is new in 1.37).
var served = map[string]bool{
	"v1":                              true,
	"admissionregistration.k8s.io/v1": true,
	"apiextensions.k8s.io/v1":         true,
	"apiregistration.k8s.io/v1":       true,
	"apps/v1":                         true,
	"authentication.k8s.io/v1":        true,
	"authorization.k8s.io/v1":         true,
	"autoscaling/v1":                  true,
	"autoscaling/v2":                  true,
	"batch/v1":                        true,
	"certificates.k8s.io/v1":          true,
	"coordination.k8s.io/v1":          true,
	"discovery.k8s.io/v1":             true,
	"events.k8s.io/v1":                true,
	"flowcontrol.apiserver.k8s.io/v1": true,
	"networking.k8s.io/v1":            true,
	"node.k8s.io/v1":                  true,
	"policy/v1":                       true,
	"rbac.authorization.k8s.io/v1":    true,
	"resource.k8s.io/v1":              true,
	"scheduling.k8s.io/v1":            true,
	"storage.k8s.io/v1":               true,
	"storagemigration.k8s.io/v1":      true,
}

var (
	marshaler   = reflect.TypeFor[json.Marshaler]()
	unmarshaler = reflect.TypeFor[json.Unmarshaler]()
)

type fieldOut struct {
	name      string
	typ       string
	omitempty bool
	omitzero  bool
	inline    bool
	dflt      string
	// patchStrategy and patchMergeKey are the field's struct tags of those names, which
	// strategic merge patches follow.
	patchStrategy string
	patchMergeKey string
}

type typeOut struct {
	name   string
	kind   string
	elem   string
	fields []fieldOut
}

type generator struct {
	types   map[string]*typeOut
	markers map[string]string // "pkgpath.Type.Field" -> marker JSON
	parsed  map[string]bool
	modDirs map[string]string
}

func main() {
	out := flag.String("o", "../zz_generated_types.go", "output file")
	dump := flag.String("dump", "", "write this build's release as JSON to this file, and nothing else")
	flag.Parse()
	var err error
	if *dump != "" {
		err = dumpRelease(*dump)
	} else {
		err = run(*out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// collect reads the types of every served kind of the release this build links.
func collect() (*generator, map[string]string, error) {
	g := &generator{types: map[string]*typeOut{}, markers: map[string]string{}, parsed: map[string]bool{}, modDirs: map[string]string{}}
	kinds := map[string]string{} // "group/version/Kind" -> type name
	for _, s := range []*runtime.Scheme{scheme.Scheme, apiextscheme.Scheme, aggscheme.Scheme} {
		for gvk, t := range s.AllKnownTypes() {
			if gvk.Version == runtime.APIVersionInternal || !served[gvk.GroupVersion().String()] {
				continue
			}
			if strings.HasSuffix(gvk.Kind, "List") || gvk.Kind == "WatchEvent" || strings.HasSuffix(gvk.Kind, "Options") {
				continue
			}
			if _, ok := t.FieldByName("ObjectMeta"); !ok {
				continue
			}
			name, err := g.visit(t)
			if err != nil {
				return nil, nil, fmt.Errorf("kind %v: %w", gvk, err)
			}
			kinds[gvkKey(gvk)] = name
		}
	}
	return g, kinds, nil
}

func gvkKey(gvk schema.GroupVersionKind) string {
	return gvk.GroupVersion().String() + "/" + gvk.Kind
}

// openAPIName names a Go type the way the OpenAPI documents do.
func openAPIName(t reflect.Type) string {
	p := t.PkgPath()
	parts := strings.SplitN(p, "/", 2)
	host := strings.Split(parts[0], ".")
	for i, j := 0, len(host)-1; i < j; i, j = i+1, j-1 {
		host[i], host[j] = host[j], host[i]
	}
	rest := ""
	if len(parts) == 2 {
		rest = "." + strings.ReplaceAll(parts[1], "/", ".")
	}
	return strings.Join(host, ".") + rest + "." + t.Name()
}

func (g *generator) visit(t reflect.Type) (string, error) {
	if k, ok := special[t]; ok {
		name := openAPIName(t)
		if _, done := g.types[name]; !done {
			g.types[name] = &typeOut{name: name, kind: k}
			if strings.HasPrefix(k, "kindSchemaOr") {
				e, err := g.visit(reflect.TypeFor[apiextv1.JSONSchemaProps]())
				if err != nil {
					return "", err
				}
				g.types[name].elem = e
			}
		}
		return name, nil
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && t.Kind() != reflect.Slice && t.Kind() != reflect.Map {
		if t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) || reflect.PointerTo(t).Implements(unmarshaler) {
			return "", fmt.Errorf("type %v has its own JSON form and no rule", t)
		}
	}
	switch t.Kind() {
	case reflect.String:
		return g.scalar("string", "kindString"), nil
	case reflect.Bool:
		return g.scalar("bool", "kindBool"), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return g.scalar("int", "kindInt"), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return g.scalar("uint", "kindUint"), nil
	case reflect.Float32, reflect.Float64:
		return g.scalar("float", "kindFloat"), nil
	case reflect.Interface:
		return g.scalar("any", "kindRaw"), nil
	case reflect.Pointer:
		e, err := g.visit(t.Elem())
		if err != nil {
			return "", err
		}
		return g.composite("*"+e, "kindPointer", e), nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return g.scalar("[]byte", "kindBytes"), nil
		}
		e, err := g.visit(t.Elem())
		if err != nil {
			return "", err
		}
		return g.composite("[]"+e, "kindSlice", e), nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return "", fmt.Errorf("map with key %v", t.Key())
		}
		e, err := g.visit(t.Elem())
		if err != nil {
			return "", err
		}
		name := "map[string]" + e
		if t.Name() != "" {
			// Named maps (core/v1 ResourceList) have their own defaulters.
			name = openAPIName(t)
		}
		return g.composite(name, "kindMap", e), nil
	case reflect.Struct:
		return g.structType(t)
	}
	return "", fmt.Errorf("unsupported type %v", t)
}

func (g *generator) scalar(name, kind string) string {
	if _, ok := g.types[name]; !ok {
		g.types[name] = &typeOut{name: name, kind: kind}
	}
	return name
}

func (g *generator) composite(name, kind, elem string) string {
	if _, ok := g.types[name]; !ok {
		g.types[name] = &typeOut{name: name, kind: kind, elem: elem}
	}
	return name
}

func (g *generator) structType(t reflect.Type) (string, error) {
	name := openAPIName(t)
	if _, ok := g.types[name]; ok {
		return name, nil
	}
	to := &typeOut{name: name, kind: "kindStruct"}
	g.types[name] = to
	if err := g.parseMarkers(t.PkgPath()); err != nil {
		return "", err
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		parts := strings.Split(tag, ",")
		fo := fieldOut{name: parts[0], patchStrategy: f.Tag.Get("patchStrategy"), patchMergeKey: f.Tag.Get("patchMergeKey")}
		for _, o := range parts[1:] {
			switch o {
			case "omitempty":
				fo.omitempty = true
			case "omitzero":
				fo.omitzero = true
			case "inline":
				fo.inline = true
			}
		}
		if f.Anonymous && fo.name == "" {
			fo.inline = true
		}
		if fo.inline {
			fo.name = ""
		} else if fo.name == "" {
			fo.name = f.Name
		}
		ft, err := g.visit(f.Type)
		if err != nil {
			return "", fmt.Errorf("%s.%s: %w", name, f.Name, err)
		}
		fo.typ = ft
		if special[f.Type] == "kindRaw" && f.Type.Kind() == reflect.Struct {
			// encoding/json never omits a struct (RawExtension writes null): omitempty
			// does nothing on apps ControllerRevision.data before 1.37.
			fo.omitempty = false
		}
		fo.dflt = g.markers[t.PkgPath()+"."+t.Name()+"."+f.Name]
		if fo.omitzero {
			if _, isTime := special[f.Type]; !isTime && (f.Type.Implements(reflect.TypeFor[interface{ IsZero() bool }]()) || reflect.PointerTo(f.Type).Implements(reflect.TypeFor[interface{ IsZero() bool }]())) {
				if f.Type != reflect.TypeFor[metav1.Time]() {
					return "", fmt.Errorf("%s.%s: omitzero on a type with its own IsZero", name, f.Name)
				}
			}
		}
		to.fields = append(to.fields, fo)
	}
	return name, nil
}

// moduleDir finds the source directory of a package in the module cache.
func (g *generator) packageDir(pkg string) (string, error) {
	if d, ok := g.modDirs[pkg]; ok {
		return d, nil
	}
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}", pkg)
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list %s: %w", pkg, err)
	}
	d := strings.TrimSpace(string(b))
	g.modDirs[pkg] = d
	return d, nil
}

// parseMarkers reads the `+default=` markers of every struct field declared
// in a package.
func (g *generator) parseMarkers(pkg string) error {
	if g.parsed[pkg] {
		return nil
	}
	g.parsed[pkg] = true
	dir, err := g.packageDir(pkg)
	if err != nil {
		return err
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	consts := map[string]string{}
	type pending struct{ key, raw string }
	var todo []pending
	for _, fn := range files {
		if strings.HasSuffix(fn, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, fn, nil, parser.ParseComments)
		if err != nil {
			return fmt.Errorf("parsing %s: %w", fn, err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for i, n := range s.Names {
						if i < len(s.Values) {
							if bl, ok := s.Values[i].(*ast.BasicLit); ok && bl.Kind == token.STRING {
								v, _ := strconv.Unquote(bl.Value)
								consts[n.Name] = v
							}
						}
					}
				case *ast.TypeSpec:
					st, ok := s.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, fld := range st.Fields.List {
						if fld.Doc == nil {
							continue
						}
						for _, c := range fld.Doc.List {
							txt := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
							if !strings.HasPrefix(txt, "+default=") {
								continue
							}
							raw := strings.TrimPrefix(txt, "+default=")
							var names []string
							for _, n := range fld.Names {
								names = append(names, n.Name)
							}
							if len(names) == 0 {
								names = []string{typeExprName(fld.Type)}
							}
							for _, n := range names {
								todo = append(todo, pending{pkg + "." + s.Name.Name + "." + n, raw})
							}
						}
					}
				}
			}
		}
	}
	for _, p := range todo {
		raw := p.raw
		if strings.HasPrefix(raw, "ref(") && strings.HasSuffix(raw, ")") {
			c := strings.TrimSuffix(strings.TrimPrefix(raw, "ref("), ")")
			v, ok := consts[c]
			if !ok {
				return fmt.Errorf("%s: unresolved %s", p.key, raw)
			}
			b, _ := json.Marshal(v)
			raw = string(b)
		}
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			return fmt.Errorf("%s: marker %q: %w", p.key, raw, err)
		}
		b, _ := json.Marshal(v)
		g.markers[p.key] = string(b)
	}
	return nil
}

func typeExprName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return typeExprName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

// writeFileAtomic replaces path with data all at once: a reader (or a failed run) never
// sees half a file.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
