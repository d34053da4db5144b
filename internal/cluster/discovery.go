package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Resource is how the cluster serves a kind: the resource (plural) at a group and version,
// and whether its objects live in namespaces.
type Resource struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Name is the resource, "deployments".
	Name       string `json:"name"`
	Namespaced bool   `json:"namespaced"`
}

// Group is the resource's API group ("" for the core group).
func (r Resource) Group() string {
	if i := strings.IndexByte(r.APIVersion, '/'); i >= 0 {
		return r.APIVersion[:i]
	}
	return ""
}

// Version is the resource's API version.
func (r Resource) Version() string {
	return r.APIVersion[strings.IndexByte(r.APIVersion, '/')+1:]
}

// errNotServed says the cluster serves a kind at no version of its group.
var errNotServed = errors.New("not served")

// discovery asks the cluster which resources it serves, one group version at a time
// (GET /api/v1, /apis/GROUP/VERSION) and only for the kinds asked about: a run reads a few
// small documents, not the whole discovery of the cluster. Answers are kept for the run.
type discovery struct {
	r  *reader
	mu sync.Mutex
	// each document once: by path
	docs map[string]*discoveryDoc
}

type discoveryDoc struct {
	once sync.Once
	body []byte
	err  error
}

func newDiscovery(r *reader) *discovery {
	return &discovery{r: r, docs: map[string]*discoveryDoc{}}
}

// get reads a discovery document once; a 404 is an error IsNotFound recognises.
func (d *discovery) get(ctx context.Context, path string) ([]byte, error) {
	d.mu.Lock()
	doc := d.docs[path]
	if doc == nil {
		doc = &discoveryDoc{}
		d.docs[path] = doc
	}
	d.mu.Unlock()
	doc.once.Do(func() {
		doc.body, doc.err = d.r.send(ctx, d.r.c.rest.Get().AbsPath(path))
	})
	return doc.body, doc.err
}

// resources lists the resources of a group version; found is false when the cluster does
// not serve the group version.
func (d *discovery) resources(ctx context.Context, group, version string) (list *metav1.APIResourceList, found bool, err error) {
	path := "/apis/" + group + "/" + version
	if group == "" {
		path = "/api/" + version
	}
	body, err := d.get(ctx, path)
	if apierrors.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, d.fail(path, err)
	}
	list = &metav1.APIResourceList{}
	if err := json.Unmarshal(body, list); err != nil {
		return nil, false, fmt.Errorf("discovery %s: %w", path, err)
	}
	return list, true, nil
}

// versions lists the versions the cluster serves of a group, its preferred one first;
// none when it does not serve the group.
func (d *discovery) versions(ctx context.Context, group string) ([]string, error) {
	if group == "" {
		body, err := d.get(ctx, "/api")
		if err != nil {
			return nil, d.fail("/api", err)
		}
		var v metav1.APIVersions
		if err := json.Unmarshal(body, &v); err != nil {
			return nil, fmt.Errorf("discovery /api: %w", err)
		}
		return v.Versions, nil
	}
	path := "/apis/" + group
	body, err := d.get(ctx, path)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, d.fail(path, err)
	}
	var g metav1.APIGroup
	if err := json.Unmarshal(body, &g); err != nil {
		return nil, fmt.Errorf("discovery %s: %w", path, err)
	}
	out := []string{}
	if g.PreferredVersion.Version != "" {
		out = append(out, g.PreferredVersion.Version)
	}
	for _, v := range g.Versions {
		if v.Version != g.PreferredVersion.Version {
			out = append(out, v.Version)
		}
	}
	return out, nil
}

func (d *discovery) fail(path string, err error) error {
	return fmt.Errorf("discovery %s: %w", path, d.r.c.explain(err))
}

// resolve finds how the cluster serves group/version kind: at that version when it does,
// else at the group's preferred version that has the kind (the object is the same; the
// server converts). errNotServed when no version of the group has it.
func (d *discovery) resolve(ctx context.Context, group, version, kind string) (Resource, error) {
	find := func(v string) (Resource, bool, error) {
		list, found, err := d.resources(ctx, group, v)
		if err != nil || !found {
			return Resource{}, false, err
		}
		for _, r := range list.APIResources {
			if r.Kind == kind && !strings.Contains(r.Name, "/") {
				av := v
				if group != "" {
					av = group + "/" + v
				}
				return Resource{APIVersion: av, Kind: kind, Name: r.Name, Namespaced: r.Namespaced}, true, nil
			}
		}
		return Resource{}, false, nil
	}
	if version != "" {
		if r, ok, err := find(version); ok || err != nil {
			return r, err
		}
	}
	versions, err := d.versions(ctx, group)
	if err != nil {
		return Resource{}, err
	}
	for _, v := range versions {
		if v == version {
			continue
		}
		if r, ok, err := find(v); ok || err != nil {
			return r, err
		}
	}
	return Resource{}, errNotServed
}
