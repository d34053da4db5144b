package admission

import (
	"sort"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/server"
)

// defaultStorageClass is DefaultStorageClass (rules.md admission.default-storage-class): a
// PersistentVolumeClaim created without a class (no spec.storageClassName, not even "",
// and no volume.beta.kubernetes.io/storage-class annotation) gets the cluster's default
// StorageClass — of several, the newest, then the first by name.
func (c *Chain) defaultStorageClass(w Write, _ *server.Admission) {
	if w.Subresource != "" || !w.create() || !w.is("", "PersistentVolumeClaim") {
		return
	}
	md := unstructured.Object(w.Object, "metadata")
	if _, ok := unstructured.Object(md, "annotations")["volume.beta.kubernetes.io/storage-class"]; ok {
		return
	}
	if v, ok := unstructured.Object(w.Object, "spec")["storageClassName"]; ok && v != nil {
		return
	}
	if name := c.defaultClass("storage.k8s.io", "StorageClass", "storageclass.kubernetes.io/is-default-class", "storageclass.beta.kubernetes.io/is-default-class"); name != "" {
		unstructured.EnsureObject(w.Object, "spec")["storageClassName"] = name
	}
}

// defaultIngressClass is DefaultIngressClass (rules.md admission.default-ingress-class): an
// Ingress created without spec.ingressClassName or the kubernetes.io/ingress.class
// annotation gets the cluster's default IngressClass.
func (c *Chain) defaultIngressClass(w Write, _ *server.Admission) {
	if w.Subresource != "" || !w.create() || !w.is("networking.k8s.io", "Ingress") {
		return
	}
	md := unstructured.Object(w.Object, "metadata")
	if _, ok := unstructured.Object(md, "annotations")["kubernetes.io/ingress.class"]; ok {
		return
	}
	if v, ok := unstructured.Object(w.Object, "spec")["ingressClassName"]; ok && v != nil {
		return
	}
	if name := c.defaultClass("networking.k8s.io", "IngressClass", "ingressclass.kubernetes.io/is-default-class"); name != "" {
		unstructured.EnsureObject(w.Object, "spec")["ingressClassName"] = name
	}
}

// defaultClass is the name of the default class of a kind: among those annotated "true"
// by one of the annotations, the newest, then the first by name; "" when there is none.
func (c *Chain) defaultClass(group, kind string, annotations ...string) string {
	type class struct {
		name    string
		created time.Time
	}
	var defaults []class
	for _, obj := range c.cfg.State.List(group, kind, "") {
		md := unstructured.Object(obj, "metadata")
		ann := unstructured.Object(md, "annotations")
		for _, a := range annotations {
			if v, _ := ann[a].(string); v == "true" {
				created, _ := time.Parse(time.RFC3339, unstructured.Str(md, "creationTimestamp"))
				defaults = append(defaults, class{unstructured.Str(md, "name"), created})
				break
			}
		}
	}
	if len(defaults) == 0 {
		return ""
	}
	sort.Slice(defaults, func(i, j int) bool {
		if !defaults[i].created.Equal(defaults[j].created) {
			return defaults[i].created.After(defaults[j].created)
		}
		return defaults[i].name < defaults[j].name
	})
	return defaults[0].name
}
