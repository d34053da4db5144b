package output

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// renderCases are objects whose YAML renderYAML must write as sigs.k8s.io/yaml.Marshal does.
var renderCases = []string{
	`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"a10":"x","a9":"y","A":"z"}},"data":{"true":"yes","n":"1","e":"","s":"a: b","nl":"l1\nl2\n","lead":" x","u":"é ☃","html":"<a&b>"}}`,
	`{"spec":{"replicas":3,"ratio":2.5,"tiny":1e-7,"big":1e21,"neg":-0.5,"zero":0,"null":null,"t":true,"list":[1,"2",[3],{"k":[]}],"empty":{}}}`,
	`{"keys":{"1":"a","-":"c","~":"d","null":"e","y":"f","on":"g","1_000":"i",".inf":"j","a b":"k","#c":"l","*x":"m","a9":"n","a10":"o","b2c":"p","b10c":"q","port-80":"r","port-8080":"s","v1beta1":"t","v1":"u","v2":"v"}}`,
	`{"long":"` + strings.Repeat("word ", 40) + `","multi":"` + strings.Repeat("line\\n", 5) + `","tab":"a\tb","cr":"a\rb"}`,
}

func TestRenderYAMLIsSigsYAML(t *testing.T) {
	objects := append([]string(nil), renderCases...)
	// The recorded objects of the examples.
	files, _ := filepath.Glob("../../testdata/examples/*/*.json")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil {
			objects = append(objects, string(b))
		}
	}
	if len(objects) < len(renderCases)+2 {
		t.Fatalf("only %d objects", len(objects))
	}
	for _, text := range objects {
		checkRenderYAML(t, []byte(text))
	}
}

func checkRenderYAML(t *testing.T, text []byte) {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal(text, &obj); err != nil || obj == nil {
		return
	}
	obj = int64s(obj).(map[string]any)
	want, err := yaml.Marshal(obj)
	if err != nil {
		return
	}
	got, err := renderYAML(obj)
	if err != nil {
		t.Fatalf("renderYAML(%s): %v", text, err)
	}
	if again, _ := renderYAML(obj); again != got {
		t.Fatalf("renderYAML(%s) differs between two calls:\n%s\n%s", text, got, again)
	}
	// The encoder path, which emitYAML reproduces, byte for byte.
	if old, err := renderYAMLMarshal(obj); err != nil || old != got {
		t.Fatalf("renderYAML(%s) =\n%q\nthe encoder path writes (%v)\n%q", text, got, err, old)
	}
	if digitKeys(obj) {
		// sigs.k8s.io/yaml orders keys with digits by an order that is not total (0x1F,
		// 01 and 1 are equal to it; some triples go round): its output for them varies
		// from run to run. Same content is what can be asked.
		var a, b any
		if err := yaml.Unmarshal(want, &b); err != nil {
			// sigs.k8s.io/yaml's own output does not read back (a key "<<" is written
			// bare, and reads as a merge): the same lines, in any order, then.
			if sortedLines(got) != sortedLines(string(want)) {
				t.Fatalf("renderYAML(%s) =\n%s\nsigs.k8s.io/yaml writes other lines\n%s", text, got, want)
			}
			return
		}
		if err := yaml.Unmarshal([]byte(got), &a); err != nil {
			t.Fatalf("renderYAML(%s) does not read back: %v\n%s", text, err, got)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("renderYAML(%s) =\n%s\nsigs.k8s.io/yaml writes other content\n%s", text, got, want)
		}
		return
	}
	if got != string(want) {
		t.Fatalf("renderYAML(%s) =\n%s\nsigs.k8s.io/yaml writes\n%s", text, got, want)
	}
}

// digitKeys reports whether a map of v has a key with a digit.
func digitKeys(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if strings.ContainsAny(k, "0123456789") || digitKeys(x) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if digitKeys(x) {
				return true
			}
		}
	}
	return false
}

// FuzzRenderYAML checks renderYAML against sigs.k8s.io/yaml on any JSON object.
func FuzzRenderYAML(f *testing.F) {
	for _, c := range renderCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, text []byte) { checkRenderYAML(t, text) })
}

// int64s makes integral numbers int64, as the decoders of ssa-diff do.
func int64s(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = int64s(x)
		}
	case []any:
		for i, x := range t {
			t[i] = int64s(x)
		}
	case float64:
		if t == float64(int64(t)) && t < 1<<53 && t > -(1<<53) {
			return int64(t)
		}
	}
	return v
}

// TestRenderYAMLDeterministic: keys the YAML encoder cannot order (0x1F, 01, 1 compare
// equal to it) come out the same way every time.
func TestRenderYAMLDeterministic(t *testing.T) {
	var first string
	for i := 0; i < 50; i++ {
		obj := map[string]any{"0x1F": "h", "01": "b", "1": "a", "1_000": "i", "001": "z", "0": "y"}
		got, err := renderYAML(obj)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := json.Marshal(obj)
		y, err := jsonToYAML(doc)
		if err != nil {
			t.Fatal(err)
		}
		got += "---\n" + string(y)
		if i == 0 {
			first = got
		} else if got != first {
			t.Fatalf("two renderings differ:\n%s\n%s", first, got)
		}
	}
}

func sortedLines(s string) string {
	lines := strings.Split(s, "\n")
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
