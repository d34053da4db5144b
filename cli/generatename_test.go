package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCreateWithGenerateName: a POST of an object that names no name but a generateName
// (--applier api --verb create, and kubectl create) is predicted as the server takes it
// (rules.md create.generate-name): the store names it after the mutating admission — the
// prefix and a stand-in for its 5 random characters, listed as assigned — while the
// writer's managedFields own the generateName, not the name. An apply of it stays refused.
func TestCreateWithGenerateName(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "cm.yaml")
	if err := os.WriteFile(manifest, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: settings-\n  namespace: shop\ndata:\n  a: \"1\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	live := filepath.Join(dir, "live.json")
	if err := os.WriteFile(live, []byte(`{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"other","namespace":"shop","uid":"u","resourceVersion":"1","creationTimestamp":"2026-12-01T00:00:00Z"}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--applier", "api", "--verb", "create", manifest}, {"--kubectl", "create -f " + manifest}} {
		t.Run(args[1], func(t *testing.T) {
			out, stderr, code := run(t, "", append(args, "-o", "json", "--now", "2026-12-05T00:00:00Z", live)...)
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s\n%s", code, out, stderr)
			}
			var rep struct {
				Results []struct {
					Action                        string
					Namespace, Name, GenerateName string
					Assigned                      []string
					Object                        struct {
						Metadata struct {
							Name, GenerateName string
							ManagedFields      []struct {
								Manager, Operation string
								FieldsV1           map[string]any
							}
						}
					}
				}
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Results) != 1 {
				t.Fatalf("%v\n%s", err, out)
			}
			r := rep.Results[0]
			md := r.Object.Metadata
			if r.Action != "create" || md.Name != "settings-00000" || md.GenerateName != "settings-" || len(r.Assigned) == 0 || r.Assigned[0] != ".metadata.name" {
				t.Errorf("action %s, name %q, generateName %q, assigned %v", r.Action, md.Name, md.GenerateName, r.Assigned)
			}
			if r.Namespace != "shop" || r.Name != "" || r.GenerateName != "settings-" {
				t.Errorf("identity %q/%q generateName %q, want shop, \"\" and settings-", r.Namespace, r.Name, r.GenerateName)
			}
			if len(md.ManagedFields) != 1 || args[0] == "--kubectl" && md.ManagedFields[0].Manager != "kubectl-create" {
				t.Fatalf("managedFields %+v", md.ManagedFields)
			}
			fields, _ := json.Marshal(md.ManagedFields[0].FieldsV1)
			if !strings.Contains(string(fields), `"f:metadata":{"f:generateName":{}}`) || md.ManagedFields[0].Operation != "Update" {
				t.Errorf("managedFields %s %s", md.ManagedFields[0].Operation, fields)
			}
		})
	}
	// The text report names it by its prefix, as the server assigns the rest.
	if out, stderr, code := run(t, "", "--applier", "api", "--verb", "create", "--now", "2026-12-05T00:00:00Z", manifest, live); code != 1 || !strings.HasPrefix(out, "v1 ConfigMap shop/settings-<assigned>: create") {
		t.Errorf("text: exit %d\n%s\n%s", code, out, stderr)
	}
	// Without any ConfigMap in the live input, the create is no less certain: no warning
	// that the live input may not say whether the object exists.
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, []byte(`{"apiVersion":"v1","kind":"List","items":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, stderr, code := run(t, "", "--applier", "api", "--verb", "create", "-o", "json", manifest, empty); code != 1 || strings.Contains(out, "without evidence") {
		t.Errorf("a create from an empty live input: exit %d\n%s\n%s", code, out, stderr)
	}
	out, _, code := run(t, "", "-o", "json", manifest, live)
	if code != 2 || !strings.Contains(out, "server-side apply cannot use generateName") {
		t.Errorf("an apply: exit %d\n%s", code, out)
	}
}
