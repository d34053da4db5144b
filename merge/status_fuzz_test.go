package merge

import (
	"encoding/json"
	"reflect"
	"testing"
)

// statusByEncodingJSON is StatusError.Status as encoding/json writes the server's Status
// body: the reference the hand-written writer is held to.
func statusByEncodingJSON(e *StatusError) json.RawMessage {
	if e.PlainText {
		return nil
	}
	type status struct {
		Kind       string         `json:"kind"`
		APIVersion string         `json:"apiVersion"`
		Metadata   struct{}       `json:"metadata"`
		Status     string         `json:"status"`
		Message    string         `json:"message,omitempty"`
		Reason     string         `json:"reason,omitempty"`
		Details    *StatusDetails `json:"details,omitempty"`
		Code       int            `json:"code"`
	}
	b, err := json.Marshal(status{Kind: "Status", APIVersion: "v1", Status: "Failure",
		Message: e.Message, Reason: e.Reason, Details: e.Details, Code: e.Code})
	if err != nil {
		panic(err)
	}
	return b
}

// FuzzStatusIsEncodingJSON holds StatusError.Status to encoding/json: every field empty or
// not, details absent, empty or with causes (none, empty ones, several), strings with HTML,
// control and non-ASCII characters, invalid UTF-8, U+2028, negative and large codes.
func FuzzStatusIsEncodingJSON(f *testing.F) {
	f.Add(422, "Invalid", `Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be >= 0`, "web", "apps", "Deployment", "FieldValueInvalid", "must be >= 0 & <x>", "spec.replicas", uint8(0xff), false)
	f.Add(409, "Conflict", "Apply failed with 1 conflict: conflict with \"kubectl\"", "", "", "", "", "", "", uint8(0x03), false)
	f.Add(0, "", "", "", "", "", "", "", "", uint8(0), false)
	f.Add(-1, "\x00\xff\u2028", "é\U0001F600\t\"\\", "\xc3", "a", "", "", "\u2029", "", uint8(0x1c), false)
	f.Add(404, "NotFound", "404 page not found", "", "", "", "", "", "", uint8(0), true)
	f.Fuzz(func(t *testing.T, code int, reason, message, name, group, kind, causeReason, causeMessage, causeField string, shape uint8, plain bool) {
		e := &StatusError{Code: code, Reason: reason, Message: message, PlainText: plain}
		if shape&1 != 0 { // details
			e.Details = &StatusDetails{Name: name, Group: group, Kind: kind}
			switch shape >> 1 & 3 {
			case 1:
				e.Details.Causes = []StatusCause{}
			case 2:
				e.Details.Causes = []StatusCause{{Reason: causeReason, Message: causeMessage, Field: causeField}}
			case 3:
				e.Details.Causes = []StatusCause{{}, {Reason: causeReason}, {Message: causeMessage}, {Field: causeField}, {Reason: causeReason, Field: causeField}}
			}
		}
		want := statusByEncodingJSON(e)
		if got := e.Status(); string(got) != string(want) || (got == nil) != (want == nil) {
			t.Fatalf("Status() = %s\nencoding/json writes %s", got, want)
		}
	})
}

// TestStatusWritesEveryDetail fills every field of StatusDetails and StatusCause by
// reflection, so that a field added to either and not to Status's writer fails here (the
// fuzz target fills only the fields it names).
func TestStatusWritesEveryDetail(t *testing.T) {
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			v.SetString("<" + v.Type().Name() + ">")
		case reflect.Int, reflect.Int32, reflect.Int64:
			v.SetInt(7)
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Struct:
			for i := range v.NumField() {
				fill(v.Field(i))
			}
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
			for i := range v.Len() {
				fill(v.Index(i))
			}
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem())
		default:
			t.Fatalf("a %s in StatusDetails: fill it here and write it in Status", v.Type())
		}
	}
	e := &StatusError{Code: 422, Reason: "Invalid", Message: "m", Details: &StatusDetails{}}
	fill(reflect.ValueOf(e.Details).Elem())
	if got, want := e.Status(), statusByEncodingJSON(e); string(got) != string(want) {
		t.Fatalf("Status() = %s\nencoding/json writes %s", got, want)
	}
}
