package input_test

import (
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/input"
)

func ExampleParse() {
	stream := `apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
data:
  enabled: yes
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: three
`
	for _, e := range input.Parse("app.yaml", []byte(stream)) {
		o := e.Object
		fmt.Println(o.Source, o.Object["kind"])
		if o.Object["kind"] == "Deployment" {
			// An error about a field names the file, document, line and path.
			fmt.Println(o.Errorf("/spec/replicas", "must be an integer"))
		}
	}
	// Output:
	// app.yaml, document 0, line 1 ConfigMap
	// app.yaml, document 1, line 8 Deployment
	// app.yaml, document 1, line 13: .spec.replicas: must be an integer
}
