package schema

import (
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
)

// TestOpenAPINullModel: an OpenAPI document whose model is null (a document cut short, a
// bad edit) makes kube-openapi's schemaconv.ToSchemaFromOpenAPI dereference nil inside
// AddOpenAPI, and `ssa-diff --schema doc.json` crashes with a stack trace. Found by
// FuzzAddOpenAPI; fixed in package schema (null models are errors; convertModels recovers).
func TestOpenAPINullModel(t *testing.T) {
	for _, doc := range []string{
		`{"openapi":"3.0.0","components":{"schemas":{"a.B":null}}}`,
		`{"swagger":"2.0","definitions":{"a.B":null}}`,
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v", doc, r)
				}
			}()
			_, err := MustNewRegistry(kube.Default()).AddOpenAPI("doc.json", []byte(doc))
			t.Logf("%s: %v", doc, err)
		}()
	}
}
