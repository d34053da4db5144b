package merge_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"
)

// FuzzEngine drives the engine with random manifests against random live objects with
// random managedFields: realistic objects of several kinds (a Deployment, a Service, a
// ConfigMap, a custom resource with list-maps and sets, a kind without schema), mutated at
// random; managedFields made of random subsets of the live object's own fields, with
// random managers, operations, versions and subresources, and now and then corrupt. Any
// answer is fine — a prediction, a refusal, an error — except a panic, an answer that
// differs when the same request is made twice or without the engine's shortcuts
// (see noShortcuts) and compact managedFields, or a result that breaks its own invariants.
func FuzzEngine(f *testing.F) {
	reg := backupRegistry(f)
	e := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), merge.WithCompactManagedFields())
	// full is the same engine without the shortcuts (applyFields' prune, deletedFields'
	// comparison) and with fieldsV1 as trees: both must answer alike.
	full := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}), merge.WithoutShortcuts())
	var bases []map[string]any
	if err := yaml.Unmarshal([]byte(fuzzBase), &bases); err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{"", "\x00", "\x01\x02\x03\x04\x05\x06\x07\x08", "\x02\x01\x00\x05\xff\x10\x20\x30\x40\x50\x60",
		"\x03\x07\x07\x07\x07\x07\x07\x07\x07\x07\x07\x07", "\x04\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d",
		"\x01\x00\x00\x00\x03\x03\x03\x03\x01\x01\x01\x01\x09\x09\x09\x09\x09"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &fuzzGen{data: data}
		req, how := g.request(reg, bases)
		run := func(e *merge.Engine) (string, *merge.Result) {
			r := merge.Request{Live: merge.FuzzCopy(req.Live), Object: merge.FuzzCopy(req.Object), Endpoint: req.Endpoint, Manager: req.Manager, Force: req.Force, Now: req.Now}
			// The engine never changes what it is given.
			defer func() {
				if !reflect.DeepEqual(r.Live, merge.FuzzCopy(req.Live)) || !reflect.DeepEqual(r.Object, merge.FuzzCopy(req.Object)) {
					a, _ := json.Marshal(r.Live)
					b, _ := json.Marshal(r.Object)
					t.Fatalf("the %s request changed its input objects\nrequest: %s\nafter: live %s\nobject %s", how, describe(req), a, b)
				}
			}()
			var res *merge.Result
			var err error
			switch how {
			case "kubectl":
				res, err = appliers.Kubectl(e, r)
			case "update":
				res, err = e.Update(r)
			case "argocd":
				res, err = appliers.ArgoCD(e, r, appliers.ArgoCDOptions{Application: "app"})
			case "flux":
				res, err = appliers.Flux(e, r, appliers.FluxOptions{KustomizationName: "apps", KustomizationNamespace: "flux-system"})
			default:
				res, err = e.Apply(r)
			}
			if err != nil {
				return "error: " + err.Error(), nil
			}
			out, merr := json.Marshal(res)
			if merr != nil {
				t.Fatalf("the result does not marshal: %v", merr)
			}
			// The object's fieldsV1 are text in the server's order with compact
			// managedFields, trees without (maps have none): the object is compared as
			// decoded JSON, the order by Result.ManagedFields' bytes below.
			var decoded any
			if err := json.Unmarshal(out, &decoded); err != nil {
				t.Fatalf("the result's JSON does not decode: %v", err)
			}
			out, _ = json.Marshal(decoded)
			mf, _ := json.Marshal(res.ManagedFields)
			return string(out) + "\n" + string(mf), res
		}
		first, res := run(e)
		second, _ := run(e)
		if first != second {
			t.Fatalf("two runs of the same %s request differ:\n%s\n---\n%s\nrequest: %s", how, first, second, describe(req))
		}
		if third, _ := run(full); third != first {
			t.Fatalf("the %s request answers otherwise without the shortcuts:\n%s\n---\n%s\nrequest: %s", how, first, third, describe(req))
		}
		if res == nil {
			return
		}
		switch res.Action {
		case merge.ActionRejected:
			if res.Rejection == nil || res.Rejection.Code < 400 {
				t.Fatalf("rejected without a refusal: %+v", res.Rejection)
			}
		case merge.ActionCreate, merge.ActionUpdate, merge.ActionUnchanged:
			if res.Object == nil {
				t.Fatalf("%s without an object", res.Action)
			}
			// An update keeps live managedFields it cannot decode (rules.md supplied.errors-keep-entries); otherwise
			// what is predicted must decode.
			if _, err := fieldpath.Decode(res.ManagedFields); err != nil && liveEntriesDecode(req.Live) {
				t.Fatalf("the predicted managedFields do not decode: %v\nrequest: %s", err, describe(req))
			}
			// The decoding a result hands out is decoding's, for its entries as they are and
			// as its object holds them.
			objEntries, _, _ := fieldpath.EntriesOf(res.Object)
			for _, entries := range [][]fieldpath.Entry{res.ManagedFields, objEntries} {
				if got, ok := res.ManagedFieldsDecoded(entries); ok {
					want, err := fieldpath.Decode(entries)
					if err != nil {
						t.Fatalf("handed out a decoding of entries that do not decode: %v\nrequest: %s", err, describe(req))
					}
					if d := decodingDiff(got, want); d != "" {
						t.Fatalf("the decoding handed out is not decoding's: %s\nrequest: %s", d, describe(req))
					}
				}
			}
		default:
			t.Fatalf("unknown action %q", res.Action)
		}
	})
}

func liveEntriesDecode(live map[string]any) bool {
	md, _ := live["metadata"].(map[string]any)
	raw, err := json.Marshal(md["managedFields"])
	if err != nil {
		return false
	}
	var entries []fieldpath.Entry
	if json.Unmarshal(raw, &entries) != nil {
		return false
	}
	_, err = fieldpath.Decode(entries)
	return err == nil
}

func describe(r merge.Request) string {
	b, _ := json.Marshal(map[string]any{"live": r.Live, "object": r.Object, "endpoint": r.Endpoint, "manager": r.Manager, "force": r.Force})
	return string(b)
}

// fuzzGen turns fuzz bytes into choices; past the end every choice is 0.
type fuzzGen struct {
	data []byte
	i    int
}

func (g *fuzzGen) byte() byte {
	if g.i >= len(g.data) {
		return 0
	}
	b := g.data[g.i]
	g.i++
	return b
}

func (g *fuzzGen) intn(n int) int { return int(g.byte()) % n }

func (g *fuzzGen) pick(s []string) string { return s[g.intn(len(s))] }

const fuzzBase = `
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: ns, labels: {app: web}}
  spec:
    replicas: 2
    selector: {matchLabels: {app: web}}
    strategy: {type: RollingUpdate}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
        - name: app
          image: nginx:1.27
          args: [--port, "80"]
          env: [{name: A, value: "1"}, {name: B, value: "2"}]
          ports: [{containerPort: 80, name: http}, {containerPort: 443, protocol: TCP}]
          resources: {limits: {cpu: 500m}}
        - name: side
          image: busybox
        tolerations: [{key: k, operator: Exists}]
        nodeSelector: {disk: ssd}
        volumes: [{name: v, configMap: {name: c}}]
- apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: ns}
  spec:
    selector: {app: web}
    ports: [{port: 80, targetPort: 8080, protocol: TCP}, {port: 443, name: https}]
    type: ClusterIP
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cfg, namespace: ns, annotations: {a: b}, finalizers: [x, y]}
  data: {a: "1", b: "2"}
- apiVersion: ops.example.com/v1
  kind: Backup
  metadata: {name: nightly, namespace: ns}
  spec:
    schedule: "0 3 * * *"
    retentionDays: 7
    parallelism: 2
    targets: [{name: home, path: /home, compress: true}, {name: mail, path: /var/mail}]
    tags: [weekly, offsite]
  status: {phase: Ready}
- apiVersion: example.com/v1
  kind: Unknown
  metadata: {name: u, namespace: ns}
  spec: {a: [1, 2], b: {c: d}}
`

var fuzzWords = []string{"name", "value", "image", "data", "spec", "replicas", "containers", "env", "ports",
	"containerPort", "protocol", "selector", "matchLabels", "labels", "annotations", "tolerations", "key",
	"targets", "tags", "path", "status", "metadata", "finalizers", "managedFields", "namespace", "uid",
	"apiVersion", "kind", "a", "b", "app", "web", "TCP", "UDP", "x"}

func (g *fuzzGen) value(depth int) any {
	switch c := g.intn(12); {
	case c < 3:
		return g.pick(fuzzWords)
	case c < 5:
		return int64(g.intn(5))
	case c == 5:
		return g.intn(2) == 0
	case c == 6:
		return nil
	case c == 7:
		return 0.5
	case c == 8 && depth < 4:
		n := g.intn(3)
		l := make([]any, 0, n)
		for i := 0; i < n; i++ {
			l = append(l, g.value(depth+1))
		}
		return l
	case depth < 4:
		m := map[string]any{}
		for i, n := 0, g.intn(3); i < n; i++ {
			m[g.pick(fuzzWords)] = g.value(depth + 1)
		}
		return m
	}
	return "x"
}

func fuzzKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// mutate changes obj in a few random places: sets, deletes, duplicates list items,
// changes a value's type.
func (g *fuzzGen) mutate(obj map[string]any) {
	for n := g.intn(5); n > 0; n-- {
		var parent any = obj
		for steps := g.intn(7); steps > 0; steps-- {
			next := child(parent, g)
			if next == nil {
				break
			}
			parent = next
		}
		switch p := parent.(type) {
		case map[string]any:
			keys := fuzzKeys(p)
			switch op := g.intn(4); {
			case op == 0 && len(keys) > 0:
				delete(p, keys[g.intn(len(keys))])
			case op == 1 && len(keys) > 0:
				p[keys[g.intn(len(keys))]] = g.value(0)
			default:
				p[g.pick(fuzzWords)] = g.value(0)
			}
		case []any:
			// Lists are changed through their parent map; here items change in place.
			if len(p) > 0 {
				i := g.intn(len(p))
				if m, ok := p[i].(map[string]any); ok && g.intn(2) == 0 {
					m[g.pick(fuzzWords)] = g.value(1)
				} else {
					p[i] = g.value(1)
				}
			}
		}
	}
	// Sometimes a list item twice (duplicate keys) or a list cut short.
	if g.intn(4) == 0 {
		dupAList(obj, g)
	}
}

func child(v any, g *fuzzGen) any {
	switch t := v.(type) {
	case map[string]any:
		keys := fuzzKeys(t)
		if len(keys) == 0 {
			return nil
		}
		c := t[keys[g.intn(len(keys))]]
		switch c.(type) {
		case map[string]any, []any:
			return c
		}
	case []any:
		if len(t) == 0 {
			return nil
		}
		c := t[g.intn(len(t))]
		switch c.(type) {
		case map[string]any, []any:
			return c
		}
	}
	return nil
}

func dupAList(v any, g *fuzzGen) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, k := range fuzzKeys(m) {
		if l, ok := m[k].([]any); ok && len(l) > 0 && g.intn(2) == 0 {
			if g.intn(2) == 0 {
				m[k] = append(l, merge.FuzzCopy(map[string]any{"x": l[g.intn(len(l))]})["x"])
			} else {
				m[k] = l[:len(l)-1]
			}
			return true
		}
		if dupAList(m[k], g) {
			return true
		}
	}
	return false
}

// managedFields makes entries from random subsets of the object's own fields.
func (g *fuzzGen) managedFields(reg *schema.Registry, obj map[string]any, gvk schema.GVK) []any {
	typ, _ := reg.Resolve(gvk)
	var fields *smdpath.Set
	if tv, err := typ.Parseable.FromUnstructured(obj); err == nil {
		if s, err := tv.ToFieldSet(); err == nil {
			fields = s
		}
	}
	var entries []any
	for n := g.intn(4); n > 0; n-- {
		entry := map[string]any{
			"manager":    g.pick([]string{"kubectl", "a", "b", "before-first-apply", "kubectl-client-side-apply", "kube-controller-manager"}),
			"operation":  g.pick([]string{"Apply", "Update", "Apply", "Update", "Patch"}),
			"apiVersion": g.pick([]string{gvk.APIVersion(), gvk.APIVersion(), "v1", "apps/v1beta2", ""}),
			"fieldsType": g.pick([]string{"FieldsV1", "FieldsV1", "FieldsV1", "", "FieldsV2"}),
		}
		if sub := g.pick([]string{"", "", "", "status", "scale"}); sub != "" {
			entry["subresource"] = sub
		}
		if g.intn(2) == 0 {
			entry["time"] = time.Date(2026, 12, 1, g.intn(24), 0, 0, 0, time.UTC).Format(time.RFC3339)
		}
		var raw []byte
		switch {
		case fields != nil && g.intn(8) != 0:
			subset := smdpath.NewSet()
			fields.Iterate(func(p smdpath.Path) {
				if g.intn(3) == 0 {
					subset.Insert(p)
				}
			})
			raw, _ = subset.ToJSON()
		case g.intn(2) == 0:
			raw = []byte(`{"f:metadata":{"f:labels":{"f:` + g.pick(fuzzWords) + `":{}}},"f:spec":{"k:{\"name\":\"app\"}":{}}}`)
		default:
			raw = []byte(`{"f:` + g.pick(fuzzWords) + `":` + strconv.Quote(g.pick(fuzzWords)) + `}`)
		}
		var v any
		if json.Unmarshal(raw, &v) == nil {
			entry["fieldsV1"] = v
		}
		entries = append(entries, entry)
	}
	return entries
}

func (g *fuzzGen) request(reg *schema.Registry, bases []map[string]any) (merge.Request, string) {
	base := merge.FuzzCopy(bases[g.intn(len(bases))])
	gvk := schema.GVKFromAPIVersionKind(base["apiVersion"].(string), base["kind"].(string))

	manifest := merge.FuzzCopy(base)
	g.mutate(manifest)
	var live map[string]any
	if g.intn(5) != 0 {
		live = merge.FuzzCopy(base)
		g.mutate(live)
		md, ok := live["metadata"].(map[string]any)
		if !ok {
			md = map[string]any{}
			live["metadata"] = md
		}
		md["uid"] = "00000000-0000-0000-0000-000000000001"
		md["resourceVersion"] = "10"
		if g.intn(6) != 0 {
			md["managedFields"] = g.managedFields(reg, live, gvk)
		}
	}
	if g.intn(8) == 0 { // a body of another kind or version
		manifest["apiVersion"] = g.pick([]string{"v1", "apps/v1beta2", "example.com/v2"})
	}
	req := merge.Request{
		Live:     live,
		Object:   manifest,
		Endpoint: merge.Endpoint{GVK: gvk, Namespace: "ns", Name: fmt.Sprint(base["metadata"].(map[string]any)["name"])},
		Manager:  g.pick([]string{"kubectl", "a", "b", "kube-controller-manager", ""}),
		Force:    g.intn(3) == 0,
		Now:      time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC),
	}
	if g.intn(6) == 0 {
		req.Endpoint.Subresource = g.pick([]string{"status", "scale"})
	}
	return req, g.pick([]string{"apply", "apply", "kubectl", "update", "argocd", "flux"})
}

// backupRegistry is the default minor's registry with the example's Backup CRD
// (testdata/examples/crd-backup) added.
func backupRegistry(tb testing.TB) *schema.Registry {
	reg := schema.MustNewRegistry(kube.Default())
	crd, err := os.ReadFile(filepath.Join("..", "testdata", "examples", "crd-backup", "crd.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	if err := reg.AddCRD("crd.yaml", crd); err != nil {
		tb.Fatal(err)
	}
	return reg
}
