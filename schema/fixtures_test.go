package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"

	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/yaml"
)

// registryFor returns a registry with the case's CRDs.
func registryFor(t *testing.T, c fixtureCase) *Registry {
	t.Helper()
	r := MustNewRegistry(kube.Default())
	if c.crds != nil {
		if err := r.AddCRD(c.name+"/crds.yaml", c.crds); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
	return r
}

// withoutManagedFields returns a copy of obj without
// metadata.managedFields, and the entries.
func withoutManagedFields(obj map[string]any) (map[string]any, []any) {
	out := unstructured.DeepCopy(obj).(map[string]any)
	meta, _ := out["metadata"].(map[string]any)
	entries, _ := meta["managedFields"].([]any)
	delete(meta, "managedFields")
	return out, entries
}

// TestFixtureObjectsConvert: every object a recorded server accepted or
// returned converts under the registry's type; the manifest the server
// rejected for a field not in the schema does not.
func TestFixtureObjectsConvert(t *testing.T) {
	n := 0
	for _, c := range allCases(t) {
		r := registryFor(t, c)
		for name, obj := range map[string]map[string]any{"live.json": c.live, "manifest.yaml": c.manifest, "want.json": c.want} {
			if obj == nil || obj["kind"] == "Status" || obj["kind"] == "Scale" {
				continue
			}
			obj, _ = withoutManagedFields(obj)
			typ, warnings := r.Resolve(GVKOf(obj))
			if len(warnings) > 0 {
				t.Errorf("%s/%s: %v", c.name, name, warnings)
				continue
			}
			// Live objects may hold duplicate list keys (the server accepts
			// them from updates); the field manager converts them so.
			_, err := typ.Parseable.FromUnstructured(obj, typed.AllowDuplicates)
			if c.name == "error-field-not-in-schema" && name == "manifest.yaml" {
				if err == nil || !strings.Contains(err.Error(), "field not declared in schema") {
					t.Errorf("%s/%s: want a schema error, got %v", c.name, name, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s/%s: %v", c.name, name, err)
			}
			n++
		}
	}
	t.Logf("%d recorded objects convert", n)
}

// stripped are the fields the API server never records in managedFields.
var stripped = smdpath.NewSet(
	smdpath.MakePathOrDie("apiVersion"),
	smdpath.MakePathOrDie("kind"),
	smdpath.MakePathOrDie("metadata"),
	smdpath.MakePathOrDie("metadata", "name"),
	smdpath.MakePathOrDie("metadata", "namespace"),
	smdpath.MakePathOrDie("metadata", "creationTimestamp"),
	smdpath.MakePathOrDie("metadata", "uid"),
	smdpath.MakePathOrDie("metadata", "generation"),
	smdpath.MakePathOrDie("metadata", "managedFields"),
	smdpath.MakePathOrDie("metadata", "resourceVersion"),
)

func fieldsV1(t *testing.T, entry any) *smdpath.Set {
	t.Helper()
	e := entry.(map[string]any)
	b, err := json.Marshal(e["fieldsV1"])
	if err != nil {
		t.Fatal(err)
	}
	s := &smdpath.Set{}
	if err := s.FromJSON(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFixtureCreateFieldSets: on a create by apply, the applier owns
// exactly the fields of its manifest, as the schema shapes them (keys,
// sets, atomic values). The recorded managedFields are the server's
// answer.
func TestFixtureCreateFieldSets(t *testing.T) {
	n := 0
	for _, c := range allCases(t) {
		if c.live != nil || c.request("mode") != "api" || c.request("verb") != "apply" || c.responseCode() != 201 {
			continue
		}
		r := registryFor(t, c)
		typ, _ := r.Resolve(GVKOf(c.manifest))
		tv, err := typ.Parseable.FromUnstructured(c.manifest)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got, err := tv.ToFieldSet()
		if err != nil {
			t.Fatal(err)
		}
		got = got.Difference(stripped)
		if typ.Status {
			// status is reset on the main resource: never owned there.
			got = got.Difference(statusPaths(got))
		}
		_, entries := withoutManagedFields(c.want)
		if len(entries) != 1 {
			t.Errorf("%s: %d managedFields entries", c.name, len(entries))
			continue
		}
		want := fieldsV1(t, entries[0])
		if !got.Equals(want) {
			t.Errorf("%s: owned fields differ\n  only predicted: %v\n  only recorded:  %v", c.name,
				fieldSetPaths(got.Difference(want)), fieldSetPaths(want.Difference(got)))
		}
		n++
	}
	if n < 10 {
		t.Errorf("only %d create cases", n)
	}
}

// statusPaths returns every path of s under status.
func statusPaths(s *smdpath.Set) *smdpath.Set {
	out := smdpath.NewSet()
	s.Iterate(func(p smdpath.Path) {
		if len(p) > 0 && p[0].FieldName != nil && *p[0].FieldName == "status" {
			out.Insert(p)
		}
	})
	return out
}

// managerKey identifies a managedFields entry as the API server's field
// manager does (manager, operation, and for updates the apiVersion and
// subresource); the manager name comes first.
func managerKey(e map[string]any) string {
	m, _ := e["manager"].(string)
	op, _ := e["operation"].(string)
	av, _ := e["apiVersion"].(string)
	sub, _ := e["subresource"].(string)
	if op == "Apply" {
		return m + "\x00Apply\x00\x00" + sub
	}
	return m + "\x00" + op + "\x00" + av + "\x00" + sub
}

// smdApply performs an apply of a recorded case with SMD's updater over
// the registry's type, the way the API server's field manager does it
// (without the engine's other steps): decode-time defaulting of the live
// object, status reset on the main resource, apply, defaulting of the
// result.
func smdApply(t *testing.T, c fixtureCase) (*typed.TypedValue, smdpath.ManagedFields, error) {
	t.Helper()
	r := registryFor(t, c)
	gvk := GVKOf(c.manifest)
	typ, ok := r.Lookup(gvk)
	if !ok {
		t.Fatalf("%s: %v not found", c.name, gvk)
	}
	version := smdpath.APIVersion(gvk.APIVersion())
	managers := smdpath.ManagedFields{}
	var live map[string]any
	if c.live != nil {
		var entries []any
		live, entries = withoutManagedFields(c.live)
		for _, e := range entries {
			em := e.(map[string]any)
			av, _ := em["apiVersion"].(string)
			managers[managerKey(em)] = smdpath.NewVersionedSet(fieldsV1(t, em), smdpath.APIVersion(av), em["operation"] == "Apply")
		}
	} else {
		// A custom resource is created by applying to an empty object.
		live = map[string]any{"apiVersion": gvk.APIVersion(), "kind": gvk.Kind}
	}
	if typ.Default != nil {
		typ.Default(live)
	}
	liveTV, err := typ.Parseable.FromUnstructured(live)
	if err != nil {
		t.Fatalf("%s: live: %v", c.name, err)
	}
	configTV, err := typ.Parseable.FromUnstructured(c.manifest)
	if err != nil {
		t.Fatalf("%s: manifest: %v", c.name, err)
	}
	b := merge.UpdaterBuilder{Converter: identityConverter{}}
	if typ.Status && c.request("subresource") == "" {
		b.IgnoreFilter = smdpath.NewExcludeFilterSetMap(map[smdpath.APIVersion]*smdpath.Set{
			version: smdpath.NewSet(smdpath.MakePathOrDie("status")),
		})
	}
	manager, _ := c.request("fieldManager").(string)
	force, _ := c.request("force").(bool)
	key := manager + "\x00Apply\x00\x00"
	result, managed, err := b.BuildUpdater().Apply(liveTV, configTV, version, managers, key, force)
	if err != nil || result == nil {
		return result, managed, err
	}
	obj := result.AsValue().Unstructured().(map[string]any)
	if typ.Default != nil {
		typ.Default(obj)
	}
	result, err = typ.Parseable.FromUnstructured(obj)
	return result, managed, err
}

// TestFixtureCRDApplies replays the recorded custom resource cases through
// SMD with the CRD's type: conflicts (paths and managers), the applier's
// owned fields, and the stored spec (with structural defaults) must match
// the server's answer.
func TestFixtureCRDApplies(t *testing.T) {
	n := 0
	for _, c := range allCases(t) {
		if c.crds == nil {
			continue
		}
		n++
		t.Run(c.name, func(t *testing.T) {
			if c.want["kind"] == "Status" && c.responseCode() != 409 {
				// A refusal (422, 404) is the validation hooks' answer, not
				// the merge's: merge's tests replay those.
				t.Skipf("the server refused with %d", c.responseCode())
			}
			result, managed, err := smdApply(t, c)
			if c.want["kind"] == "Status" {
				var conflicts merge.Conflicts
				if err == nil || !errorsAs(err, &conflicts) {
					t.Fatalf("want conflicts, got %v", err)
				}
				var got []string
				for _, cf := range conflicts {
					got = append(got, fmt.Sprintf("%s %s", strings.SplitN(cf.Manager, "\x00", 2)[0], cf.Path))
				}
				var want []string
				details := c.want["details"].(map[string]any)
				for _, cause := range details["causes"].([]any) {
					cm := cause.(map[string]any)
					msg := strings.TrimSuffix(strings.TrimPrefix(cm["message"].(string), `conflict with "`), `"`)
					want = append(want, fmt.Sprintf("%s %s", msg, cm["field"]))
				}
				sort.Strings(got)
				sort.Strings(want)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("conflicts %v, want %v", got, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			manager, _ := c.request("fieldManager").(string)
			_, entries := withoutManagedFields(c.want)
			var want *smdpath.Set
			for _, e := range entries {
				em := e.(map[string]any)
				if em["manager"] == manager && em["operation"] == "Apply" {
					want = fieldsV1(t, em)
				}
			}
			got := managed[manager+"\x00Apply\x00\x00"].Set().Difference(stripped)
			if want == nil || !got.Equals(want) {
				t.Errorf("owned fields %v, want %v", fieldSetPaths(got), fieldSetPaths(want))
			}
			gotObj := result.AsValue().Unstructured().(map[string]any)
			if !reflect.DeepEqual(gotObj["spec"], c.want["spec"]) {
				t.Errorf("spec\n%s\nwant\n%s", toJSONString(gotObj["spec"]), toJSONString(c.want["spec"]))
			}
		})
	}
	if n < 6 {
		t.Errorf("only %d custom resource cases", n)
	}
}

// identityConverter converts nothing: every recorded case uses one version.
type identityConverter struct{}

func (identityConverter) Convert(v *typed.TypedValue, _ smdpath.APIVersion) (*typed.TypedValue, error) {
	return v, nil
}

func (identityConverter) IsMissingVersionError(error) bool { return false }

func errorsAs(err error, target *merge.Conflicts) bool {
	c, ok := err.(merge.Conflicts)
	if ok {
		*target = c
	}
	return ok
}

// TestFixtureCRDsIndexed: every recorded CRD loads with the kinds,
// scopes and subresources the recorded paths show.
func TestFixtureCRDsIndexed(t *testing.T) {
	for _, c := range allCases(t) {
		if c.crds == nil {
			continue
		}
		r := registryFor(t, c)
		gvk := GVKOf(c.manifest)
		typ, ok := r.Lookup(gvk)
		if !ok {
			t.Errorf("%s: %v not indexed", c.name, gvk)
			continue
		}
		path, _ := c.request("path").(string)
		wantPath := "/apis/" + gvk.Group + "/" + gvk.Version + "/namespaces/" + c.name + "/" + typ.Resource + "/"
		if !typ.Namespaced || !strings.HasPrefix(path, wantPath) {
			t.Errorf("%s: path %s, registry says %s (namespaced %v)", c.name, path, typ.Resource, typ.Namespaced)
		}
		if want := recordedStatusSubresource(t, c, gvk); want != typ.Status {
			t.Errorf("%s: status subresource %v, the recorded CRD says %v", c.name, typ.Status, want)
		}
		if c.name == "crd-no-schema-deduced" {
			// Only x-kubernetes-preserve-unknown-fields at the root: a
			// structural schema whose fields are all deduced.
			if typ.Deduced {
				t.Errorf("%s: the schema is structural, not missing", c.name)
			}
		}
	}
}

// recordedStatusSubresource reads, from the case's CRDs as recorded, whether
// the version of gvk declares the status subresource.
func recordedStatusSubresource(t *testing.T, c fixtureCase, gvk GVK) bool {
	t.Helper()
	for _, doc := range bytes.Split(c.crds, []byte("\n---")) {
		var crd struct {
			Spec struct {
				Group    string
				Names    struct{ Kind string }
				Versions []struct {
					Name         string
					Subresources struct {
						Status *map[string]any
					}
				}
			}
		}
		if err := yaml.Unmarshal(doc, &crd); err != nil {
			t.Fatalf("%s: crds.yaml: %v", c.name, err)
		}
		if crd.Spec.Group != gvk.Group || crd.Spec.Names.Kind != gvk.Kind {
			continue
		}
		for _, v := range crd.Spec.Versions {
			if v.Name == gvk.Version {
				return v.Subresources.Status != nil
			}
		}
	}
	t.Fatalf("%s: no recorded CRD serves %v", c.name, gvk)
	return false
}
