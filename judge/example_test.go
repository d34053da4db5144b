package judge_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/judge"
)

func decode(s string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		log.Fatal(err)
	}
	return m
}

// Drift answers "what does the cluster have that the manifest does not, who owns it, and
// does the apply keep it?" from a prediction: here someone added an annotation with
// kubectl annotate, and the predicted object (the engine's answer, written out) keeps it.
func ExampleDrift() {
	live := decode(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","annotations":{"oncall":"alice"},
	  "managedFields":[
	    {"manager":"ci","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:mode":{}}}},
	    {"manager":"kubectl-annotate","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{"f:oncall":{}}}}}]},
	  "data":{"mode":"prod"}}`)
	manifest := decode(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web"},"data":{"mode":"dev"}}`)
	predicted := decode(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","annotations":{"oncall":"alice"}},"data":{"mode":"dev"}}`)

	entries, _, err := fieldpath.EntriesOf(live)
	if err != nil {
		log.Fatal(err)
	}
	managed, err := fieldpath.Decode(entries)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range judge.Drift(judge.DriftInput{Live: live, Managed: managed, LiveEntries: entries, Manifest: manifest, Predicted: predicted}) {
		fmt.Println(d.Path, d.Live, d.Owners[0].Manager, d.Fate)
	}
	// Output:
	// .metadata.annotations.oncall alice kubectl-annotate kept
}
