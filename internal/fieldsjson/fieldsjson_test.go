package fieldsjson

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
)

// unstructuredCases are JSON texts whose decoded form AppendJSON must write back, and
// DecodeJSON must read, exactly as encoding/json does.
var unstructuredCases = []string{
	`{}`, `{"f:data":{".":{},"f:a":{}}}`,
	`{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}}}}`,
	`{"f:metadata":{"f:annotations":{"f:a<b>&c":{}},"f:labels":{"f:é":{}, "f:\u2028":{}}}}`,
	`{"b":{},"a":{},"a":{"x":{}}}`,
	`{"f:a":1}`, `{"f:a":[1,2.5,"x",true,null,{"k":"v"}]}`, `[]`, `"s"`, `null`, `12345678901234567890`,
	` { "f:a" : { } } `, `{"f:\u0000":{}}`, "{\"f:\xff\":{}}", `{"f:a":{}}x`, `{"f:a":{}`, `{"f:a":}`,
	`{"z\\":{},"y\"":{"b":{},"a":{}},"x\/":{}}`, `{"k:{\"port\":80}":{},"k:{\"port\":443}":{}}`, `{"a\\":{}}`, `{"a\`,
}

func TestAppendJSONIsEncodingJSON(t *testing.T) {
	for _, c := range unstructuredCases {
		var v any
		if err := json.Unmarshal([]byte(c), &v); err != nil {
			continue
		}
		v = intsAsInt64(v)
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendJSON(nil, v)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("AppendJSON(%s) = %s, %v; encoding/json writes %s", c, got, err, want)
		}
		checkUnescaped(t, v)
	}
	// What reports hold beside decoded values: fieldsV1 as json.RawMessage (compacted as
	// encoding/json compacts it), nil lists, floats, typed maps.
	for _, v := range []any{
		map[string]any{"fieldsV1": json.RawMessage(`{"f:a<b>" : {".":{}} }`), "none": json.RawMessage(nil), "bad": "x"},
		[]any{json.RawMessage(`[1, "<&>"]`), []any(nil), 2.5, 1e21, float64(3), map[string]string{"a": "<"}, json.Number("12")},
		map[string]any{"a<b>&c": "<script>&", "\u2028": "\u2029\x01\x7f\xff", "q\"\\": "é"},
	} {
		checkUnescaped(t, v)
	}
	if _, err := AppendJSONUnescaped(nil, map[string]any{"bad": json.RawMessage(`{`)}); err == nil {
		t.Error("AppendJSONUnescaped wrote an invalid json.RawMessage")
	}
}

// Encodable is whether AppendJSON writes a value.
func TestEncodable(t *testing.T) {
	values := []any{nil, true, "s", int64(1), 2, 2.5, math.NaN(), math.Inf(-1), json.Number("1"), json.Number("x"),
		json.RawMessage(`{}`), json.RawMessage(`{`), json.RawMessage(nil), make(chan int), map[string]string{"a": "b"}, map[int]any{1: nil}}
	for _, v := range values {
		values = append(values, map[string]any{"f:a": v, "f:b": map[string]any{}}, []any{"x", v})
	}
	for _, c := range unstructuredCases {
		var v any
		if json.Unmarshal([]byte(c), &v) == nil {
			values = append(values, v, intsAsInt64(v))
		}
	}
	for _, v := range values {
		_, err := AppendJSON(nil, v)
		if got := Encodable(v); got != (err == nil) {
			t.Errorf("Encodable(%#v) = %v; AppendJSON's error: %v", v, got, err)
		}
	}
}

// checkUnescaped holds AppendJSONUnescaped to an encoding/json Encoder with
// SetEscapeHTML(false), and AppendJSONUnescapedIndent to its text indented by json.Indent.
func checkUnescaped(t *testing.T, v any) {
	t.Helper()
	checkIndented(t, v)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	wantErr := enc.Encode(v)
	got, err := AppendJSONUnescaped([]byte("prefix"), v)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("AppendJSONUnescaped(%#v): error %v; encoding/json's %v", v, err, wantErr)
	}
	if want := "prefix" + strings.TrimSuffix(buf.String(), "\n"); err == nil && string(got) != want {
		t.Errorf("AppendJSONUnescaped(%#v) = %s; encoding/json writes %s", v, got, want)
	}
}

func TestDecodeJSONIsEncodingJSON(t *testing.T) {
	for _, c := range unstructuredCases {
		var want any
		wantErr := json.Unmarshal([]byte(c), &want)
		got, err := DecodeJSON([]byte(c))
		if (err != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("DecodeJSON(%s) = %#v, %v; encoding/json reads %#v, %v", c, got, err, want, wantErr)
		}
	}
}

// TestCanonicalFieldsV1IsEncodingJSON: the canonical text of a fieldsV1 is what
// encoding/json writes for its decoded tree, for every case.
// TestCanonicalFieldsV1CopiesCanonicalText: text canonical already (a dump's entries) is
// copied, one allocation, not read into members and written again.
func TestCanonicalFieldsV1CopiesCanonicalText(t *testing.T) {
	text := []byte(`{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}}}}}`)
	got, err := CanonicalFieldsV1(text)
	if err != nil || !bytes.Equal(got, text) {
		t.Fatalf("CanonicalFieldsV1(%s) = %s, %v", text, got, err)
	}
	if n := testing.AllocsPerRun(20, func() { _, _ = CanonicalFieldsV1(text) }); n != 1 {
		t.Errorf("CanonicalFieldsV1 of canonical text: %v allocations, want 1 (the copy)", n)
	}
}

func TestCanonicalFieldsV1IsEncodingJSON(t *testing.T) {
	for _, c := range unstructuredCases {
		checkCanonical(t, []byte(c))
	}
	// Keys of keyed items come out in byte order, not in the order of their values.
	got, err := CanonicalFieldsV1([]byte(`{"k:{\"port\":80}":{},"k:{\"port\":443}":{".":{}}}`))
	if want := `{"k:{\"port\":443}":{".":{}},"k:{\"port\":80}":{}}`; err != nil || string(got) != want {
		t.Errorf("CanonicalFieldsV1 = %s, %v; want %s", got, err, want)
	}
}

func checkCanonical(t *testing.T, data []byte) {
	t.Helper()
	var v any
	wantErr := json.Unmarshal(data, &v)
	got, err := CanonicalFieldsV1(data)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("CanonicalFieldsV1(%q) error %v; encoding/json: %v", data, err, wantErr)
	}
	if err != nil {
		return
	}
	want, err := json.Marshal(v)
	if err != nil {
		return
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("CanonicalFieldsV1(%q) = %s; encoding/json writes %s", data, got, want)
	}
}

// FuzzCanonicalFieldsV1 checks CanonicalFieldsV1 against encoding/json on any input.
func FuzzCanonicalFieldsV1(f *testing.F) {
	for _, c := range unstructuredCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkCanonical(t, data) })
}

// FuzzDecodeJSON checks DecodeJSON, AppendJSON and AppendJSONUnescaped and
// AppendJSONUnescapedIndent (of the value, and of the input as a json.RawMessage, at the
// top and three levels down) against encoding/json on any input.
func FuzzDecodeJSON(f *testing.F) {
	for _, c := range unstructuredCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want any
		wantErr := json.Unmarshal(data, &want)
		got, err := DecodeJSON(data)
		if (err != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("DecodeJSON = %#v, %v; encoding/json reads %#v, %v", got, err, want, wantErr)
		}
		// The input as a managedFields entry's fieldsV1 text, valid or not, spaces and all.
		checkUnescaped(t, map[string]any{"metadata": map[string]any{"managedFields": []any{map[string]any{"fieldsV1": json.RawMessage(data)}}}})
		if err != nil {
			return
		}
		enc, err := json.Marshal(want)
		if err != nil {
			return
		}
		mine, err := AppendJSON(nil, got)
		if err != nil || !bytes.Equal(mine, enc) {
			t.Fatalf("AppendJSON = %s, %v; encoding/json writes %s", mine, err, enc)
		}
		checkUnescaped(t, got)
		checkUnescaped(t, map[string]any{"raw": json.RawMessage(data)})
	})
}

func intsAsInt64(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = intsAsInt64(x)
		}
	case []any:
		for i, x := range t {
			t[i] = intsAsInt64(x)
		}
	case float64:
		if t == float64(int64(t)) && t < 1<<53 && t > -(1<<53) {
			return int64(t)
		}
	}
	return v
}

// BenchmarkFieldsV1 reads and rewrites the fieldsV1 of kubectl's managedFields entry of a
// live Deployment (five containers), compact as the API server writes it.
func BenchmarkFieldsV1(b *testing.B) {
	data, err := os.ReadFile("../jsontext/testdata/deployment.json")
	if err != nil {
		b.Fatal(err)
	}
	var obj struct {
		Metadata struct {
			ManagedFields []struct {
				FieldsV1 json.RawMessage `json:"fieldsV1"`
			} `json:"managedFields"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		b.Fatal(err)
	}
	fields := obj.Metadata.ManagedFields[0].FieldsV1
	canonical, err := CanonicalFieldsV1(fields)
	if err != nil || bytes.Equal(canonical, fields) {
		b.Fatalf("the fieldsV1 is canonical already, or %v", err)
	}
	for _, c := range []struct {
		name string
		text []byte
		read func([]byte) error
	}{
		{"DecodeJSON", fields, func(d []byte) error { _, err := DecodeJSON(d); return err }},
		{"CanonicalFieldsV1", fields, func(d []byte) error { _, err := CanonicalFieldsV1(d); return err }},
		// The same set in byte order, as a dump holds it: copied.
		{"CanonicalFieldsV1Sorted", canonical, func(d []byte) error { _, err := CanonicalFieldsV1(d); return err }},
	} {
		fields := c.text
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(fields)))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.read(fields); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// checkIndented holds AppendJSONUnescapedIndent to AppendJSONUnescaped's text indented by
// json.Indent, with the report's prefix and indent and with others.
func checkIndented(t *testing.T, v any) {
	t.Helper()
	compact, wantErr := AppendJSONUnescaped(nil, v)
	for _, layout := range [][2]string{{"    ", "  "}, {"", "\t"}, {">", ""}} {
		got, err := AppendJSONUnescapedIndent([]byte("prefix"), v, layout[0], layout[1])
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("AppendJSONUnescapedIndent(%#v): error %v; AppendJSONUnescaped's %v", v, err, wantErr)
		}
		if err != nil {
			continue
		}
		var want bytes.Buffer
		want.WriteString("prefix")
		if err := json.Indent(&want, compact, layout[0], layout[1]); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("AppendJSONUnescapedIndent(%#v, %q, %q) = %q; json.Indent gives %q", v, layout[0], layout[1], got, want.Bytes())
		}
	}
}

// FuzzAppendString holds AppendString (and so AppendEscaped, which also writes the YAML
// reader's strings) to encoding/json on any string: control characters, HTML characters,
// bytes that are not UTF-8, U+2028 and U+2029.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "a<b>&c\"\\", "\x00\b\f\n\r\t\x1f\x7f", "é\u2028\u2029", "\xff\xfe a \xc3", "\U0001F600"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendString([]byte("x"), s)
		if err != nil || string(got) != "x"+string(want) {
			t.Fatalf("AppendString(%q) = %s, %v; encoding/json writes %s", s, got[1:], err, want)
		}
	})
}

// FuzzAppendFloat holds AppendFloat to encoding/json on every finite float64.
func FuzzAppendFloat(f *testing.F) {
	for _, x := range []float64{0, 1, -1.5, 1e-7, 1e-6, 123456789e13, 1e21, 5e-324, 1.7976931348623157e308} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		want, err := json.Marshal(x)
		if err != nil {
			return // not finite
		}
		if got := AppendFloat(nil, x); string(got) != string(want) {
			t.Fatalf("AppendFloat(%v) = %s; encoding/json writes %s", x, got, want)
		}
	})
}

// TestIndentedFieldsV1Unread: a fieldsV1 held as text is indented as it is copied into
// the report, not compacted into a buffer of its own and indented from there: writing an
// entry takes no allocation but the stack of its keys.
func TestIndentedFieldsV1Unread(t *testing.T) {
	entry := map[string]any{"fieldsV1": json.RawMessage(`{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:replicas":{}}}`)}
	dst := make([]byte, 0, 4096)
	got, err := AppendJSONUnescapedIndent(dst, entry, "    ", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkIndented(t, entry)
	if n := testing.AllocsPerRun(20, func() { _, _ = AppendJSONUnescapedIndent(dst, entry, "    ", "  ") }); n > 1 {
		t.Errorf("AppendJSONUnescapedIndent of an entry (%d bytes): %v allocations, want at most 1", len(got), n)
	}
}
