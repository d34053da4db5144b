package cluster

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
)

// The faults of a cluster, each injected into the test server: what the read does with
// it. A fault never becomes a create, and never a wait without end.

// kubeconfigFor writes a kubeconfig for a server at url, with TLS verification as given.
func kubeconfigFor(t *testing.T, url, cluster string) string {
	return clustertest.KubeconfigFile(t, t.TempDir(), url, cluster, "token: t", "shop")
}

// answers counts the requests to paths ending in suffix and answers the first n of them
// with fault; the others go to the server.
type answers struct {
	mu     sync.Mutex
	suffix string
	n      int
	seen   int
	fault  func(w http.ResponseWriter)
}

func (a *answers) intercept(w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasSuffix(r.URL.Path, a.suffix) {
		return false
	}
	a.mu.Lock()
	a.seen++
	n := a.seen
	a.mu.Unlock()
	if a.n >= 0 && n > a.n {
		return false
	}
	a.fault(w)
	return true
}

func (a *answers) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.seen
}

func webRef() Ref { return Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "web"} }

// 429 and 5xx: the GET is sent again, with backoff, until it is answered or its retries
// are spent; then the object is Failed, saying so. 501 is no passing state: not retried.
func TestRetries(t *testing.T) {
	tooMany := func(retryAfter string) func(w http.ResponseWriter) {
		return func(w http.ResponseWriter) {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			clustertest.WriteStatus(w, http.StatusTooManyRequests, "TooManyRequests", "Too many requests, please try again later.")
		}
	}
	page := func(code int) func(w http.ResponseWriter) {
		return func(w http.ResponseWriter) {
			w.WriteHeader(code)
			fmt.Fprintf(w, "<html>%d from the load balancer</html>", code)
		}
	}
	for _, c := range []struct {
		name     string
		n        int // faults before the server answers (-1: always)
		fault    func(w http.ResponseWriter)
		status   Status
		requests int
		err      string
	}{
		{"429 then answered", 2, tooMany("0"), Found, 3, ""},
		{"429 without Retry-After", 1, tooMany(""), Found, 2, ""},
		{"503 from a proxy then answered", 3, page(503), Found, 4, ""},
		{"502", 1, page(502), Found, 2, ""},
		{"504", 1, page(504), Found, 2, ""},
		{"500 InternalError", 1, func(w http.ResponseWriter) {
			clustertest.WriteStatus(w, 500, "InternalError", "Internal error occurred: etcdserver: leader changed")
		}, Found, 2, ""},
		{"429 always", -1, tooMany("0"), Failed, 4, "Too many requests, please try again later. (the same answer after 3 retries)"},
		{"503 always", -1, page(503), Failed, 4, "the server is currently unable to handle the request (the same answer after 3 retries)"},
		{"501 is not retried", -1, page(501), Failed, 1, "cannot read ConfigMap shop/web from the cluster: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := clustertest.New(t)
			s.Add(cm("shop", "web"))
			a := &answers{suffix: "/configmaps/web", n: c.n, fault: c.fault}
			s.Intercept = a.intercept
			res := read(t, connect(t, s, Options{Retries: 3, RetryBackoff: 1}), ReadOptions{}, webRef())
			o := res.Outcomes[0]
			if o.Status != c.status || a.count() != c.requests {
				t.Errorf("status %d after %d requests, want %d after %d (%v)", o.Status, a.count(), c.status, c.requests, o.Err)
			}
			if c.err != "" && (o.Err == nil || !strings.Contains(o.Err.Error(), c.err)) {
				t.Errorf("error %v, want it to say %q", o.Err, c.err)
			}
		})
	}
}

// Retry-After is honoured: a retry waits that long, even when the backoff is shorter. With
// a request timeout shorter than Retry-After, the wait ends the request before it is sent
// again (without Retry-After, it would have been answered).
func TestRetryAfterHonoured(t *testing.T) {
	s := clustertest.New(t)
	s.Add(cm("shop", "web"))
	a := &answers{suffix: "/configmaps/web", n: 1, fault: func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "60")
		clustertest.WriteStatus(w, http.StatusTooManyRequests, "TooManyRequests", "Too many requests, please try again later.")
	}}
	s.Intercept = a.intercept
	res := read(t, connect(t, s, Options{RequestTimeout: "1s", RetryBackoff: 1}), ReadOptions{}, webRef())
	o := res.Outcomes[0]
	if o.Status != Failed || a.count() != 1 || !strings.Contains(o.Err.Error(), "GET /api/v1/namespaces/shop/configmaps/web: no answer within --request-timeout 1s but the last answer was 429 Too Many Requests, Retry-After 60 s") {
		t.Errorf("status %d after %d requests (%v): want Failed after one, the request timeout spent waiting", o.Status, a.count(), o.Err)
	}
}

// The waits grow: with a first wait of 1 s and a request timeout of 1.5 s, an always
// failing GET is sent twice at most (then the second wait, 2 s, outlasts the timeout);
// without backoff it would be sent 1 + Retries times.
func TestBackoffGrows(t *testing.T) {
	s := clustertest.New(t)
	s.Add(cm("shop", "web"))
	a := &answers{suffix: "/configmaps/web", n: -1, fault: func(w http.ResponseWriter) {
		clustertest.WriteStatus(w, http.StatusServiceUnavailable, "ServiceUnavailable", "the server is shutting down")
	}}
	s.Intercept = a.intercept
	res := read(t, connect(t, s, Options{RequestTimeout: "1500ms", Retries: 5, RetryBackoff: 1e9}), ReadOptions{}, webRef())
	if o := res.Outcomes[0]; o.Status != Failed || a.count() < 1 || a.count() > 2 {
		t.Errorf("status %d after %d requests (%v): want Failed after one or two", o.Status, a.count(), o.Err)
	}
}

// A cluster that cannot be reached is said so at once, naming the server: the connection
// refused, the name unknown, the certificate not trusted. None is retried.
func TestUnreachableQuickly(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "https://" + l.Addr().String()
	l.Close()
	s := clustertest.New(t)
	for _, c := range []struct {
		name, url, cluster, want string
	}{
		{"connection refused", closed, "insecure-skip-tls-verify: true", "connection refused"},
		{"unknown name", "https://cluster.ssa-diff-test.invalid:6443", "insecure-skip-tls-verify: true", "no such host"},
		{"untrusted certificate", s.URL, "tls-server-name: 127.0.0.1", "certificate signed by unknown authority"},
	} {
		t.Run(c.name, func(t *testing.T) {
			client, err := Connect(Options{Kubeconfig: kubeconfigFor(t, c.url, c.cluster)})
			if err != nil {
				t.Fatal(err)
			}
			_, err = client.ServerVersion(context.Background())
			if err == nil || !strings.Contains(err.Error(), "cannot reach the cluster at "+c.url) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v, want it to name %s and say %q", err, c.url, c.want)
			}
		})
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("the server with the untrusted certificate answered %d requests", n)
	}
}

// A server that accepts connections and never answers: the request timeout ends the wait.
func TestServerThatNeverAnswers(t *testing.T) {
	addr, accepted := clustertest.Silent(t)
	client, err := Connect(Options{Kubeconfig: kubeconfigFor(t, "https://"+addr, "insecure-skip-tls-verify: true"), RequestTimeout: "300ms"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.ServerVersion(context.Background())
	if err == nil || !strings.Contains(err.Error(), "cannot reach the cluster at https://"+addr) || !strings.Contains(err.Error(), "no answer within --request-timeout 300ms") {
		t.Errorf("error = %v", err)
	}
	select {
	case <-accepted:
	default:
		t.Error("no connection was made")
	}
}

// The request timeout cannot be turned off: a run must end.
func TestRequestTimeoutBounded(t *testing.T) {
	s := clustertest.New(t)
	for _, timeout := range []string{"0", "0s", "-1s"} {
		_, err := Connect(Options{Kubeconfig: s.Kubeconfig(t, t.TempDir(), "shop"), RequestTimeout: timeout})
		if err == nil || !strings.Contains(err.Error(), "more than 0") {
			t.Errorf("--request-timeout %s: %v", timeout, err)
		}
	}
	c := connect(t, s, Options{})
	if c.Timeout.String() != DefaultRequestTimeout {
		t.Errorf("the default request timeout is %v, want %s", c.Timeout, DefaultRequestTimeout)
	}
}

// A cluster that stops answering during the read: the requests in flight end with their
// timeout, no more are sent, and every object not read is Failed (never a create).
func TestStopsAnsweringMidRead(t *testing.T) {
	s := clustertest.New(t)
	var refs []Ref
	for i := 0; i < 40; i++ {
		name := fmt.Sprintf("cm-%02d", i)
		s.Add(cm("shop", name))
		refs = append(refs, Ref{APIVersion: "v1", Kind: "ConfigMap", Name: name})
	}
	hung := &answers{suffix: "", n: -1, fault: func(w http.ResponseWriter) {}}
	s.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		if !strings.Contains(r.URL.Path, "/configmaps/") {
			return false
		}
		hung.intercept(w, r)
		<-r.Context().Done() // never answers
		return true
	}
	res := read(t, connect(t, s, Options{RequestTimeout: "300ms"}), ReadOptions{Parallel: 4, ListThreshold: -1}, refs...)
	timedOut, notAsked := 0, 0
	for _, o := range res.Outcomes {
		if o.Status != Failed {
			t.Fatalf("%s: status %d, want Failed", o.ID, o.Status)
		}
		switch msg := o.Err.Error(); {
		case strings.Contains(msg, "no answer within --request-timeout 300ms") && !strings.Contains(msg, "not asked"):
			timedOut++
		case strings.Contains(msg, "not asked: the cluster at "+s.URL+" stopped answering during the read (GET /api/v1/namespaces/shop/configmaps/"):
			notAsked++
		default:
			t.Errorf("%s: %v", o.ID, o.Err)
		}
	}
	if n := hung.count(); n > 4 || timedOut != n || notAsked != 40-n {
		t.Errorf("%d GETs sent (at most the 4 in flight), %d timed out, %d not asked", n, timedOut, notAsked)
	}
}

// A LIST whose continue token expires (410 Gone, as after a compaction of etcd) is read
// again once, whole; when that fails too, its objects are Failed.
func TestListContinueExpired(t *testing.T) {
	expired := func(w http.ResponseWriter) {
		clustertest.WriteStatus(w, http.StatusGone, "Expired", "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.")
	}
	for _, c := range []struct {
		name        string
		failRestart bool
	}{{"restarted", false}, {"restart fails", true}} {
		t.Run(c.name, func(t *testing.T) {
			s := clustertest.New(t)
			var refs []Ref
			for i := 0; i < 1200; i++ {
				name := fmt.Sprintf("cm-%04d", i)
				s.Add(cm("shop", name))
				if i%100 == 7 {
					refs = append(refs, Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: name})
				}
			}
			s.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
				q := r.URL.Query()
				if strings.HasSuffix(r.URL.Path, "/configmaps") && (q.Get("continue") == "1000" || c.failRestart && q.Get("limit") == "") {
					expired(w)
					return true
				}
				return false
			}
			res := read(t, connect(t, s, Options{}), ReadOptions{ListThreshold: 5}, refs...)
			var lists []string
			for _, r := range s.Requests() {
				if strings.Contains(r, "/configmaps") {
					lists = append(lists, r)
				}
			}
			want := []string{"GET /api/v1/namespaces/shop/configmaps?limit=500&timeout=30s", "GET /api/v1/namespaces/shop/configmaps?continue=500&limit=500&timeout=30s",
				"GET /api/v1/namespaces/shop/configmaps?continue=1000&limit=500&timeout=30s", "GET /api/v1/namespaces/shop/configmaps?timeout=30s"}
			if strings.Join(lists, "\n") != strings.Join(want, "\n") {
				t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(lists, "\n"), strings.Join(want, "\n"))
			}
			for _, o := range res.Outcomes {
				switch {
				case !c.failRestart && o.Status != Found:
					t.Errorf("%s: %d (%v), want Found", o.ID, o.Status, o.Err)
				case c.failRestart && (o.Status != Failed || !strings.Contains(o.Err.Error(), `cannot read ConfigMap shop/`+o.ID.Name+` from the cluster: The provided continue parameter is too old`) ||
					!strings.Contains(o.Err.Error(), "(read again from the start once, after its continue token expired)")):
					t.Errorf("%s: %d (%v), want Failed after the restart", o.ID, o.Status, o.Err)
				}
			}
		})
	}
}

// Forbidden to list, then to get: the object cannot be predicted, saying what was
// forbidden; the other kinds are read.
func TestForbiddenKind(t *testing.T) {
	s := clustertest.New(t)
	s.Add(cm("shop", "a"), cm("shop", "b"))
	s.Forbid = func(verb, group, resource, ns, name string) bool { return resource == "secrets" }
	res := read(t, connect(t, s, Options{}), ReadOptions{ListThreshold: 2},
		Ref{APIVersion: "v1", Kind: "Secret", Name: "x"}, Ref{APIVersion: "v1", Kind: "Secret", Name: "y"},
		Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "a"}, Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "b"})
	for i, name := range []string{"x", "y"} {
		o := res.Outcomes[i]
		want := `cannot predict: forbidden to get secrets "` + name + `" in namespace "shop": secrets "` + name + `" is forbidden: User "ci" cannot get resource "secrets"`
		if o.Status != Failed || !strings.Contains(o.Err.Error(), want) {
			t.Errorf("%s: %d (%v), want %q", o.ID, o.Status, o.Err, want)
		}
	}
	if res.Outcomes[2].Status != Found || res.Outcomes[3].Status != Found {
		t.Errorf("the ConfigMaps: %+v", res.Outcomes[2:])
	}
}

// A kubeconfig's exec credential plugin that fails: its failure is the error (what it
// printed goes to standard error, as kubectl shows it).
func TestCredentialPluginFails(t *testing.T) {
	s := clustertest.New(t)
	plugin := filepath.Join(t.TempDir(), "login")
	if err := os.WriteFile(plugin, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	kc := clustertest.KubeconfigFile(t, t.TempDir(), s.URL, "certificate-authority-data: "+s.CAData(),
		fmt.Sprintf("exec: {apiVersion: client.authentication.k8s.io/v1, command: %q, interactiveMode: Never}", plugin), "")
	client, err := Connect(Options{Kubeconfig: kc})
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.ServerVersion(context.Background())
	for _, want := range []string{"cannot reach the cluster at " + s.URL, "the kubeconfig's credential plugin failed", "exec: executable " + plugin + " failed with exit code 1"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error = %v, want %q", err, want)
		}
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("%d requests sent without credentials", n)
	}
}

// A read whose context ends (SIGINT) stops: Read fails with the context's error.
func TestReadInterrupted(t *testing.T) {
	s := clustertest.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	s.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		if strings.Contains(r.URL.Path, "/configmaps/") {
			once.Do(cancel)
			<-r.Context().Done()
			return true
		}
		return false
	}
	var refs []Ref
	for i := 0; i < 50; i++ {
		refs = append(refs, Ref{APIVersion: "v1", Kind: "ConfigMap", Name: fmt.Sprint("cm-", i)})
	}
	res, err := connect(t, s, Options{}).Read(ctx, refs, ReadOptions{Parallel: 2, ListThreshold: -1})
	if err != context.Canceled || res != nil {
		t.Errorf("Read = %v, %v; want context.Canceled", res, err)
	}
	if n := countRequests(s, "GET /api/v1/namespaces/shop/configmaps/"); n > 2 {
		t.Errorf("%d GETs sent after the read was interrupted (2 in flight)", n)
	}
}
