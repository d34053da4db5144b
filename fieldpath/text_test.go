package fieldpath

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/fieldsjson"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// TestTextScenarios: each path element as structured-merge-diff v6 (Kubernetes 1.32–1.37)
// and v7 (1.38) write it (rules.md encode.fields-v1). The texts are v6.4.2's and v7.0.1's
// own, and the ones the real servers wrote in conformance/testdata/minors
// fieldpath-text-json-v2 (1.37.2 and 1.38.0-beta.0).
func TestTextScenarios(t *testing.T) {
	str := func(s string) smdpath.PathElement { return smdpath.PathElement{Value: ptr(value.NewValueInterface(s))} }
	num := func(v any) smdpath.PathElement { return smdpath.PathElement{Value: ptr(value.NewValueInterface(v))} }
	key := func(name string, v any) smdpath.PathElement {
		return smdpath.PathElement{Key: &value.FieldList{{Name: name, Value: value.NewValueInterface(v)}}}
	}
	field := func(s string) smdpath.PathElement { return smdpath.PathElement{FieldName: &s} }
	for _, tc := range []struct {
		name   string
		pe     smdpath.PathElement
		v6, v7 string
	}{
		{"HTML characters in a key", key("name", "A&B<C>"), `k:{"name":"A\u0026B\u003cC\u003e"}`, `k:{"name":"A&B<C>"}`},
		{"HTML characters in a key's name, alike", key("a&b", "x"), `k:{"a&b":"x"}`, `k:{"a&b":"x"}`},
		{"line separator in a key", key("name", "line\u2028break"), `k:{"name":"line\u2028break"}`, "k:{\"name\":\"line\u2028break\"}"},
		{"paragraph separator in a value", str("para\u2029sep"), `v:"para\u2029sep"`, "v:\"para\u2029sep\""},
		{"backspace and form feed", str("bell\bform\f"), `v:"bell\u0008form\u000c"`, `v:"bell\bform\f"`},
		{"other control characters", str("a\x01\n\t\r\x1f\x7f"), "v:\"a\\u0001\\n\\t\\r\\u001f\x7f\"", "v:\"a\\u0001\\n\\t\\r\\u001f\x7f\""},
		{"quote and backslash", str(`q"\`), `v:"q\"\\"`, `v:"q\"\\"`},
		{"invalid UTF-8", str("bad\xffutf"), `v:"bad\ufffdutf"`, "v:\"bad\uFFFDutf\""},
		{"outside ASCII", str("é🚀"), `v:"é🚀"`, `v:"é🚀"`},
		{"small exponent", num(1e-7), `v:1e-07`, `v:1e-7`},
		{"small exponent, fraction", num(2.5e-9), `v:2.5e-09`, `v:2.5e-9`},
		{"two-digit exponent", num(1e-10), `v:1e-10`, `v:1e-10`},
		{"large exponent", num(1e21), `v:1e+21`, `v:1e+21`},
		{"plain from 1e-6", num(0.000001), `v:0.000001`, `v:0.000001`},
		{"plain below 1e21", num(1e20), `v:100000000000000000000`, `v:100000000000000000000`},
		{"integer", num(int64(12345678901)), `v:12345678901`, `v:12345678901`},
		{"negative zero", num(math.Copysign(0, -1)), `v:-0`, `v:-0`},
		{"map in a value, keys sorted", num(map[string]any{"b": "<", "a": 1e-8}), `v:{"a":1e-08,"b":"\u003c"}`, `v:{"a":1e-8,"b":"<"}`},
		{"list in a key", key("l", []any{"&", 1e-7, nil, true}), `k:{"l":["\u0026",1e-07,null,true]}`, `k:{"l":["&",1e-7,null,true]}`},
		{"field names alike", field("a&b<c>\u2028"), "f:a&b<c>\u2028", "f:a&b<c>\u2028"},
		{"index", smdpath.PathElement{Index: ptr(12)}, `i:12`, `i:12`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range []struct {
				text Text
				want string
			}{{TextJSONIter, tc.v6}, {TextJSONv2, tc.v7}} {
				got, err := SerializePathElement(tc.pe, c.text)
				if err != nil || got != c.want {
					t.Errorf("%v: %q, %v; want %q", c.text, got, err, c.want)
				}
			}
		})
	}
}

// TestTextJSONv2Set: a set's fieldsV1 in v7's text, the server's layout (".":{} first for a
// member that is also a child, fields before keys and values) — the bytes 1.38.0-beta.0
// stored for fieldpath-text-json-v2 — and its canonical form.
func TestTextJSONv2Set(t *testing.T) {
	raw := `{"f:spec":{"f:items":{"k:{\"name\":\"A\\u0026B\\u003cC\\u003e\"}":{".":{},"f:name":{}}},` +
		`"f:tags":{"v:\"bell\\u0008form\\u000c\"":{},"v:\"a\\u0026b\"":{}},"f:weights":{"v:1e-07":{},"v:3":{}}}}`
	set, err := FieldsV1ToSet([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"f:spec":{"f:items":{"k:{\"name\":\"A&B<C>\"}":{".":{},"f:name":{}}},` +
		`"f:tags":{"v:\"a&b\"":{},"v:\"bell\\bform\\f\"":{}},"f:weights":{"v:1e-7":{},"v:3":{}}}}`
	got, err := SetToFieldsV1As(set, TextJSONv2)
	if err != nil || string(got) != want {
		t.Fatalf("got\n%s, %v\nwant\n%s", got, err, want)
	}
	if old, _ := SetToFieldsV1As(set, TextJSONIter); string(old) == want {
		t.Fatal("v6's text is v7's")
	}
	canon, err := SetToCanonicalFieldsV1As(set, TextJSONv2)
	wantCanon, _ := fieldsjson.CanonicalFieldsV1([]byte(want))
	if err != nil || !bytes.Equal(canon, wantCanon) {
		t.Fatalf("canonical\n%s, %v\nwant\n%s", canon, err, wantCanon)
	}
	back, err := FieldsV1ToSet(got)
	if err != nil || !back.Equals(set) {
		t.Fatalf("read back %v: %v", back, err)
	}
}

// TestTextJSONv2Refusals: what v7 refuses to write — two elements written alike once an
// invalid byte is replaced, a value that is no JSON number — is refused.
func TestTextJSONv2Refusals(t *testing.T) {
	a, b := "\xff", "\uFFFD"
	set := smdpath.NewSet(smdpath.Path{smdpath.PathElement{FieldName: &a}}, smdpath.Path{smdpath.PathElement{FieldName: &b}})
	if got, err := SetToFieldsV1As(set, TextJSONv2); err == nil || !strings.Contains(err.Error(), "duplicate") {
		t.Errorf("wrote %s, %v", got, err)
	}
	if got, err := SerializePathElement(smdpath.PathElement{Value: ptr(value.NewValueInterface(math.Inf(1)))}, TextJSONv2); err == nil {
		t.Errorf("wrote %s", got)
	}
	// In a key's value, v7 lets two map keys be written alike.
	pe := smdpath.PathElement{Key: &value.FieldList{{Name: "m", Value: value.NewValueInterface(map[string]any{a: 1.0, b: 2.0})}}}
	if got, err := SerializePathElement(pe, TextJSONv2); err != nil || got != "k:{\"m\":{\"\uFFFD\":2,\"\uFFFD\":1}}" {
		t.Errorf("key: %q, %v", got, err)
	}
	// In a value element it does not.
	v := value.NewValueInterface(map[string]any{a: 1.0, b: 2.0})
	if got, err := SerializePathElement(smdpath.PathElement{Value: &v}, TextJSONv2); err == nil {
		t.Errorf("value: wrote %q", got)
	}
}
