package appliers

import (
	"reflect"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// TestUpgradeManagedFieldsOfSameAsDecoding holds the migration made from a result's
// decoded field sets (kubectl's sequence) to the one that decodes each entry again, on the
// entries of a client-side-applied object after kubectl's first server-side apply, for
// several names and appliers, and checks the result's own sets are left as they were.
func TestUpgradeManagedFieldsOfSameAsDecoding(t *testing.T) {
	e := merge.New(schema.MustNewRegistry(kube.Default()), kubeapiserver.MustNew(kubeapiserver.Config{Minor: kube.Default()}))
	live := objFromYAML(t, `
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
  uid: 6d1b7a52-0000-4000-8000-000000000002
  resourceVersion: "3"
  creationTimestamp: "2026-12-01T09:00:00Z"
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"v1","data":{"mode":"fast","old":"x"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"settings","namespace":"shop"}}'
  managedFields:
  - {manager: kubectl-client-side-apply, operation: Update, apiVersion: v1, time: "2026-12-01T09:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:data": {".": {}, "f:mode": {}, "f:old": {}}, "f:metadata": {"f:annotations": {".": {}, "f:kubectl.kubernetes.io/last-applied-configuration": {}}}}}
  - {manager: before-first-apply, operation: Update, apiVersion: v1, time: "2026-12-01T08:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:data": {"f:extra": {}}}}
  - {manager: editor, operation: Update, apiVersion: v1, time: "2026-12-01T10:00:00Z", fieldsType: FieldsV1,
     fieldsV1: {"f:data": {"f:mode": {}}}}
data: {mode: fast, old: x, extra: "y"}
`)
	manifest := objFromYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\ndata: {mode: fast, other: z}\n")
	res, err := e.Apply(merge.Request{Live: live, Object: manifest, Manager: merge.KubectlManager, Now: time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)})
	if err != nil || res.Object == nil {
		t.Fatalf("apply: %v, %+v", err, res.Rejection)
	}
	entries, _, err := fieldpath.EntriesOf(res.Object)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := decodedEach(res, entries); !ok {
		t.Fatal("the result holds no decoded sets for its entries: the test compares nothing")
	}
	before := fieldpath.Managed{}
	if m, ok := res.ManagedFieldsDecoded(entries); ok {
		before = m
	}
	sets := map[string]string{}
	for k, vs := range before.Fields {
		sets[k] = vs.Set().String()
	}
	for _, c := range []struct {
		names   []string
		applier string
	}{
		{[]string{KubectlClientSideApplyManager}, merge.KubectlManager},
		{[]string{"before-first-apply", KubectlClientSideApplyManager, "editor"}, merge.KubectlManager},
		{[]string{KubectlClientSideApplyManager}, "nobody-yet"},
		{[]string{"editor", KubectlClientSideApplyManager}, "nobody-yet"},
		{[]string{"absent"}, merge.KubectlManager},
		{nil, merge.KubectlManager},
	} {
		got := upgradeManagedFieldsOf(res, entries, c.names, c.applier)
		want := upgradeManagedFields(entries, c.names, c.applier)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v as %s:\n got %+v\nwant %+v", c.names, c.applier, got, want)
		}
	}
	for k, vs := range before.Fields {
		if s := vs.Set().String(); s != sets[k] {
			t.Errorf("the result's set of %s changed: %s, was %s", k, s, sets[k])
		}
	}
}
