package merge

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
	"sigs.k8s.io/yaml"
)

// TestScenariosWithoutShortcuts replays every scenario on structured-merge-diff's own
// prune and the typed comparison of deleted fields: both paths must meet the same
// expectations.
func TestScenariosWithoutShortcuts(t *testing.T) {
	e := New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	e.noShortcuts = true
	for _, sc := range append(append([]scenario{}, scenarios...), edgeScenarios...) {
		t.Run(sc.name, func(t *testing.T) { runScenario(t, e, sc) })
	}
}

// TestPruneShortcutAgrees applies manifests that keep, change and drop fields of a
// recorded Deployment through both paths, and requires the same results, with the
// shortcut taken exactly when the applier keeps everything it owned.
func TestPruneShortcutAgrees(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Default())
	fast, full := New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()})), New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	full.noShortcuts = true
	base := deploymentRequest(t)
	// deployer owns what its manifest sets; applying the same manifest again keeps it all.
	first, err := fast.Apply(base)
	if err != nil || first.Rejection != nil {
		t.Fatalf("first apply: %v %v", err, first.Rejection)
	}
	again := base
	again.Live = first.Object
	for _, c := range []struct {
		name   string
		edit   func(map[string]any)
		pruned bool
	}{
		{"the same manifest", func(map[string]any) {}, false},
		{"a changed image", func(m map[string]any) {
			container(m, 0)["image"] = "registry.example/web:2.0"
		}, false},
		{"a new label", func(m map[string]any) {
			m["metadata"].(map[string]any)["labels"] = map[string]any{"tier": "web"}
		}, false},
		{"a dropped volume", func(m map[string]any) {
			delete(m["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any), "volumes")
			delete(container(m, 0), "volumeMounts")
		}, true},
		{"a dropped value", func(m map[string]any) {
			delete(container(m, 0)["env"].([]any)[0].(map[string]any), "value")
		}, true},
		{"a dropped port", func(m map[string]any) {
			delete(container(m, 0), "ports")
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := again
			req.Object = unstructured.DeepCopyObject(base.Object)
			c.edit(req.Object)
			a, err := fast.Apply(req)
			if err != nil {
				t.Fatal(err)
			}
			b, err := full.Apply(req)
			if err != nil {
				t.Fatal(err)
			}
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if string(ja) != string(jb) {
				t.Fatalf("the shortcut answers otherwise:\n%s\n---\n%s", ja, jb)
			}
			if a.Rejection != nil {
				t.Fatalf("rejected: %v", a.Rejection)
			}
			if len(a.Deleted) > 0 != c.pruned {
				t.Errorf("deleted fields %v, want some: %v", a.Deleted, c.pruned)
			}
		})
	}
}

func container(obj map[string]any, i int) map[string]any {
	spec := obj["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
	return spec["containers"].([]any)[i].(map[string]any)
}

// TestKeepsEverything is the shortcut's decision on sets of a Deployment: each case
// names the condition of fieldapply.go it checks.
func TestKeepsEverything(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Default())
	e := New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	r, err := e.newRequest(admitted{Request: Request{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment"}}})
	if err != nil {
		t.Fatal(err)
	}
	const manifest = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        ports: [{containerPort: 80}]
`
	cfg := map[string]any{}
	if err := yaml.Unmarshal([]byte(manifest), &cfg); err != nil {
		t.Fatal(err)
	}
	cfg = unstructured.CopyAsDecoded(cfg)
	cfgTyped, err := r.parse(cfg, true)
	if err != nil {
		t.Fatal(err)
	}
	set, err := cfgTyped.ToFieldSet()
	if err != nil {
		t.Fatal(err)
	}
	path := func(parts ...any) smdpath.Path { return smdpath.MakePathOrDie(parts...) }
	key := func(kv ...any) *value.FieldList {
		var fl value.FieldList
		for i := 0; i < len(kv); i += 2 {
			fl = append(fl, value.Field{Name: kv[i].(string), Value: value.NewValueInterface(kv[i+1])})
		}
		return &fl
	}
	web := key("name", "web")
	port := key("containerPort", int64(80), "protocol", "TCP")
	for _, c := range []struct {
		name string
		last *smdpath.Set
		cfg  map[string]any
		// union makes C hold L too, so that the case is decided past the subset check.
		union bool
		want  bool
	}{
		// The first walk would remove every top-level field (the named ones above L's
		// fields included): the updater fails on what is left.
		{"L is C, apiVersion and kind included", set, cfg, false, false},
		{"L is C less apiVersion and kind (as the server records an applier's set)", without(set, path("apiVersion"), path("kind")), cfg, false, true},
		{"L within C", smdpath.NewSet(path("spec", "template", "spec", "containers", web, "image")), cfg, false, true},
		{"L beyond C", set.Union(smdpath.NewSet(path("spec", "replicas"))), cfg, false, false},
		{"a key field defaulted (protocol TCP)", smdpath.NewSet(path("spec", "template", "spec", "containers", web, "ports", port)), cfg, false, true},
		{"a key field neither owned nor defaulted", smdpath.NewSet(path("spec", "template", "spec", "containers", web, "ports",
			key("containerPort", int64(81), "protocol", "UDP"))), cfg, true, false},
		{"a named field holding an object applied as {}", smdpath.NewSet(path("spec", "selector")),
			withSelector(cfg, map[string]any{}), false, false},
		{"an atomic object applied whole", smdpath.NewSet(path("spec", "selector")), cfg, false, true},
		{"an index", smdpath.NewSet(path("spec", "template", "spec", "containers", 0)), cfg, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ct, err := r.parse(c.cfg, true)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := ct.ToFieldSet()
			if err != nil {
				t.Fatal(err)
			}
			if c.union {
				cs = cs.Union(c.last)
			}
			// The merged object is the manifest (applied to nothing); the case's manifest is
			// what was applied.
			if got := keepsEverything(c.last, cs, typedOf(t, r, cfg), c.cfg); got != c.want {
				t.Errorf("keepsEverything = %v, want %v", got, c.want)
			}
		})
	}
}

func without(s *smdpath.Set, paths ...smdpath.Path) *smdpath.Set {
	return s.Difference(smdpath.NewSet(paths...))
}

func withSelector(cfg map[string]any, sel map[string]any) map[string]any {
	c := unstructured.DeepCopyObject(cfg)
	c["spec"].(map[string]any)["selector"] = sel
	return c
}

func typedOf(t *testing.T, r *request, obj map[string]any) *typed.TypedValue {
	t.Helper()
	tv, err := r.parse(obj, false)
	if err != nil {
		t.Fatal(err)
	}
	return tv
}

// TestKeepsEveryField holds the untyped check of deletedFields to the typed comparison it
// skips: whenever it says nothing is removed, the typed comparison must find nothing.
func TestKeepsEveryField(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Default())
	e := New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	e.noShortcuts = true
	base := deploymentRequest(t)
	r, err := e.newRequest(admitted{Request: base})
	if err != nil {
		t.Fatal(err)
	}
	live := unstructured.CopyAsDecoded(base.Live)
	edit := func(f func(m map[string]any)) map[string]any {
		c := unstructured.DeepCopyObject(live)
		f(c)
		return c
	}
	spec := func(m map[string]any) map[string]any { return m["spec"].(map[string]any) }
	emptyStrategy := edit(func(m map[string]any) { spec(m)["strategy"] = map[string]any{} })
	for _, c := range []struct {
		name string
		live map[string]any
		obj  map[string]any
		keep bool
	}{
		{"the same object", nil, edit(func(map[string]any) {}), true},
		{"a changed value", nil, edit(func(m map[string]any) { spec(m)["replicas"] = int64(7) }), true},
		{"an added field", nil, edit(func(m map[string]any) { spec(m)["paused"] = true }), true},
		{"server metadata changed", nil, edit(func(m map[string]any) {
			md := m["metadata"].(map[string]any)
			md["resourceVersion"], md["generation"] = "999", int64(9)
			delete(md, "uid")
		}), true},
		{"a removed field", nil, edit(func(m map[string]any) { delete(spec(m), "replicas") }), false},
		{"a removed list item", nil, edit(func(m map[string]any) {
			ts := spec(m)["template"].(map[string]any)["spec"].(map[string]any)
			ts["volumes"] = []any{}
		}), false},
		{"an object emptied", nil, edit(func(m map[string]any) {
			spec(m)["strategy"] = map[string]any{}
		}), false},
		{"an object made null", nil, edit(func(m map[string]any) {
			spec(m)["template"].(map[string]any)["metadata"].(map[string]any)["labels"] = nil
		}), false},
		// An empty object filled is not a removal for the typed comparison either.
		{"an empty object filled", emptyStrategy, live, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			live := live
			if c.live != nil {
				live = c.live
			}
			got := keepsEveryField(withoutCleanManagedFields(live), withoutCleanManagedFields(c.obj))
			if got != c.keep {
				t.Errorf("keepsEveryField = %v, want %v", got, c.keep)
			}
			deleted := r.deletedFields(live, c.obj)
			if got && len(deleted) > 0 {
				t.Errorf("said nothing is removed, the typed comparison removes %v", deleted)
			}
			if !c.keep && len(deleted) == 0 {
				t.Errorf("the typed comparison removes nothing: the case does not test a removal")
			}
		})
	}
}

// TestPruneShortcutNamedFields applies a ConfigMap again over entries of its applier: with
// a field in every top-level field of the object (apiVersion and kind too, which the
// server strips from the entry of the manager that writes but not from entries a client
// supplies), the prune's first walk removes them all and the updater fails to convert
// what is left (kube-apiserver 1.37.2 answers 500), so the shortcut must leave that answer
// to it; entries that hold named fields above the applied ones ("." in fieldsV1) go through
// the prune alike.
func TestPruneShortcutNamedFields(t *testing.T) {
	reg := schema.MustNewRegistry(kube.Default())
	fast, full := New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()})), New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	full.noShortcuts = true
	dot := map[string]any{".": map[string]any{}}
	for _, fields := range []map[string]any{
		{"f:apiVersion": map[string]any{}, "f:kind": map[string]any{}, "f:metadata": map[string]any{"f:name": map[string]any{}}, "f:data": map[string]any{"f:a": map[string]any{}}},
		{"f:metadata": map[string]any{".": map[string]any{}, "f:labels": map[string]any{".": map[string]any{}, "f:app": map[string]any{}}}, "f:data": map[string]any{".": map[string]any{}, "f:a": map[string]any{}}},
		{"f:metadata": map[string]any{"f:labels": dot}, "f:data": dot},
	} {
		live := map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "c", "namespace": "ns", "uid": "u1", "resourceVersion": "7", "creationTimestamp": "2026-01-01T00:00:00Z",
				"labels": map[string]any{"app": "c"},
				"managedFields": []any{map[string]any{"manager": "deployer", "operation": "Apply", "apiVersion": "v1", "time": "2026-01-01T00:00:00Z",
					"fieldsType": "FieldsV1", "fieldsV1": fields}}},
			"data": map[string]any{"a": "1"}}
		for _, a := range []string{"1", "2"} {
			body := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "namespace": "ns", "labels": map[string]any{"app": "c"}}, "data": map[string]any{"a": a}}
			req := Request{Live: live, Object: body, Manager: "deployer", Now: time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)}
			var answers [2]string
			for i, e := range []*Engine{fast, full} {
				res, err := e.Apply(req)
				b, _ := json.Marshal(res)
				answers[i] = fmt.Sprintf("%s %v", b, err)
			}
			if answers[0] != answers[1] {
				t.Errorf("entry %v, data.a %s: the shortcut answers otherwise:\n%s\n---\n%s", fields, a, answers[0], answers[1])
			}
			// kube-apiserver 1.37.2 refuses the first with this message (seen on the
			// oracle: the entry put with kubectl replace, then applied again).
			const refusal = `"code":500,"message":"failed to prune fields: failed add back owned items: failed to convert pruned object at version v1: failed to convert value to unstructured for type \u003cnil\u003e"`
			_, want := fields["f:apiVersion"]
			if got := strings.Contains(answers[0], refusal); got != want {
				t.Errorf("entry %v, data.a %s: refused with the server's 500: %v, want %v\n%s", fields, a, got, want, answers[0])
			}
		}
	}
}
