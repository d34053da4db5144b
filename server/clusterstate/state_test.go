package clusterstate

import (
	"strings"
	"testing"
)

func object(av, kind, ns, name string) map[string]any {
	md := map[string]any{"name": name}
	if ns != "" {
		md["namespace"] = ns
	}
	return map[string]any{"apiVersion": av, "kind": kind, "metadata": md}
}

// TestState pins how a State indexes what it is given: by group and kind (any version),
// namespace and name; a kind it holds nothing of is unknown; the first of two objects with
// one identity is kept; objects that cannot be identified are errors naming their source.
func TestState(t *testing.T) {
	s, err := New([]Object{
		{object("v1", "Namespace", "", "shop"), "a.json:1"},
		{object("v1", "LimitRange", "shop", "defaults"), "a.json:5"},
		{object("v1", "LimitRange", "ci", "defaults"), "a.json:9"},
		{object("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "", "p"), "b.yaml:1"},
		{object("admissionregistration.k8s.io/v1beta1", "ValidatingAdmissionPolicy", "", "p"), "c.yaml:1"},
		{map[string]any{"kind": "Namespace"}, "d.json:3"},
		{object("v1", "Namespace", "", ""), "d.json:7"},
	})
	if err == nil || !strings.Contains(err.Error(), "d.json:3: the object has no apiVersion") || !strings.Contains(err.Error(), "d.json:7: the Namespace has no metadata.name") {
		t.Errorf("errors: %v", err)
	}
	if s.Len() != 4 {
		t.Errorf("Len %d, want 4", s.Len())
	}
	if !s.Knows("", "Namespace") || s.Knows("", "ResourceQuota") {
		t.Error("Knows: a kind is known when the state holds one of its objects")
	}
	if _, ok := s.Get("", "LimitRange", "shop", "defaults"); !ok {
		t.Error("Get shop/defaults")
	}
	if got := len(s.List("", "LimitRange", "shop")); got != 1 {
		t.Errorf("List in shop: %d", got)
	}
	if got := len(s.List("", "LimitRange", "*")); got != 2 {
		t.Errorf("List in all namespaces: %d", got)
	}
	if got := s.SourceOf("admissionregistration.k8s.io", "ValidatingAdmissionPolicy", "", "p"); got != "b.yaml:1" {
		t.Errorf("the first of two objects with one identity is kept: %s", got)
	}
	if w := s.Warnings(); len(w) != 1 || !strings.Contains(w[0], "c.yaml:1: a second ValidatingAdmissionPolicy.admissionregistration.k8s.io p: the first, at b.yaml:1, is used") {
		t.Errorf("warnings %q", w)
	}
	var kinds []string
	for _, gk := range s.Kinds() {
		kinds = append(kinds, gk.String())
	}
	if got := strings.Join(kinds, " "); got != "LimitRange Namespace ValidatingAdmissionPolicy.admissionregistration.k8s.io" {
		t.Errorf("Kinds %s", got)
	}
	var nilState *State
	if nilState.Knows("", "Namespace") || nilState.Len() != 0 || nilState.List("", "Namespace", "*") != nil {
		t.Error("a nil State holds nothing")
	}
}

func TestParseRule(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Rule
		err  string
	}{
		{in: "create deployments.apps shop/*=allow", want: Rule{Check{Verb: "create", Group: "apps", Resource: "deployments", Namespace: "shop", Name: "*"}, true}},
		{in: "* secrets=deny", want: Rule{Check{Verb: "*", Resource: "secrets"}, false}},
		{in: "update deployments.apps/scale web=allow", want: Rule{Check{Verb: "update", Group: "apps", Resource: "deployments", Subresource: "scale", Name: "web"}, true}},
		{in: "get pods.core=allow", want: Rule{Check{Verb: "get", Resource: "pods"}, true}},
		{in: "get /healthz=allow", want: Rule{Check{Verb: "get", Path: "/healthz"}, true}},
		{in: "get pods", err: "no =allow or =deny"},
		{in: "get pods=maybe", err: `"maybe" is neither allow nor deny`},
		{in: "get=allow", err: "want VERB"},
		{in: "get /x ns/n=allow", err: "a non-resource path takes no namespace"},
		{in: "get pods/=allow", err: "bad subresource"},
		{in: "get pods ns/=allow", err: "is not NAMESPACE/NAME"},
		{in: "get .apps=allow", err: "no resource"},
	} {
		got, err := ParseRule(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestAuthorizationDecide(t *testing.T) {
	a := Authorization{Rules: []Rule{
		{Check{Verb: "create", Group: "apps", Resource: "deployments", Namespace: "shop"}, true},
		{Check{Verb: "*", Resource: "secrets"}, false},
		{Check{Verb: "get", Path: "/metrics*"}, true},
	}}
	for _, tc := range []struct {
		c            Check
		allowed, got bool
	}{
		{Check{Verb: "create", Group: "apps", Resource: "deployments", Namespace: "shop", Name: "web"}, true, true},
		{Check{Verb: "create", Group: "apps", Resource: "deployments", Namespace: "ci"}, false, false},
		{Check{Verb: "list", Resource: "secrets", Namespace: "x"}, false, true},
		{Check{Verb: "get", Path: "/metrics/slis"}, true, true},
		{Check{Verb: "get", Path: "/healthz"}, false, false},
	} {
		allowed, known := a.Decide(tc.c)
		if allowed != tc.allowed || known != tc.got {
			t.Errorf("%s: allowed %v known %v", tc.c, allowed, known)
		}
	}
}

func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"create deployments.apps shop/*=allow", "get /healthz=deny", "* */*=allow", "a b c d=allow", "=", "x y/z/w=deny"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s)
		if err != nil {
			return
		}
		if r.Verb == "" || (r.Path == "" && r.Resource == "") {
			t.Fatalf("%q parsed to %+v", s, r)
		}
		// A rule parsed decides the check it names as it says.
		c := r.Check
		if allowed, known := (Authorization{Rules: []Rule{r}}).Decide(c); !known || allowed != r.Allowed {
			t.Fatalf("%q: the rule does not answer its own check", s)
		}
	})
}
