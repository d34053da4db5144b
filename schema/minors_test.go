package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema/builtin"
)

func minorRegistry(t *testing.T, minor int) *Registry {
	t.Helper()
	r, err := NewRegistry(kube.Minor(minor))
	if err != nil {
		t.Fatal(err)
	}
	if r.Minor() != kube.Minor(minor) {
		t.Fatalf("NewRegistry(1.%d).Minor() = %s", minor, r.Minor())
	}
	return r
}

// TestNewRegistry: one registry per embedded release, of every minor of kube.Minors; a
// minor without a release (the zero Minor among them) is an error.
func TestNewRegistry(t *testing.T) {
	for _, m := range kube.Minors() {
		minorRegistry(t, int(m))
	}
	if r, err := NewRegistry(0); err == nil {
		t.Errorf("NewRegistry(the zero Minor) = %v: no minor has no schemas", r.Minor())
	}
	if _, err := NewRegistry(kube.Oldest() - 1); err == nil || !strings.Contains(err.Error(), "no embedded schema of Kubernetes "+(kube.Oldest()-1).String()) {
		t.Errorf("NewRegistry(%s): %v", kube.Oldest()-1, err)
	}
	for _, rel := range builtin.Releases() {
		r := minorRegistry(t, int(rel.Minor()))
		if len(r.GVKs()) != len(rel.Kinds()) {
			t.Errorf("%s: %d types for %d kinds", rel.Kubernetes(), len(r.GVKs()), len(rel.Kinds()))
		}
	}
}

// TestServedMatchesRelease holds every release's registry to the facts schema/gen read from
// that release's kube-apiserver sources (testdata/served/1.<minor>.txt: the group-versions
// its default API resource configuration enables, the resources its storage providers
// register there under its default feature gates, and their /status and /scale): a
// built-in kind is served exactly when its resource is, with the same subresources, and a
// built-in group is served exactly when one of its resources is.
func TestServedMatchesRelease(t *testing.T) {
	for _, rel := range builtin.Releases() {
		m := int(rel.Minor())
		text, err := os.ReadFile(filepath.Join("testdata", "served", rel.Minor().String()+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(text), "kube-apiserver "+rel.Kubernetes()+" ") {
			t.Errorf("served facts of %s are not of release %s", rel.Minor(), rel.Kubernetes())
		}
		type facts struct{ status, scale bool }
		served := map[[3]string]facts{} // group, version, resource
		groups := map[string]bool{}
		for _, line := range strings.Split(string(text), "\n") {
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			f := strings.Fields(line)
			gv := strings.SplitN(f[0], "/", 2)
			served[[3]string{gv[0], gv[1], f[1]}] = facts{status: strings.Contains(line, " status"), scale: strings.Contains(line, " scale")}
			groups[gv[0]] = true
		}
		r := minorRegistry(t, m)
		matched := map[[3]string]bool{}
		for _, gvk := range r.GVKs() {
			typ, _ := r.Lookup(gvk)
			key := [3]string{gvk.Group, gvk.Version, typ.Resource}
			f, ok := served[key]
			if typ.Served != ok {
				t.Errorf("%s: %s: Served %v, the release serves %s: %v", rel.Kubernetes(), gvk, typ.Served, typ.Resource, ok)
				continue
			}
			if !ok {
				continue
			}
			matched[key] = true
			if typ.Status != f.status || (typ.Scale != nil) != f.scale {
				t.Errorf("%s: %s: status %v scale %v, the release: status %v scale %v", rel.Kubernetes(), gvk, typ.Status, typ.Scale != nil, f.status, f.scale)
			}
		}
		known := map[string]bool{}
		for _, gvk := range r.GVKs() {
			known[gvk.Group] = true
		}
		for g := range groups {
			// authentication.k8s.io and authorization.k8s.io serve only reviews (create, no
			// apply configuration): no kind of theirs is in the index, and the registry
			// knows nothing of the groups.
			if known[g] && !r.BuiltinGroupServed(g) {
				t.Errorf("%s: group %q is served, BuiltinGroupServed says not", rel.Kubernetes(), g)
			}
		}
		for _, gvk := range r.GVKs() {
			if r.BuiltinGroupServed(gvk.Group) && !groups[gvk.Group] {
				t.Errorf("%s: BuiltinGroupServed(%q), the release serves none of its resources", rel.Kubernetes(), gvk.Group)
			}
		}
		if len(matched) < 50 {
			t.Errorf("%s: only %d served resources matched a kind", rel.Kubernetes(), len(matched))
		}
		t.Logf("%s: %d resources served, %d of them kinds with apply configurations", rel.Kubernetes(), len(served), len(matched))
	}
}

// TestServedPerMinor pins the differences of served kinds between the minors.
func TestServedPerMinor(t *testing.T) {
	for _, tc := range []struct {
		gvk   GVK
		since int
	}{
		{GVK{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicy"}, 36},
		{GVK{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicyBinding"}, 36},
		{GVK{Group: "certificates.k8s.io", Version: "v1", Kind: "ClusterTrustBundle"}, 37},
		{GVK{Group: "certificates.k8s.io", Version: "v1", Kind: "PodCertificateRequest"}, 37},
		{GVK{Group: "resource.k8s.io", Version: "v1", Kind: "DeviceTaintRule"}, 37},
		{GVK{Group: "storagemigration.k8s.io", Version: "v1", Kind: "StorageVersionMigration"}, 37},
		{GVK{Group: "apps", Version: "v1", Kind: "Deployment"}, 34},
	} {
		for m := 34; m <= 37; m++ {
			want := Served
			if m < tc.since {
				want = NotServed
			}
			if got := minorRegistry(t, m).Serving(tc.gvk); got != want {
				t.Errorf("1.%d: Serving(%s) = %v, want %v", m, tc.gvk, got, want)
			}
		}
	}
	for m := 34; m <= 37; m++ {
		r := minorRegistry(t, m)
		// Before 1.37 storagemigration.k8s.io has no GA version: the server has no handler
		// for the group and answers any request for it with a plain-text 404.
		if got := r.BuiltinGroupServed("storagemigration.k8s.io"); got != (m >= 37) {
			t.Errorf("1.%d: BuiltinGroupServed(storagemigration.k8s.io) = %v", m, got)
		}
		csinode, _ := r.Lookup(GVK{Group: "storage.k8s.io", Version: "v1", Kind: "CSINode"})
		if csinode == nil || csinode.Status != (m >= 37) {
			t.Errorf("1.%d: CSINode %+v: /status from 1.37", m, csinode)
		}
	}
}

// TestNewerFieldsUnknownToOlderMinors: a field a release adds is not declared in the
// schema of the minors before it, so an apply that sets it is refused by SMD's conversion
// ("field not declared in schema") at those minors and accepted from the release on.
func TestNewerFieldsUnknownToOlderMinors(t *testing.T) {
	for _, tc := range []struct {
		name       string
		apiVersion string
		kind       string
		since      int
		obj        string
	}{
		{"NodeSystemInfo.runningInUserNamespace (1.37)", "v1", "Node", 37,
			`{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"status":{"nodeInfo":{"runningInUserNamespace":true}}}`},
		{"CSINode.status (1.37)", "storage.k8s.io/v1", "CSINode", 37,
			`{"apiVersion":"storage.k8s.io/v1","kind":"CSINode","metadata":{"name":"n"},"spec":{"drivers":[]},"status":{}}`},
		{"ConfigMapVolumeSource.defaultUser (1.37)", "v1", "Pod", 37,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","configMap":{"name":"c","defaultUser":1000}}]}}`},
		{"PodSpec.schedulingGroup (1.36)", "v1", "Pod", 36,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"schedulingGroup":{"podGroupName":"g"}}}`},
		{"CSIDriverSpec.serviceAccountTokenInSecrets (1.35)", "storage.k8s.io/v1", "CSIDriver", 35,
			`{"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"d"},"spec":{"serviceAccountTokenInSecrets":true}}`},
		{"CustomResourceDefinitionStatus.observedGeneration (1.35)", "apiextensions.k8s.io/v1", "CustomResourceDefinition", 35,
			`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b.c"},"status":{"observedGeneration":1}}`},
	} {
		for m := 34; m <= 37; m++ {
			typ, _ := minorRegistry(t, m).Lookup(mustGVK(t, tc.apiVersion, tc.kind))
			if typ == nil {
				t.Fatalf("1.%d: no %s %s", m, tc.apiVersion, tc.kind)
			}
			_, err := typ.Parseable.FromUnstructured(fromYAML(t, tc.obj))
			if m >= tc.since && err != nil {
				t.Errorf("%s at 1.%d: %v", tc.name, m, err)
			}
			if m < tc.since && (err == nil || !strings.Contains(err.Error(), "field not declared in schema")) {
				t.Errorf("%s at 1.%d: %v, want field not declared in schema", tc.name, m, err)
			}
		}
	}
}

func mustGVK(t *testing.T, apiVersion, kind string) GVK {
	t.Helper()
	g, v := "", apiVersion
	if i := strings.IndexByte(apiVersion, '/'); i >= 0 {
		g, v = apiVersion[:i], apiVersion[i+1:]
	}
	return GVK{Group: g, Version: v, Kind: kind}
}
