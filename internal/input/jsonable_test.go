package input

import (
	"bytes"
	"encoding/json"
	"testing"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// jsonableCases are YAML documents whose JSON the reader writes from the strict tree.
var jsonableCases = []string{
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n",
	"a: 1\nb: 1.5\nc: 1e3\nd: .inf\ne: -.inf\nf: true\ng: ~\nh: 0x1F\ni: 0o17\nj: 017\nk: 2001-12-14\n",
	"1: a\n1.5: b\ntrue: c\n.inf: d\n-.inf: e\n.nan: f\n0.1: g\n1e40: h\n12345678901234567890: i\n",
	"l: [1, two, {x: y}, [nested]]\nm: {}\nn: []\no: \"<&>\"\np: \"\\u00e9\\u2028\"\n",
	"a: &x {b: 1}\nc: *x\nd: !!str 12\ne: !!binary aGk=\n",
	"- a\n- b\n", "just a string\n", "12\n", "null\n", "",
	"{a: 1, a: 2}\n", "? [a]\n: b\n", "? {a: 1}\n: c\n", "a: .nan\n",
}

// TestJSONableIsYAMLToJSON: the JSON written from the strict tree is sigs.k8s.io/yaml's.
func TestJSONableIsYAMLToJSON(t *testing.T) {
	for _, c := range jsonableCases {
		checkJSONable(t, []byte(c))
	}
}

func checkJSONable(t *testing.T, data []byte) {
	t.Helper()
	var tree any
	if yamlv2.UnmarshalStrict(data, &tree) != nil {
		return // the reader parses such documents with YAMLToJSON itself
	}
	if _, msg := badKeys(tree); msg != "" {
		return // the reader refuses them (keys that collide are kept at random by YAMLToJSON)
	}
	want, wantErr := yaml.YAMLToJSON(data)
	v, ok := jsonable(tree)
	var got []byte
	var err error
	if ok {
		got, err = json.Marshal(v)
	}
	if !ok || err != nil {
		if wantErr == nil {
			t.Fatalf("%q: jsonable %v, %v; YAMLToJSON writes %s", data, ok, err, want)
		}
		return // the reader falls back to YAMLToJSON, which gives its error
	}
	if wantErr != nil || !bytes.Equal(got, want) {
		t.Fatalf("%q: from the strict tree %s; YAMLToJSON %s, %v", data, got, want, wantErr)
	}
}

// FuzzJSONable checks jsonable against sigs.k8s.io/yaml's YAMLToJSON on any input.
func FuzzJSONable(f *testing.F) {
	for _, c := range jsonableCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		checkJSONable(t, data)
	})
}
