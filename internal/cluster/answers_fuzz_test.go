package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
	"k8s.io/client-go/util/flowcontrol"
	sigsjson "sigs.k8s.io/json"
)

// The cluster's answers, fuzzed: one request of a read — an object's GET, a LIST, a
// discovery document, a CustomResourceDefinition — is answered with any status, any
// content type and any body; the rest by the test server. Whatever the answer, the read
// ends; an object Found is the object asked for, within the bounds; an object the fuzzed
// answer does not concern is read as usual; and nothing is taken for an absence but the
// API server's own answer that the object does not exist (a Status 404 naming it, a list
// that is read whole and lacks it).

// fuzzTargets are the requests a fuzzed answer may replace, and the objects (by name) it
// concerns.
var fuzzTargets = []struct {
	path     string
	concerns []string
}{
	{"/apis/apps/v1/namespaces/shop/deployments/chat", []string{"chat"}},
	{"/api/v1/namespaces/shop/configmaps", cmNames(12)},
	{"/api/v1/namespaces/front/configmaps/web", []string{"web"}},
	{"/apis/apps/v1", []string{"chat"}},
	{"/api/v1", append(cmNames(12), "web")},
	{"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com", []string{"w"}},
	{"/apis/example.com/v1/namespaces/shop/widgets/w", []string{"w"}},
	{"/apis/example.com/v1", []string{"w"}},
}

var fuzzCodes = []int{200, 404, 410, 429, 500, 503, 302, 403, 401, 204, 201}

var fuzzTypes = []string{"application/json", "", "text/html; charset=utf-8", "application/vnd.kubernetes.protobuf", "application/json;charset=utf-8", "text/plain", "application/yaml"}

func cmNames(n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, fmt.Sprintf("cm-%02d", i))
	}
	return out
}

// inMemory sends requests to a handler without a network, and one path's requests to the
// fuzzed answer.
type inMemory struct {
	h           http.Handler
	path        string
	code        int
	contentType string
	body        []byte
}

func (m *inMemory) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	if req.URL.Path == m.path {
		rec.Header().Set("Content-Type", m.contentType)
		if m.contentType == "" {
			rec.Header()["Content-Type"] = nil
		}
		if m.code >= 300 && m.code < 400 {
			rec.Header().Set("Location", "https://elsewhere.invalid/")
		}
		rec.WriteHeader(m.code)
		rec.Write(m.body)
	} else {
		m.h.ServeHTTP(rec, req)
	}
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}

func FuzzClusterAnswers(f *testing.F) {
	s, refs := fuzzCluster(f)
	for _, seed := range fuzzSeeds() {
		f.Add(seed.target, seed.code, seed.ct, []byte(seed.body))
	}
	f.Fuzz(func(t *testing.T, target, code, ct byte, body []byte) { fuzzAnswer(t, s, refs, target, code, ct, body) })
}

// fuzzCluster is the test server of FuzzClusterAnswers, and the objects read from it.
func fuzzCluster(tb testing.TB) (*clustertest.Server, []Ref) {
	s := clustertest.New(tb)
	s.Quiet = true
	s.Serve(clustertest.Resource{APIVersion: "example.com/v1", Kind: "Widget", Name: "widgets", Namespaced: true, Custom: true})
	s.Add(clustertest.Object("apps/v1", "Deployment", "shop", "chat", map[string]any{"spec": map[string]any{"replicas": 1}}))
	s.Add(cm("front", "web"))
	for _, n := range cmNames(12) {
		s.Add(cm("shop", n))
	}
	s.Add(clustertest.Object("example.com/v1", "Widget", "shop", "w", nil))
	s.Add(map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets.example.com"}, "spec": map[string]any{"group": "example.com"}})
	refs := []Ref{{APIVersion: "apps/v1", Kind: "Deployment", Name: "chat"}, {APIVersion: "v1", Kind: "ConfigMap", Namespace: "front", Name: "web"},
		{APIVersion: "example.com/v1", Kind: "Widget", Name: "w"}}
	for _, n := range cmNames(12) {
		refs = append(refs, Ref{APIVersion: "v1", Kind: "ConfigMap", Name: n})
	}
	return s, refs
}

type fuzzSeed struct {
	target, code, ct byte
	body             string
}

func fuzzSeeds() []fuzzSeed {
	var items []any
	for _, n := range cmNames(12) {
		items = append(items, clustertest.BareItem(cm("shop", n)))
	}
	return []fuzzSeed{
		{0, 0, 0, clustertest.Marshal(clustertest.Object("apps/v1", "Deployment", "shop", "chat", nil))},
		{0, 0, 0, clustertest.Marshal(clustertest.Object("apps/v1", "Deployment", "shop", "evil", nil))},
		{0, 1, 0, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \"chat\" not found","reason":"NotFound","details":{"name":"chat","group":"apps","kind":"deployments"},"code":404}`},
		{1, 0, 0, clustertest.List("v1", "ConfigMap", "", items...)},
		{1, 0, 0, clustertest.List("v1", "ConfigMap", "next", items[:5]...)},
		{1, 0, 0, strings.Replace(clustertest.List("v1", "ConfigMap", "", items...), `"items":[`, `"items":["x",`, 1)},
		{1, 2, 0, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old","reason":"Expired","code":410}`},
		{2, 0, 2, clustertest.LoginPage},
		{2, 0, 3, clustertest.ProtobufBody},
		{3, 0, 0, `{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"apps/v1","resources":[{"name":"deployments","namespaced":true,"kind":"Deployment","verbs":["get"]}]}`},
		{4, 1, 5, "404 page not found\n"},
		{5, 1, 0, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","details":{"name":"widgets.example.com","group":"apiextensions.k8s.io","kind":"customresourcedefinitions"},"code":404}`},
		{6, 4, 2, "<html>500</html>"},
		{7, 6, 0, ""},
	}
}

func fuzzAnswer(t *testing.T, s *clustertest.Server, refs []Ref, target, code, ct byte, body []byte) {
	{
		tg := fuzzTargets[int(target)%len(fuzzTargets)]
		m := &inMemory{h: s.Config.Handler, path: tg.path, code: fuzzCodes[int(code)%len(fuzzCodes)], contentType: fuzzTypes[int(ct)%len(fuzzTypes)], body: body}
		read := func() *Result {
			base, _ := url.Parse("https://cluster.invalid")
			c := &Client{Host: base.String(), Namespace: "shop", Timeout: 5 * time.Second, base: base,
				http: &http.Client{Transport: noRedirect{m}, CheckRedirect: refuseRedirect}, limiter: flowcontrol.NewFakeAlwaysRateLimiter(),
				budget: newBudget(4<<20, 0), maxDoc: 64 << 10, maxDepth: 64, readTimeout: 20 * time.Second, retries: 1, backoff: time.Microsecond}
			res, err := c.Read(context.Background(), refs, ReadOptions{HasSchema: func(g, v, k string) bool { return g != "example.com" }})
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			return res
		}
		res := read()
		// The same answer twice.
		again := read()
		for i, o := range res.Outcomes {
			a := again.Outcomes[i]
			if o.Status != a.Status || !bytes.Equal(o.Object, a.Object) || fmt.Sprint(o.Err) != fmt.Sprint(a.Err) {
				t.Fatalf("%s read twice: %d %v, then %d %v", o.ID, o.Status, o.Err, a.Status, a.Err)
			}
		}
		c := &Client{maxDoc: 64 << 10, maxDepth: 64}
		concerned := map[string]bool{}
		for _, n := range tg.concerns {
			concerned[n] = true
		}
		for _, o := range res.Outcomes {
			switch {
			case o.Status == Found:
				resource := resourceOf(o.Ref.Kind)
				if !json.Valid(o.Object) || !isObject(o.Object) {
					t.Fatalf("%s: found an object that is not one: %q", o.ID, o.Object)
				}
				if err := checkObject(o.Object, resource, o.ID.Namespace, o.ID.Name); err != nil {
					t.Fatalf("%s: found another object: %v", o.ID, err)
				}
				if err := c.kept(o.Object); err != nil {
					t.Fatalf("%s: found an object past the bounds: %v", o.ID, err)
				}
			case !concerned[o.ID.Name]:
				t.Fatalf("%s: %d (%v), though the fuzzed answer does not concern it", o.ID, o.Status, o.Err)
			case o.Status == NotFound && !fuzzSaysAbsent(m, o, resourceOf(o.Ref.Kind)):
				t.Fatalf("%s: taken for absent from %d %q %q", o.ID, m.code, m.contentType, body)
			case o.Status == Failed && (o.Err == nil || o.Err.Error() == ""):
				t.Fatalf("%s: failed without a reason", o.ID)
			}
		}
	}
}

func resourceOf(kind string) Resource {
	return map[string]Resource{"Deployment": {APIVersion: "apps/v1", Kind: "Deployment", Name: "deployments", Namespaced: true},
		"ConfigMap": {APIVersion: "v1", Kind: "ConfigMap", Name: "configmaps", Namespaced: true},
		"Widget":    {APIVersion: "example.com/v1", Kind: "Widget", Name: "widgets", Namespaced: true}}[kind]
}

// fuzzSaysAbsent says whether the fuzzed answer says the object does not exist, as the API
// server says it: a Status NotFound naming it to its GET, or a list read whole (every
// item named) that lacks it.
func fuzzSaysAbsent(m *inMemory, o Outcome, res Resource) bool {
	if m.path == path(res, o.ID.Namespace, o.ID.Name) {
		var st struct {
			Kind    string `json:"kind"`
			Status  string `json:"status"`
			Reason  string `json:"reason"`
			Code    *int   `json:"code"`
			Details *struct {
				Name  string `json:"name"`
				Group string `json:"group"`
				Kind  string `json:"kind"`
			} `json:"details"`
		}
		return m.code == 404 && sigsjson.UnmarshalCaseSensitivePreserveInts(m.body, &st) == nil && (st.Code == nil || *st.Code == 404) && st.Kind == "Status" && st.Status == "Failure" && st.Reason == "NotFound" &&
			st.Details != nil && st.Details.Name == o.ID.Name && st.Details.Kind == res.Name && st.Details.Group == res.Group()
	}
	if m.path == path(res, o.ID.Namespace, "") && m.code == 200 {
		p, err := decodeList(io.NopCloser(bytes.NewReader(m.body)), res, o.ID.Namespace, map[string][]int{o.ID.Name: {0}}, 64<<10, func([]byte) error { return nil })
		return err == nil && p.unidentified == "" && p.items[o.ID.Name] == nil && p.bad[o.ID.Name] == nil
	}
	return false
}
