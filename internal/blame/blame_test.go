package blame

import (
	"encoding/json"
	"strings"
	"testing"
)

const object = `{
  "apiVersion": "apps/v1",
  "kind": "Deployment",
  "metadata": {
    "name": "web",
    "finalizers": ["example.com/a", "example.com/b"],
    "managedFields": [
      {"manager": "gitops", "operation": "Apply", "apiVersion": "apps/v1", "time": "2026-12-01T10:00:00Z", "fieldsType": "FieldsV1",
       "fieldsV1": {"f:metadata": {"f:finalizers": {"v:\"example.com/a\"": {}}},
                    "f:spec": {"f:replicas": {}, "f:selector": {},
                               "f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {".": {}, "f:name": {}, "f:image": {}}}}}}}},
      {"manager": "hpa", "operation": "Update", "apiVersion": "apps/v1", "subresource": "scale", "fieldsType": "FieldsV1",
       "fieldsV1": {"f:spec": {"f:replicas": {}}}},
      {"manager": "tuner", "operation": "Update", "apiVersion": "apps/v1", "time": "2026-12-02T09:00:00Z", "fieldsType": "FieldsV1",
       "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {"f:workingDir": {}}}}}}}}
    ]
  },
  "spec": {
    "replicas": 3,
    "selector": {"matchLabels": {"app": "web"}},
    "template": {"spec": {"containers": [
      {"name": "app", "image": "web:1", "workingDir": "/tmp"},
      {"name": "sidecar", "image": "proxy:2"}
    ]}}
  }
}`

func TestAnnotate(t *testing.T) {
	var obj map[string]any
	if err := json.Unmarshal([]byte(object), &obj); err != nil {
		t.Fatal(err)
	}
	lines, err := Annotate(obj)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range lines {
		var who []string
		for _, o := range l.Owners {
			who = append(who, o.Manager)
		}
		b.WriteString(strings.Join(who, "+") + "\t" + l.Text + "\n")
	}
	want := `	apiVersion: apps/v1
	kind: Deployment
	metadata:
	  finalizers:
gitops	  - example.com/a
	  - example.com/b
	  name: web
	spec:
gitops+hpa	  replicas: 3
gitops	  selector:
gitops	    matchLabels:
gitops	      app: web
	  template:
	    spec:
	      containers:
gitops	      - image: web:1
gitops	        name: app
tuner	        workingDir: /tmp
	      - image: proxy:2
	        name: sidecar
`
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	fields := Fields(lines)
	var paths []string
	for _, f := range fields {
		paths = append(paths, f.Path)
	}
	for _, p := range []string{`.metadata.finalizers[="example.com/a"]`, ".spec.replicas", ".spec.selector",
		`.spec.template.spec.containers[name="app"]`, `.spec.template.spec.containers[name="app"].workingDir`} {
		found := false
		for _, q := range paths {
			found = found || q == p
		}
		if !found {
			t.Errorf("fields lack %s: %q", p, paths)
		}
	}
}

func TestAnnotateMultiLineStringsAndNoOwners(t *testing.T) {
	obj := map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "x"},
		"data":     map[string]any{"script": "echo a\necho b\n", "on": "yes", "empty": map[string]any{}}}
	lines, err := Annotate(obj)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, l := range lines {
		if len(l.Owners) != 0 {
			t.Errorf("line %q has owners without managedFields", l.Text)
		}
		texts = append(texts, l.Text)
	}
	got := strings.Join(texts, "\n")
	want := "apiVersion: v1\ndata:\n  empty: {}\n  \"on\": \"yes\"\n  script: |\n    echo a\n    echo b\nkind: ConfigMap\nmetadata:\n  name: x"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestAnnotateBadManagedFields(t *testing.T) {
	obj := map[string]any{"metadata": map[string]any{"managedFields": "nope"}}
	if _, err := Annotate(obj); err == nil || !strings.Contains(err.Error(), "metadata.managedFields") {
		t.Errorf("err = %v", err)
	}
}

// TestItemPathIsTheServers: list items print as the server prints them in paths
// (structured-merge-diff's printer: strings quoted as Go quotes them, HTML characters kept),
// not as JSON encodes them.
func TestItemPathIsTheServers(t *testing.T) {
	owners := []owner{{set: map[string]any{`k:{"port":80,"name":"<a>"}`: map[string]any{}, `v:"x\u0000"`: map[string]any{}}}}
	if got, want := itemPath(map[string]any{"name": "<a>", "port": int64(80)}, 3, owners), `[name="<a>",port=80]`; got != want {
		t.Errorf("keyed item: %s, want %s", got, want)
	}
	if got, want := itemPath("x\x00", 1, owners), `[="x\x00"]`; got != want {
		t.Errorf("set item: %s, want %s", got, want)
	}
	if got, want := itemPath("y", 2, owners), `[2]`; got != want {
		t.Errorf("item by position: %s, want %s", got, want)
	}
}
