// Command gen writes the embedded schema of ssa-diff: for every Kubernetes minor ssa-diff
// predicts, the SMD schema of every built-in kind as kube-apiserver of that release builds
// it for its field manager (from k8s.io/kubernetes' own generated OpenAPI definitions, see
// serverTypeConverter), the GVK index, and the facts of the release's default API
// configuration that the tests of package schema hold the index to.
//
// Each minor is read from its own build: this module's go.mod pins the newest release,
// go.1.<minor>.mod each older one (the same source, built with -modfile). Run from
// schema/gen:
//
//	go run . -out ../builtin
//
// runs itself once per minor with -dump (go run -modfile=go.1.34.mod . -dump …, the
// modfile also set in GOFLAGS so that the `go list` it runs reads the same release), then
// writes one package for all of them: types identical across minors are stored once.
// Adding a minor is a new go.1.<minor>.mod (k8s.io/kubernetes at that release, its staging
// modules replaced by the same versions) and a rerun; new kinds must be added to the
// resource table (table.go), which the generator cross-checks against the release's typed
// clients and +k8s:supportsSubresource markers.
//
//	go run . -from-copies -out ../builtin
//
// writes zz_generated.schema.go alone from the readable copies of every release's schema
// in ../builtin (schema.yaml, schema-1.<minor>.yaml), which SMD's parser reads as the full
// run reads each release's dump: the same file, without building any release (a change of
// how the template is written needs no module of any release). TestSchemaGoIsUpToDate
// holds the committed file to it.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/ssa-diff/ssa-diff/internal/olderminor"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/schema/gen/atomicfile"
	yaml "go.yaml.in/yaml/v2"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

func main() {
	out := flag.String("out", "../builtin", "directory of the generated package")
	served := flag.String("served", "../testdata/served", "directory of the served-API facts of each release")
	dump := flag.String("dump", "", "write this build's release (types, kinds, served facts) as JSON to this file, and nothing else")
	fromCopies := flag.Bool("from-copies", false, "write only zz_generated.schema.go, from the readable copies in -out (schema*.yaml), building no release")
	flag.Parse()
	var err error
	switch {
	case *dump != "":
		err = dumpRelease(*dump)
	case *fromCopies:
		err = schemaFromCopies(*out)
	default:
		err = run(*out, *served)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// release is what one build reads of its Kubernetes release.
type release struct {
	Minor      int    `json:"minor"`
	Kubernetes string `json:"kubernetes"` // "1.34.4"
	From       string `json:"from"`       // "k8s.io/kubernetes v1.34.4"
	SchemaYAML string `json:"schema"`     // the SMD types, as schema.yaml holds them
	Kinds      []kindJSON
	Served     string `json:"served"` // the served-API facts (served.go)
	APIs       []apiJSON
	types      []smdschema.TypeDef
}

// apiJSON is one group-version of the release as --runtime-config sees it (served.go).
type apiJSON struct {
	GroupVersion string
	// Default is "on" or "off" when the default API configuration names the group-version,
	// "" when it does not (api/all and its kin then leave it alone).
	Default string `json:",omitempty"`
	// Registered: the servers' schemes register it (a --runtime-config key may name it).
	Registered bool
	// Resources are the resources its storage providers register (default gates).
	Resources []string `json:",omitempty"`
}

type kindJSON struct {
	Group, Version, Kind, TypeName, Resource string
	Namespaced, Status, Scale                bool
}

// dumpRelease reads the release this build links and writes it to path.
func dumpRelease(path string) error {
	m, err := thisMinor()
	if err != nil {
		return err
	}
	clients, err := clientFacts()
	if err != nil {
		return err
	}
	types, kinds, err := collect(clients, m)
	if err != nil {
		return err
	}
	checked, err := crossCheck(kinds, clients)
	if err != nil {
		return err
	}
	markerChecked, err := markerCheck(kinds, m)
	if err != nil {
		return err
	}
	servedText, apis, err := servedFacts(m)
	if err != nil {
		return err
	}
	yamlText, err := yaml.Marshal(&smdschema.Schema{Types: types})
	if err != nil {
		return fmt.Errorf("marshalling the schema: %w", err)
	}
	// The YAML copy must be a schema SMD accepts and must read back as the same types.
	parser, err := typed.NewParser(typed.YAMLObject(yamlText))
	if err != nil {
		return fmt.Errorf("SMD rejects the generated schema: %w", err)
	}
	if !equalTypeDefs(parser.Schema.Types, types) {
		return fmt.Errorf("the schema does not read back as the collected types")
	}
	apis = withoutRemoved(apis, kinds, m)
	r := release{Minor: m.number, Kubernetes: m.kubernetes, From: m.from, SchemaYAML: string(yamlText), Served: servedText, APIs: apis}
	for _, k := range kinds {
		r.Kinds = append(r.Kinds, kindJSON{k.group, k.version, k.kind, k.typeName, k.resource, k.namespaced, k.status, k.scale})
	}
	data, err := json.Marshal(&r)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen: Kubernetes %s: %d types, %d kinds (%d cross-checked against typed clients, %d against subresource markers)\n",
		m.kubernetes, len(types), len(kinds), checked, markerChecked)
	return os.WriteFile(path, data, 0o644)
}

// modfileRE names the go.mod files of the older minors.
var modfileRE = regexp.MustCompile(`^go\.1\.(\d+)\.mod$`)

// run dumps every minor (this build and one build per go.1.<minor>.mod) and writes the
// package.
func run(out, servedDir string) error {
	modfiles := []string{""}
	entries, err := os.ReadDir(".")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if modfileRE.MatchString(e.Name()) {
			modfiles = append(modfiles, e.Name())
		}
	}
	tmp, err := os.MkdirTemp("", "schema-gen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var releases []*release
	for i, mf := range modfiles {
		path := filepath.Join(tmp, strconv.Itoa(i)+".json")
		if mf == "" {
			err = dumpRelease(path)
		} else {
			err = olderminor.Command(mf, "run", ".", "-dump", path).Run()
		}
		if err != nil {
			return fmt.Errorf("dumping the release of %s: %w", cmp(mf, "go.mod"), err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		r := &release{}
		if err := json.Unmarshal(data, r); err != nil {
			return err
		}
		parser, err := typed.NewParser(typed.YAMLObject(r.SchemaYAML))
		if err != nil {
			return fmt.Errorf("the schema of Kubernetes %s: SMD rejects it: %w", r.Kubernetes, err)
		}
		r.types = parser.Schema.Types
		releases = append(releases, r)
	}
	sort.Slice(releases, func(i, j int) bool { return releases[i].Minor < releases[j].Minor })
	for i := 1; i < len(releases); i++ {
		if releases[i].Minor != releases[i-1].Minor+1 {
			return fmt.Errorf("the releases are not consecutive minors: 1.%d after 1.%d", releases[i].Minor, releases[i-1].Minor)
		}
	}
	latest := releases[len(releases)-1]
	if latest.From != modfileRelease("") {
		return fmt.Errorf("go.mod must pin the newest release (it pins %s, the newest is %s)", modfileRelease(""), latest.From)
	}

	schemaGo, err := emitSchema(releases)
	if err != nil {
		return err
	}
	kindsGo, err := emitKinds(releases)
	if err != nil {
		return err
	}
	apisGo, err := emitAPIs(releases)
	if err != nil {
		return err
	}
	files := map[string][]byte{
		filepath.Join(out, "zz_generated.schema.go"): schemaGo,
		filepath.Join(out, "zz_generated.kinds.go"):  kindsGo,
		filepath.Join(out, "zz_generated.apis.go"):   apisGo,
	}
	for _, r := range releases {
		header := "# SMD schema of every built-in type of Kubernetes " + r.Kubernetes + ", generated by\n" +
			"# github.com/ssa-diff/ssa-diff/schema/gen from " + r.From + ". DO NOT EDIT.\n" +
			"# Readable copy of zz_generated.schema.go (a test proves they are equal).\n"
		files[filepath.Join(out, schemaYAMLName(r, latest))] = append([]byte(header), r.SchemaYAML...)
		files[filepath.Join(servedDir, "1."+strconv.Itoa(r.Minor)+".txt")] = []byte(r.Served)
	}
	if err := os.MkdirAll(servedDir, 0o755); err != nil {
		return err
	}
	for name, data := range files {
		if err := atomicfile.Write(name, data); err != nil {
			return err
		}
	}
	fmt.Printf("gen: %d releases (%s) -> %s, %s\n", len(releases), releaseList(releases), out, servedDir)
	return nil
}

// schemaYAMLName is schema.yaml for the newest release, schema-1.<minor>.yaml for the others.
func schemaYAMLName(r, latest *release) string {
	if r == latest {
		return "schema.yaml"
	}
	return "schema-1." + strconv.Itoa(r.Minor) + ".yaml"
}

func releaseList(rs []*release) string {
	var s []string
	for _, r := range rs {
		s = append(s, r.Kubernetes)
	}
	return strings.Join(s, ", ")
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// minor is the release a build links.
type minor struct {
	number     int    // 37
	kubernetes string // "1.37.2"
	from       string // "k8s.io/kubernetes v1.37.2"
}

// thisMinor reads k8s.io/kubernetes' version from the build information: v1.37.2 is
// Kubernetes 1.37.2. The staging modules (client-go v0.37.2, …) must be of the same release.
func thisMinor() (minor, error) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return minor{}, fmt.Errorf("no build information")
	}
	var m minor
	staging := map[string]string{}
	for _, d := range bi.Deps {
		v := d.Version
		if d.Replace != nil {
			v = d.Replace.Version
		}
		switch d.Path {
		case "k8s.io/kubernetes":
			m.kubernetes = strings.TrimPrefix(v, "v")
			m.from = d.Path + " " + v
		case "k8s.io/client-go", "k8s.io/api", "k8s.io/apiextensions-apiserver", "k8s.io/kube-aggregator", "k8s.io/apimachinery", "k8s.io/apiserver":
			staging[d.Path] = v
		}
	}
	// A release, or a pre-release listed before its minor's first release ("1.38.0-beta.0").
	core, _, _ := strings.Cut(m.kubernetes, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 || parts[0] != "1" {
		return minor{}, fmt.Errorf("k8s.io/kubernetes %q is not a release", m.kubernetes)
	}
	m.number, _ = strconv.Atoi(parts[1])
	for p, v := range staging {
		if v != "v0."+strings.TrimPrefix(m.kubernetes, "1.") {
			return minor{}, fmt.Errorf("%s %s is not of Kubernetes %s", p, v, m.kubernetes)
		}
	}
	return m, nil
}

// modfileRelease is "k8s.io/kubernetes vX" as a module file (go.mod when "") requires it.
func modfileRelease(mf string) string {
	data, err := os.ReadFile(cmp(mf, "go.mod"))
	if err != nil {
		return ""
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		f := strings.Fields(string(line))
		if len(f) >= 2 && f[0] == "k8s.io/kubernetes" && strings.HasPrefix(f[1], "v1.") {
			return f[0] + " " + f[1]
		}
	}
	return ""
}
