package main

import (
	"bytes"
	"os"
	"testing"
)

// TestSchemaGoIsUpToDate: zz_generated.schema.go is what the generator writes from the
// readable copies beside it (which TestSchemaYAMLEqualsGoValues of package builtin holds to
// the decoded template, and run writes with it from each release's build).
func TestSchemaGoIsUpToDate(t *testing.T) {
	releases, err := releasesFromCopies("../builtin")
	if err != nil {
		t.Fatal(err)
	}
	want, err := emitSchema(releases)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../builtin/zz_generated.schema.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("../builtin/zz_generated.schema.go is not what the generator writes from the copies: run `go run . -from-copies -out ../builtin`")
	}
}
