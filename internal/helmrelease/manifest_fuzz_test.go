package helmrelease

import (
	"strings"
	"testing"
)

// FuzzObjects holds the manifest reader to never panicking and to keeping, for each
// object it returns, the path of the `# Source:` comment above it.
func FuzzObjects(f *testing.F) {
	f.Add("---\n# Source: web/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n# Source: web/crds/x.yaml\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x.example.com\n")
	f.Add("--- # a comment\nkind: A\n---\n\n---\n[1, 2]\n")
	f.Add("a: *b\n")
	f.Fuzz(func(t *testing.T, manifest string) {
		objs, err := Objects(manifest)
		if err != nil {
			return
		}
		for _, o := range objs {
			if o.Object == nil {
				t.Fatal("a nil object")
			}
			if o.Source != "" && !strings.Contains(manifest, "# Source: "+o.Source) {
				t.Fatalf("source %q is not in the manifest", o.Source)
			}
		}
	})
}

func TestObjectsReadsTemplateOutput(t *testing.T) {
	objs, err := Objects("---\n# Source: op/crds/widgets.yaml\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.helm.example.com\n---\n# Source: op/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: op-settings\ndata:\n  mode: \"fast\"\n---\n")
	if err != nil || len(objs) != 2 {
		t.Fatalf("%d objects, %v", len(objs), err)
	}
	if CRDFile(objs[0].Source) != "crds/widgets.yaml" || CRDFile(objs[1].Source) != "" {
		t.Errorf("crds/ files: %q %q", CRDFile(objs[0].Source), CRDFile(objs[1].Source))
	}
	if CRDFile("web/charts/db/crds/x.yaml") != "crds/x.yaml" {
		t.Error("a subchart's crds/ file")
	}
}
