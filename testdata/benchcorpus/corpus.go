package benchcorpus

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	"sigs.k8s.io/yaml"
)

// Options say what to generate.
type Options struct {
	// Objects is about how many manifest objects the repository holds (at least a few
	// applications' worth are always made).
	Objects int
	// Seed makes another corpus of the same shape.
	Seed uint64
	// Now is the time the live state describes; the histories happen in the weeks before.
	// Zero means 2026-12-01T12:00:00Z.
	Now time.Time
	// CELRules adds CEL validation rules (and the bounds their cost needs) to the CRDs in the
	// repository and the cluster: a corpus whose custom resources the API server validates
	// with CEL.
	CELRules bool
	// ChangeRate scales how often a pull request changes an application, in percent of the
	// default weights (0 means 100).
	ChangeRate int
}

// File is one file of the repository.
type File struct {
	// Path is relative to the repository's root, "/"-separated.
	Path string
	Data []byte
}

// Corpus is a generated repository and live state.
type Corpus struct {
	// Repo is the repository's files, in path order.
	Repo []File
	// Live is the cluster's state as `kubectl get … -A -o json --show-managed-fields`
	// prints it: a v1 List.
	Live []byte
	// Objects and LiveObjects count the manifest objects and the live ones.
	Objects, LiveObjects int
	// Appliers counts the live applications by the applier that synced them.
	Appliers map[string]int
	// Changes counts the applications the pull request changes, by kind of change, and
	// "new" and "live-only" applications.
	Changes map[string]int
}

// objectsPerApp is the average number of manifests of an application (Deployment, Service,
// ConfigMap, and half an HPA, half a ServiceMonitor, a third of a Certificate).
const objectsPerApp = 4.3

// appResult is what one application contributes.
type appResult struct {
	files   []File
	objects int
	live    []map[string]any
	applier string
	changes []string
	err     error
}

// Generate makes a corpus.
func Generate(opts Options) (*Corpus, error) {
	if opts.Now.IsZero() {
		opts.Now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	}
	if opts.ChangeRate == 0 {
		opts.ChangeRate = 100
	}
	reg := schema.MustNewRegistry(kube.Default())
	crds, err := crdFiles(opts)
	if err != nil {
		return nil, err
	}
	for _, crd := range crds {
		if err := reg.AddCRD(crd.name, []byte(crd.text)); err != nil {
			return nil, fmt.Errorf("registering the %s CRD: %w", crd.name, err)
		}
	}
	eng := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	nApps := int(float64(opts.Objects)/objectsPerApp + 0.5)
	if nApps < 4 {
		nApps = 4
	}
	nTeams := nApps / 15
	if nTeams < 2 {
		nTeams = 2
	}
	teams := make([]string, nTeams)
	for i := range teams {
		teams[i] = fmt.Sprintf("team-%s-%d", words[i%len(words)], i)
	}
	start := opts.Now.Add(-30 * 24 * time.Hour)

	results := make([]appResult, nApps)
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = generateApp(eng, reg, opts, teams[i%nTeams], i, start)
			}
		}()
	}
	for i := 0; i < nApps; i++ {
		work <- i
	}
	close(work)
	wg.Wait()

	c := &Corpus{Appliers: map[string]int{}, Changes: map[string]int{}}
	var live []map[string]any
	// Cluster-wide objects: the teams' namespaces and the CRDs, synced by Argo CD and
	// kubectl.
	infra, err := generateInfra(eng, reg, opts, teams, start)
	if err != nil {
		return nil, err
	}
	c.Repo = append(c.Repo, infra.files...)
	c.Objects += infra.objects
	live = append(live, infra.live...)
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		c.Repo = append(c.Repo, r.files...)
		c.Objects += r.objects
		live = append(live, r.live...)
		if r.applier != "" {
			c.Appliers[r.applier]++
		}
		for _, ch := range r.changes {
			c.Changes[ch]++
		}
	}
	sort.Slice(c.Repo, func(i, j int) bool { return c.Repo[i].Path < c.Repo[j].Path })
	sortLive(live)
	c.LiveObjects = len(live)
	items := make([]any, len(live))
	for i, o := range live {
		items[i] = o
	}
	list := map[string]any{"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]any{"resourceVersion": ""}}
	b, err := json.MarshalIndent(list, "", "    ")
	if err != nil {
		return nil, err
	}
	c.Live = append(b, '\n')
	return c, nil
}

// kindOrder is the order kubectl get all-kinds dumps print resources in.
var kindOrder = map[string]int{"CustomResourceDefinition": 0, "Namespace": 1, "ConfigMap": 2, "Service": 3, "Deployment": 4,
	"HorizontalPodAutoscaler": 5, "ServiceMonitor": 6, "Certificate": 7}

func sortLive(live []map[string]any) {
	key := func(o map[string]any) (int, string, string) {
		md := o["metadata"].(map[string]any)
		ns, _ := md["namespace"].(string)
		name, _ := md["name"].(string)
		return kindOrder[o["kind"].(string)], ns, name
	}
	sort.SliceStable(live, func(i, j int) bool {
		ki, ni, mi := key(live[i])
		kj, nj, mj := key(live[j])
		if ki != kj {
			return ki < kj
		}
		if ni != nj {
			return ni < nj
		}
		return mi < mj
	})
}

// applierWeights are the appliers and their weights out of 100.
var applierWeights = []struct {
	name   string
	weight int
}{{ApplierArgoCD, 45}, {ApplierFlux, 15}, {ApplierKubectlSSA, 15}, {ApplierKubectlCSA, 15}, {ApplierHelm, 10}}

func drawApplier(r *rand.Rand) string {
	n := r.IntN(100)
	for _, a := range applierWeights {
		if n < a.weight {
			return a.name
		}
		n -= a.weight
	}
	return ApplierArgoCD
}

func generateApp(eng *merge.Engine, reg *schema.Registry, opts Options, team string, i int, start time.Time) (out appResult) {
	r := rand.New(rand.NewPCG(opts.Seed, uint64(i)+1))
	cur := newApp(r, team, i) // the repository's main branch, last synced
	prev := cur.clone()       // the version before
	mutate(r, prev, 100)      // (what the last merge changed)
	if prev.hpa && r.IntN(10) < 6 {
		// The manifest set replicas until the HPA came: the HPA's /scale writes take them
		// over (with nobody owning them, the server would not track the HPA's writes).
		prev.replicas = prev.minReplicas
	}
	next := cur.clone() // the pull request
	out.changes = mutate(r, next, opts.ChangeRate)
	role := r.IntN(100)
	switch {
	case role < 3:
		out.changes = []string{"new"}
		next = newApp(r, team, i)
		cur, prev = nil, nil
	case role < 11:
		out.changes = []string{"live-only"}
		next = nil
	}
	if next != nil {
		objs := next.objects()
		out.objects = len(objs)
		out.files = repoFiles(r, next, objs)
	}
	if cur == nil {
		return out
	}
	out.applier = drawApplier(r)
	rv := int64(10000 + i*1000)
	v0, v1 := prev.objects(), cur.objects()
	appStart := start.Add(time.Duration(r.IntN(72)) * time.Hour)
	for k := range v1 {
		h, err := newHistory(eng, r, reg, v1[k], appStart, &rv)
		if err != nil {
			out.err = err
			return out
		}
		if err := lifeOf(h, out.applier, v0[k], v1[k], cur); err != nil {
			out.err = fmt.Errorf("application %s/%s (%s): %w", team, cur.name, out.applier, err)
			return out
		}
		out.live = append(out.live, h.live)
	}
	return out
}

// repoFiles lays an application out as its repository does: one file per object in a
// folder, or one multi-document file.
func repoFiles(r *rand.Rand, a *appState, objs []obj) []File {
	if r.IntN(2) == 0 {
		var docs []string
		for _, o := range objs {
			docs = append(docs, mustYAML(o))
		}
		return []File{{Path: fileName("apps", a.team, a.name+".yaml"), Data: []byte(strings.Join(docs, "---\n"))}}
	}
	var files []File
	for _, o := range objs {
		kind := strings.ToLower(o["kind"].(string))
		name := o["metadata"].(obj)["name"].(string)
		files = append(files, File{Path: fileName("apps", a.team, a.name, kind+"-"+name+".yaml"), Data: []byte(mustYAML(o))})
	}
	return files
}

func mustYAML(o obj) string {
	b, err := yaml.Marshal(o)
	if err != nil {
		panic(err) // only maps, slices, strings, numbers and bools
	}
	return string(b)
}

// generateInfra makes the namespaces and the CRDs, in the repository and live.
func generateInfra(eng *merge.Engine, reg *schema.Registry, opts Options, teams []string, start time.Time) (appResult, error) {
	var out appResult
	r := rand.New(rand.NewPCG(opts.Seed, 0))
	rv := int64(100)
	var nsDocs []string
	for _, t := range teams {
		ns := namespaceObject(t)
		nsDocs = append(nsDocs, mustYAML(ns))
		h, err := newHistory(eng, r, reg, ns, start, &rv)
		if err != nil {
			return out, err
		}
		if err := h.sync(ApplierArgoCD, ns); err != nil {
			return out, err
		}
		if err := h.update(controllerManager, "status", func(o map[string]any) {
			o["status"] = map[string]any{"phase": "Active"}
		}); err != nil {
			return out, err
		}
		out.live = append(out.live, h.live)
	}
	out.files = append(out.files, File{Path: "namespaces.yaml", Data: []byte(strings.Join(nsDocs, "---\n"))})
	out.objects += len(teams)
	crds, err := crdFiles(opts)
	if err != nil {
		return out, err
	}
	for _, crd := range crds {
		var o map[string]any
		if err := yaml.Unmarshal([]byte(crd.text), &o); err != nil {
			return out, err
		}
		o = intsOf(o).(map[string]any)
		out.files = append(out.files, File{Path: crd.file, Data: []byte(crd.text)})
		out.objects++
		h, err := newHistory(eng, r, reg, o, start, &rv)
		if err != nil {
			return out, err
		}
		if err := h.sync(ApplierKubectlSSA, o); err != nil {
			return out, err
		}
		spec := o["spec"].(map[string]any)
		if err := h.update("kube-apiserver", "status", func(x map[string]any) {
			t := ts(h.now)
			x["status"] = map[string]any{
				"acceptedNames": spec["names"],
				"conditions": []any{
					map[string]any{"type": "NamesAccepted", "status": "True", "reason": "NoConflicts", "message": "no conflicts found", "lastTransitionTime": t},
					map[string]any{"type": "Established", "status": "True", "reason": "InitialNamesAccepted", "message": "the initial names have been accepted", "lastTransitionTime": t},
				},
				"storedVersions": []any{"v1"},
			}
		}); err != nil {
			return out, err
		}
		out.live = append(out.live, h.live)
	}
	return out, nil
}

// intsOf turns float64 integers (from decoding YAML) into int64, as the command reads them.
func intsOf(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = intsOf(x)
		}
	case []any:
		for i, x := range t {
			t[i] = intsOf(x)
		}
	case float64:
		if t == float64(int64(t)) {
			return int64(t)
		}
	}
	return v
}

// Write writes the corpus under dir: the repository in dir/repo (replacing any) and the
// live state in dir/live.json.
func (c *Corpus) Write(dir string) error {
	repo := filepath.Join(dir, "repo")
	if err := os.RemoveAll(repo); err != nil {
		return err
	}
	for _, f := range c.Repo {
		p := filepath.Join(repo, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "live.json"), c.Live, 0o644)
}

type crdFile struct{ name, file, text string }

// crdFiles are the CRDs of the corpus: their names, files in the repository and texts.
func crdFiles(opts Options) ([]crdFile, error) {
	out := []crdFile{{"servicemonitors", "crds/servicemonitors.yaml", serviceMonitorCRD}, {"certificates", "crds/certificates.yaml", certificateCRD}}
	if opts.CELRules {
		for i := range out {
			text, err := withCELRules(out[i].name, out[i].text)
			if err != nil {
				return nil, err
			}
			out[i].text = text
		}
	}
	return out, nil
}
