package render

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// write writes name → content under dir.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// chdir runs the test in dir, as the command runs in a repository.
func chdir(t *testing.T, dir string) {
	t.Helper()
	old, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir(old) })
}

// repo is a kustomization tree using what attribution must follow: a base with a
// generator, an overlay with a patch file, an inline strategic-merge patch, a JSON patch,
// patchesStrategicMerge, a component, a name prefix and a namespace.
var repo = map[string]string{
	"base/kustomization.yaml": `resources:
- deploy.yaml
- other.yaml
configMapGenerator:
- name: settings
  literals:
  - MODE=base
`,
	"base/deploy.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: web:1
        resources:
          limits:
            memory: 64Mi
`,
	"base/other.yaml": `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
data:
  a: "1"
`,
	"comp/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
patches:
- patch: |-
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: flags
    data:
      b: "2"
`,
	"prod/kustomization.yaml": `namespace: prod
namePrefix: p-
resources:
- ../base
components:
- ../comp
patches:
- path: replicas.yaml
- patch: |-
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: web
    spec:
      template:
        spec:
          containers:
          - name: web
            image: web:2
- target:
    kind: Service
  patch: |-
    - op: add
      path: /spec/type
      value: NodePort
patchesStrategicMerge:
- memory.yaml
`,
	"prod/replicas.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 5
`,
	"prod/memory.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: web
        resources:
          limits:
            memory: 128Mi
`,
}

// plain builds dir exactly as kubectl's kustomize visitor does, without origin annotations.
func plain(t *testing.T, dir string) []any {
	t.Helper()
	opts := krusty.MakeDefaultOptions()
	opts.Reorder = krusty.ReorderOptionLegacy
	m, err := krusty.MakeKustomizer(opts).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []any
	for _, r := range m.Resources() {
		mm, err := r.Map()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, viaJSON(t, mm))
	}
	return out
}

func viaJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// built is Kustomize's objects, as trees, with the entries' errors.
func built(t *testing.T, dir string) ([]*input.Object, []error) {
	t.Helper()
	var l input.Loader
	return input.Split(Kustomize(&l, dir))
}

// TestSameObjectsAsKubectl: the build with origin annotations switched on and removed
// again is kubectl's build, object for object and in the same order.
func TestSameObjectsAsKubectl(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, repo)
	write(t, dir, map[string]string{"own/kustomization.yaml": "resources:\n- ../base\nbuildMetadata: [originAnnotations]\n"})
	e2e := filepath.Join(repoRoot(t), "testdata", "gitops-e2e", "repo")
	chdir(t, dir)
	for _, d := range []string{"base", "prod", "own", filepath.Join(e2e, "overlays", "prod"), filepath.Join(e2e, "overlays", "staging")} {
		objs, errs := built(t, d)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", d, errs)
		}
		var got []any
		for _, o := range objs {
			tree, err := o.Decode()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, viaJSON(t, tree))
		}
		if want := plain(t, d); !reflect.DeepEqual(got, want) {
			g, _ := json.MarshalIndent(got, "", " ")
			w, _ := json.MarshalIndent(want, "", " ")
			t.Errorf("%s: not kubectl's build:\n%s\nwant\n%s", d, g, w)
		}
	}
}

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("no go.mod")
		}
		dir = filepath.Dir(dir)
	}
}

// TestAttribution: each object at its resource file and document (a generated one at its
// generator), each field at the patch that sets it last, else at the resource's line.
func TestAttribution(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, repo)
	chdir(t, dir)
	objs, errs := built(t, "prod")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	byKind := map[string]*input.Object{}
	for _, o := range objs {
		_, kind, _, name := o.Meta()
		byKind[kind+"/"+name] = o
	}
	type at struct {
		file string
		line int
	}
	for _, c := range []struct {
		object string
		src    at // the object's source
		doc    int
		fields map[string]at
	}{
		{"Deployment/p-web", at{"base/deploy.yaml", 1}, 0, map[string]at{
			".spec.replicas": {"prod/replicas.yaml", 6}, // a patch file
			`.spec.template.spec.containers[name="web"].image`:                   {"prod/kustomization.yaml", 19}, // an inline patch
			`.spec.template.spec.containers[name="web"].resources.limits.memory`: {"prod/memory.yaml", 12},        // patchesStrategicMerge
			".spec.selector.matchLabels.app":                                     {"base/deploy.yaml", 9},         // the resource
			".metadata.namespace":                                                {"base/deploy.yaml", 3},         // a transformer's: the closest field
		}},
		{"Service/p-web", at{"base/other.yaml", 1}, 0, map[string]at{
			".spec.type": {"prod/kustomization.yaml", 23}, // a JSON patch's operation
		}},
		{"ConfigMap/p-flags", at{"base/other.yaml", 9}, 1, map[string]at{
			".data.b": {"comp/kustomization.yaml", 10}, // a component's inline patch
			".data.a": {"base/other.yaml", 14},
		}},
		{"ConfigMap/p-settings-", at{"base/kustomization.yaml", 5}, 0, nil}, // a generator's entry
	} {
		o := byKind[c.object]
		if o == nil {
			for k, v := range byKind {
				if strings.HasPrefix(k, c.object) {
					o = v
				}
			}
		}
		if o == nil {
			t.Errorf("%s: not built (%v)", c.object, byKind)
			continue
		}
		if o.Source.File != c.src.file || o.Source.Line != c.src.line || o.Source.Document != c.doc || o.Source.Via != "kustomize prod" {
			t.Errorf("%s: source %+v, want %s:%d document %d via kustomize prod", c.object, o.Source, c.src.file, c.src.line, c.doc)
		}
		tree, _ := o.Decode()
		for path, want := range c.fields {
			if f, l := o.LocateFieldPath(tree, path); f != want.file || l != want.line {
				t.Errorf("%s %s: at %s:%d, want %s:%d", c.object, path, f, l, want.file, want.line)
			}
		}
	}
}

func TestRefusesRemoteAndBadTrees(t *testing.T) {
	for name, c := range map[string]struct {
		files map[string]string
		want  string
	}{
		"http resource": {map[string]string{"k/kustomization.yaml": "resources:\n- https://example.com/app.yaml\n"}, `k/kustomization.yaml:2: resources[0]: "https://example.com/app.yaml" is remote`},
		"git base":      {map[string]string{"k/kustomization.yaml": "resources:\n- github.com/org/repo//deploy?ref=v1\n"}, "is remote"},
		"missing base":  {map[string]string{"k/kustomization.yaml": "resources:\n- ../nowhere\n"}, `"../nowhere" is not a local file or directory`},
		"remote patch":  {map[string]string{"k/kustomization.yaml": "patches:\n- path: http://x/p.yaml\n"}, "patches[0].path"},
		"cycle":         {map[string]string{"k/kustomization.yaml": "resources:\n- ../j\n", "j/kustomization.yaml": "resources:\n- ../k\n"}, "cycle detected"},
		"not kustomize": {map[string]string{"k/kustomization.yaml": "resources:\n- a.yaml\n", "k/a.yaml": "kind: [\n"}, "kustomize build"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, c.files)
			chdir(t, dir)
			_, errs := built(t, "k")
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), c.want) {
				t.Fatalf("errors %v, want one with %q", errs, c.want)
			}
			var ie *input.Error
			if !errors.As(errs[0], &ie) || !strings.HasPrefix(ie.Source.File, "k") {
				t.Errorf("%v is not an input error naming the kustomization", errs[0])
			}
		})
	}
}

// TestInputLimit: what the build reads counts toward the loader's input limit.
func TestInputLimit(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, repo)
	chdir(t, dir)
	l := input.Loader{Limits: input.Limits{MaxInputBytes: 600}}
	_, errs := input.Split(Kustomize(&l, "prod"))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "--max-input-bytes") {
		t.Fatalf("errors %v, want the input limit", errs)
	}
}

// TestAttributionBySelector: a patch whose target selects by labelSelector or
// annotationSelector is blamed only for the objects kustomize patches with it (its own
// target matching), never for the others of its kind.
func TestAttributionBySelector(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"app/kustomization.yaml": `resources:
- deploy.yaml
patches:
- path: front.yaml
  target:
    kind: Deployment
    labelSelector: tier=front
- target:
    kind: Deployment
    annotationSelector: team in (payments)
  patch: |-
    - op: add
      path: /spec/minReadySeconds
      value: 5
`,
		"app/deploy.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {tier: front}
spec:
  replicas: 1
  minReadySeconds: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: web:1}]}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  labels: {tier: back}
  annotations: {team: payments}
spec:
  replicas: 1
  minReadySeconds: 1
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: api, image: api:1}]}
`,
		"app/front.yaml": `- op: replace
  path: /spec/replicas
  value: 3
`,
	})
	chdir(t, dir)
	objs, errs := built(t, "app")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := map[string]map[string]string{
		"web": {".spec.replicas": "app/front.yaml:1", ".spec.minReadySeconds": "app/deploy.yaml:8"},
		"api": {".spec.replicas": "app/deploy.yaml:21", ".spec.minReadySeconds": "app/kustomization.yaml:12"},
	}
	seen := 0
	for _, o := range objs {
		_, _, _, name := o.Meta()
		tree, _ := o.Decode()
		for path, at := range want[name] {
			seen++
			f, l := o.LocateFieldPath(tree, path)
			if got := f + ":" + strconv.Itoa(l); got != at {
				t.Errorf("%s %s: at %s, want %s", name, path, got, at)
			}
		}
	}
	if seen != 4 {
		t.Errorf("%d fields checked, want 4", seen)
	}
}
