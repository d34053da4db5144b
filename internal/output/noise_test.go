package output

import (
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/judge"
)

// noiseReport: an unchanged ConfigMap and a Deployment whose update changes the
// generation and resourceVersion (the server's) and the replicas and image (the manifest's).
func noiseReport() *report.Report {
	rep := report.New(report.Options{FieldManager: "kubectl", Applier: "kubectl", Now: now})
	cm := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "namespace": "shop"}, "data": map[string]any{"a": "1"}}
	rep.Results = append(rep.Results, &report.Result{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "c",
		Source: src("deploy/cm.yaml", 0, 1), Action: report.ActionUnchanged, Live: cm, Object: cm})
	live := deployment(3, "shop/web:1.0")
	live["metadata"].(map[string]any)["generation"] = int64(3)
	pred := deployment(5, "shop/web:2.0")
	pred["metadata"].(map[string]any)["generation"] = int64(4)
	pred["metadata"].(map[string]any)["resourceVersion"] = "145"
	rep.Results = append(rep.Results, &report.Result{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web",
		Source: src("deploy/web.yaml", 0, 1), Action: report.ActionUpdate, Changed: true, Live: live, Object: pred})
	rep.Summary = report.Summary{Objects: 2, Updated: 1, Unchanged: 1, ExitCode: 1}
	return rep
}

func TestUnchangedFolded(t *testing.T) {
	out, _ := writeAll(t, "text", noiseReport(), Options{})
	if strings.Contains(out, "ConfigMap") || !strings.Contains(out, "1 unchanged (1 not shown: --show-unchanged)") {
		t.Errorf("the unchanged object is not folded:\n%s", out)
	}
	shown, _ := writeAll(t, "text", noiseReport(), Options{ShowUnchanged: true})
	if !strings.Contains(shown, "v1 ConfigMap shop/c: unchanged") || strings.Contains(shown, "not shown") {
		t.Errorf("--show-unchanged does not print it:\n%s", shown)
	}
	md, _ := writeAll(t, "markdown", noiseReport(), Options{})
	mdShown, _ := writeAll(t, "markdown", noiseReport(), Options{ShowUnchanged: true})
	if strings.Contains(md, "ConfigMap") || !strings.Contains(mdShown, "`v1 ConfigMap shop/c` — unchanged") {
		t.Errorf("markdown:\n%s\nwith --show-unchanged:\n%s", md, mdShown)
	}
	// An unchanged object with something to look at is never folded.
	rep := noiseReport()
	rep.Results[0].Findings = []report.Finding{{Category: report.CategoryWarning, Level: report.LevelWarning, Message: "look"}}
	if out, _ := writeAll(t, "text", rep, Options{}); !strings.Contains(out, "ConfigMap") {
		t.Error("an unchanged object with a warning is folded")
	}
}

// The manifest's changes come first in every diff the human formats print; the server's
// fields after them.
func TestServerMaintainedLast(t *testing.T) {
	for _, format := range []string{"text", "markdown"} {
		out, _ := writeAll(t, format, noiseReport(), Options{})
		r, g := strings.Index(out, "replicas: 5"), strings.Index(out, "generation: 4")
		if r < 0 || g < 0 || g < r {
			t.Errorf("%s: the generation (at %d) is not after the replicas (at %d):\n%s", format, g, r, out)
		}
	}
	// The html page's diff (its ownership map shows the stored object whole).
	if out, _ := writeAll(t, "html", noiseReport(), Options{}); !strings.Contains(out, "# maintained by the server:") {
		t.Error("html: no server-maintained section")
	}
	out, _ := writeAll(t, "text", noiseReport(), Options{})
	want := `@@ -4,13 +4,13 @@
   name: web
   namespace: shop
 spec:
-  replicas: 3
+  replicas: 5
   template:
     spec:
       containers:
-      - image: shop/web:1.0
+      - image: shop/web:2.0
         name: app
 # maintained by the server:
 metadata:
-  generation: 3
-  resourceVersion: "144"
+  generation: 4
+  resourceVersion: "145"
`
	if !strings.Contains(out, want) {
		t.Errorf("the diff:\n%s\nwant it to hold:\n%s", out, want)
	}
	// -o diff prints what kubectl diff prints: the objects whole, in its order.
	d, _ := writeAll(t, "diff", noiseReport(), Options{})
	if strings.Contains(d, "maintained by the server") || strings.Index(d, "generation: 4") > strings.Index(d, "replicas: 5") {
		t.Errorf("-o diff:\n%s", d)
	}
}

func TestIgnoreHidesFromDiffs(t *testing.T) {
	r, err := judge.ParseIgnoreRule("apps/Deployment:.spec.replicas")
	if err != nil {
		t.Fatal(err)
	}
	ig, err := judge.NewIgnore(r)
	if err != nil {
		t.Fatal(err)
	}
	rep := noiseReport()
	for _, format := range []string{"text", "markdown"} {
		out, _ := writeAll(t, format, rep, Options{Ignore: ig})
		if strings.Contains(out, "replicas: 5") || !strings.Contains(out, "image: shop/web:2.0") {
			t.Errorf("%s: the ignored field shows, or the rest does not:\n%s", format, out)
		}
	}
	if rep.Results[1].Object["spec"].(map[string]any)["replicas"] != int64(5) {
		t.Error("the prediction changed")
	}
}
