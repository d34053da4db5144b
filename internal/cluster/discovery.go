package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
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

// The bounds of discovery: a group lists a few versions (the most of a built-in group is
// 4), a run asks about the group versions of its manifests' kinds.
const (
	// MaxGroupVersions bounds the versions a group may list.
	MaxGroupVersions = 64
	// MaxDiscoveryDocuments bounds the discovery documents one read asks for (each
	// /api/VERSION, /apis/GROUP, /apis/GROUP/VERSION once).
	MaxDiscoveryDocuments = 1000
)

// dnsLabel is what a version and a resource's name are (a path segment, never "..");
// compiled on first use, as the next: only a run that reads a cluster needs them.
var dnsLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`) })

// resourceName is a resource's name: DNS labels joined by dots (a CRD's plural is one label).
var resourceNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`) })

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
		if len(d.docs) >= MaxDiscoveryDocuments {
			d.mu.Unlock()
			return nil, fmt.Errorf("not asked: more than %d discovery documents in one read (the group versions of the manifests' kinds, and their groups)", MaxDiscoveryDocuments)
		}
		doc = &discoveryDoc{}
		d.docs[path] = doc
	}
	d.mu.Unlock()
	doc.once.Do(func() {
		doc.err = d.r.do(ctx, call{path: path}, d.r.c.maxDoc, func(body io.Reader) error {
			var err error
			doc.body, err = readObject(body)
			return err
		})
	})
	return doc.body, doc.err
}

// discoveryPath is the discovery path of a group version.
func discoveryPath(group, version string) string {
	if group == "" {
		return "/api/" + version
	}
	return "/apis/" + group + "/" + version
}

// resources lists the resources of a group version; found is false when the cluster does
// not serve the group version.
func (d *discovery) resources(ctx context.Context, group, version string) (list *metav1.APIResourceList, found bool, err error) {
	path := discoveryPath(group, version)
	body, err := d.get(ctx, path)
	if apierrors.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, d.fail(path, err)
	}
	list = &metav1.APIResourceList{}
	if err := json.Unmarshal(body, list); err != nil {
		return nil, false, d.wrong(path, err)
	}
	gv := version
	if group != "" {
		gv = group + "/" + version
	}
	if list.Kind != "APIResourceList" || list.GroupVersion != gv {
		return nil, false, d.wrong(path, fmt.Errorf("the answer is not the resources of %s: it is a %q of %q", gv, list.Kind, list.GroupVersion))
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
			return nil, d.wrong("/api", err)
		}
		if v.Kind != "APIVersions" {
			return nil, d.wrong("/api", fmt.Errorf("the answer is not the versions of the core group: it is a %q", v.Kind))
		}
		return checkVersions("/api", v.Versions)
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
		return nil, d.wrong(path, err)
	}
	if g.Kind != "APIGroup" || g.Name != group {
		return nil, d.wrong(path, fmt.Errorf("the answer is not the group %s: it is a %q named %q", group, g.Kind, g.Name))
	}
	if len(g.Versions) > MaxGroupVersions {
		return nil, d.wrong(path, fmt.Errorf("the group lists %d versions, more than %d: not an API server's answer", len(g.Versions), MaxGroupVersions))
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
	return checkVersions(path, out)
}

// checkVersions checks the versions a discovery document lists: at most MaxGroupVersions,
// each a DNS label (it is a segment of the paths asked next).
func checkVersions(path string, versions []string) ([]string, error) {
	if len(versions) > MaxGroupVersions {
		return nil, fmt.Errorf("discovery %s: the answer lists %d versions, more than %d: not an API server's answer", path, len(versions), MaxGroupVersions)
	}
	for _, v := range versions {
		if len(v) > 63 || !dnsLabel().MatchString(v) {
			return nil, fmt.Errorf("discovery %s: the answer lists a version %.70q, which is not a version's name", path, v)
		}
	}
	return versions, nil
}

func (d *discovery) fail(path string, err error) error {
	return fmt.Errorf("discovery %s: %w", path, err)
}

// wrong is a discovery document that is not what was asked for.
func (d *discovery) wrong(path string, err error) error {
	return fmt.Errorf("discovery %s: %w", path, &RequestError{Request: call{path: path}.String(), Err: err, answered: true})
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
				if len(r.Name) > 253 || !resourceNameRE().MatchString(r.Name) || strings.Contains(r.Name, "..") {
					return Resource{}, false, d.wrong(discoveryPath(group, v), fmt.Errorf("the resource of %s is named %.70q, which is not a resource's name", kind, r.Name))
				}
				av := v
				if group != "" {
					av = group + "/" + v
				}
				return Resource{APIVersion: av, Kind: kind, Name: r.Name, Namespaced: r.Namespaced}, true, nil
			}
		}
		return Resource{}, false, nil
	}
	if group != "" && (len(group) > 253 || !resourceNameRE().MatchString(group)) {
		return Resource{}, errNotServed // no path could name it
	}
	if version != "" && len(version) <= 63 && dnsLabel().MatchString(version) {
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
