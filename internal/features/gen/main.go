// Command gen writes the feature-gate table of package internal/features: every feature
// gate kube-apiserver has in each supported release, and its default there, read from the
// release's own source (the versioned gate tables of k8s.io/kubernetes pkg/features,
// k8s.io/apiserver pkg/features and k8s.io/apiextensions-apiserver pkg/features) as the Go
// module proxy serves it. Nothing of Kubernetes is compiled: the tables are Go composite
// literals, read with go/parser.
//
//	go run ./internal/features/gen -out internal/features/zz_generated.gates.go
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/kube"
)

// releases are the releases whose gates are read, oldest first: one per minor of kube.Minors,
// the patch release kube/releases.txt names.
var releases = func() []string {
	var out []string
	for _, m := range kube.Minors() {
		out = append(out, "v"+m.Release())
	}
	return out
}()

// tables are the packages holding kube-apiserver's versioned gate tables, by module; the
// first is k8s.io/kubernetes, whose table overrides the others' for the gates it repeats.
// The file holding a table differs by release (k8s.io/kubernetes kept it in
// versioned_kube_features.go at 1.32, in kube_features.go from 1.33): every file of the
// package is read.
var tables = []struct{ module, dir string }{
	{"k8s.io/kubernetes", "pkg/features"},
	{"k8s.io/apiserver", "pkg/features"},
	{"k8s.io/apiextensions-apiserver", "pkg/features"},
}

// spec is one entry of a gate's versioned specs.
type spec struct {
	minor   int
	enabled bool
	// locked: LockToDefault, --feature-gates may not set the gate otherwise.
	locked bool
}

func main() {
	out := flag.String("out", "", "the Go file to write")
	flag.Parse()
	if *out == "" {
		log.Fatal("-out is required")
	}
	// defaults[gate][i] is the gate's default in releases[i]; present[gate][i] whether the
	// release has the gate at all.
	defaults := map[string][]bool{}
	present := map[string][]bool{}
	// locked[gate][i]: the gate is locked to its default in releases[i].
	locked := map[string][]bool{}
	for i, rel := range releases {
		minor := minorOf(rel)
		seen := map[string]bool{}
		for _, t := range tables {
			version := rel
			if t.module != "k8s.io/kubernetes" {
				version = "v0" + strings.TrimPrefix(rel, "v1")
			}
			dir, err := moduleDir(t.module, version)
			if err != nil {
				log.Fatal(err)
			}
			gates, err := readPackageTable(filepath.Join(dir, t.dir))
			if err != nil {
				log.Fatalf("%s@%s: %v", t.module, version, err)
			}
			for name, specs := range gates {
				if seen[name] {
					continue // k8s.io/kubernetes repeats it with kube-apiserver's own defaults
				}
				seen[name] = true
				if defaults[name] == nil {
					defaults[name], present[name] = make([]bool, len(releases)), make([]bool, len(releases))
					locked[name] = make([]bool, len(releases))
				}
				defaults[name][i], present[name][i] = defaultAt(specs, minor), true
				locked[name][i] = lockedAt(specs, minor)
			}
		}
	}
	src, err := render(defaults, present, locked)
	if err != nil {
		log.Fatal(err)
	}
	if err := writeAtomic(*out, src); err != nil {
		log.Fatal(err)
	}
}

// lockedAt is whether a gate is locked to its default at a minor: the LockToDefault of the
// spec defaultAt reads.
func lockedAt(specs []spec, minor int) bool {
	locked := false
	for _, s := range specs {
		if s.minor <= minor {
			locked = s.locked
		}
	}
	return locked
}

func minorOf(release string) int {
	parts := strings.Split(strings.TrimPrefix(release, "v"), ".")
	m, err := strconv.Atoi(parts[1])
	if err != nil {
		log.Fatalf("release %q: %v", release, err)
	}
	return m
}

// defaultAt is the default of a gate at a minor: the last spec introduced at or before it
// (featuregate's rule for the emulated version); off before its first spec.
func defaultAt(specs []spec, minor int) bool {
	on := false
	for _, s := range specs {
		if s.minor <= minor {
			on = s.enabled
		}
	}
	return on
}

// moduleDir downloads a module through the go command (the module proxy) and returns its
// directory in the module cache.
func moduleDir(module, version string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", module+"@"+version)
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %w", module, version, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(b, &info); err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %w", module, version, err)
	}
	if info.Error != "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", module, version, info.Error)
	}
	return info.Dir, nil
}

// readPackageTable reads the table of the one non-test Go file of dir that holds it.
func readPackageTable(dir string) (map[string][]spec, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var found map[string][]spec
	var foundIn string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		gates, err := readTable(filepath.Join(dir, n))
		if errors.Is(err, errNoTable) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		if found != nil {
			return nil, fmt.Errorf("%s and %s both hold a defaultVersionedKubernetesFeatureGates table", foundIn, n)
		}
		found, foundIn = gates, n
	}
	if found == nil {
		return nil, fmt.Errorf("%s: %w", dir, errNoTable)
	}
	return found, nil
}

var errNoTable = errors.New("no defaultVersionedKubernetesFeatureGates table")

// readTable reads the map `defaultVersionedKubernetesFeatureGates` of a Go file: gate name →
// specs, sorted by version. A key is the gate's Go constant (possibly of another package:
// genericfeatures.X); its name is the constant's, which every table spells as its value.
func readTable(path string) (map[string][]spec, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var lit *ast.CompositeLit
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "defaultVersionedKubernetesFeatureGates" || len(vs.Values) != 1 {
			return true
		}
		lit, _ = vs.Values[0].(*ast.CompositeLit)
		return false
	})
	if lit == nil {
		return nil, errNoTable
	}
	out := map[string][]spec{}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return nil, fmt.Errorf("an entry that is not key: value")
		}
		name := ""
		switch k := kv.Key.(type) {
		case *ast.Ident:
			name = k.Name
		case *ast.SelectorExpr:
			name = k.Sel.Name
		default:
			return nil, fmt.Errorf("a key that is no gate constant")
		}
		list, ok := kv.Value.(*ast.CompositeLit)
		if !ok {
			return nil, fmt.Errorf("gate %s: specs that are not a literal", name)
		}
		var specs []spec
		for _, se := range list.Elts {
			s, err := readSpec(se)
			if err != nil {
				return nil, fmt.Errorf("gate %s: %w", name, err)
			}
			specs = append(specs, s)
		}
		sort.SliceStable(specs, func(i, j int) bool { return specs[i].minor < specs[j].minor })
		out[name] = specs
	}
	return out, nil
}

// readSpec reads {Version: version.MustParse("1.33"), Default: true, …}.
func readSpec(e ast.Expr) (spec, error) {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return spec{}, fmt.Errorf("a spec that is not a literal")
	}
	var s spec
	gotVersion := false
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return spec{}, fmt.Errorf("a spec field that is not key: value")
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			continue
		}
		switch key.Name {
		case "Version":
			call, ok := kv.Value.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return spec{}, fmt.Errorf("a Version that is not version.MustParse(...)")
			}
			bl, ok := call.Args[0].(*ast.BasicLit)
			if !ok {
				return spec{}, fmt.Errorf("a Version that is not a string")
			}
			v, err := strconv.Unquote(bl.Value)
			if err != nil {
				return spec{}, err
			}
			parts := strings.Split(v, ".")
			if len(parts) < 2 || parts[0] != "1" {
				return spec{}, fmt.Errorf("version %q", v)
			}
			if s.minor, err = strconv.Atoi(parts[1]); err != nil {
				return spec{}, fmt.Errorf("version %q: %w", v, err)
			}
			gotVersion = true
		case "Default":
			id, ok := kv.Value.(*ast.Ident)
			if !ok || (id.Name != "true" && id.Name != "false") {
				return spec{}, fmt.Errorf("a Default that is not true or false")
			}
			s.enabled = id.Name == "true"
		case "LockToDefault":
			id, ok := kv.Value.(*ast.Ident)
			if !ok || (id.Name != "true" && id.Name != "false") {
				return spec{}, fmt.Errorf("a LockToDefault that is not true or false")
			}
			s.locked = id.Name == "true"
		}
	}
	if !gotVersion {
		return spec{}, fmt.Errorf("a spec without a Version")
	}
	return s, nil
}

func render(defaults, present, locked map[string][]bool) ([]byte, error) {
	names := make([]string, 0, len(defaults))
	for n := range defaults {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by internal/features/gen from %s. DO NOT EDIT.\n\n", strings.Join(releases, ", "))
	b.WriteString("package features\n\n")
	fmt.Fprintf(&b, "// oldestMinor is the minor of the first release the table describes.\nconst oldestMinor = %d\n\n", minorOf(releases[0]))
	fmt.Fprintf(&b, "// releaseCount is the number of releases the table describes.\nconst releaseCount = %d\n\n", len(releases))
	b.WriteString("// The feature gates of kube-apiserver in any supported release, by name.\nconst (\n")
	for i, n := range names {
		if i == 0 {
			fmt.Fprintf(&b, "\t%s Gate = iota\n", n)
		} else {
			fmt.Fprintf(&b, "\t%s\n", n)
		}
	}
	b.WriteString("\n\tgateCount\n)\n\n")
	b.WriteString("// gateNames are the gates' names, as --feature-gates spells them.\nvar gateNames = [gateCount]string{\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t%s: %q,\n", n, n)
	}
	b.WriteString("}\n\n")
	b.WriteString("// defaults[r] are the gates on by default in the r-th release (oldestMinor + r).\nvar defaults = [releaseCount][]Gate{\n")
	for i, rel := range releases {
		fmt.Fprintf(&b, "\t// %s\n\t{", rel)
		first := true
		for _, n := range names {
			if defaults[n][i] {
				if !first {
					b.WriteString(", ")
				}
				b.WriteString(n)
				first = false
			}
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n\n")
	for _, t := range []struct {
		doc, name string
		has       map[string][]bool
	}{
		{"the gates the r-th release has (a gate of another release is unknown to it)", "known", present},
		{"the gates the r-th release locks to their default (--feature-gates may not set them otherwise)", "locked", locked},
	} {
		fmt.Fprintf(&b, "// %s[r] are %s.\nvar %s = [releaseCount][]Gate{\n", t.name, t.doc, t.name)
		for i, rel := range releases {
			fmt.Fprintf(&b, "\t// %s\n\t{", rel)
			first := true
			for _, n := range names {
				if t.has[n][i] {
					if !first {
						b.WriteString(", ")
					}
					b.WriteString(n)
					first = false
				}
			}
			b.WriteString("},\n")
		}
		b.WriteString("}\n\n")
	}
	return format.Source(b.Bytes())
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".gen-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
