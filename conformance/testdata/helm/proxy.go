// Command proxy is the recorder's window on what a client sends: a plain-HTTP reverse proxy
// on 127.0.0.1 in front of a kube-apiserver, which adds the server's bearer token and logs
// every request — method, path, query, content type, the body of each write, the answer's
// status — one JSON line each, in the order the answers came back. Watches stream through.
//
// usage: go run proxy.go -listen 127.0.0.1:PORT -upstream URL -token TOKEN -cacert FILE -log FILE
//
// Only the recorder (record.py's helm mode) runs it: Helm has no flag that logs its
// requests, and a kubeconfig pointing Helm at this proxy sees them all.
package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"flag"
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"sync"
)

type entry struct {
	Method      string `json:"method"`
	Path        string `json:"path"`
	Query       string `json:"query,omitempty"`
	ContentType string `json:"contentType,omitempty"`
	Body        string `json:"body,omitempty"`
	Code        int    `json:"code"`
}

type recorder struct {
	http.ResponseWriter
	code int
}

func (r *recorder) WriteHeader(code int) { r.code = code; r.ResponseWriter.WriteHeader(code) }
func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on")
	upstream := flag.String("upstream", "", "the kube-apiserver's URL")
	token := flag.String("token", "", "bearer token for the kube-apiserver")
	cacert := flag.String("cacert", "", "the kube-apiserver's CA certificate")
	logPath := flag.String("log", "", "where to append the request log")
	flag.Parse()
	target, err := url.Parse(*upstream)
	if err != nil {
		log.Fatal(err)
	}
	pem, err := os.ReadFile(*cacert)
	if err != nil {
		log.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	out, err := os.OpenFile(*logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		log.Fatal(err)
	}
	var mu sync.Mutex
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	proxy.FlushInterval = -1
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		if r.Body != nil && r.Method != http.MethodGet {
			body, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		r.Header.Set("Authorization", "Bearer "+*token)
		rec := &recorder{ResponseWriter: w, code: 200}
		proxy.ServeHTTP(rec, r)
		line, _ := json.Marshal(entry{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
			ContentType: r.Header.Get("Content-Type"), Body: string(body), Code: rec.code})
		mu.Lock()
		out.Write(append(line, '\n'))
		mu.Unlock()
	})
	log.Fatal(http.ListenAndServe(*listen, handler))
}
