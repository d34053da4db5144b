package serverpath

import (
	"reflect"
	"testing"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

func TestParse(t *testing.T) {
	for path, want := range map[string][]Element{
		"":                                   nil,
		`.spec.containers[name="a]b"].image`: {{Text: "spec"}, {Text: "containers"}, {Selector: true, Text: `name="a]b"`}, {Text: "image"}},
		`.metadata.labels[app]`:              {{Text: "metadata"}, {Text: "labels"}, {Selector: true, Text: "app"}},
		`[0]`:                                {{Selector: true, Text: "0"}},
		`.a..b`:                              {{Text: "a"}, {Text: ""}, {Text: "b"}},
	} {
		got, err := Parse(path)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Parse(%q) = %#v, %v; want %#v", path, got, err, want)
		}
		if s := String(got); s != path {
			t.Errorf("String(Parse(%q)) = %q", path, s)
		}
	}
	for _, bad := range []string{"spec", ".a[0", `.a[x="]`} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestParseItem(t *testing.T) {
	for text, want := range map[string]Item{
		"3":                                {Index: 3, HasIndex: true},
		`="x"`:                             {Value: "x", HasValue: true},
		`name="app",port=80`:               {Keys: map[string]any{"name": "app", "port": float64(80)}},
		`containerPort=80,protocol="T,CP"`: {Keys: map[string]any{"containerPort": float64(80), "protocol": "T,CP"}},
	} {
		if got, err := ParseItem(text); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseItem(%q) = %#v, %v; want %#v", text, got, err, want)
		}
	}
	if _, err := ParseItem("app"); err == nil {
		t.Error("a bare key parsed as an item")
	}
}

// FuzzRoundTrip: String inverts Parse on any text Parse accepts, and the paths the server
// prints (structured-merge-diff's Path.String) parse back into their elements, keyed items'
// keys and set items' values included.
func FuzzRoundTrip(f *testing.F) {
	f.Add(`.spec.containers[name="app"].image`, "app", int64(80))
	f.Add(`.metadata.labels[app.kubernetes.io/name]`, `a"]b`, int64(-1))
	f.Add(`[="x"]`, "", int64(0))
	f.Fuzz(func(t *testing.T, text, name string, port int64) {
		if elems, err := Parse(text); err == nil {
			if s := String(elems); s != text {
				t.Fatalf("String(Parse(%q)) = %q", text, s)
			}
		}
		keys := value.FieldList{{Name: "name", Value: value.NewValueInterface(name)}, {Name: "port", Value: value.NewValueInterface(port)}}
		p := smdpath.Path{
			{FieldName: ptr("spec")},
			{Key: &keys},
			{FieldName: ptr("args")},
			{Value: ptr(value.NewValueInterface(name))},
			{Index: ptr(int(port % 1000))},
		}
		printed := fieldpath.PathString(p)
		elems, err := Parse(printed)
		if err != nil || len(elems) != len(p) {
			t.Fatalf("Parse(%q) = %v, %v", printed, elems, err)
		}
		if it, err := ParseItem(elems[1].Text); err != nil || it.Keys["name"] != name || it.Keys["port"] != float64(port) {
			t.Fatalf("keys of %q: %#v, %v", printed, it, err)
		}
		if it, err := ParseItem(elems[3].Text); err != nil || it.Value != name {
			t.Fatalf("value of %q: %#v, %v", printed, it, err)
		}
		if it, err := ParseItem(elems[4].Text); err != nil || !it.HasIndex || it.Index != int(port%1000) {
			t.Fatalf("index of %q: %#v, %v", printed, it, err)
		}
	})
}

func ptr[T any](v T) *T { return &v }
