package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestManagedFieldsPrintedInServerKeyOrder: the report prints each fieldsV1 of the
// predicted object in the order the server answers (rules.md encode.key-order), also an
// entry the apply does not touch and that was read in another order: the live objects are
// kubectl's -o json (byte order), recorded in conformance/testdata/fieldsorder; platform's
// entry must come out as the server's GET printed it — element order for the Service
// (ports 9, 80, 443, 8125), byte order for the custom resource (443, 80, 9).
func TestManagedFieldsPrintedInServerKeyOrder(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "conformance", "testdata", "fieldsorder")
	for _, c := range []string{"service-ports-element-order", "cr-ports-byte-order"} {
		t.Run(c, func(t *testing.T) {
			args := []string{"--now", "2026-12-01T12:00:00Z", "-o", "json", "--show-managed-fields"}
			if crds := filepath.Join(dir, c, "crds.yaml"); fileExists(crds) {
				args = append(args, "--crd", crds)
			}
			args = append(args, filepath.Join(dir, c, "manifest.yaml"), filepath.Join(dir, "views", c, "kubectl-get.json"))
			stdout, stderr, code := run(t, "", args...)
			if code == 2 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var rep struct {
				Results []struct {
					Object struct {
						Metadata struct{ ManagedFields []managedFieldsEntryText }
					}
				}
			}
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Results) != 1 {
				t.Fatalf("report: %v (%d results)\n%s", err, len(rep.Results), stdout)
			}
			b, err := os.ReadFile(filepath.Join(dir, "views", c, "get.json"))
			if err != nil {
				t.Fatal(err)
			}
			var server struct {
				Metadata struct{ ManagedFields []managedFieldsEntryText }
			}
			if err := json.Unmarshal(b, &server); err != nil {
				t.Fatal(err)
			}
			want, got := fieldsV1Of(t, server.Metadata.ManagedFields, "platform"), fieldsV1Of(t, rep.Results[0].Object.Metadata.ManagedFields, "platform")
			if !bytes.Equal(got, want) {
				t.Errorf("platform's fieldsV1 printed\n%s\nthe server's\n%s", got, want)
			}
		})
	}
}

type managedFieldsEntryText struct {
	Manager  string
	FieldsV1 json.RawMessage
}

// fieldsV1Of is manager's fieldsV1, compacted.
func fieldsV1Of(t *testing.T, entries []managedFieldsEntryText, manager string) []byte {
	t.Helper()
	for _, e := range entries {
		if e.Manager == manager {
			var b bytes.Buffer
			if err := json.Compact(&b, e.FieldsV1); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		}
	}
	t.Fatalf("no entry of %s", manager)
	return nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestManagedFieldsYAMLInServerKeyOrder: -o yaml prints fieldsV1 keys as the server's YAML
// answers do, sorted again by yaml.v2 whatever the kind's storage: the ConfigMap's data
// keys a9 before a10 (JSON, element and byte order alike, has a10 first).
func TestManagedFieldsYAMLInServerKeyOrder(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "conformance", "testdata", "fieldsorder")
	c := "configmap-keys-element-order"
	stdout, stderr, code := run(t, "", "--now", "2026-12-01T12:00:00Z", "-o", "yaml", "--show-managed-fields",
		filepath.Join(dir, c, "manifest.yaml"), filepath.Join(dir, "views", c, "kubectl-get.json"))
	if code == 2 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	server, err := os.ReadFile(filepath.Join(dir, "views", c, "get.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"the server's get.yaml": string(server), "-o yaml": stdout} {
		a9, a10 := strings.Index(text, "f:a9:"), strings.Index(text, "f:a10:")
		if a9 < 0 || a10 < 0 || a9 > a10 {
			t.Errorf("%s: f:a9 at %d, f:a10 at %d, want a9 first\n%s", name, a9, a10, text)
		}
	}
}

// TestManagedFieldsOfObjectsNotSentInServerKeyOrder: an applier that sends nothing for an
// object (Flux's reconcile: disabled) answers the live object as the server holds it, so its
// entries come out in the server's key order too (rules.md encode.key-order), though the live
// object was read from kubectl's -o json in byte order.
func TestManagedFieldsOfObjectsNotSentInServerKeyOrder(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "conformance", "testdata", "fieldsorder")
	c := "service-ports-element-order"
	b, err := os.ReadFile(filepath.Join(dir, c, "manifest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	manifest := strings.Replace(string(b), "  labels:\n", "  annotations:\n    kustomize.toolkit.fluxcd.io/reconcile: disabled\n  labels:\n", 1)
	if manifest == string(b) {
		t.Fatal("the manifest has no labels to annotate before")
	}
	m := filepath.Join(t.TempDir(), "manifest.yaml")
	if err := os.WriteFile(m, []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, "", "--now", "2026-12-01T12:00:00Z", "-o", "json", "--show-managed-fields",
		"--applier", "flux", m, filepath.Join(dir, "views", c, "kubectl-get.json"))
	if code == 2 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Results []struct {
			Action string
			Object struct {
				Metadata struct{ ManagedFields []managedFieldsEntryText }
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Results) != 1 {
		t.Fatalf("report: %v (%d results)\n%s", err, len(rep.Results), stdout)
	}
	if rep.Results[0].Action != "unchanged" {
		t.Fatalf("action %q, want unchanged (Flux skips the object)\n%s", rep.Results[0].Action, stdout)
	}
	g, err := os.ReadFile(filepath.Join(dir, "views", c, "get.json"))
	if err != nil {
		t.Fatal(err)
	}
	var server struct {
		Metadata struct{ ManagedFields []managedFieldsEntryText }
	}
	if err := json.Unmarshal(g, &server); err != nil {
		t.Fatal(err)
	}
	for _, manager := range []string{"platform", "ops"} {
		want, got := fieldsV1Of(t, server.Metadata.ManagedFields, manager), fieldsV1Of(t, rep.Results[0].Object.Metadata.ManagedFields, manager)
		if !bytes.Equal(got, want) {
			t.Errorf("%s's fieldsV1 printed\n%s\nthe server's\n%s", manager, got, want)
		}
	}
}
