package report

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/input"
)

func TestFieldPointer(t *testing.T) {
	objs, errs := input.Split(input.Parse("d.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    example.com/a.b: x
spec:
  template:
    spec:
      containers:
      - name: sidecar
        image: envoy
      - name: app
        image: web:1
        ports:
        - containerPort: 8080
          name: http
      volumes:
      - name: tmp
  tags: [a, "b"]
`)))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	o := objs[0]
	for path, want := range map[string]int{
		".spec.template.spec.containers[name=\"app\"].image":                                           14,
		".spec.template.spec.containers[name=\"app\"].ports[containerPort=8080,protocol=\"TCP\"].name": 17,
		".spec.template.spec.containers[name=\"app\"].env":                                             13, // absent: the container
		".spec.template.spec.containers[name=\"gone\"].image":                                          10, // absent: the list
		".metadata.annotations.example.com/a.b":                                                        6,
		".spec.tags[=\"b\"]":                                                                           20,
		".spec.template.spec.volumes[0].name":                                                          19,
		".spec.replicas":                                                                               7,
	} {
		if got := fieldLine(o, path); got != want {
			t.Errorf("%s: line %d, want %d", path, got, want)
		}
	}
}
