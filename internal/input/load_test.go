package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const multiDoc = `# a leading comment
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
data:
  enabled: yes
  "on": "on"
---
# only a comment
---

apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.27
        resources:
          limits:
            cpu: 0.5
---
apiVersion: v1
kind: Service
metadata:
  name: web
  labels: {a: b
---
- just
- a list of strings
---
plain scalar
`

func TestParseYAMLStream(t *testing.T) {
	objs, errs := Split(Parse("app.yaml", []byte(multiDoc)))
	if len(objs) != 2 {
		t.Fatalf("got %d objects, want 2", len(objs))
	}
	cm, dep := objs[0], objs[1]
	if cm.Source.Document != 0 || cm.Source.Line != 3 {
		t.Errorf("ConfigMap source = %+v, want document 0, line 3", cm.Source)
	}
	data := cm.Object["data"].(map[string]any)
	if data["enabled"] != true { // YAML 1.1, as kubectl reads it
		t.Errorf("enabled = %#v, want true", data["enabled"])
	}
	if dep.Source.Document != 1 || dep.Source.Line != 14 {
		t.Errorf("Deployment source = %+v, want document 1, line 14", dep.Source)
	}
	spec := dep.Object["spec"].(map[string]any)
	if _, ok := spec["replicas"].(int64); !ok {
		t.Errorf("replicas is %T, want int64", spec["replicas"])
	}
	cpu := spec["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["resources"].(map[string]any)["limits"].(map[string]any)["cpu"]
	if cpu != 0.5 {
		t.Errorf("cpu = %#v, want 0.5", cpu)
	}
	if got := dep.Line("/spec/template/spec/containers/0/image"); got != 24 {
		t.Errorf("line of image = %d, want 24", got)
	}
	if got := dep.Line("/spec/template/spec/containers/0/nosuchfield"); got != 23 {
		t.Errorf("line of a missing field = %d, want the item's line 23", got)
	}

	want := []string{
		"app.yaml, document 2, line 33: invalid YAML: did not find expected ',' or '}'",
		"app.yaml, document 3, item 0, line 35: [0]: a list item is not an object but a string",
		"app.yaml, document 3, item 1, line 36: [1]: a list item is not an object but a string",
		"app.yaml, document 4, line 38: not an object but a string",
	}
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d: %v", len(errs), len(want), errs)
	}
	for i, err := range errs {
		if !strings.HasPrefix(err.Error(), want[i]) {
			t.Errorf("error %d = %q, want prefix %q", i, err, want[i])
		}
		var ie *Error
		if !errors.As(err, &ie) {
			t.Errorf("error %d is %T, want *Error", i, err)
		}
	}
}

func TestParseList(t *testing.T) {
	list := `{
  "apiVersion": "v1",
  "kind": "List",
  "items": [
    {
      "apiVersion": "v1",
      "kind": "ConfigMap",
      "metadata": {"name": "a", "namespace": "x"}
    },
    "oops",
    {
      "apiVersion": "v1",
      "kind": "ConfigMap",
      "metadata": {"name": "b", "namespace": "x", "generation": 9007199254740993}
    }
  ]
}`
	objs, errs := Split(Parse("live.json", []byte(list)))
	if len(objs) != 2 || len(errs) != 1 {
		t.Fatalf("got %d objects and errors %v, want 2 objects and 1 error", len(objs), errs)
	}
	if s := objs[1].Source; s.Item == nil || *s.Item != 2 || s.Line != 11 {
		t.Errorf("second item source = %+v, want item 2 at line 11", s)
	}
	if got := objs[1].Object["metadata"].(map[string]any)["generation"]; got != int64(9007199254740993) {
		t.Errorf("big integer = %#v, want it exact", got)
	}
	if got, want := errs[0].Error(), "live.json, document 0, item 1, line 10: .items[1]: a list item is not an object but a string"; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
	if got := objs[0].Line("/metadata/namespace"); got != 8 {
		t.Errorf("line of namespace = %d, want 8", got)
	}
}

func TestParseJSONStream(t *testing.T) {
	in := "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n\n{\"apiVersion\":\"v1\",\n\"kind\":\"Secret\",\"metadata\":{\"name\":\"b\"}}\n{\"broken\": }"
	objs, errs := Split(Parse("-", []byte(in)))
	if len(objs) != 2 {
		t.Fatalf("got %d objects, want 2", len(objs))
	}
	if objs[1].Source.Document != 1 || objs[1].Source.Line != 3 {
		t.Errorf("second source = %+v, want document 1 at line 3", objs[1].Source)
	}
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "stdin, document 2, line 5: invalid JSON") {
		t.Errorf("errors = %v, want one naming stdin, document 2, line 5", errs)
	}
}

func TestDuplicateKeysWarn(t *testing.T) {
	objs, errs := Split(Parse("d.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: one\n  k: two\n")))
	if len(errs) != 0 || len(objs) != 1 {
		t.Fatalf("objects %d, errors %v", len(objs), errs)
	}
	if len(objs[0].Warnings) != 1 || !strings.Contains(objs[0].Warnings[0], `line 7: key "k" already set`) {
		t.Errorf("warnings = %q, want one naming line 7 and the key", objs[0].Warnings)
	}
}

func TestInvalidSeparator(t *testing.T) {
	objs, errs := Split(Parse("s.yaml", []byte("a: 1\n--- junk\nb: 2\n")))
	if len(objs) != 1 || len(errs) != 1 {
		t.Fatalf("objects %d, errors %v", len(objs), errs)
	}
	if !strings.Contains(errs[0].Error(), `document 1, line 2: invalid YAML document separator: "--- junk"`) {
		t.Errorf("error = %q", errs[0])
	}
}

func TestLoadDirectory(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cm := func(n string) string { return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + n + "\n" }
	write("b.yaml", cm("b"))
	write("a.yml", cm("a"))
	write("sub/c.json", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`)
	write("README.md", "# not read")
	write("sub/notes.txt", cm("ignored"))

	var l Loader
	objs, errs := Split(l.Load(dir))
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var names []string
	for _, o := range objs {
		names = append(names, o.Object["metadata"].(map[string]any)["name"].(string))
	}
	if want := []string{"a", "b", "c"}; !reflect.DeepEqual(names, want) {
		t.Errorf("names = %v, want %v", names, want)
	}
	if _, errs := Split(l.Load(filepath.Join(dir, "missing.yaml"))); len(errs) != 1 || !errors.Is(errs[0], os.ErrNotExist) {
		t.Errorf("missing file: %v", errs)
	}
}

func TestLoadStdinOnceAndLimit(t *testing.T) {
	l := Loader{Stdin: strings.NewReader("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n")}
	if objs, errs := Split(l.Load("-")); len(objs) != 1 || len(errs) != 0 {
		t.Fatalf("stdin: %d objects, %v", len(objs), errs)
	}
	if _, errs := Split(l.Load("-")); len(errs) != 1 || !strings.Contains(errs[0].Error(), "only once") {
		t.Errorf("second read of stdin: %v", errs)
	}
	small := Loader{Stdin: strings.NewReader(strings.Repeat("x", 100)), Limits: Limits{MaxInputBytes: 10}}
	if _, errs := Split(small.Load("-")); len(errs) != 1 || !strings.Contains(errs[0].Error(), "larger than 10 bytes (raise the limit with --max-input-bytes)") {
		t.Errorf("oversized input: %v", errs)
	}
}

func TestPointerToPath(t *testing.T) {
	for ptr, want := range map[string]string{
		"":                                   "",
		"/spec/containers/0/image":           ".spec.containers[0].image",
		"/metadata/annotations/a.b~1c":       ".metadata.annotations.a.b/c",
		"/metadata/labels/app.kubernetes.io": ".metadata.labels.app.kubernetes.io",
	} {
		if got := PointerToPath(ptr); got != want {
			t.Errorf("PointerToPath(%q) = %q, want %q", ptr, got, want)
		}
	}
}

func TestLineOfFieldPath(t *testing.T) {
	objs := mustParse(t, "d.yaml", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
spec:
  template:
    spec:
      containers:
      - name: side
        image: busybox
      - name: app
        image: nginx
        ports:
        - containerPort: 80
          protocol: TCP
        - containerPort: 80
          protocol: UDP
      finalizers: [a, "b,c"]
`)
	o := objs[0]
	for path, want := range map[string]int{
		".metadata.labels.app.kubernetes.io/name":                                           6,
		`.spec.template.spec.containers[name="app"].image`:                                  14,
		`.spec.template.spec.containers[name="app"].ports[containerPort=80,protocol="UDP"]`: 18,
		`.spec.template.spec.containers[1]`:                                                 13,
		`.spec.template.spec.finalizers[="b,c"]`:                                            20,
		`.spec.template.spec.containers[name="nope"].image`:                                 10,
		".spec.replicas": 7,
		".nosuch":        1,
		`.spec.template.spec.containers[name="app"`: 10,
		"": 1,
	} {
		if got := o.LineOfFieldPath(path); got != want {
			t.Errorf("LineOfFieldPath(%q) = %d, want %d", path, got, want)
		}
	}
}

// TestNoFieldLines: with NoFieldLines an object answers its own line for every field and
// holds no text; errors found while reading still name the field's line.
func TestNoFieldLines(t *testing.T) {
	list := []byte(`{"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "v1", "kind": "ConfigMap",
   "metadata": {"name": "a", "namespace": "ns"},
   "data": {"k": "v"}}
]}
`)
	deep := []byte(`{"apiVersion": "v1", "kind": "ConfigMap",
 "metadata": {"name": "b", "namespace": "ns"},
 "data": {"k":
   [[[1]]]}}
`)
	for _, noLines := range []bool{false, true} {
		l := &Loader{Stdin: bytes.NewReader(append(list, deep...)), NoFieldLines: noLines, Limits: Limits{MaxDepth: 4}}
		entries := l.Load("-")
		if len(entries) != 2 || entries[0].Object == nil || entries[1].Err == nil {
			t.Fatalf("NoFieldLines=%v: entries %+v", noLines, entries)
		}
		o := entries[0].Object
		want := 4
		if noLines {
			want = o.Source.Line
			if o.doc != nil {
				t.Error("the object keeps its text")
			}
		}
		if got := o.LineOfFieldPath(".data.k"); got != want {
			t.Errorf("NoFieldLines=%v: line of .data.k = %d, want %d", noLines, got, want)
		}
		var e *Error
		if !errors.As(entries[1].Err, &e) || e.Line != 9 {
			t.Errorf("NoFieldLines=%v: the depth error is %v (line %d), want it at line 9", noLines, entries[1].Err, e.Line)
		}
	}
}

// TestCompactManagedFields: fieldsV1 trees are kept as their JSON text, as encoding/json
// writes them (keys sorted), in Lists read item by item and in other documents alike.
func TestCompactManagedFields(t *testing.T) {
	entry := `{"manager": "kubectl", "operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV1",
     "fieldsV1": {"f:data": {"f:b": {}, "f:a": {}}, "f:metadata": {"f:labels": {".": {}, "f:x<y": {}}}}}`
	obj := `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "ns", "managedFields": [` + entry + `]}, "data": {"a": "1", "b": "2"}}`
	want := `{"f:data":{"f:a":{},"f:b":{}},"f:metadata":{"f:labels":{".":{},"f:x\u003cy":{}}}}`
	for name, text := range map[string]string{
		"list": `{"apiVersion": "v1", "kind": "List", "items": [` + obj + `]}`,
		"json": obj,
		"yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: ns\n  managedFields:\n  - " + entry + "\ndata: {a: \"1\", b: \"2\"}\n",
	} {
		l := &Loader{Stdin: strings.NewReader(text), CompactManagedFields: true}
		objs, errs := Split(l.Load("-"))
		if len(errs) > 0 || len(objs) != 1 {
			t.Fatalf("%s: %v %v", name, objs, errs)
		}
		mf := objs[0].Object["metadata"].(map[string]any)["managedFields"].([]any)
		got, ok := mf[0].(map[string]any)["fieldsV1"].(json.RawMessage)
		if !ok || string(got) != want {
			t.Errorf("%s: fieldsV1 = %#v, want the text %s", name, mf[0].(map[string]any)["fieldsV1"], want)
		}
	}
}
