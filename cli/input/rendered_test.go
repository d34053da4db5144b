package input

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// helmOutput is what `helm template web chart/` prints: each document under a comment
// naming its template, two documents from one template.
const helmOutput = `---
# Source: web/templates/service.yaml
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
---
# Source: web/templates/deploy.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
---
# Source: web/templates/deploy.yaml

apiVersion: v1
kind: ConfigMap
metadata:
  name: b
data:
  k: v
`

func TestHelmSources(t *testing.T) {
	l := Loader{Stdin: strings.NewReader(helmOutput), SourceComments: true, SourceRoot: "charts"}
	objs, errs := Split(l.Load("-"))
	if len(errs) > 0 || len(objs) != 3 {
		t.Fatalf("%d objects, errors %v", len(objs), errs)
	}
	for i, want := range []struct {
		file      string
		doc, line int
		ptr       string
		fieldLine int
	}{
		{filepath.Join("charts", "web", "templates", "service.yaml"), 0, 1, "/spec/ports/0/port", 7},
		{filepath.Join("charts", "web", "templates", "deploy.yaml"), 0, 1, "/metadata/name", 4},
		{filepath.Join("charts", "web", "templates", "deploy.yaml"), 1, 2, "/data/k", 7},
	} {
		o := objs[i]
		if o.Source.File != want.file || o.Source.Document != want.doc || o.Source.Line != want.line || o.Source.Via != "helm template" {
			t.Errorf("object %d: %+v, want %s document %d line %d via helm template", i, o.Source, want.file, want.doc, want.line)
		}
		if l := o.Line(want.ptr); l != want.fieldLine {
			t.Errorf("object %d: %s at line %d, want %d (lines count from the template's first)", i, want.ptr, l, want.fieldLine)
		}
	}

	// Without the option (a file, or standard input read as it is), lines are the stream's.
	l = Loader{Stdin: strings.NewReader(helmOutput)}
	objs, _ = Split(l.Load("-"))
	if objs[2].Source.File != "-" || objs[2].Source.Document != 2 || objs[2].Source.Line != 19 {
		t.Errorf("without SourceComments: %+v", objs[2].Source)
	}
}

// TestHelmSourceErrors: bad input in a rendered document is reported at its template.
func TestHelmSourceErrors(t *testing.T) {
	l := Loader{Stdin: strings.NewReader("---\n# Source: web/templates/bad.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n\tk: v\n"), SourceComments: true}
	_, errs := Split(l.Load("-"))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), filepath.Join("web", "templates", "bad.yaml")+", document 0, line 6") {
		t.Fatalf("errors %v, want one at the template's line 6", errs)
	}
}

type fakeRenderer map[string][]Entry

func (f fakeRenderer) Renders(dir string) bool { _, ok := f[filepath.Clean(dir)]; return ok }
func (f fakeRenderer) Render(dir string) []Entry {
	return f[filepath.Clean(dir)]
}

// TestRendererInWalks: a directory the renderer claims is not read as files; its objects
// stand in its place among the files, in lexical order.
func TestRendererInWalks(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a.yaml":               "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
		"k/kustomization.yaml": "resources: []\n",
		"k/raw.yaml":           "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: raw\n",
		"z.yaml":               "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: z\n",
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	rendered := &Object{Source: Source{File: "rendered"}, Object: map[string]interface{}{"kind": "ConfigMap", "apiVersion": "v1", "metadata": map[string]interface{}{"name": "r"}}}
	l := Loader{Renderer: fakeRenderer{filepath.Join(dir, "k"): {{Object: rendered}}}}
	objs, errs := Split(l.Load(dir))
	var names []string
	for _, o := range objs {
		_, _, _, n := o.Meta()
		names = append(names, n)
	}
	if len(errs) > 0 || strings.Join(names, ",") != "a,r,z" {
		t.Errorf("objects %v, errors %v; want a, r (rendered for k), z", names, errs)
	}
	// The directory given is asked too.
	objs, _ = Split(l.Load(filepath.Join(dir, "k")))
	if len(objs) != 1 || objs[0] != rendered {
		t.Errorf("the directory itself: %v", objs)
	}
}

// TestAttributedLines: a rendered object's fields are where its locator says; a field
// path with a map key in brackets (as validation prints labels) resolves.
func TestAttributedLines(t *testing.T) {
	objs, _ := Split(Parse("x.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    app.kubernetes.io/name: x\ndata:\n  a: b\n")))
	o := objs[0]
	if l, whole := o.FieldLine(o.Object, "metadata.labels[app.kubernetes.io/name]"); l != 1 || whole {
		t.Errorf("a path without its leading dot: line %d, whole %v", l, whole)
	}
	if l, whole := o.FieldLine(o.Object, ".metadata.labels[app.kubernetes.io/name]"); l != 6 || !whole {
		t.Errorf("a label as validation prints it: line %d, whole %v", l, whole)
	}
	if l, whole := o.FieldLine(o.Object, ".data.missing"); l != 7 || whole {
		t.Errorf("a field the object lacks: line %d, whole %v (want its parent's, 7)", l, whole)
	}
	o.Attribute(Source{File: "base/cm.yaml", Line: 3, Via: "kustomize prod"}, func(_ map[string]interface{}, path string) (string, int) {
		if path == ".data.a" {
			return "prod/patch.yaml", 9
		}
		return "", 0
	})
	tree, _ := o.Decode()
	if f, l := o.LocateFieldPath(tree, ".data.a"); f != "prod/patch.yaml" || l != 9 {
		t.Errorf(".data.a at %s:%d", f, l)
	}
	if f, l := o.LocateFieldPath(tree, ".metadata.name"); f != "base/cm.yaml" || l != 3 {
		t.Errorf("a field the locator does not know: %s:%d, want the object's", f, l)
	}
	if l := o.Line("/data/a"); l != 9 {
		t.Errorf("Line of a pointer: %d", l)
	}
}

// FuzzHelmSources reads any bytes as `helm template` output on standard input. Nothing
// may panic; every document is read as it is without the option (the same objects and
// errors, only their sources differ); a document attributed to a template names it, with
// lines that count from the template's first.
func FuzzHelmSources(f *testing.F) {
	f.Add([]byte(helmOutput))
	f.Add([]byte("# Source: a/templates/x.yaml\n---\n# Source: \n# Source: b/t.yaml\nkind: [\n"))
	f.Add([]byte("---\n# Source: a/t.yaml\n{\"kind\":\"X\"}\n"))
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		read := func(helm bool) []Entry {
			l := Loader{Stdin: strings.NewReader(string(data)), SourceComments: helm, Limits: Limits{MaxDocumentBytes: 4096, MaxDepth: 20}}
			return l.Load("-")
		}
		plain, helm := read(false), read(true)
		if len(plain) != len(helm) {
			t.Fatalf("%d entries, %d with Source comments", len(plain), len(helm))
		}
		for i := range plain {
			if (plain[i].Err == nil) != (helm[i].Err == nil) {
				t.Fatalf("entry %d: %v / %v", i, plain[i].Err, helm[i].Err)
			}
			o := helm[i].Object
			if o == nil {
				continue
			}
			if o.Source.Via != "" && (o.Source.Via != "helm template" || o.Source.File == "" || o.Source.File == "-") {
				t.Fatalf("entry %d: %+v", i, o.Source)
			}
			if o.Source.Via != "" && o.Source.Line < 1 {
				t.Fatalf("entry %d: line %d", i, o.Source.Line)
			}
			a, _ := plain[i].Object.Decode()
			b, _ := o.Decode()
			if fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("entry %d: %v / %v", i, a, b)
			}
			o.Line("/metadata/name")
		}
	})
}
