package predict

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// recordedDirs hold the recorded cases whose objects TestCreateAddsToDefaultsAgrees
// creates: the examples, the engine's goldens and the conformance recordings.
var recordedDirs = []string{
	"../testdata/examples", "../merge/testdata/golden",
	"../conformance/testdata/fidelity", "../conformance/testdata/fidelity-dualstack",
	"../conformance/testdata/verbs", "../conformance/testdata/minors",
	"../conformance/testdata/integration", "../conformance/testdata/residues",
	"../conformance/testdata/versions",
}

// TestCreateAddsToDefaultsAgrees holds merge.Engine.CreateAddsToDefaults, which lets drift
// leave out the whole create of a manifest (newDriftShared), to the engine's own create: at
// every supported minor, for a minimal object of every served built-in kind and every
// object of the recorded cases, the create of a kind it says adds nothing stores nothing,
// outside status, the metadata only the server writes, the name and the namespace, that
// Defaulted does not give with the same value, and assigns nothing there.
func TestCreateAddsToDefaultsAgrees(t *testing.T) {
	var recorded []map[string]any
	for _, dir := range recordedDirs {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".json")) {
				return err
			}
			objs, _ := Files(p) // files of other shapes (case tables) give no objects
			for _, o := range objs {
				if o != nil && o.Object != nil {
					recorded = append(recorded, o.Object)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(recorded) < 1000 {
		t.Fatalf("only %d recorded objects read", len(recorded))
	}
	for _, minor := range kube.Minors() {
		reg := schema.MustNewRegistry(minor)
		e := merge.New(reg, kubeapiserver.MustNew(kubeapiserver.Config{Minor: minor}))
		objs := append([]map[string]any(nil), recorded...)
		for _, gvk := range reg.GVKs() {
			if typ, _ := reg.Lookup(gvk); typ.Served && typ.Resource != "" && typ.Source == schema.SourceBuiltin {
				objs = append(objs, map[string]any{"apiVersion": gvk.APIVersion(), "kind": gvk.Kind, "metadata": map[string]any{"name": "x"}})
			}
		}
		compared, kinds := 0, map[string]bool{}
		for _, o := range objs {
			gvk := schema.GVKOf(o)
			typ, ok := reg.Lookup(gvk)
			if !ok || !typ.Served || typ.Resource == "" || typ.Source != schema.SourceBuiltin || e.CreateAddsToDefaults(gvk) {
				continue
			}
			manifest := asManifest(o, typ.Namespaced)
			md := manifest["metadata"].(map[string]any)
			name, _ := md["name"].(string)
			ns, _ := md["namespace"].(string)
			if name == "" {
				continue
			}
			res, err := e.Apply(merge.Request{Object: manifest, Endpoint: merge.Endpoint{GVK: gvk, Namespace: ns, Name: name},
				Manager: "drift-test", Now: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)})
			defaulted, ok := e.Defaulted(gvk, manifest)
			if err != nil || res == nil || res.Object == nil || !ok {
				continue
			}
			compared++
			kinds[gvk.String()] = true
			if added := addedByCreate(defaulted, res.Object); len(added) > 0 {
				t.Errorf("%s: %v %s/%s: the create stores what Defaulted does not give: %s", minor, gvk, ns, name, strings.Join(added, ", "))
			}
			for _, a := range res.Assigned {
				if !serverWritten(a) {
					t.Errorf("%s: %v %s/%s: the create assigns %s", minor, gvk, ns, name, a)
				}
			}
		}
		if compared < 100 {
			t.Errorf("%s: only %d creates compared", minor, compared)
		}
		t.Logf("%s: %d creates of %d kinds compared", minor, compared, len(kinds))
	}
}

// asManifest is obj as a manifest would send it: without status and the metadata only
// the server writes, in the default namespace when its kind is namespaced and it names none.
func asManifest(obj map[string]any, namespaced bool) map[string]any {
	b, _ := json.Marshal(obj)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	delete(m, "status")
	md, _ := m["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		m["metadata"] = md
	}
	for _, k := range []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"} {
		delete(md, k)
	}
	if ns, _ := md["namespace"].(string); namespaced && ns == "" {
		md["namespace"] = "default"
	}
	return m
}

// serverWritten reports whether a path as merge.Result.Assigned prints it is in status,
// the metadata only the server writes, or the name.
func serverWritten(p string) bool {
	for _, s := range []string{".status", ".metadata.uid", ".metadata.resourceVersion", ".metadata.generation", ".metadata.creationTimestamp", ".metadata.name"} {
		if p == s || strings.HasPrefix(p, s+".") || strings.HasPrefix(p, s+"[") {
			return true
		}
	}
	return false
}

// addedByCreate lists the paths at which created has a value that defaulted lacks, or
// has and prints otherwise, outside status, the metadata only the server writes and the
// name and namespace.
func addedByCreate(defaulted, created map[string]any) []string {
	var out []string
	var walk func(p string, d, c any, has bool)
	walk = func(p string, d, c any, has bool) {
		switch cv := c.(type) {
		case map[string]any:
			dm, _ := d.(map[string]any)
			if len(cv) == 0 && (!has || dm == nil) {
				out = append(out, p)
				return
			}
			for k, v := range cv {
				dv, ok := dm[k]
				walk(p+"."+k, dv, v, ok)
			}
		case []any:
			dl, ok := d.([]any)
			if !ok || len(dl) != len(cv) {
				if !printedSame(d, c) || !has {
					out = append(out, p)
				}
				return
			}
			for i := range cv {
				walk(fmt.Sprintf("%s[%d]", p, i), dl[i], cv[i], true)
			}
		default:
			if !has || !printedSame(d, c) {
				out = append(out, p)
			}
		}
	}
	for k, v := range created {
		dv, ok := defaulted[k]
		switch k {
		case "status", "apiVersion", "kind":
		case "metadata":
			md, _ := v.(map[string]any)
			dmd, _ := dv.(map[string]any)
			for mk, mv := range md {
				switch mk {
				case "uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink", "name", "namespace":
					continue
				}
				dmv, ok := dmd[mk]
				walk(".metadata."+mk, dmv, mv, ok)
			}
		default:
			walk("."+k, dv, v, ok)
		}
	}
	sort.Strings(out)
	return out
}

func printedSame(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}
