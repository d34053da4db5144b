package output

import (
	"encoding/json"
	"reflect"
	"testing"

	"sigs.k8s.io/yaml"
)

func TestYAMLMatchesJSON(t *testing.T) {
	j, _ := writeAll(t, "json", sampleReport(), Options{})
	y, _ := writeAll(t, "yaml", sampleReport(), Options{})
	var fromJSON, fromYAML any
	if err := json.Unmarshal([]byte(j), &fromJSON); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(y), &fromYAML); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromJSON, fromYAML) {
		t.Errorf("the YAML report differs from the JSON one:\n%s", y)
	}
}

// TestYAMLStreamedIsWhole: the report printed from results encoded one by one is the whole
// report converted at once.
func TestYAMLStreamedIsWhole(t *testing.T) {
	rep := sampleReport()
	out, _ := writeAll(t, "yaml", rep, Options{})
	whole, err := encodeJSON(rep, "")
	if err != nil {
		t.Fatal(err)
	}
	want, err := yaml.JSONToYAML(whole)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("streamed:\n%s\nwhole:\n%s", out, want)
	}
}
