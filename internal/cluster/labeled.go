package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
)

// ListLabeled lists the objects of a core resource ("secrets", "configmaps") in namespace
// whose labels match selector (key=value,…), one unpaged LIST: the records of a Helm
// release (owner=helm,name=<release>). The answer is bounded as every answer of a read is
// (the read's bytes, --max-document-bytes and --max-depth for each item kept). Each object
// comes back with its apiVersion and kind, as a GET would return it.
func (c *Client) ListLabeled(ctx context.Context, resource, kind, namespace, selector string) ([]json.RawMessage, error) {
	cl := call{path: "/api/v1/namespaces/" + namespace + "/" + resource, query: url.Values{"labelSelector": {selector}}}
	var list struct {
		Items []map[string]json.RawMessage `json:"items"`
	}
	err := c.get(ctx, cl, 0, func(body io.Reader) error {
		return json.NewDecoder(body).Decode(&list)
	})
	if err != nil {
		return nil, err
	}
	out := make([]json.RawMessage, 0, len(list.Items))
	for _, it := range list.Items {
		it["apiVersion"], it["kind"] = json.RawMessage(`"v1"`), json.RawMessage(fmt.Sprintf("%q", kind))
		b, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		if err := c.kept(b); err != nil {
			return nil, &RequestError{Request: cl.String(), Err: err, answered: true}
		}
		out = append(out, b)
	}
	return out, nil
}
