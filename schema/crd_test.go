package schema

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/ssa-diff/ssa-diff/kube"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func loadPostgres(t *testing.T) *Registry {
	t.Helper()
	r := MustNewRegistry(kube.Default())
	if err := r.AddCRD("postgresclusters.yaml", readTestdata(t, "crds/postgresclusters.yaml")); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCRDIndex(t *testing.T) {
	r := loadPostgres(t)
	v1 := mustLookup(t, r, "db.example.com/v1", "PostgresCluster")
	if v1.Resource != "postgresclusters" || !v1.Namespaced || !v1.Status || v1.Source != SourceCRD || v1.Deduced {
		t.Errorf("v1: %+v", v1)
	}
	if v1.Origin != "postgresclusters.yaml: postgresclusters.db.example.com" {
		t.Errorf("origin %q", v1.Origin)
	}
	if v1.Scale == nil || *v1.Scale != (ScaleSubresource{".spec.instances", ".status.readyInstances", ".status.selector"}) {
		t.Errorf("scale %+v", v1.Scale)
	}
	if v1.Default == nil {
		t.Error("no defaulting for a structural schema")
	}
	beta := mustLookup(t, r, "db.example.com/v1beta1", "PostgresCluster")
	if !beta.Status || beta.Scale != nil {
		t.Errorf("v1beta1 subresources: status %v scale %v", beta.Status, beta.Scale)
	}
	// A version that is no longer served is still indexed: managedFields
	// may have been recorded at it.
	alpha := mustLookup(t, r, "db.example.com/v1alpha1", "PostgresCluster")
	if alpha.Status || alpha.Deduced {
		t.Errorf("v1alpha1: %+v", alpha)
	}
	if got := r.Versions("db.example.com", "PostgresCluster"); len(got) != 3 || got[0].Version != "v1" || got[2].Version != "v1alpha1" {
		t.Errorf("versions %v", got)
	}
}

// TestCRDElementRelationships checks the SMD type built from a structural
// schema, node by node.
func TestCRDElementRelationships(t *testing.T) {
	r := loadPostgres(t)
	typ := mustLookup(t, r, "db.example.com/v1", "PostgresCluster")
	list := func(path ...string) *smdschema.List {
		a := atomAt(t, typ, path...)
		if a.List == nil {
			t.Fatalf("%v is not a list", path)
		}
		return a.List
	}
	mapAt := func(path ...string) *smdschema.Map {
		a := atomAt(t, typ, path...)
		if a.Map == nil {
			t.Fatalf("%v is not a map", path)
		}
		return a.Map
	}
	for _, tc := range []struct {
		path []string
		rel  smdschema.ElementRelationship
		keys []string
	}{
		{[]string{"spec", "ports"}, smdschema.Associative, []string{"port", "protocol"}},
		{[]string{"spec", "users"}, smdschema.Associative, []string{"name"}},
		{[]string{"spec", "users", "[]", "databases"}, smdschema.Associative, nil},
		{[]string{"spec", "extensions"}, smdschema.Atomic, nil},
		{[]string{"spec", "tolerations"}, smdschema.Atomic, nil},
		{[]string{"status", "conditions"}, smdschema.Associative, []string{"type"}},
		{[]string{"metadata", "finalizers"}, smdschema.Associative, nil},
	} {
		l := list(tc.path...)
		if l.ElementRelationship != tc.rel || !reflect.DeepEqual(l.Keys, tc.keys) {
			t.Errorf("%v: %s %v, want %s %v", tc.path, l.ElementRelationship, l.Keys, tc.rel, tc.keys)
		}
	}
	if got := fieldDefault(t, typ, "protocol", "spec", "ports", "[]"); got != "TCP" {
		t.Errorf("key default %#v", got)
	}
	if m := mapAt("spec", "nodeSelector"); m.ElementRelationship != smdschema.Atomic {
		t.Errorf("nodeSelector %q", m.ElementRelationship)
	}
	if m := mapAt("spec", "users", "[]", "passwordSecret"); m.ElementRelationship != smdschema.Atomic {
		t.Errorf("passwordSecret %q", m.ElementRelationship)
	}
	if m := mapAt("spec", "parameters"); m.ElementRelationship != "" {
		t.Errorf("parameters %q", m.ElementRelationship)
	}
	for _, p := range [][]string{{"spec", "maxUnavailable"}, {"spec", "restoreUntil"}, {"spec", "tablespaces", "{}", "size"}} {
		if a := atomAt(t, typ, p...); a.Scalar == nil || *a.Scalar != smdschema.Untyped {
			t.Errorf("%v: not an untyped scalar", p)
		}
	}
	// metadata is the real ObjectMeta, at the root and in the embedded resource.
	for _, p := range [][]string{{"metadata", "labels"}, {"spec", "podTemplate", "metadata", "labels"}} {
		if m := mapAt(p...); m.ElementType.Inlined.Scalar == nil {
			t.Errorf("%v: not a map of strings", p)
		}
	}
	if a := atomAt(t, typ, "spec", "podTemplate", "apiVersion"); a.Scalar == nil || *a.Scalar != smdschema.String {
		t.Error("embedded apiVersion is not a string")
	}
	// preserve-unknown-fields: unknown keys are deduced.
	if m := mapAt("spec", "config"); m.ElementType.NamedType == nil || *m.ElementType.NamedType != "__untyped_deduced_" {
		t.Errorf("config element type %+v", m.ElementType)
	}
	if m := mapAt("spec"); m.ElementType != (smdschema.TypeRef{}) {
		t.Errorf("spec accepts unknown fields: %+v", m.ElementType)
	}
}

// TestCRDFieldSet applies a realistic object to the CRD type and checks
// the field set SMD derives from it.
func TestCRDFieldSet(t *testing.T) {
	r := loadPostgres(t)
	typ := mustLookup(t, r, "db.example.com/v1", "PostgresCluster")
	obj := fromYAML(t, `
apiVersion: db.example.com/v1
kind: PostgresCluster
metadata:
  name: orders
  labels: {team: payments}
spec:
  postgresVersion: 16
  ports:
  - port: 5432
  - port: 5432
    protocol: UDP
  users:
  - name: app
    databases: [orders, audit]
    passwordSecret: {name: app-pw}
  tolerations:
  - {key: db, operator: Exists}
  parameters:
    max_connections: "200"
  nodeSelector: {disk: ssd}
  maxUnavailable: 25%
  podTemplate:
    apiVersion: v1
    kind: Pod
    metadata:
      labels: {app: pg}
    spec:
      containers: [{name: pg}]
  config:
    wal:
      level: replica
    archive: [s3, gcs]
`)
	tv, err := typ.Parseable.FromUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	set, err := tv.ToFieldSet()
	if err != nil {
		t.Fatal(err)
	}
	got := fieldSetPaths(set)
	for _, want := range []string{
		`.metadata.labels.team`,
		`.spec.ports[port=5432,protocol="TCP"]`,
		`.spec.ports[port=5432,protocol="UDP"].port`,
		`.spec.users[name="app"].databases[="audit"]`,
		`.spec.users[name="app"].passwordSecret`,
		`.spec.tolerations`,
		`.spec.parameters.max_connections`,
		`.spec.nodeSelector`,
		`.spec.maxUnavailable`,
		`.spec.podTemplate.metadata.labels.app`,
		`.spec.podTemplate.spec.containers`,
		`.spec.config.wal`,
		`.spec.config.wal.level`,
		`.spec.config.archive`,
	} {
		if !slices.Contains(got, want) {
			t.Errorf("field set lacks %s", want)
		}
	}
	for _, notWanted := range []string{`.spec.users[name="app"].passwordSecret.name`, `.spec.nodeSelector.disk`, `.spec.config.archive[0]`} {
		if slices.Contains(got, notWanted) {
			t.Errorf("field set has %s inside an atomic value", notWanted)
		}
	}

	// int-or-string takes both.
	obj["spec"].(map[string]any)["maxUnavailable"] = int64(1)
	if _, err := typ.Parseable.FromUnstructured(obj); err != nil {
		t.Errorf("integer int-or-string: %v", err)
	}
	// Fields not in a strict part of the schema are rejected, as the API
	// server's typed conversion rejects them.
	obj["spec"].(map[string]any)["unknownField"] = true
	if _, err := typ.Parseable.FromUnstructured(obj); err == nil || !strings.Contains(err.Error(), "unknownField") {
		t.Errorf("unknown field: %v", err)
	}
}

func TestCRDDefaulting(t *testing.T) {
	r := loadPostgres(t)
	typ := mustLookup(t, r, "db.example.com/v1", "PostgresCluster")
	obj := fromYAML(t, `
apiVersion: db.example.com/v1
kind: PostgresCluster
metadata: {name: orders}
spec:
  postgresVersion: 16
  ports:
  - port: 5432
  users:
  - name: app
    passwordSecret: {name: app-pw}
  - name: report
    options: LOGIN
  tablespaces:
    fast: {}
    slow: {size: 10Gi, storageClassName: null}
  maintenanceWindow: null
  logLevel: null
  comment: null
  config:
    keep: null
`)
	typ.Default(obj)
	want := fromYAML(t, `
apiVersion: db.example.com/v1
kind: PostgresCluster
metadata: {name: orders}
spec:
  postgresVersion: 16
  instances: 1
  imagePullPolicy: IfNotPresent
  ports:
  - port: 5432
    protocol: TCP
  users:
  - name: app
    options: NOLOGIN
    passwordSecret: {name: app-pw, key: password}
  - name: report
    options: LOGIN
  tablespaces:
    fast: {size: 1Gi}
    slow: {size: 10Gi, storageClassName: null}
  backups:
    enabled: true
    schedule: 0 3 * * *
    retention: {days: 7}
  maintenanceWindow: null
  logLevel: info
  config:
    keep: null
`)
	if !reflect.DeepEqual(obj, want) {
		t.Errorf("defaulted:\n%s\nwant:\n%s", toJSONString(obj), toJSONString(want))
	}
	// Defaults are copies: changing one object does not change the next.
	obj["spec"].(map[string]any)["backups"].(map[string]any)["retention"].(map[string]any)["days"] = int64(30)
	other := map[string]any{"spec": map[string]any{}}
	typ.Default(other)
	if got := other["spec"].(map[string]any)["backups"].(map[string]any)["retention"].(map[string]any)["days"]; got != int64(7) {
		t.Errorf("default shared between objects: %v", got)
	}
	// Idempotent.
	again := fromYAML(t, toJSONString(want))
	typ.Default(again)
	if !reflect.DeepEqual(again, want) {
		t.Errorf("defaulting twice changed the object:\n%s", toJSONString(again))
	}
	// A present value, even a zero one, is not defaulted.
	zero := map[string]any{"spec": map[string]any{"instances": int64(0), "backups": map[string]any{"enabled": false}}}
	typ.Default(zero)
	spec := zero["spec"].(map[string]any)
	if spec["instances"] != int64(0) || spec["backups"].(map[string]any)["enabled"] != false || spec["backups"].(map[string]any)["schedule"] != "0 3 * * *" {
		t.Errorf("zero values: %s", toJSONString(zero))
	}

	// The other version has its own defaults.
	beta := mustLookup(t, r, "db.example.com/v1beta1", "PostgresCluster")
	b := map[string]any{"spec": map[string]any{}}
	beta.Default(b)
	if b["spec"].(map[string]any)["replicas"] != int64(1) {
		t.Errorf("v1beta1 default: %v", b)
	}
}

// TestCRDPreserveUnknownFieldsSpec covers the legacy
// spec.preserveUnknownFields: true: the whole object, ObjectMeta included,
// keeps unknown fields, and nulls are not pruned before defaulting.
func TestCRDPreserveUnknownFieldsSpec(t *testing.T) {
	r := MustNewRegistry(kube.Default())
	err := r.AddCRD("legacy.yaml", []byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: legacies.old.example.com}
spec:
  group: old.example.com
  scope: Cluster
  preserveUnknownFields: true
  names: {plural: legacies, kind: Legacy}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, default: 3}
              name: {type: string}
`))
	if err != nil {
		t.Fatal(err)
	}
	typ := mustLookup(t, r, "old.example.com/v1", "Legacy")
	if typ.Namespaced {
		t.Error("cluster-scoped CRD is namespaced")
	}
	obj := fromYAML(t, `
apiVersion: old.example.com/v1
kind: Legacy
metadata: {name: a, extra: kept}
spec: {name: null, surprise: {deep: 1}}
other: [1, 2]
`)
	if _, err := typ.Parseable.FromUnstructured(obj); err != nil {
		t.Errorf("unknown fields rejected: %v", err)
	}
	typ.Default(obj)
	spec := obj["spec"].(map[string]any)
	if v, ok := spec["name"]; !ok || v != nil {
		t.Errorf("null pruned with preserveUnknownFields: %v", spec)
	}
	if spec["size"] != int64(3) {
		t.Errorf("default not applied: %v", spec)
	}
}

// TestCRDWithoutSchema: a version without a schema gets the deduced type.
func TestCRDWithoutSchema(t *testing.T) {
	r := MustNewRegistry(kube.Default())
	err := r.AddCRD("", []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"notes.misc.example.com"},
"spec":{"group":"misc.example.com","scope":"Namespaced","names":{"plural":"notes","kind":"Note"},
"versions":[{"name":"v1","served":true,"storage":true}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	typ := mustLookup(t, r, "misc.example.com/v1", "Note")
	if !typ.Deduced || typ.Default != nil || typ.Source != SourceCRD || typ.Origin != "notes.misc.example.com" {
		t.Errorf("%+v", typ)
	}
}

// TestCRDDocuments: several documents, a List, empty documents, JSON.
func TestCRDDocuments(t *testing.T) {
	pg := string(readTestdata(t, "crds/postgresclusters.yaml"))
	list := `
# kubectl get crd -o yaml
apiVersion: v1
kind: List
items:
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata: {name: as.x.example.com}
  spec:
    group: x.example.com
    scope: Namespaced
    names: {plural: as, kind: A}
    versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata: {name: bs.x.example.com}
  spec:
    group: x.example.com
    scope: Cluster
    names: {plural: bs, kind: B}
    versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
`
	r := MustNewRegistry(kube.Default())
	if err := r.AddCRD("all.yaml", []byte("---\n# empty\n---\n"+pg+"\n---\n"+list+"\n...\n---\n")); err != nil {
		t.Fatal(err)
	}
	for _, gvk := range []GVK{{"db.example.com", "v1", "PostgresCluster"}, {"x.example.com", "v1", "A"}, {"x.example.com", "v1", "B"}} {
		if _, ok := r.Lookup(gvk); !ok {
			t.Errorf("%v missing", gvk)
		}
	}
	// A root of only {type: object} gets apiVersion, kind and metadata, as
	// on the API server, and so declares nothing else: the server prunes
	// any other field, and an apply that sends one fails typed conversion.
	a := mustLookup(t, r, "x.example.com/v1", "A")
	if _, err := a.Parseable.FromUnstructured(map[string]any{"metadata": map[string]any{"name": "a"}}); err != nil {
		t.Errorf("metadata: %v", err)
	}
	if _, err := a.Parseable.FromUnstructured(map[string]any{"spec": map[string]any{}}); err == nil || !strings.Contains(err.Error(), "not declared") {
		t.Errorf("undeclared spec: %v", err)
	}

	// AddCRDObject takes a decoded object (ints as Go ints too).
	r2 := MustNewRegistry(kube.Default())
	obj := fromYAML(t, pg)
	if err := r2.AddCRDObject("inputs.yaml", obj); err != nil {
		t.Fatal(err)
	}
	if typ := mustLookup(t, r2, "db.example.com/v1", "PostgresCluster"); typ.Origin != "inputs.yaml: postgresclusters.db.example.com" {
		t.Errorf("origin %q", typ.Origin)
	}
}

// TestCRDReplacesKnownKinds: a CRD replaces an earlier definition.
func TestCRDReplacesKnownKinds(t *testing.T) {
	r := loadPostgres(t)
	err := r.AddCRD("new.yaml", []byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: postgresclusters.db.example.com}
spec:
  group: db.example.com
  scope: Cluster
  names: {plural: postgresclusters, kind: PostgresCluster}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	typ := mustLookup(t, r, "db.example.com/v1", "PostgresCluster")
	if typ.Namespaced || typ.Status || !strings.HasPrefix(typ.Origin, "new.yaml") {
		t.Errorf("not replaced: %+v", typ)
	}
	// The new definition is the whole truth: a version it does not list is gone (the
	// server serves it no more, and drops managedFields entries recorded at it).
	if _, ok := r.Lookup(GVK{"db.example.com", "v1beta1", "PostgresCluster"}); ok {
		t.Error("v1beta1 kept although the new definition does not list it")
	}
	if got := r.Serving(GVK{"db.example.com", "v1beta1", "PostgresCluster"}); got != NotServed {
		t.Errorf("v1beta1 of a known CRD group: %v, want NotServed", got)
	}
	// A third definition, from the same file, replaces the second.
	if err := r.AddCRD("new.yaml", []byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: postgresclusters.db.example.com}
spec:
  group: db.example.com
  scope: Cluster
  names: {plural: postgresclusters, kind: PostgresCluster}
  versions:
  - {name: v2, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`)); err != nil {
		t.Fatal(err)
	}
	if got := r.Versions("db.example.com", "PostgresCluster"); len(got) != 1 || got[0].Version != "v2" {
		t.Errorf("versions after a third definition: %v", got)
	}
}

func TestCRDErrors(t *testing.T) {
	const head = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
`
	for _, tc := range []struct {
		name, spec string
		want       []string // each must appear in the message
	}{
		{"bad type", "              a: {type: objekt}",
			[]string{"crds.yaml:19: widgets.example.com: spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.a.type: unsupported value \"objekt\""}},
		{"array without items", "              a: {type: array}",
			[]string{"properties.spec.properties.a.items: must be specified"}},
		{"unknown list type", "              a: {type: array, items: {type: string}, x-kubernetes-list-type: bag}",
			[]string{"properties.spec.properties.a.x-kubernetes-list-type: unsupported value \"bag\""}},
		{"map list without keys", "              a: {type: array, items: {type: object}, x-kubernetes-list-type: map}",
			[]string{"properties.spec.properties.a.x-kubernetes-list-map-keys: must not be empty"}},
		{"key not a property", "              a: {type: array, items: {type: object, properties: {n: {type: string}}}, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [name]}",
			[]string{`entries must all be names of item properties: "name" is not`}},
		{"keys without map list", "              a: {type: array, items: {type: object, properties: {k: {type: string}}}, x-kubernetes-list-map-keys: [k]}",
			[]string{"a.x-kubernetes-list-type: must be map if x-kubernetes-list-map-keys is non-empty"}},
		{"bad map type", "              a: {type: object, x-kubernetes-map-type: sometimes}",
			[]string{"a.x-kubernetes-map-type: unsupported value \"sometimes\""}},
		{"map type on a string", "              a: {type: string, x-kubernetes-map-type: atomic}",
			[]string{"a.type: must be object if x-kubernetes-map-type is specified"}},
		{"missing type", "              a: {description: what}",
			[]string{"a.type: must not be empty for specified object fields"}},
		{"tuple items", "              a: {type: array, items: [{type: string}]}",
			[]string{"a.items: must be a single schema"}},
		{"ref", "              a: {$ref: '#/definitions/x'}",
			[]string{"a.$ref: $ref is not supported"}},
		{"properties and additionalProperties", "              a: {type: object, properties: {b: {type: string}}, additionalProperties: {type: string}}",
			[]string{"a.additionalProperties: additionalProperties and properties are mutual exclusive"}},
		{"embedded not an object", "              a: {type: string, x-kubernetes-embedded-resource: true}",
			[]string{"a.type: must be object if x-kubernetes-embedded-resource is true"}},
		{"int-or-string and preserve", "              a: {x-kubernetes-int-or-string: true, x-kubernetes-preserve-unknown-fields: true}",
			[]string{"a.x-kubernetes-preserve-unknown-fields: must be false if x-kubernetes-int-or-string is true"}},
		{"preserve false", "              a: {type: object, x-kubernetes-preserve-unknown-fields: false}",
			[]string{"a.x-kubernetes-preserve-unknown-fields: must be true or undefined"}},
		{"odd property name", "              app.kubernetes.io/name: {type: strin}",
			[]string{`properties.spec.properties["app.kubernetes.io/name"].type`}},
		{"two problems", "              a: {type: array}\n              b: {type: wrong}",
			[]string{"crds.yaml:19: widgets.example.com: spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.a.items: must be specified",
				"crds.yaml:20: widgets.example.com: spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.b.type: unsupported value"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := MustNewRegistry(kube.Default()).AddCRD("crds.yaml", []byte(head+tc.spec+"\n"))
			if err == nil {
				t.Fatal("no error")
			}
			var se *Error
			if !errors.As(err, &se) || se.Origin != "crds.yaml" || se.Object != "widgets.example.com" {
				t.Errorf("not a *Error naming the file and the CRD: %#v", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\nlacks %q", err, w)
				}
			}
		})
	}

	for _, tc := range []struct{ name, doc, want string }{
		{"not YAML", "a: [", "crds.yaml: invalid YAML"},
		{"not an object", "- a\n- b\n", "crds.yaml: the document is a list, not an object"},
		{"not a CRD", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n", `crds.yaml: x: not a CustomResourceDefinition (apiVersion "v1", kind "ConfigMap")`},
		{"v1beta1", "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: {name: x.y}\n", "crds.yaml:1: x.y: apiVersion: apiextensions.k8s.io/v1beta1 is not served since Kubernetes 1.22"},
		{"no group", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: x.y}\nspec: {names: {plural: x, kind: X}}\n", "crds.yaml:4: x.y: spec.group: required"},
		{"bad scope", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: x.y}\nspec: {group: z.example.com, scope: Global, names: {plural: x, kind: X}, versions: [{name: v1}]}\n", `spec.scope: unsupported value "Global"`},
		{"no versions", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: x.y}\nspec: {group: z.example.com, scope: Cluster, names: {plural: x, kind: X}}\n", "spec.versions: must have at least one version"},
		{"scale without paths", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: x.y}\nspec: {group: z.example.com, scope: Cluster, names: {plural: x, kind: X}, versions: [{name: v1, subresources: {scale: {}}}]}\n", "spec.versions[0].subresources.scale.specReplicasPath: required"},
		{"line in the second document", "# two documents\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: x.y}\nspec: {group: z.example.com, scope: Cluster, names: {plural: x, kind: X}, versions: [{name: v1}]}\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.b}\nspec:\n  group: z.example.com\n  names: {plural: a, kind: A}\n  scope: Clusterish\n", `crds.yaml:14: a.b: spec.scope: unsupported value "Clusterish"`},
		{"line in a List item", "kind: List\nitems:\n- apiVersion: apiextensions.k8s.io/v1\n  kind: CustomResourceDefinition\n  metadata: {name: x.y}\n  spec: {group: z.example.com, scope: Cluster, names: {plural: x, kind: X}, versions: [{name: v1}]}\n- apiVersion: apiextensions.k8s.io/v1\n  kind: CustomResourceDefinition\n  metadata: {name: a.b}\n  spec:\n    group: z.example.com\n    scope: Cluster\n    names: {plural: a, kind: A}\n    versions:\n    - name: v1\n      schema:\n        openAPIV3Schema:\n          type: array\n", `crds.yaml:18: a.b: spec.versions[0].schema.openAPIV3Schema.type: must be object at the root`},
		{"JSON", "{\"apiVersion\": \"apiextensions.k8s.io/v1\",\n \"kind\": \"CustomResourceDefinition\",\n \"metadata\": {\"name\": \"x.y\"},\n \"spec\": {\"group\": 5}}", `crds.yaml:4: x.y: spec.group: must be a string, not a number`},
		{"second document", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: x.y}\nspec: {group: z.example.com, scope: Cluster, names: {plural: x, kind: X}, versions: [{name: v1}]}\n---\nkind: Nope\n", "crds.yaml: document 2: not a CustomResourceDefinition"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := MustNewRegistry(kube.Default()).AddCRD("crds.yaml", []byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}

	// Nothing is added when one document fails.
	r := MustNewRegistry(kube.Default())
	pg := readTestdata(t, "crds/postgresclusters.yaml")
	if err := r.AddCRD("crds.yaml", append(append(pg, "\n---\n"...), "kind: Nope\n"...)); err == nil {
		t.Fatal("no error")
	}
	if _, ok := r.Lookup(GVK{"db.example.com", "v1", "PostgresCluster"}); ok {
		t.Error("partially added")
	}
}

func FuzzAddCRD(f *testing.F) {
	f.Add(readTestdata(f, "crds/postgresclusters.yaml"))
	f.Add([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b"},"spec":{"group":"b","scope":"Namespaced","names":{"plural":"a","kind":"A"},"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","properties":{"k":{"type":"string","default":"x"}}}}}}}}]}}`))
	f.Add([]byte("---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {versions: [{}]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := MustNewRegistry(kube.Default())
		before := len(r.GVKs())
		err := r.AddCRD("fuzz.yaml", data)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error is not a *Error: %v", err)
			}
			if len(r.GVKs()) != before {
				t.Fatal("failed AddCRD changed the registry")
			}
			return
		}
		// Every added type resolves, converts its own empty object and
		// defaults it without panicking.
		for _, gvk := range r.GVKs() {
			typ, _ := r.Lookup(gvk)
			if typ.Source != SourceCRD {
				continue
			}
			obj := map[string]any{"apiVersion": gvk.APIVersion(), "kind": gvk.Kind}
			if typ.Default != nil {
				typ.Default(obj)
			}
			if !typ.Parseable.IsValid() {
				t.Fatalf("%v: type does not resolve", gvk)
			}
			_, _ = typ.Parseable.FromUnstructured(obj)
		}
	})
}
