package schema

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
)

// postgresObject is a realistic PostgresCluster that exercises keyed
// lists, sets, atomic values, embedded resources and defaults.
const postgresObject = `
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
  tablespaces:
    fast: {}
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
    wal: {level: replica}
    archive: [s3, gcs]
`

// TestOpenAPIV3MatchesCRD loads the OpenAPI v3 document the API server's
// own builder publishes for the test CRD (testdata/openapi, written by
// schema/gen/testdocs) and checks that it gives the same ownership and the
// same defaults as the CRD itself.
func TestOpenAPIV3MatchesCRD(t *testing.T) {
	fromCRD := mustLookup(t, loadPostgres(t), "db.example.com/v1", "PostgresCluster")

	r := MustNewRegistry(kube.Default())
	warnings, err := r.AddOpenAPI("v3-apis-db.example.com-v1.json", readTestdata(t, "openapi/v3-apis-db.example.com-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings %v", warnings)
	}
	fromDoc := mustLookup(t, r, "db.example.com/v1", "PostgresCluster")
	if fromDoc.Source != SourceOpenAPIV3 || fromDoc.Origin != "v3-apis-db.example.com-v1.json" {
		t.Errorf("source %s origin %s", fromDoc.Source, fromDoc.Origin)
	}
	// Resource facts from the document's paths.
	if fromDoc.Resource != "postgresclusters" || !fromDoc.Namespaced || !fromDoc.Status || fromDoc.Scale == nil {
		t.Errorf("from paths: %s namespaced=%v status=%v scale=%v", fromDoc.Resource, fromDoc.Namespaced, fromDoc.Status, fromDoc.Scale)
	}
	if _, ok := r.Lookup(GVK{"db.example.com", "v1", "PostgresClusterList"}); !ok {
		t.Error("the list kind is not indexed")
	}
	// meta.k8s.io types (Status, DeleteOptions) are not kinds anyone applies.
	if _, ok := r.Lookup(GVK{"", "v1", "Status"}); ok {
		t.Error("the Status type was indexed")
	}

	objCRD, objDoc := fromYAML(t, postgresObject), fromYAML(t, postgresObject)
	fromCRD.Default(objCRD)
	fromDoc.Default(objDoc)
	if !reflect.DeepEqual(objCRD, objDoc) {
		t.Errorf("defaults differ:\nCRD %s\ndoc %s", toJSONString(objCRD), toJSONString(objDoc))
	}
	setOf := func(typ *Type, obj map[string]any) []string {
		tv, err := typ.Parseable.FromUnstructured(obj)
		if err != nil {
			t.Fatalf("%s: %v", typ.Source, err)
		}
		s, err := tv.ToFieldSet()
		if err != nil {
			t.Fatal(err)
		}
		return fieldSetPaths(s)
	}
	a, b := setOf(fromCRD, objCRD), setOf(fromDoc, objDoc)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("field sets differ:\nCRD %v\ndoc %v", a, b)
	}
	if !slices.Contains(b, `.spec.ports[port=5432,protocol="TCP"]`) {
		t.Errorf("the key default is lost: %v", b)
	}

	// Loaded after the CRD, the document keeps what only the CRD knows.
	both := loadPostgres(t)
	if _, err := both.AddOpenAPI("doc.json", readTestdata(t, "openapi/v3-apis-db.example.com-v1.json")); err != nil {
		t.Fatal(err)
	}
	typ := mustLookup(t, both, "db.example.com/v1", "PostgresCluster")
	if typ.Source != SourceOpenAPIV3 || typ.Scale == nil || typ.Scale.SpecReplicasPath != ".spec.instances" {
		t.Errorf("after CRD and document: %s scale %+v", typ.Source, typ.Scale)
	}
}

// TestOpenAPIV2 loads the v2 document the builder publishes for the CRD.
// It works and warns (the cluster's v2 document has no defaults for the
// built-in types; the CRD part keeps its key defaults).
func TestOpenAPIV2(t *testing.T) {
	r := MustNewRegistry(kube.Default())
	warnings, err := r.AddOpenAPI("openapi-v2.json", readTestdata(t, "openapi/v2-db.example.com-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "openapi-v2.json: OpenAPI v2 carries no default values for built-in types") {
		t.Errorf("warnings %v", warnings)
	}
	typ := mustLookup(t, r, "db.example.com/v1", "PostgresCluster")
	if typ.Source != SourceOpenAPIV2 || typ.Default != nil || typ.Resource != "postgresclusters" || !typ.Status {
		t.Errorf("%+v", typ)
	}
	obj := fromYAML(t, `{apiVersion: db.example.com/v1, kind: PostgresCluster, spec: {ports: [{port: 5432}]}}`)
	tv, err := typ.Parseable.FromUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := tv.ToFieldSet()
	if got := fieldSetPaths(s); !slices.Contains(got, `.spec.ports[port=5432,protocol="TCP"]`) {
		t.Errorf("field set %v", got)
	}
}

// TestOpenAPIReplacesBuiltin: a v3 document's type replaces the embedded
// one; the resource facts come from its paths.
func TestOpenAPIReplacesBuiltin(t *testing.T) {
	r := MustNewRegistry(kube.Default())
	svcObj := fromYAML(t, `
apiVersion: v1
kind: Service
metadata: {name: web, labels: {app: web}, finalizers: [a]}
spec:
  clusterIPs: [10.0.0.1]
  selector: {app: web}
  ports: [{port: 80, targetPort: http}]
`)
	embedded := mustLookup(t, r, "v1", "Service")
	if _, err := embedded.Parseable.FromUnstructured(svcObj); err != nil {
		t.Fatal(err)
	}
	warnings, err := r.AddOpenAPI("services.yaml", readTestdata(t, "openapi/v3-api-v1-services.yaml"))
	if err != nil || len(warnings) != 0 {
		t.Fatal(err, warnings)
	}
	svc := mustLookup(t, r, "v1", "Service")
	if svc.Source != SourceOpenAPIV3 || svc.Resource != "services" || !svc.Namespaced || !svc.Status || svc.Scale != nil || svc.Default != nil {
		t.Errorf("%+v", svc)
	}
	// The document's Service has no clusterIPs: its schema is in use.
	if _, err := svc.Parseable.FromUnstructured(svcObj); err == nil || !strings.Contains(err.Error(), "clusterIPs") {
		t.Errorf("document schema not in use: %v", err)
	}
	delete(svcObj["spec"].(map[string]any), "clusterIPs")
	tv, err := svc.Parseable.FromUnstructured(svcObj)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := tv.ToFieldSet()
	got := fieldSetPaths(s)
	for _, want := range []string{`.spec.ports[port=80,protocol="TCP"].targetPort`, `.spec.selector`, `.metadata.finalizers[="a"]`, `.metadata.labels.app`} {
		if !slices.Contains(got, want) {
			t.Errorf("field set lacks %s: %v", want, got)
		}
	}
	// Kinds the document does not define stay embedded.
	if typ := mustLookup(t, r, "v1", "Pod"); typ.Source != SourceBuiltin {
		t.Errorf("Pod: %s", typ.Source)
	}
	// ServiceProxyOptions appears only on a connect path: no kind.
	if _, ok := r.Lookup(GVK{"", "v1", "ServiceProxyOptions"}); ok {
		t.Error("ServiceProxyOptions indexed")
	}
}

func TestOpenAPIErrors(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"empty", "", "doc.json: empty document"},
		{"not JSON", "{", "doc.json: not an OpenAPI document"},
		{"not YAML", "a: [", "doc.json: invalid YAML"},
		{"other document", `{"kind": "ConfigMap"}`, `doc.json: not an OpenAPI document: neither "openapi": "3.x" nor "swagger": "2.0"`},
		{"no schemas", `{"openapi": "3.0.0", "paths": {}}`, "doc.json: components.schemas: no schemas"},
		{"bad list type", `{"openapi": "3.0.0", "components": {"schemas": {"io.example.v1.Thing": {"type": "object", "properties": {"l": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "bag"}}}}}}`,
			"doc.json: components.schemas: converting to structured-merge-diff types: inlined in io.example.v1.Thing: unknown list type bag"},
		{"v2 bad map type", `{"swagger": "2.0", "definitions": {"io.example.v1.Thing": {"type": "object", "x-kubernetes-map-type": "odd"}}}`,
			"doc.json: definitions: converting to structured-merge-diff types: io.example.v1.Thing: unknown map type odd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := MustNewRegistry(kube.Default()).AddOpenAPI("doc.json", []byte(tc.doc))
			var se *Error
			if err == nil || !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	// A document without kinds loads with a warning.
	warnings, err := MustNewRegistry(kube.Default()).AddOpenAPI("doc.json", []byte(`{"openapi": "3.0.0", "components": {"schemas": {"io.example.v1.Thing": {"type": "object"}}}}`))
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "no kinds added") {
		t.Errorf("%v %v", err, warnings)
	}
}
