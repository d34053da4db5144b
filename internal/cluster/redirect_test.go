package cluster

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
)

// elsewhere is the host a redirect points to: it records every connection, request,
// Authorization header and client certificate it receives.
type elsewhere struct {
	*httptest.Server
	mu       sync.Mutex
	conns    int
	requests []string
}

func newElsewhere(t *testing.T, useTLS bool) *elsewhere {
	e := &elsewhere{}
	e.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		seen := r.Method + " " + r.URL.Path + " Authorization=" + r.Header.Get("Authorization")
		if r.TLS != nil {
			seen += fmt.Sprintf(" client-certificates=%d", len(r.TLS.PeerCertificates))
		}
		e.requests = append(e.requests, seen)
		e.mu.Unlock()
		// What a host that wants the token would answer: a ConfigMap of its own.
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"shop"},"data":{"a":"evil"}}`)
	}))
	e.Config.ErrorLog = log.New(io.Discard, "", 0)
	e.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			e.mu.Lock()
			e.conns++
			e.mu.Unlock()
		}
	}
	if useTLS {
		e.TLS = &tls.Config{ClientAuth: tls.RequestClientCert}
		e.StartTLS()
	} else {
		e.Start()
	}
	t.Cleanup(e.Close)
	return e
}

// untouched fails the test when the host received anything at all.
func (e *elsewhere) untouched(t *testing.T) {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.conns != 0 || len(e.requests) != 0 {
		t.Errorf("the host the redirect pointed to got %d connections and these requests: %q", e.conns, e.requests)
	}
}

// The credentials a kubeconfig can hold, each as the fields of its user.
func credentials(t *testing.T) map[string]string {
	dir := t.TempDir()
	plugin := filepath.Join(dir, "login")
	script := "#!/bin/sh\necho '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"exec-token\"}}'\n"
	if err := os.WriteFile(plugin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	certPEM, keyPEM := clientCertificate(t)
	return map[string]string{
		"bearer token":       "token: secret-token",
		"basic auth":         "username: ci, password: secret-password",
		"exec plugin token":  fmt.Sprintf("exec: {apiVersion: client.authentication.k8s.io/v1, command: %q, interactiveMode: Never}", plugin),
		"client certificate": "client-certificate-data: " + base64.StdEncoding.EncodeToString(certPEM) + ", client-key-data: " + base64.StdEncoding.EncodeToString(keyPEM),
	}
}

func clientCertificate(t *testing.T) (certPEM, keyPEM []byte) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ci"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
}

// redirecting makes the server answer the requests whose path has the given suffix with
// code and a Location to target (a path alone: the same host).
func redirecting(s *clustertest.Server, suffix string, code int, target func(r *http.Request) string) {
	s.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		if !strings.HasSuffix(r.URL.Path, suffix) {
			return false
		}
		http.Redirect(w, r, target(r), code)
		return true
	}
}

// A redirect of any request is never followed, whatever the credential, wherever it
// points: no connection is made to the other host, so no token, password or certificate
// goes there; the object is Failed (never a create, never that host's object) with the
// request and the Location named.
func TestRedirectNotFollowed(t *testing.T) {
	creds := credentials(t)
	other, plain := newElsewhere(t, true), newElsewhere(t, false)
	for _, to := range []struct {
		name   string
		target func(r *http.Request) string
	}{
		{"another host", func(r *http.Request) string { return other.URL + r.URL.Path }},
		{"http://", func(r *http.Request) string { return plain.URL + r.URL.Path }},
		{"the same host", func(r *http.Request) string { return "/elsewhere" + r.URL.Path }},
	} {
		for _, cred := range []string{"bearer token", "basic auth", "exec plugin token", "client certificate"} {
			for _, code := range []int{http.StatusFound, http.StatusTemporaryRedirect} {
				t.Run(fmt.Sprintf("%s %s %d", to.name, cred, code), func(t *testing.T) {
					s := clustertest.New(t)
					s.Add(cm("shop", "web"))
					redirecting(s, "/configmaps/web", code, to.target)
					kc := clustertest.KubeconfigFile(t, t.TempDir(), s.URL, "certificate-authority-data: "+s.CAData(), creds[cred], "shop")
					res := read(t, connect(t, s, Options{Kubeconfig: kc}), ReadOptions{}, webRef())
					o := res.Outcomes[0]
					location := to.target(&http.Request{URL: mustURL(t, "/api/v1/namespaces/shop/configmaps/web")})
					if strings.HasPrefix(location, "/") {
						location = s.URL + location
					}
					want := fmt.Sprintf("cannot read ConfigMap shop/web from the cluster: GET /api/v1/namespaces/shop/configmaps/web was answered %d %s, a redirect to %s, which is not followed",
						code, http.StatusText(code), location)
					if o.Status != Failed || o.Err == nil || !strings.Contains(o.Err.Error(), want) {
						t.Errorf("status %d (%v), want Failed: %q", o.Status, o.Err, want)
					}
					if n := countRequests(s, "GET /elsewhere"); n != 0 {
						t.Errorf("the redirect to the same host was followed %d times", n)
					}
					other.untouched(t)
					plain.untouched(t)
				})
			}
		}
	}
}

// Every request of a read refuses a redirect: /version (the run stops, naming the cluster
// and where it pointed), discovery, a LIST page, a CustomResourceDefinition.
func TestRedirectOfEveryRequest(t *testing.T) {
	other := newElsewhere(t, true)
	to := func(r *http.Request) string { return other.URL + r.URL.Path }
	t.Run("version", func(t *testing.T) {
		s := clustertest.New(t)
		redirecting(s, "/version", http.StatusMovedPermanently, to)
		_, err := connect(t, s, Options{}).ServerVersion(context.Background())
		want := "cannot reach the cluster at " + s.URL + ": GET /version was answered 301 Moved Permanently, a redirect to " + other.URL + "/version, which is not followed"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	})
	t.Run("discovery", func(t *testing.T) {
		s := clustertest.New(t)
		redirecting(s, "/apis/apps/v1", http.StatusFound, to)
		res := read(t, connect(t, s, Options{}), ReadOptions{}, Ref{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"})
		want := "discovery /apis/apps/v1: GET /apis/apps/v1 was answered 302 Found, a redirect to " + other.URL + "/apis/apps/v1"
		if o := res.Outcomes[0]; o.Status != Failed || !strings.Contains(o.Err.Error(), want) {
			t.Errorf("status %d (%v), want Failed: %q", o.Status, o.Err, want)
		}
	})
	t.Run("list", func(t *testing.T) {
		s := clustertest.New(t)
		var refs []Ref
		for i := 0; i < 3; i++ {
			s.Add(cm("shop", fmt.Sprint("cm-", i)))
			refs = append(refs, Ref{APIVersion: "v1", Kind: "ConfigMap", Name: fmt.Sprint("cm-", i)})
		}
		redirecting(s, "/configmaps", http.StatusSeeOther, to)
		res := read(t, connect(t, s, Options{}), ReadOptions{ListThreshold: 2}, refs...)
		want := "GET /api/v1/namespaces/shop/configmaps?limit=500 was answered 303 See Other, a redirect to " + other.URL + "/api/v1/namespaces/shop/configmaps"
		for _, o := range res.Outcomes {
			if o.Status != Failed || !strings.Contains(o.Err.Error(), want) {
				t.Errorf("%s: status %d (%v), want Failed: %q", o.ID, o.Status, o.Err, want)
			}
		}
	})
	t.Run("CustomResourceDefinition", func(t *testing.T) {
		s := clustertest.New(t)
		s.Serve(clustertest.Resource{APIVersion: "example.com/v1", Kind: "Widget", Name: "widgets", Namespaced: true, Custom: true})
		redirecting(s, "/customresourcedefinitions/widgets.example.com", http.StatusPermanentRedirect, to)
		res := read(t, connect(t, s, Options{}), ReadOptions{HasSchema: func(g, v, k string) bool { return false }},
			Ref{APIVersion: "example.com/v1", Kind: "Widget", Name: "w"})
		want := "GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com was answered 308 Permanent Redirect"
		if o := res.Outcomes[0]; o.Status != Failed || !strings.Contains(o.Err.Error(), want) {
			t.Errorf("status %d (%v), want Failed: %q", o.Status, o.Err, want)
		}
	})
	other.untouched(t)
}

// A redirect is an answer: the read goes on (the other objects are read), unlike a request
// that got no answer at all.
func TestRedirectDoesNotStopTheRead(t *testing.T) {
	s := clustertest.New(t)
	s.Add(cm("shop", "web"), cm("shop", "db"))
	redirecting(s, "/configmaps/web", http.StatusFound, func(r *http.Request) string { return "https://example.invalid/" })
	res := read(t, connect(t, s, Options{}), ReadOptions{Parallel: 1}, webRef(), Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "db"})
	if res.Outcomes[0].Status != Failed || res.Outcomes[1].Status != Found {
		t.Errorf("outcomes %d (%v), %d (%v): want Failed, Found", res.Outcomes[0].Status, res.Outcomes[0].Err, res.Outcomes[1].Status, res.Outcomes[1].Err)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
