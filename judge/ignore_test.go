package judge

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func mustJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseIgnorePath(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []ignoreSeg
	}{
		{"/spec/replicas", []ignoreSeg{{token: "spec"}, {token: "replicas"}}},
		{"/metadata/labels/app.kubernetes.io~1name", []ignoreSeg{{token: "metadata"}, {token: "labels"}, {token: "app.kubernetes.io/name"}}},
		{"/a~0b/0", []ignoreSeg{{token: "a~b"}, {token: "0"}}},
		{".spec.replicas", []ignoreSeg{{token: "spec"}, {token: "replicas"}}},
		{"$.spec.replicas", []ignoreSeg{{token: "spec"}, {token: "replicas"}}},
		{"spec.replicas", []ignoreSeg{{token: "spec"}, {token: "replicas"}}},
		{".spec.containers[0].image", []ignoreSeg{{token: "spec"}, {token: "containers"}, {token: "0"}, {token: "image"}}},
		{".spec.containers[*].image", []ignoreSeg{{token: "spec"}, {token: "containers"}, {wildcard: true}, {token: "image"}}},
		{".metadata.labels['app.kubernetes.io/name']", []ignoreSeg{{token: "metadata"}, {token: "labels"}, {token: "app.kubernetes.io/name"}}},
		{`.metadata.annotations["a]b"]`, []ignoreSeg{{token: "metadata"}, {token: "annotations"}, {token: "a]b"}}},
		{".metadata.labels.*", []ignoreSeg{{token: "metadata"}, {token: "labels"}, {wildcard: true}}},
	} {
		p, err := ParseIgnorePath(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(p.segs, c.want) || p.String() != c.in {
			t.Errorf("%s: %+v, want %+v", c.in, p.segs, c.want)
		}
	}
	for _, bad := range []string{"", "/", "$", ".", ".spec..x", ".spec[", ".spec[x]", ".a['b]", "/a/~2", "spec replicas]"} {
		if _, err := ParseIgnorePath(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseIgnoreRule(t *testing.T) {
	for _, c := range []struct {
		in                           string
		group, kind, namespace, name string
		path                         string
	}{
		{"/spec/replicas", "*", "*", "", "", "/spec/replicas"},
		{".spec.replicas", "*", "*", "", "", ".spec.replicas"},
		{"apps/Deployment:/spec/replicas", "apps", "Deployment", "", "", "/spec/replicas"},
		{"Deployment:.spec.replicas", "*", "Deployment", "", "", ".spec.replicas"},
		{"core/ConfigMap/shop/web:/data", "", "ConfigMap", "shop", "web", "/data"},
		{"core/ConfigMap/*/web:/data", "", "ConfigMap", "", "web", "/data"},
		{"*/*:.metadata.labels", "*", "*", "", "", ".metadata.labels"},
	} {
		r, err := ParseIgnoreRule(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if r.Group != c.group || r.Kind != c.kind || r.Namespace != c.namespace || r.Name != c.name || len(r.Paths) != 1 || r.Paths[0].String() != c.path {
			t.Errorf("%s: %+v", c.in, r)
		}
	}
	for _, bad := range []string{"apps/Deployment", "a/b/c:/x", "apps/:/x", "apps/Deployment:", "apps/Deployment:nope["} {
		if _, err := ParseIgnoreRule(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

const ignoreLive = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop",
 "labels":{"app.kubernetes.io/name":"web","tier":"a"},"finalizers":["a","b","c"],
 "managedFields":[
  {"manager":"argocd-controller","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:name":{},"f:image":{}}}}}}}},
  {"manager":"kube-controller-manager","operation":"Update","subresource":"scale","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}},
  {"manager":"fin","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:finalizers":{"v:\"a\"":{},"v:\"c\"":{}}}}}]},
 "spec":{"replicas":4,"template":{"spec":{"containers":[{"name":"side","image":"s:1"},{"name":"web","image":"w:1","env":[{"name":"A","value":"1"}]}]}}}}`

func TestIgnoreCoversAndHides(t *testing.T) {
	live := mustJSON(t, ignoreLive)
	pred := mustJSON(t, strings.Replace(ignoreLive, `"replicas":4`, `"replicas":6`, 1))
	before := mustJSON(t, ignoreLive)
	var rules []IgnoreRule
	for _, s := range []string{"apps/Deployment/shop/web:.spec.template.spec.containers[*].env", "core/ConfigMap:/data", "/metadata/labels/tier"} {
		r, err := ParseIgnoreRule(s)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	rules = append(rules, IgnoreRule{Group: "*", Kind: "*", Managers: []string{"kube-controller-manager", "fin"}})
	ig, err := NewIgnore(rules...)
	if err != nil {
		t.Fatal(err)
	}
	if ig.For("v1", "ConfigMap", "shop", "web", nil, nil) == nil || ig.For("apps/v1", "Deployment", "other", "web", nil, nil) == nil {
		t.Fatal("the unscoped rules target every object")
	}
	oi := ig.For("apps/v1", "Deployment", "shop", "web", live, pred)
	for path, want := range map[string]bool{
		".spec.replicas": true, // owned by an ignored manager
		`.spec.template.spec.containers[name="web"].env`:                 true,
		`.spec.template.spec.containers[name="web"].env[name="A"].value`: true,
		`.spec.template.spec.containers[name="web"].image`:               false,
		".metadata.labels.tier":                                          true,
		".metadata.labels.app.kubernetes.io/name":                        false,
		`.metadata.finalizers[="a"]`:                                     true,
		`.metadata.finalizers[="b"]`:                                     false,
		".data":                                                          false, // another kind's rule
		".spec.nothing":                                                  false,
	} {
		if got := oi.Covers(path, live, pred); got != want {
			t.Errorf("Covers(%s) = %v, want %v", path, got, want)
		}
	}
	if !oi.Manager("fin") || oi.Manager("argocd-controller") {
		t.Error("Manager")
	}
	l, p := oi.Hide(live, pred)
	if !reflect.DeepEqual(live, before) {
		t.Fatal("Hide changed its input")
	}
	spec := p["spec"].(map[string]any)
	if _, ok := spec["replicas"]; ok {
		t.Error("replicas not hidden")
	}
	md := l["metadata"].(map[string]any)
	if got := md["finalizers"]; !reflect.DeepEqual(got, []any{"b"}) {
		t.Errorf("finalizers %v, want [b]", got)
	}
	if got := md["labels"]; !reflect.DeepEqual(got, map[string]any{"app.kubernetes.io/name": "web"}) {
		t.Errorf("labels %v", got)
	}
	c := spec["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)
	if _, ok := c[1].(map[string]any)["env"]; ok || c[1].(map[string]any)["image"] != "w:1" {
		t.Errorf("containers %v", c)
	}
	if got := ig.For("v1", "Secret", "shop", "x", live, pred); got != nil && got.Covers(".spec.template.spec.containers[name=\"web\"].env", live, pred) {
		t.Error("a Deployment's rule covers a Secret")
	}
	if _, err := NewIgnore(IgnoreRule{Kind: "*"}); err == nil {
		t.Error("a rule hiding nothing")
	}
	var none *Ignore
	if !none.Empty() || none.For("v1", "Pod", "", "", nil, nil) != nil {
		t.Error("nil Ignore")
	}
}

func FuzzParseIgnoreRule(f *testing.F) {
	for _, s := range []string{"/spec/replicas", ".spec.containers[*].image", "apps/Deployment/shop/web:.metadata.labels['a.b/c']", "core/ConfigMap:/data/x~1y", "$[0]", "a:b:c", "/a/~", ".a[\"b\"]"} {
		f.Add(s)
	}
	live := map[string]any{"spec": map[string]any{"replicas": int64(1), "l": []any{"a", map[string]any{"x": "y"}}}}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseIgnoreRule(s)
		if err != nil {
			return
		}
		ig, err := NewIgnore(r)
		if err != nil {
			t.Fatalf("%q: parsed but refused: %v", s, err)
		}
		oi := ig.For("apps/v1", r.Kind, r.Namespace, r.Name, live, live)
		l, _ := oi.Hide(live, live)
		_ = oi.Covers(".spec.l[1].x", live, live)
		if l == nil || live["spec"] == nil {
			t.Fatalf("%q: Hide lost the object or changed its input", s)
		}
	})
}

// KeepLive gives the fields the paths name their live values, leaves out those the live
// object lacks, and changes neither input.
func TestKeepLive(t *testing.T) {
	rules := []IgnoreRule{{Group: "apps", Kind: "Deployment", Paths: []IgnorePath{
		mustIgnorePath(t, "/spec/replicas"), mustIgnorePath(t, ".spec.template.spec.containers[*].image"), mustIgnorePath(t, "/metadata/labels/gone")}}}
	ig, err := NewIgnore(rules...)
	if err != nil {
		t.Fatal(err)
	}
	manifest := mustJSON(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","labels":{"gone":"x","kept":"y"}},"spec":{"template":{"spec":{"containers":[{"name":"a","image":"a:2"},{"name":"b","image":"b:2"}]}}}}`)
	live := mustJSON(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w"},"spec":{"replicas":5,"template":{"spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:1"}]}}}}`)
	before, _ := json.Marshal(manifest)
	oi := ig.For("apps/v1", "Deployment", "", "w", live, nil)
	got, _ := json.Marshal(oi.KeepLive(manifest, live))
	want := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"labels":{"kept":"y"},"name":"w"},"spec":{"replicas":5,"template":{"spec":{"containers":[{"image":"a:1","name":"a"},{"image":"b:1","name":"b"}]}}}}`
	if string(got) != want {
		t.Errorf("KeepLive:\n got %s\nwant %s", got, want)
	}
	if after, _ := json.Marshal(manifest); string(after) != string(before) {
		t.Errorf("the manifest was changed: %s", after)
	}
	if other := ig.For("v1", "Service", "", "w", live, nil); other.KeepLive(manifest, live)["spec"] == nil {
		t.Errorf("a rule for Deployments changed a Service")
	}
}

func mustIgnorePath(t *testing.T, s string) IgnorePath {
	t.Helper()
	p, err := ParseIgnorePath(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
