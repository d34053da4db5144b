// Package clustertest is an API server for tests: it answers discovery, GET and LIST (paged
// with limit and continue) of the objects it holds as kube-apiserver answers them —
// Status errors 404 and 403 with the server's wording, lists whose items of built-in kinds
// carry no apiVersion and kind — and can refuse, delay, answer in its place (the faults of
// a cluster) or log any request. [Silent] is a server that never answers.
package clustertest

import (
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Resource is a kind the server serves.
type Resource struct {
	APIVersion string // "apps/v1"
	Kind       string
	Name       string // "deployments"
	Namespaced bool
	// Custom: its LIST items carry apiVersion and kind (as custom resources' do).
	Custom bool
}

func (r Resource) group() string {
	if i := strings.IndexByte(r.APIVersion, '/'); i >= 0 {
		return r.APIVersion[:i]
	}
	return ""
}

func (r Resource) version() string { return r.APIVersion[strings.IndexByte(r.APIVersion, '/')+1:] }

// Server is a fake API server. Set its fields before the requests they affect.
type Server struct {
	*httptest.Server
	// GitVersion is what /version answers (default v1.37.2).
	GitVersion string
	// User is the user named in refusals.
	User string
	// Token, when set, is the bearer token every request must carry (else 401).
	Token string
	// Forbid refuses a request (403) when it returns true; verb is get or list, resource
	// the resource name, ns "" for cluster-scoped or all namespaces.
	Forbid func(verb, group, resource, ns, name string) bool
	// Delay holds a request before it is answered.
	Delay func(r *http.Request) time.Duration
	// Intercept answers a request in the server's place when it returns true (after Delay,
	// before authentication): the faults of a cluster — 429, 5xx, 410 — are injected so.
	Intercept func(w http.ResponseWriter, r *http.Request) bool
	// Quiet: the requests are not kept for Requests (a fuzz target sends millions).
	Quiet bool

	mu        sync.Mutex
	resources []Resource
	preferred map[string]string
	objects   map[string]map[string]any // by path of the object
	requests  []string
}

// New starts a server serving the core kinds ConfigMap, Secret, Service, Namespace and the
// apps kinds Deployment and StatefulSet; it stops when the test ends.
func New(t testing.TB) *Server {
	s := &Server{GitVersion: "v1.37.2", User: "ci", preferred: map[string]string{}, objects: map[string]map[string]any{}}
	for _, r := range []Resource{
		{"v1", "ConfigMap", "configmaps", true, false},
		{"v1", "Secret", "secrets", true, false},
		{"v1", "Service", "services", true, false},
		{"v1", "Namespace", "namespaces", false, false},
		{"apps/v1", "Deployment", "deployments", true, false},
		{"apps/v1", "StatefulSet", "statefulsets", true, false},
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", "customresourcedefinitions", false, false},
	} {
		s.Serve(r)
	}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(s.handle))
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // clients that give up are the tests' point
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

// Serve adds a kind; the first version served of a group is its preferred one.
func (s *Server) Serve(r Resource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resources = append(s.resources, r)
	if _, ok := s.preferred[r.group()]; !ok {
		s.preferred[r.group()] = r.version()
	}
}

// Add stores objects (decoded JSON), served at every version of their kind.
func (s *Server) Add(objs ...map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, obj := range objs {
		av, _ := obj["apiVersion"].(string)
		kind, _ := obj["kind"].(string)
		md, _ := obj["metadata"].(map[string]any)
		ns, _ := md["namespace"].(string)
		name, _ := md["name"].(string)
		r, ok := s.find(av, kind)
		if !ok {
			panic(fmt.Sprintf("clustertest: no resource serves %s %s", av, kind))
		}
		s.objects[objectKey(r.group(), r.Name, ns, name)] = obj
	}
}

// Requests are the requests answered so far, as "GET /path?query".
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// Kubeconfig writes a kubeconfig for the server into dir, with one context "test" whose
// namespace is ns, and returns its path.
func (s *Server) Kubeconfig(t testing.TB, dir, ns string) string {
	t.Helper()
	user := ""
	if s.Token != "" {
		user = "token: " + s.Token
	}
	return KubeconfigFile(t, dir, s.URL, "certificate-authority-data: "+s.CAData(), user, ns)
}

// KubeconfigFile writes into dir a kubeconfig whose one context, "test", is the cluster at
// server, with more fields of the cluster (YAML, "insecure-skip-tls-verify: true") and the
// fields of the user ("token: t", "exec: {…}"), and namespace ns; it returns its path.
func KubeconfigFile(t testing.TB, dir, server, cluster, user, ns string) string {
	t.Helper()
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: test
  cluster: {server: %q, %s}
users:
- name: test
  user: {%s}
contexts:
- name: test
  context: {cluster: test, user: test, namespace: %q}
current-context: test
`, server, cluster, user, ns)
	path := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// CAData is the server's certificate authority as a kubeconfig's certificate-authority-data.
func (s *Server) CAData() string {
	return base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw}))
}

func objectKey(group, resource, ns, name string) string {
	return group + "/" + resource + "/" + ns + "/" + name
}

func (s *Server) find(apiVersion, kind string) (Resource, bool) {
	for _, r := range s.resources {
		if r.APIVersion == apiVersion && r.Kind == kind {
			return r, true
		}
	}
	return Resource{}, false
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	q := ""
	if r.URL.RawQuery != "" {
		q = "?" + r.URL.RawQuery
	}
	if !s.Quiet {
		s.requests = append(s.requests, r.Method+" "+r.URL.Path+q)
	}
	s.mu.Unlock()
	if s.Delay != nil {
		if d := s.Delay(r); d > 0 {
			select {
			case <-time.After(d):
			case <-r.Context().Done():
				return
			}
		}
	}
	if s.Intercept != nil && s.Intercept(w, r) {
		return
	}
	if s.Token != "" && r.Header.Get("Authorization") != "Bearer "+s.Token {
		status(w, http.StatusUnauthorized, "Unauthorized", "Unauthorized", nil)
		return
	}
	if r.Method != http.MethodGet {
		status(w, http.StatusMethodNotAllowed, "MethodNotAllowed", "the server does not allow this method on the requested resource", nil)
		return
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case r.URL.Path == "/version":
		writeJSON(w, http.StatusOK, map[string]any{"major": "1", "minor": strings.Split(strings.TrimPrefix(s.GitVersion, "v1."), ".")[0],
			"gitVersion": s.GitVersion, "platform": "linux/amd64"})
	case r.URL.Path == "/api":
		writeJSON(w, http.StatusOK, map[string]any{"kind": "APIVersions", "versions": []string{"v1"}})
	case parts[0] == "api" && len(parts) == 2:
		s.resourceList(w, "", parts[1])
	case parts[0] == "apis" && len(parts) == 2:
		s.group(w, parts[1])
	case parts[0] == "apis" && len(parts) == 3:
		s.resourceList(w, parts[1], parts[2])
	case parts[0] == "api" && len(parts) >= 3:
		s.object(w, r, "", parts[1], parts[2:])
	case parts[0] == "apis" && len(parts) >= 4:
		s.object(w, r, parts[1], parts[2], parts[3:])
	default:
		notFoundPage(w)
	}
}

// notFoundPage is the server's answer to a path it does not serve: not a Status.
func notFoundPage(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	fmt.Fprint(w, "404 page not found\n")
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// WriteStatus answers with a Status error, as kube-apiserver does: code, reason
// (TooManyRequests, Expired, InternalError …) and message.
func WriteStatus(w http.ResponseWriter, code int, reason, msg string) {
	status(w, code, reason, msg, nil)
}

func status(w http.ResponseWriter, code int, reason, msg string, details map[string]any) {
	st := map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
		"message": msg, "reason": reason, "code": code}
	if details != nil {
		st["details"] = details
	}
	writeJSON(w, code, st)
}

func (s *Server) group(w http.ResponseWriter, group string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	pref, ok := s.preferred[group]
	if !ok {
		notFoundPage(w)
		return
	}
	gv := func(v string) map[string]any { return map[string]any{"groupVersion": group + "/" + v, "version": v} }
	versions := []any{gv(pref)}
	seen := map[string]bool{pref: true}
	for _, r := range s.resources {
		if r.group() == group && !seen[r.version()] {
			seen[r.version()] = true
			versions = append(versions, gv(r.version()))
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"kind": "APIGroup", "apiVersion": "v1", "name": group, "versions": versions, "preferredVersion": gv(pref)})
}

func (s *Server) resourceList(w http.ResponseWriter, group, version string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gv := version
	if group != "" {
		gv = group + "/" + version
	}
	var list []any
	for _, r := range s.resources {
		if r.APIVersion == gv {
			list = append(list, map[string]any{"name": r.Name, "singularName": strings.ToLower(r.Kind), "namespaced": r.Namespaced,
				"kind": r.Kind, "verbs": []string{"get", "list", "patch"}})
			list = append(list, map[string]any{"name": r.Name + "/status", "singularName": "", "namespaced": r.Namespaced,
				"kind": r.Kind, "verbs": []string{"get", "patch"}})
		}
	}
	if list == nil {
		notFoundPage(w)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": list})
}

// object answers GET and LIST at /api(s)/[group/]version/[namespaces/NS/]resource[/name].
func (s *Server) object(w http.ResponseWriter, r *http.Request, group, version string, rest []string) {
	ns := ""
	if len(rest) >= 3 && rest[0] == "namespaces" {
		ns, rest = rest[1], rest[2:]
	}
	if len(rest) == 0 || len(rest) > 2 {
		notFoundPage(w)
		return
	}
	gv := version
	if group != "" {
		gv = group + "/" + version
	}
	s.mu.Lock()
	var res Resource
	found := false
	for _, x := range s.resources {
		if x.APIVersion == gv && x.Name == rest[0] {
			res, found = x, true
		}
	}
	s.mu.Unlock()
	if !found {
		notFoundPage(w)
		return
	}
	qualified := res.Name
	if group != "" {
		qualified += "." + group
	}
	verb, name := "list", ""
	if len(rest) == 2 {
		verb, name = "get", rest[1]
	}
	if s.Forbid != nil && s.Forbid(verb, group, res.Name, ns, name) {
		msg := fmt.Sprintf("User %q cannot %s resource %q in API group %q", s.User, verb, res.Name, group)
		if ns != "" {
			msg += fmt.Sprintf(" in the namespace %q", ns)
		} else {
			msg += " at the cluster scope"
		}
		what := qualified
		if name != "" {
			what += fmt.Sprintf(" %q", name)
		}
		status(w, http.StatusForbidden, "Forbidden", what+" is forbidden: "+msg, map[string]any{"name": name, "group": group, "kind": res.Name})
		return
	}
	withType := func(obj map[string]any) map[string]any {
		out := make(map[string]any, len(obj))
		for k, v := range obj {
			out[k] = v
		}
		out["apiVersion"], out["kind"] = gv, res.Kind
		return out
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if verb == "get" {
		obj, ok := s.objects[objectKey(group, res.Name, ns, name)]
		if !ok {
			status(w, http.StatusNotFound, "NotFound", fmt.Sprintf("%s %q not found", qualified, name), map[string]any{"name": name, "group": group, "kind": res.Name})
			return
		}
		writeJSON(w, http.StatusOK, withType(obj))
		return
	}
	prefix := objectKey(group, res.Name, ns, "")
	var keys []string
	for k := range s.objects {
		if strings.HasPrefix(k, prefix) || (ns == "" && strings.HasPrefix(k, group+"/"+res.Name+"/")) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	start, _ := strconv.Atoi(r.URL.Query().Get("continue"))
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	end := len(keys)
	if limit > 0 && start+limit < end {
		end = start + limit
	}
	meta := map[string]any{"resourceVersion": "100"}
	if end < len(keys) {
		meta["continue"] = strconv.Itoa(end)
	}
	items := []any{}
	for _, k := range keys[min(start, len(keys)):end] {
		item := s.objects[k]
		if res.Custom {
			item = withType(item)
		} else {
			// Items of built-in kinds come without apiVersion and kind.
			stripped := make(map[string]any, len(item))
			for k, v := range item {
				if k != "apiVersion" && k != "kind" {
					stripped[k] = v
				}
			}
			item = stripped
		}
		items = append(items, item)
	}
	writeJSON(w, http.StatusOK, map[string]any{"kind": res.Kind + "List", "apiVersion": gv, "metadata": meta, "items": items})
}
