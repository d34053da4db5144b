package helmplugin

import (
	"context"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// listRecords lists the release's records as Helm's storage driver does: the Secrets (or
// ConfigMaps) of the namespace labelled owner=helm and name=<release>, as objects of a
// dump.
func listRecords(cfg *rest.Config, driver, release, ns string) ([]map[string]any, error) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("the cluster: %w", err)
	}
	opts := metav1.ListOptions{LabelSelector: "owner=helm,name=" + release}
	var items []any
	if driver == "ConfigMap" {
		l, err := cs.CoreV1().ConfigMaps(ns).List(context.Background(), opts)
		if err != nil {
			return nil, fmt.Errorf("listing the release's records (ConfigMaps in %s): %w", ns, err)
		}
		for i := range l.Items {
			items = append(items, &l.Items[i])
		}
	} else {
		l, err := cs.CoreV1().Secrets(ns).List(context.Background(), opts)
		if err != nil {
			return nil, fmt.Errorf("listing the release's records (Secrets in %s): %w", ns, err)
		}
		for i := range l.Items {
			items = append(items, &l.Items[i])
		}
	}
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		b, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		m["apiVersion"], m["kind"] = "v1", driver
		out = append(out, m)
	}
	return out, nil
}
