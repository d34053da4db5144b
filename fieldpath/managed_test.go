package fieldpath

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
)

func mustTime(s string) *time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return &t
}

// rules.md owner.key: identity keys.
func TestManagerKey(t *testing.T) {
	for _, tc := range []struct {
		e    Entry
		want string
	}{
		{Entry{Manager: "m", Operation: OperationUpdate, APIVersion: "apps/v1"}, `{"manager":"m","operation":"Update","apiVersion":"apps/v1"}`},
		{Entry{Manager: "m", Operation: OperationApply, APIVersion: "apps/v1"}, `{"manager":"m","operation":"Apply"}`},
		{Entry{Manager: "m", Operation: OperationApply, APIVersion: "v1", Subresource: "status"}, `{"manager":"m","operation":"Apply","subresource":"status"}`},
		{Entry{Manager: "m", Operation: OperationUpdate, APIVersion: "v1", Time: mustTime("2026-01-01T00:00:00Z"), FieldsType: "FieldsV1"}, `{"manager":"m","operation":"Update","apiVersion":"v1"}`},
	} {
		if got := ManagerKey(tc.e); got != tc.want {
			t.Errorf("ManagerKey(%+v) = %s, want %s", tc.e, got, tc.want)
		}
	}
}

// rules.md conflict.manager-text: how conflicts name managers.
func TestManagerRefString(t *testing.T) {
	for _, tc := range []struct {
		r    ManagerRef
		want string
	}{
		{ManagerRef{Manager: "u1", Operation: OperationUpdate, APIVersion: "apps/v1"}, `"u1" using apps/v1`},
		{ManagerRef{Manager: "kubelet", Operation: OperationUpdate, APIVersion: "v1", Subresource: "status"}, `"kubelet" with subresource "status" using v1`},
		{ManagerRef{Manager: "zeta", Operation: OperationApply, APIVersion: "v1"}, `"zeta"`},
		{ManagerRef{Manager: "before-first-apply", Operation: OperationUpdate, APIVersion: "apps/v1", Subresource: "status"}, `"before-first-apply" with subresource "status" using apps/v1`},
	} {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("%+v.String() = %s, want %s", tc.r, got, tc.want)
		}
	}
}

// rules.md supplied.invalid-ignored, request.corrupt-entries: the decoding errors the server gives.
func TestDecodeErrors(t *testing.T) {
	fields := json.RawMessage(`{"f:data":{}}`)
	for _, tc := range []struct {
		name string
		e    Entry
		want string
	}{
		{"bad operation", Entry{Manager: "m", Operation: "Patch", APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: fields}, "operation must be `Apply` or `Update`"},
		{"no apiVersion", Entry{Manager: "m", Operation: OperationUpdate, FieldsType: "FieldsV1", FieldsV1: fields}, "apiVersion must not be empty"},
		{"no fieldsType", Entry{Manager: "m", Operation: OperationUpdate, APIVersion: "v1", FieldsV1: fields}, "missing fieldsType in managed fields entry 0"},
		{"other fieldsType", Entry{Manager: "m", Operation: OperationUpdate, APIVersion: "v1", FieldsType: "FieldsV2", FieldsV1: fields}, `invalid fieldsType "FieldsV2" in managed fields entry 0`},
		{"corrupt fields", Entry{Manager: "m", Operation: OperationUpdate, APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: json.RawMessage(`{"k:notjson":{}}`)}, "error decoding versioned set"},
		{"trailing data", Entry{Manager: "m", Operation: OperationUpdate, APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: json.RawMessage(`{"f:data":{}}{}`)}, "error decoding versioned set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]Entry{tc.e})
			var de *DecodeError
			if !errors.As(err, &de) || de.Index != 0 {
				t.Fatalf("Decode: %v, want a *DecodeError at 0", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

// rules.md owner.duplicate-entries: a later entry with the same identity wins.
func TestDecodeDuplicateIdentityLastWins(t *testing.T) {
	m, err := Decode([]Entry{
		{Manager: "m", Operation: OperationApply, APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: json.RawMessage(`{"f:data":{"f:a":{}}}`)},
		{Manager: "m", Operation: OperationApply, APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: json.RawMessage(`{"f:data":{"f:b":{}}}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Fields) != 1 {
		t.Fatalf("%d entries, want 1", len(m.Fields))
	}
	s := m.Fields[`{"manager":"m","operation":"Apply"}`].Set()
	if !s.Has(smdpath.MakePathOrDie("data", "b")) || s.Has(smdpath.MakePathOrDie("data", "a")) {
		t.Errorf("set %v, want only .data.b", s)
	}
}

// rules.md encode.order: entries sort by operation, time, manager, apiVersion, subresource.
func TestSortEntries(t *testing.T) {
	es := []Entry{
		{Manager: "c", Operation: OperationUpdate, APIVersion: "v1", Time: mustTime("2001-01-01T00:00:02Z")},
		{Manager: "c", Operation: OperationUpdate, APIVersion: "v1", Time: mustTime("2001-01-01T00:00:01Z")},
		{Manager: "b", Operation: OperationApply, APIVersion: "v1"},
		{Manager: "a", Operation: OperationApply, APIVersion: "v1"},
		{Manager: "a", Operation: OperationUpdate, APIVersion: "v1", Subresource: "status", Time: mustTime("2001-01-01T00:00:01Z")},
	}
	SortEntries(es)
	var got []string
	for _, e := range es {
		got = append(got, e.Manager+"/"+string(e.Operation)+"/"+e.Subresource)
	}
	want := "a/Apply/ b/Apply/ a/Update/status c/Update/ c/Update/"
	if strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
}

// Every managedFields list the real server wrote decodes and encodes back to the same bytes
// (entry order, field order, fieldsV1 layout, time format).
func TestRoundTripRecordedManagedFields(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testkit.RecordedDir(t), "*", "*.json"))
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var obj struct {
			Metadata struct {
				ManagedFields json.RawMessage `json:"managedFields"`
			} `json:"metadata"`
		}
		if json.Unmarshal(b, &obj) != nil || len(obj.Metadata.ManagedFields) == 0 {
			continue
		}
		var entries []Entry
		if err := json.Unmarshal(obj.Metadata.ManagedFields, &entries); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		m, err := Decode(entries)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out, err := m.Encode()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(out)
		var want bytes.Buffer
		if err := json.Compact(&want, obj.Metadata.ManagedFields); err != nil {
			t.Fatal(err)
		}
		// Built-in kinds are encoded from Go structs (field order as in the API); custom
		// resources from maps (keys sorted). The entries and their order match either way.
		if bytes.HasPrefix(want.Bytes(), []byte(`[{"manager"`)) {
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("%s:\n got %s\nwant %s", f, got, want.Bytes())
			}
		} else {
			var g, w any
			_ = json.Unmarshal(got, &g)
			_ = json.Unmarshal(want.Bytes(), &w)
			if !reflect.DeepEqual(g, w) {
				t.Errorf("%s:\n got %s\nwant %s", f, got, want.Bytes())
			}
		}
		n++
	}
	t.Logf("%d recorded managedFields lists round-tripped", n)
}

func TestParseManagerKeyRoundTrip(t *testing.T) {
	e := Entry{Manager: "hpa", Operation: OperationUpdate, APIVersion: "apps/v1", Subresource: "scale"}
	ref, err := ParseManagerKey(ManagerKey(e))
	if err != nil {
		t.Fatal(err)
	}
	if ref.Manager != "hpa" || ref.Operation != OperationUpdate || ref.APIVersion != "apps/v1" || ref.Subresource != "scale" {
		t.Errorf("ParseManagerKey = %+v", ref)
	}
}

func TestEntryTimeUTC(t *testing.T) {
	var e Entry
	if err := json.Unmarshal([]byte(`{"manager":"m","operation":"Update","apiVersion":"v1","time":"2026-12-02T10:36:20+01:00","fieldsType":"FieldsV1","fieldsV1":{}}`), &e); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(e)
	if !strings.Contains(string(b), `"time":"2026-12-02T09:36:20Z"`) {
		t.Errorf("marshal %s: time not in UTC", b)
	}
}
