package main

import (
	"encoding/json"
	"fmt"
	"github.com/ssa-diff/ssa-diff/internal/olderminor"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	_ "k8s.io/kubernetes/pkg/features" // registers kube-apiserver's feature gates, at this release's defaults
)

// consultedGates are the feature gates the hand-written defaulters of package
// internal/defaults consult (its featureGates struct has one field per gate, in this order).
// A gate a release does not have is off there.
var consultedGates = []string{
	"ImageVolume",
	"H2CContainerProbe",
	"MaxUnavailableStatefulSet",
	"SELinuxMountReadWriteOncePod",
	"VolumeLimitScaling",
}

// release is what one build reads of its Kubernetes release.
type release struct {
	Minor      int               `json:"minor"`
	Kubernetes string            `json:"kubernetes"`
	Types      []typeJSON        `json:"types"`
	Kinds      map[string]string `json:"kinds"` // "apiVersion/Kind" -> root type name
	Gates      map[string]bool   `json:"gates"`
}

type typeJSON struct {
	Name, Kind, Elem string
	Fields           []fieldJSON
}

type fieldJSON struct {
	Name, Typ                    string
	OmitEmpty, OmitZero, Inline  bool
	Default                      string
	PatchStrategy, PatchMergeKey string `json:",omitempty"`
}

func dumpRelease(path string) error {
	minor, kube, err := thisRelease()
	if err != nil {
		return err
	}
	g, kinds, err := collect()
	if err != nil {
		return err
	}
	r := release{Minor: minor, Kubernetes: kube, Kinds: kinds, Gates: map[string]bool{}}
	names := make([]string, 0, len(g.types))
	for n := range g.types {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t := g.types[n]
		tj := typeJSON{Name: t.name, Kind: t.kind, Elem: t.elem}
		for _, f := range t.fields {
			tj.Fields = append(tj.Fields, fieldJSON{f.name, f.typ, f.omitempty, f.omitzero, f.inline, f.dflt, f.patchStrategy, f.patchMergeKey})
		}
		r.Types = append(r.Types, tj)
	}
	for _, gate := range consultedGates {
		on, err := gateEnabled(gate)
		if err != nil {
			return err
		}
		r.Gates[gate] = on
	}
	data, err := json.Marshal(&r)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen: Kubernetes %s: %d types, %d kinds\n", kube, len(r.Types), len(kinds))
	return os.WriteFile(path, data, 0o644)
}

// gateEnabled is a gate's default at this release; false for a gate it does not have.
func gateEnabled(name string) (bool, error) {
	if _, ok := utilfeature.DefaultMutableFeatureGate.GetAll()[featuregate.Feature(name)]; !ok {
		return false, nil
	}
	return utilfeature.DefaultFeatureGate.Enabled(featuregate.Feature(name)), nil
}

// thisRelease reads k8s.io/kubernetes' version from the build information.
func thisRelease() (int, string, error) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return 0, "", fmt.Errorf("no build information")
	}
	for _, d := range bi.Deps {
		if d.Path == "k8s.io/kubernetes" {
			kube := strings.TrimPrefix(d.Version, "v")
			// A release, or a pre-release listed before its minor's first release
			// ("1.38.0-beta.0").
			core, _, _ := strings.Cut(kube, "-")
			parts := strings.Split(core, ".")
			if len(parts) != 3 {
				return 0, "", fmt.Errorf("k8s.io/kubernetes %s is not a release", d.Version)
			}
			m, err := strconv.Atoi(parts[1])
			return m, kube, err
		}
	}
	return 0, "", fmt.Errorf("k8s.io/kubernetes not in the build information")
}

var modfileRE = regexp.MustCompile(`^go\.1\.(\d+)\.mod$`)

// run dumps every minor (this build and one build per go.1.<minor>.mod) and writes the table.
func run(out string) error {
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
	tmp, err := os.MkdirTemp("", "defaults-gen-")
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
			return fmt.Errorf("dumping the release of %s: %w", mf, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		r := &release{}
		if err := json.Unmarshal(data, r); err != nil {
			return err
		}
		releases = append(releases, r)
	}
	sort.Slice(releases, func(i, j int) bool { return releases[i].Minor < releases[j].Minor })
	src, err := emit(releases)
	if err != nil {
		return err
	}
	return writeFileAtomic(out, src)
}

// node is one type of one release.
type node struct {
	r int
	t *typeJSON
}

// emit merges the releases' types, one entry per class of types identical in every
// release that has them (the same facts and, recursively, the same facts of every type
// they refer to: the coarsest partition stable under the references, found by refining
// the partition by local facts until it no longer splits), and writes the table.
func emit(releases []*release) ([]byte, error) {
	var nodes []node
	id := map[[2]string]int{} // (release, type name) -> node
	for ri, r := range releases {
		for ti := range r.Types {
			id[[2]string{strconv.Itoa(ri), r.Types[ti].Name}] = len(nodes)
			nodes = append(nodes, node{ri, &r.Types[ti]})
		}
	}
	ref := func(n node, name string) int {
		if name == "" {
			return -1
		}
		i, ok := id[[2]string{strconv.Itoa(n.r), name}]
		if !ok {
			panic("dangling type " + name)
		}
		return i
	}
	class := make([]int, len(nodes))
	local := func(n node) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%s|%s|%t|", n.t.Name, n.t.Kind, n.t.Elem != "")
		for _, f := range n.t.Fields {
			fmt.Fprintf(&b, "%s,%t,%t,%t,%q,%q,%q;", f.Name, f.OmitEmpty, f.OmitZero, f.Inline, f.Default, f.PatchStrategy, f.PatchMergeKey)
		}
		return b.String()
	}
	assign := func(key func(i int) string) int {
		ids := map[string]int{}
		for i := range nodes {
			k := key(i)
			c, ok := ids[k]
			if !ok {
				c = len(ids)
				ids[k] = c
			}
			class[i] = c
		}
		return len(ids)
	}
	count := assign(func(i int) string { return local(nodes[i]) })
	for {
		prev := append([]int(nil), class...)
		n := assign(func(i int) string {
			nd := nodes[i]
			k := strconv.Itoa(prev[i]) + "|"
			if nd.t.Elem != "" {
				k += strconv.Itoa(prev[ref(nd, nd.t.Elem)])
			}
			for _, f := range nd.t.Fields {
				k += "," + strconv.Itoa(prev[ref(nd, f.Typ)])
			}
			return k
		})
		if n == count {
			break
		}
		count = n
	}
	// One entry per class, sorted by name, then by the first release that has it.
	rep := make([]int, count)
	for i := range rep {
		rep[i] = -1
	}
	for i := range nodes {
		if rep[class[i]] < 0 {
			rep[class[i]] = i
		}
	}
	order := make([]int, count)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		na, nb := nodes[rep[order[a]]], nodes[rep[order[b]]]
		if na.t.Name != nb.t.Name {
			return na.t.Name < nb.t.Name
		}
		return na.r < nb.r
	})
	index := make([]int, count) // class -> entry
	for e, c := range order {
		index[c] = e
	}
	t := table{}
	for _, r := range releases {
		t.from = append(t.from, r.Kubernetes)
	}
	for _, c := range order {
		n := nodes[rep[c]]
		tt := tableType{name: n.t.Name, kind: n.t.Kind, elem: -1}
		if n.t.Elem != "" {
			tt.elem = index[class[ref(n, n.t.Elem)]]
		}
		for _, f := range n.t.Fields {
			tt.fields = append(tt.fields, tableField{
				name: f.Name, typ: index[class[ref(n, f.Typ)]],
				omitEmpty: f.OmitEmpty, omitZero: f.OmitZero, inline: f.Inline,
				marker: f.Default, patchStrategy: f.PatchStrategy, patchMergeKey: f.PatchMergeKey,
			})
		}
		t.types = append(t.types, tt)
	}
	for ri, r := range releases {
		tr := tableRelease{minor: r.Minor, kubernetes: r.Kubernetes}
		for _, g := range consultedGates {
			tr.gates = append(tr.gates, r.Gates[g])
		}
		keys := make([]string, 0, len(r.Kinds))
		for k := range r.Kinds {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			i := id[[2]string{strconv.Itoa(ri), r.Kinds[k]}]
			tr.kinds = append(tr.kinds, tableKind{key: k, typ: index[class[i]], typeName: r.Kinds[k]})
		}
		t.releases = append(t.releases, tr)
	}
	return write(t)
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	if strings.HasPrefix(s, "SELinux") {
		return "seLinux" + strings.TrimPrefix(s, "SELinux")
	}
	if strings.HasPrefix(s, "H2C") {
		return "h2c" + strings.TrimPrefix(s, "H2C")
	}
	return strings.ToLower(s[:1]) + s[1:]
}
