package fieldpath

import (
	"reflect"
	"testing"

	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// The Knowing encoders give what the plain ones give when the known texts are the
// writer's own, take a known text rather than writing the set, and vouch for a set whose
// text is known without walking it.
func TestEncodeDecodedKnowing(t *testing.T) {
	entries := []Entry{
		{Manager: "ci", Operation: OperationApply, APIVersion: "apps/v1", FieldsType: FieldsTypeV1,
			FieldsV1: []byte(`{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"a\"}":{".":{},"f:ports":{"k:{\"containerPort\":443,\"protocol\":\"TCP\"}":{".":{}},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{}}}}}}}}}`)},
		{Manager: "edit", Operation: OperationUpdate, APIVersion: "apps/v1", FieldsType: FieldsTypeV1, FieldsV1: []byte(`{"f:spec":{"f:replicas":{}}}`)},
	}
	m, err := Decode(entries)
	if err != nil {
		t.Fatal(err)
	}
	var ci, edit *smdpath.Set
	for k, vs := range m.Fields {
		if m.Ref(k).Manager == "ci" {
			ci = vs.Set()
		} else {
			edit = vs.Set()
		}
	}
	for _, o := range []Order{OrderBytes, OrderElements} {
		for _, tx := range []Text{TextJSONIter, TextJSONv2} {
			want, wantDecoded, wantOK, err := m.EncodeDecodedTextAs(tx, o)
			if err != nil || !wantOK {
				t.Fatal(err, wantOK)
			}
			own := map[*smdpath.Set][]byte{}
			for i, e := range want {
				own[[]*smdpath.Set{ci, edit}[i]] = e.FieldsV1 // Apply sorts first
			}
			known := func(s *smdpath.Set) ([]byte, bool) { raw, ok := own[s]; return raw, ok }
			got, decoded, ok, err := m.EncodeDecodedTextAsKnowing(tx, o, known)
			if err != nil || !ok || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(decoded, wantDecoded) {
				t.Errorf("%v %v: knowing its own texts %s, %v, %v", tx, o, got, ok, err)
			}
			got, _, _, _ = m.EncodeDecodedTextAsKnowing(tx, o, nil)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%v %v: knowing nothing %s", tx, o, got)
			}
			wantTrees, _, _, _ := m.EncodeDecodedAs(tx)
			gotTrees, _, ok, _ := m.EncodeDecodedAsKnowing(tx, nil)
			if !ok || !reflect.DeepEqual(gotTrees, wantTrees) {
				t.Errorf("%v: trees knowing nothing %s", tx, gotTrees)
			}
		}
	}
	// A known text is taken as it is (here one that is not the set's: the caller vouches).
	marker := []byte(`{"f:known":{}}`)
	got, _, ok, err := m.EncodeDecodedTextAsKnowing(TextJSONIter, OrderElements, func(s *smdpath.Set) ([]byte, bool) { return marker, s == edit })
	if err != nil || !ok || string(got[1].FieldsV1) != string(marker) || string(got[0].FieldsV1) == string(marker) {
		t.Errorf("the known text is not taken: %s, %v, %v", got, ok, err)
	}
	// A set that does not read back from its text (an integer past a million) is vouched
	// for only when its text is known.
	big := Managed{Fields: smdpath.ManagedFields{`{"manager":"ci","operation":"Apply"}`: smdpath.NewVersionedSet(
		smdpath.NewSet(smdpath.MakePathOrDie("spec", "ports", smdpath.KeyByFields("port", int64(1_000_000)))), "v1", true)}}
	bigEntries := []Entry{{FieldsV1: []byte(`{"f:spec":{"f:ports":{"k:{\"port\":1000000}":{}}}}`)}}
	if _, _, ok, _ := big.EncodeDecodedTextAsKnowing(TextJSONIter, OrderElements, nil); ok {
		t.Errorf("a set past a million vouched for")
	}
	if _, _, ok, _ := big.EncodeDecodedTextAsKnowing(TextJSONIter, OrderElements, func(*smdpath.Set) ([]byte, bool) { return bigEntries[0].FieldsV1, true }); !ok {
		t.Errorf("a known set not vouched for")
	}
}
