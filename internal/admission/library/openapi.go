package library

import (
	"fmt"
	"sync"

	"k8s.io/client-go/openapi"
)

// openAPI serves the Setup's OpenAPI v3 documents as the server's /openapi/v3 does, to the
// mutating policies' type converters. listed is closed once they asked for the paths: the
// plugin fetches them in the background, and a mutation before that would find no schema.
type openAPI struct {
	docs     map[string][]byte
	listed   chan struct{}
	listOnce sync.Once
}

func newOpenAPI(c *cluster) *openAPI {
	o := &openAPI{docs: map[string][]byte{}, listed: make(chan struct{})}
	for path, doc := range c.setup.OpenAPI {
		o.docs[path] = doc
	}
	return o
}

func (o *openAPI) Paths() (map[string]openapi.GroupVersion, error) {
	out := make(map[string]openapi.GroupVersion, len(o.docs))
	for path, doc := range o.docs {
		out[path] = openAPIDoc{path: path, doc: doc}
	}
	o.listOnce.Do(func() { close(o.listed) })
	return out, nil
}

type openAPIDoc struct {
	path string
	doc  []byte
}

func (d openAPIDoc) Schema(contentType string) ([]byte, error) {
	if contentType != "application/json" {
		return nil, fmt.Errorf("no %s document of %s", contentType, d.path)
	}
	return d.doc, nil
}

// ServerRelativeURL names the document; it never changes.
func (d openAPIDoc) ServerRelativeURL() string { return "/openapi/v3/" + d.path }
