package clustertest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The answers of a cluster that answers badly or maliciously, each a handler to give
// Server.Intercept (through Answer). They are modelled on kube-apiserver 1.37.2's own
// answers (the same headers, the same JSON), then broken: too large, compressed to inflate,
// dripped, of another type or another object, endless.

// Answer makes an Intercept that answers the requests matching with h, and lets the server
// answer the others.
func Answer(match func(r *http.Request) bool, h http.HandlerFunc) func(w http.ResponseWriter, r *http.Request) bool {
	return func(w http.ResponseWriter, r *http.Request) bool {
		if !match(r) {
			return false
		}
		h(w, r)
		return true
	}
}

// PathIs matches the requests of one path (any query).
func PathIs(path string) func(r *http.Request) bool {
	return func(r *http.Request) bool { return r.URL.Path == path }
}

// JSON answers 200 with body as kube-apiserver does (Content-Type application/json).
func JSON(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(body))
	}
}

// Typed answers code with body and the content type given.
func Typed(code int, contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		} else {
			w.Header()["Content-Type"] = nil // no Content-Type at all (net/http would sniff one)
		}
		w.WriteHeader(code)
		_, _ = w.Write([]byte(body))
	}
}

// LoginPage is what a proxy in front of a cluster answers a client without its cookie: 200,
// HTML.
const LoginPage = "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><form action=\"/oauth/start\">Sign in with SSO</form></body></html>\n"

// ProtobufBody is the start of an answer in Kubernetes' protobuf encoding: the magic
// "k8s\x00", then a runtime.Unknown.
const ProtobufBody = "k8s\x00\n\x0f\n\x02v1\x12\tConfigMap\x12\x05\n\x03\n\x01a"

// Repeat writes prefix, then filler again and again until about total bytes are written (or
// the client leaves), then suffix: a body of any size, not held in memory. With gzipped, the body is sent
// compressed (Content-Encoding gzip, as kube-apiserver compresses large answers): the
// filler is compressed once, 1 MiB at a time, and sent again as further gzip members, so
// that 10 GiB inflate from about 10 MiB.
func Repeat(prefix, filler string, total int64, suffix string, gzipped bool) http.HandlerFunc {
	block := int64(1<<20) / int64(len(filler)) * int64(len(filler))
	var once sync.Once
	var member []byte // one gzip member of block filler bytes
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if !gzipped {
			w.WriteHeader(http.StatusOK)
			if _, err := w.Write([]byte(prefix)); err != nil {
				return
			}
			chunk := []byte(strings.Repeat(filler, max(1, (64<<10)/len(filler))))
			for n := int64(len(prefix)); n+int64(len(chunk)) <= total-int64(len(suffix)); n += int64(len(chunk)) {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
			_, _ = w.Write([]byte(suffix))
			return
		}
		once.Do(func() { member = gzipped1([]byte(strings.Repeat(filler, int(block)/len(filler)))) })
		w.Header().Set("Content-Encoding", "gzip")
		w.WriteHeader(http.StatusOK)
		if _, err := w.Write(gzipped1([]byte(prefix))); err != nil {
			return
		}
		for n := int64(len(prefix)); n+block <= total-int64(len(suffix)); n += block {
			if _, err := w.Write(member); err != nil {
				return
			}
		}
		_, _ = w.Write(gzipped1([]byte(suffix)))
	}
}

func gzipped1(data []byte) []byte {
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	_, _ = z.Write(data)
	_ = z.Close()
	return b.Bytes()
}

// Drip answers 200, then sends body one byte every interval, flushing each, and then
// nothing more, holding the connection until the client leaves: a server (or a proxy)
// that answers slower than any timeout.
func Drip(body string, interval time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		f, _ := w.(http.Flusher)
		for i := 0; ; i++ {
			b := byte(' ')
			if i < len(body) {
				b = body[i]
			}
			if _, err := w.Write([]byte{b}); err != nil {
				return
			}
			if f != nil {
				f.Flush()
			}
			select {
			case <-r.Context().Done():
				return
			case <-time.After(interval):
			}
		}
	}
}

// Hang never answers: it holds the request until the client leaves.
func Hang(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// Truncated answers 200 with a Content-Length longer than the body it sends, then closes
// the connection: an answer cut off.
func Truncated(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(len(body)+1000))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(body))
		if h, ok := w.(http.Hijacker); ok {
			if c, _, err := h.Hijack(); err == nil {
				c.Close()
			}
		}
	}
}

// Object is an object as kube-apiserver writes it: apiVersion, kind, metadata (name,
// namespace when ns is not "", uid, resourceVersion, creationTimestamp, managedFields of
// one Apply by "team"), and more fields.
func Object(apiVersion, kind, ns, name string, more map[string]any) map[string]any {
	md := map[string]any{"name": name, "uid": "uid-" + name, "resourceVersion": "7", "creationTimestamp": "2026-12-01T10:00:00Z",
		"managedFields": []any{map[string]any{"manager": "team", "operation": "Apply", "apiVersion": apiVersion,
			"time": "2026-12-01T10:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:data": map[string]any{}}}}}
	if ns != "" {
		md["namespace"] = ns
	}
	obj := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md}
	for k, v := range more {
		obj[k] = v
	}
	return obj
}

// Marshal is JSON of v, as the server writes it (compact, one line).
func Marshal(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// List is a LIST's answer, as kube-apiserver writes it: kind KIND-List, the apiVersion,
// metadata with resourceVersion and the continue token when there is one, and the items.
func List(apiVersion, kind, cont string, items ...any) string {
	md := map[string]any{"resourceVersion": "100"}
	if cont != "" {
		md["continue"] = cont
	}
	if items == nil {
		items = []any{}
	}
	return Marshal(map[string]any{"kind": kind + "List", "apiVersion": apiVersion, "metadata": md, "items": items})
}

// BareItem is a LIST item of a built-in kind: without apiVersion and kind.
func BareItem(obj map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range obj {
		if k != "apiVersion" && k != "kind" {
			out[k] = v
		}
	}
	return out
}

// EndlessList answers every page of a LIST with no item and a continue token: tokens
// counts up from the page asked (every token new) when repeat is false, and is the same
// token every time when it is true.
func EndlessList(apiVersion, kind string, repeat bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		next := "again"
		if !repeat {
			var n int
			fmt.Sscan(strings.TrimPrefix(r.URL.Query().Get("continue"), "page-"), &n)
			next = fmt.Sprintf("page-%d", n+1)
		}
		JSON(List(apiVersion, kind, next))(w, r)
	}
}

// ManyVersions answers /apis/GROUP with a group listing n versions, none of which serves
// anything.
func ManyVersions(group string, n int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		gv := func(v string) map[string]any { return map[string]any{"groupVersion": group + "/" + v, "version": v} }
		var versions []any
		for i := 0; i < n; i++ {
			versions = append(versions, gv(fmt.Sprintf("v%d", i+1)))
		}
		JSON(Marshal(map[string]any{"kind": "APIGroup", "apiVersion": "v1", "name": group, "versions": versions, "preferredVersion": gv("v1")}))(w, r)
	}
}

// Redirect answers with a redirect to where(r).
func Redirect(code int, where func(r *http.Request) string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, where(r), code) }
}
