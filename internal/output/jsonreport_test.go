package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/judge"
)

// reportStructs are the struct types encoding/json reaches from a report: through fields,
// pointers, slices and maps, not into interfaces (decoded JSON values, written by
// fieldsjson) nor into types that marshal themselves (time.Time, *judge.Ignore).
func reportStructs() map[string]reflect.Type {
	marshaler := reflect.TypeFor[json.Marshaler]()
	found := map[string]reflect.Type{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
			return
		}
		if _, ok := found[t.String()]; ok {
			return
		}
		found[t.String()] = t
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() || f.Anonymous {
				walk(f.Type)
			}
		}
	}
	walk(reflect.TypeFor[report.Report]())
	return found
}

// TestReportWriterKnowsEveryField fails when a field is added to (or taken from, or
// renamed in, or moved in) a type of the report without the JSON writer knowing it: each
// struct type's fields that encoding/json reads, in order, with "-" before the ones it
// leaves out, against reportFields.
func TestReportWriterKnowsEveryField(t *testing.T) {
	known := reportFields()
	structs := reportStructs()
	for name, typ := range structs {
		var fields []string
		for i := range typ.NumField() {
			f := typ.Field(i)
			if !f.IsExported() && !f.Anonymous {
				continue
			}
			if f.Tag.Get("json") == "-" {
				fields = append(fields, "-"+f.Name)
				continue
			}
			fields = append(fields, f.Name)
		}
		want, ok := known[name]
		if !ok {
			t.Errorf("the report holds %s, which the JSON writer does not write (fields %q)", name, fields)
			continue
		}
		if !slices.Equal(fields, want) {
			t.Errorf("%s has the fields %q; the JSON writer writes %q", name, fields, want)
		}
	}
	for name := range known {
		if _, ok := structs[name]; !ok {
			t.Errorf("the JSON writer writes %s, which the report no longer holds", name)
		}
	}
}

// reportFiller fills values of the report's types from fuzz input: every field reachable by
// reflection, each string, number, slice, map and pointer chosen by the input's bytes among
// the values that tell encodings apart (empty, nil, HTML and control characters, invalid
// UTF-8, floats, marshalers, JSON text).
type reportFiller struct {
	data  []byte
	depth int
}

func (f *reportFiller) byte() byte {
	if len(f.data) == 0 {
		return 0
	}
	b := f.data[0]
	f.data = f.data[1:]
	return b
}

var fuzzStrings = []string{"", "a", "v1", "<&>", "é\u2028\u2029", "\x00\x1f\b\f\n\r\t", "\xff\xfe", `"\`, "\x7f", "ssa-diff/v1", "🙂", "</script>"}

var fuzzTimes = []time.Time{
	time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC),
	time.Date(2026, 1, 2, 3, 4, 5, 600700800, time.FixedZone("X", 5400)),
	{},
	time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), // MarshalJSON refuses it
}

func (f *reportFiller) anyValue(depth int) any {
	switch b := f.byte(); b % 13 {
	case 0:
		return nil
	case 1:
		return fuzzStrings[int(f.byte())%len(fuzzStrings)]
	case 2:
		return int64(int8(f.byte())) << (f.byte() % 64)
	case 3:
		return []float64{0, math.Copysign(0, -1), 1.5, 1e21, 1e-7, 123456789, math.MaxFloat64, 3}[f.byte()%8]
	case 4:
		return f.byte()%2 == 0
	case 5:
		if depth > 3 {
			return nil
		}
		n := int(f.byte() % 4)
		if n == 3 {
			return []any(nil)
		}
		l := make([]any, n)
		for i := range l {
			l[i] = f.anyValue(depth + 1)
		}
		return l
	case 6, 7:
		if depth > 3 {
			return map[string]any{}
		}
		m := map[string]any{}
		for range int(f.byte() % 4) {
			m[fuzzStrings[int(f.byte())%len(fuzzStrings)]] = f.anyValue(depth + 1)
		}
		return m
	case 8:
		return json.RawMessage([]string{`{"f:a": {".": {}, "f:<b>": {}}}`, ` [1, "x"] `, `"<>"`, `{`}[f.byte()%4])
	case 9:
		return int(int16(f.byte()) * 300)
	case 10:
		return math.NaN()
	case 11:
		return float32(0.1)
	default:
		return json.Number("12")
	}
}

var (
	typeTime     = reflect.TypeFor[time.Time]()
	typeRaw      = reflect.TypeFor[json.RawMessage]()
	typeIgnore   = reflect.TypeFor[*judge.Ignore]()
	typeAny      = reflect.TypeFor[any]()
	typeObject   = reflect.TypeFor[map[string]any]()
	typeDuration = reflect.TypeFor[time.Duration]()
)

func (f *reportFiller) fill(v reflect.Value) {
	t := v.Type()
	switch t {
	case typeTime:
		v.Set(reflect.ValueOf(fuzzTimes[int(f.byte())%len(fuzzTimes)]))
		return
	case typeRaw:
		switch f.byte() % 5 {
		case 0:
		case 1:
			v.SetBytes([]byte{})
		case 4:
			v.SetBytes([]byte(`{"a":`))
		case 2:
			v.SetBytes([]byte(` {"kind": "Status", "message": "<a>\u2028"} `))
		default:
			v.SetBytes([]byte(`[]`))
		}
		return
	case typeIgnore:
		switch f.byte() % 3 {
		case 0:
		case 1:
			v.Set(reflect.ValueOf(&judge.Ignore{}))
		default:
			p, _ := judge.ParseIgnorePath(".spec.replicas")
			ig, err := judge.NewIgnore(judge.IgnoreRule{Group: "apps", Kind: "<Deployment>", Paths: []judge.IgnorePath{p}, Managers: []string{"hpa"}})
			if err == nil {
				v.Set(reflect.ValueOf(ig))
			}
		}
		return
	case typeAny:
		if a := f.anyValue(0); a != nil {
			v.Set(reflect.ValueOf(a))
		}
		return
	case typeObject:
		switch f.byte() % 3 {
		case 0:
		case 1:
			v.Set(reflect.ValueOf(map[string]any{}))
		default:
			m, _ := f.anyValue(0).(map[string]any)
			if m == nil {
				m = map[string]any{"apiVersion": "v1", "x": f.anyValue(1)}
			}
			v.Set(reflect.ValueOf(m))
		}
		return
	case typeDuration:
		v.SetInt(int64(int8(f.byte())) * int64(time.Second))
		return
	}
	switch t.Kind() {
	case reflect.String:
		v.SetString(fuzzStrings[int(f.byte())%len(fuzzStrings)])
	case reflect.Bool:
		v.SetBool(f.byte()%2 == 1)
	case reflect.Int, reflect.Int64:
		switch b := f.byte(); b % 4 {
		case 0:
			v.SetInt(0)
		case 1:
			v.SetInt(int64(int8(f.byte())))
		case 2:
			v.SetInt(math.MinInt64 >> (b % 64))
		default:
			v.SetInt(int64(b))
		}
	case reflect.Pointer:
		// A result's forced twin is a result: two levels of them are enough.
		if f.byte()%3 == 0 || f.depth > 2 && t == reflect.TypeFor[*report.Result]() {
			return
		}
		p := reflect.New(t.Elem())
		f.depth++
		f.fill(p.Elem())
		f.depth--
		v.Set(p)
	case reflect.Slice:
		switch b := f.byte(); b % 4 {
		case 0:
		case 1:
			v.Set(reflect.MakeSlice(t, 0, 0))
		default:
			n := 1 + int(b/4)%3
			if f.depth > 2 {
				n = 1
			}
			s := reflect.MakeSlice(t, n, n)
			f.depth++
			for i := range n {
				f.fill(s.Index(i))
			}
			f.depth--
			v.Set(s)
		}
	case reflect.Struct:
		for i := range t.NumField() {
			if fv := v.Field(i); fv.CanSet() {
				f.fill(fv)
			}
		}
	default:
		panic(fmt.Sprintf("the fuzz reportFiller does not know %s (%s)", t, t.Kind()))
	}
}

// checkReportJSON compares the writer's bytes for rep, compact and indented (and for each
// result alone, as the streaming writer writes it), with encoding/json's.
func checkReportJSON(t *testing.T, rep *report.Report) {
	t.Helper()
	for _, indent := range []string{"", "  "} {
		want, wantErr := encodeJSON(rep, indent)
		got, err := encodeReport(rep, indent)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || err == nil && !bytes.Equal(got, want) {
			t.Fatalf("encodeReport(%q) = %s, %v;\nencoding/json writes %s, %v", indent, got, err, want, wantErr)
		}
	}
	for _, res := range rep.Results {
		want, wantErr := encodeJSON(res, "")
		got, err := encodeResult([]byte("reused"), res)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || err == nil && !bytes.Equal(got, want) {
			t.Fatalf("encodeResult = %s, %v;\nencoding/json writes %s, %v", got, err, want, wantErr)
		}
		if wantErr != nil {
			continue
		}
		var indented bytes.Buffer
		if err := json.Indent(&indented, want, resultPrefix, resultIndent); err != nil {
			t.Fatal(err)
		}
		got, err = encodeResultIndented([]byte("reused"), res, resultPrefix, resultIndent)
		if err != nil || !bytes.Equal(got, indented.Bytes()) {
			t.Fatalf("encodeResultIndented = %s, %v;\nencoding/json writes %s", got, err, indented.Bytes())
		}
	}
}

// FuzzReportJSON fills a report (its head and results, every field of every type under
// them, by reflection) from the input and compares the writer's JSON with encoding/json's.
func FuzzReportJSON(f *testing.F) {
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{1}, 400))
	f.Add(bytes.Repeat([]byte{2, 5, 7, 1}, 300))
	f.Add(bytes.Repeat([]byte{3, 250, 6, 9, 2, 1, 8}, 300))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rep report.Report
		(&reportFiller{data: data}).fill(reflect.ValueOf(&rep).Elem())
		checkReportJSON(t, &rep)
	})
}

// TestReportJSONEveryField writes reports whose every field is set (fuzz inputs of one
// repeated byte set each field the same way) and the sample report.
func TestReportJSONEveryField(t *testing.T) {
	checkReportJSON(t, sampleReport())
	for b := range 256 {
		for _, n := range []int{64, 4096} {
			var rep report.Report
			(&reportFiller{data: bytes.Repeat([]byte{byte(b)}, n)}).fill(reflect.ValueOf(&rep).Elem())
			checkReportJSON(t, &rep)
		}
	}
}
