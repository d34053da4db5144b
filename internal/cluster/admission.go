package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// AdmissionKind is a kind the server's admission chain reads, and the plugins that read it.
type AdmissionKind struct {
	Group, Version, Kind string
	Plugins              string
}

// AdmissionKinds are the kinds ReadAdmission lists, each at the versions it tries in
// order (a MutatingAdmissionPolicy is v1 from 1.36, v1beta1 on 1.34 and 1.35 servers that
// enable it). docs/rbac-reader.yaml grants list on each.
var AdmissionKinds = []AdmissionKind{
	{"", "v1", "Namespace", "NamespaceLifecycle, PodSecurity, the policies' namespace selectors"},
	{"", "v1", "ServiceAccount", "ServiceAccount"},
	{"", "v1", "LimitRange", "LimitRanger"},
	{"", "v1", "ResourceQuota", "ResourceQuota"},
	{"scheduling.k8s.io", "v1", "PriorityClass", "Priority"},
	{"storage.k8s.io", "v1", "StorageClass", "DefaultStorageClass"},
	{"networking.k8s.io", "v1", "IngressClass", "DefaultIngressClass"},
	{"node.k8s.io", "v1", "RuntimeClass", "RuntimeClass"},
	{"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicy"},
	{"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicyBinding", "ValidatingAdmissionPolicy"},
	{"admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicy", "MutatingAdmissionPolicy"},
	{"admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicyBinding", "MutatingAdmissionPolicy"},
}

// AdmissionRead is what ReadAdmission read.
type AdmissionRead struct {
	// Objects are every object read, each a JSON object with apiVersion and kind, in the
	// order of AdmissionKinds then the policies' paramKinds, each kind's by namespace and
	// name.
	Objects []json.RawMessage
	// Resources are the kinds listed, as the cluster serves them.
	Resources []Resource
	// Errors say, by kind ("ValidatingAdmissionPolicy.admissionregistration.k8s.io"), why
	// its objects could not be listed (RBAC forbids it …): what reads them is not predicted.
	Errors map[string]error
	// Lists and Pages count the requests sent.
	Lists, Pages int
}

// ReadAdmission lists, in every namespace, the objects of AdmissionKinds the cluster
// serves, then those of the kinds the admission policies read as params. Kinds the cluster
// does not serve are left out; a kind it refuses to list is an error of the read
// (AdmissionRead.Errors), not of ReadAdmission, which fails only when ctx ends.
func (c *Client) ReadAdmission(ctx context.Context) (*AdmissionRead, error) {
	// The read's deadline bounds this read as it bounds Read.
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, c.readTimeout)
	defer cancel()
	r := &reader{c: c, opts: ReadOptions{Parallel: DefaultParallel}, parent: parent, res: &Result{}}
	r.d = newDiscovery(r)
	out := &AdmissionRead{Errors: map[string]error{}}
	var mu sync.Mutex
	listKinds := func(kinds []AdmissionKind) [][]json.RawMessage {
		found := make([][]json.RawMessage, len(kinds))
		r.parallel(len(kinds), func(i int) {
			k := kinds[i]
			res, err := r.d.resolve(ctx, k.Group, k.Version, k.Kind)
			if errors.Is(err, errNotServed) {
				return
			}
			if err == nil {
				found[i], err = r.listAll(ctx, res)
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				out.Errors[kindString(k.Group, k.Kind)] = c.readError(kindString(k.Group, k.Kind)+" (for "+k.Plugins+")", "list", resourceIn(res, ""), err)
				return
			}
			out.Resources = append(out.Resources, res)
		})
		return found
	}
	for _, objs := range listKinds(AdmissionKinds) {
		out.Objects = append(out.Objects, objs...)
	}
	if err := parent.Err(); err != nil {
		return nil, err
	}
	params := paramKinds(out.Objects)
	for _, objs := range listKinds(params) {
		out.Objects = append(out.Objects, objs...)
	}
	if err := parent.Err(); err != nil {
		return nil, err
	}
	sort.Slice(out.Resources, func(i, j int) bool {
		a, b := out.Resources[i], out.Resources[j]
		if a.APIVersion != b.APIVersion {
			return a.APIVersion < b.APIVersion
		}
		return a.Kind < b.Kind
	})
	out.Lists, out.Pages = int(r.lists.Load()), int(r.pages.Load())
	return out, nil
}

// paramKinds are the kinds the policies among objs name as their paramKind, once each,
// sorted, those ReadAdmission lists anyway left out.
func paramKinds(objs []json.RawMessage) []AdmissionKind {
	seen := map[AdmissionKind]bool{}
	for _, k := range AdmissionKinds {
		seen[AdmissionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}] = true
	}
	var out []AdmissionKind
	for _, o := range objs {
		var p struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
			Spec struct {
				ParamKind *struct {
					APIVersion string `json:"apiVersion"`
					Kind       string `json:"kind"`
				} `json:"paramKind"`
			} `json:"spec"`
		}
		if json.Unmarshal(o, &p) != nil || p.Spec.ParamKind == nil || !strings.HasSuffix(p.Kind, "AdmissionPolicy") {
			continue
		}
		group, version := "", p.Spec.ParamKind.APIVersion
		if i := strings.LastIndex(version, "/"); i >= 0 {
			group, version = version[:i], version[i+1:]
		}
		k := AdmissionKind{Group: group, Version: version, Kind: p.Spec.ParamKind.Kind}
		if seen[k] || k.Kind == "" {
			continue
		}
		seen[k] = true
		k.Plugins = "the params of " + p.Kind + " " + strconv.Quote(p.Metadata.Name)
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		return kindString(out[i].Group, out[i].Kind) < kindString(out[j].Group, out[j].Kind)
	})
	return out
}

// listAll reads every object of a resource in every namespace with a LIST, paged and
// bounded as every LIST of the read is (list), each with its apiVersion and kind. An item
// that cannot be read, or is not of the kind, fails the whole kind: what reads it is then
// not predicted.
func (r *reader) listAll(ctx context.Context, res Resource) ([]json.RawMessage, error) {
	r.lists.Add(1)
	lr, err := r.list(ctx, res, "", nil)
	if err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	if lr.unidentified != "" {
		return nil, errors.New(lr.unidentified)
	}
	if len(lr.bad) > 0 {
		keys := make([]string, 0, len(lr.bad))
		for k := range lr.bad {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return nil, lr.bad[keys[0]]
	}
	return lr.all, nil
}
