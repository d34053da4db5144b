package cluster

import (
	"context"
	"encoding/json"
	"fmt"
)

// ListLabeled lists the objects of a core resource ("secrets", "configmaps") in namespace
// whose labels match selector (key=value,…), one unpaged LIST: the records of a Helm
// release (owner=helm,name=<release>). Each object comes back with its apiVersion and
// kind, as a GET would return it.
func (c *Client) ListLabeled(ctx context.Context, resource, kind, namespace, selector string) ([]json.RawMessage, error) {
	path := "/api/v1/namespaces/" + namespace + "/" + resource
	body, err := c.raw(ctx, c.rest.Get().AbsPath(path).Param("labelSelector", selector))
	if err != nil {
		return nil, fmt.Errorf("LIST %s?labelSelector=%s: %w", path, selector, c.explain(err))
	}
	var list struct {
		Items []map[string]json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("LIST %s: %w", path, err)
	}
	out := make([]json.RawMessage, 0, len(list.Items))
	for _, it := range list.Items {
		it["apiVersion"], it["kind"] = json.RawMessage(`"v1"`), json.RawMessage(fmt.Sprintf("%q", kind))
		b, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}
