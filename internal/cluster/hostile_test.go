package cluster

import (
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/cluster/clustertest"
)

// A cluster that answers badly or maliciously: each answer is checked against its request,
// bounded in bytes as it is read and in requests, and ends as the object's error (never a
// create, never another object) naming the request, within a time and an allocation bound.

const (
	chatPath = "/apis/apps/v1/namespaces/shop/deployments/chat"
	webPath  = "/api/v1/namespaces/shop/configmaps/web"
	cmsPath  = "/api/v1/namespaces/shop/configmaps"
)

func deployment(ns, name string) map[string]any {
	return clustertest.Object("apps/v1", "Deployment", ns, name, map[string]any{"spec": map[string]any{"replicas": 1}})
}

func chatRef() Ref { return Ref{APIVersion: "apps/v1", Kind: "Deployment", Name: "chat"} }

// twelve are twelve ConfigMaps cm-00 … cm-11 in shop (read with one LIST at the default
// threshold), and their refs.
func twelve(s *clustertest.Server) []Ref {
	var refs []Ref
	for i := 0; i < 12; i++ {
		name := fmt.Sprintf("cm-%02d", i)
		s.Add(cm("shop", name))
		refs = append(refs, Ref{APIVersion: "v1", Kind: "ConfigMap", Name: name})
	}
	return refs
}

// bareCM is a ConfigMap as a LIST item of the core group holds it.
func bareCM(ns, name string) map[string]any { return clustertest.BareItem(cm(ns, name)) }

type hostile struct {
	name string
	// serve adds the objects and the faults to the server, and returns the refs to read.
	serve func(t *testing.T, s *clustertest.Server) []Ref
	opts  Options
	read  ReadOptions
	// want is the status of each ref; Failed ones say wantErr.
	want    []Status
	wantErr string
	// within bounds the read's time; alloc the bytes it allocates (0: unchecked).
	within time.Duration
	alloc  uint64
	// check looks further.
	check func(t *testing.T, s *clustertest.Server, res *Result)
}

func all(n int, st Status) []Status {
	out := make([]Status, n)
	for i := range out {
		out[i] = st
	}
	return out
}

func (h hostile) run(t *testing.T) {
	s := clustertest.New(t)
	refs := h.serve(t, s)
	c := connect(t, s, h.opts)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	res := read(t, c, h.read, refs...)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if h.within > 0 && took > h.within {
		t.Errorf("the read took %v, more than %v", took, h.within)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; h.alloc > 0 && alloc > h.alloc {
		t.Errorf("the read allocated %d MiB, more than %d MiB", alloc>>20, h.alloc>>20)
	}
	for i, o := range res.Outcomes {
		if i >= len(h.want) {
			break
		}
		var bad string
		switch {
		case o.Status != h.want[i]:
			bad = fmt.Sprintf("status %d, want %d (%v)", o.Status, h.want[i], o.Err)
		case o.Status == Failed && !strings.Contains(o.Err.Error(), h.wantErr):
			bad = fmt.Sprintf("error\n%v\nwant it to say\n%s", o.Err, h.wantErr)
		case o.Status == Failed && strings.Count(o.Err.Error(), "--request-timeout") > 1:
			bad = fmt.Sprintf("the request timeout said twice: %v", o.Err)
		}
		if bad != "" {
			t.Errorf("%s: %s", o.ID, bad)
			break // the first is enough
		}
	}
	if h.check != nil {
		h.check(t, s, res)
	}
}

func TestWrongAnswers(t *testing.T) {
	answer := func(path string, obj any) func(t *testing.T, s *clustertest.Server) []Ref {
		return func(t *testing.T, s *clustertest.Server) []Ref {
			s.Add(deployment("shop", "chat"))
			s.Intercept = clustertest.Answer(clustertest.PathIs(path), clustertest.JSON(clustertest.Marshal(obj)))
			return []Ref{chatRef()}
		}
	}
	for _, h := range []hostile{
		{name: "another object", serve: answer(chatPath, deployment("shop", "evil")), want: []Status{Failed},
			wantErr: `GET ` + chatPath + `: the answer is apps/v1 Deployment "evil" in namespace "shop", not the object asked for (apps/v1 Deployment "chat" in namespace "shop")`},
		{name: "another kind", serve: answer(chatPath, clustertest.Object("v1", "ConfigMap", "shop", "chat", nil)), want: []Status{Failed},
			wantErr: `GET ` + chatPath + `: the answer is v1 ConfigMap "chat" in namespace "shop", not the object asked for`},
		{name: "another namespace", serve: answer(chatPath, deployment("kube-system", "chat")), want: []Status{Failed},
			wantErr: `the answer is apps/v1 Deployment "chat" in namespace "kube-system", not the object asked for`},
		{name: "another version", serve: answer(chatPath, clustertest.Object("apps/v1beta2", "Deployment", "shop", "chat", nil)), want: []Status{Failed},
			wantErr: `the answer is apps/v1beta2 Deployment "chat" in namespace "shop", not the object asked for`},
		{name: "no kind", serve: answer(chatPath, map[string]any{"metadata": map[string]any{"name": "chat", "namespace": "shop"}}), want: []Status{Failed},
			wantErr: `the answer is (no apiVersion) (no kind) "chat" in namespace "shop"`},
		{name: "a Status 200", serve: answer(chatPath, map[string]any{"kind": "Status", "apiVersion": "v1", "status": "Success"}), want: []Status{Failed},
			wantErr: `the answer is v1 Status (no name), not the object asked for`},
		{name: "not an object", serve: answer(chatPath, []any{deployment("shop", "chat")}), want: []Status{Failed},
			wantErr: `GET ` + chatPath + `: the answer is JSON but not an object`},
		{name: "a 404 page", serve: func(t *testing.T, s *clustertest.Server) []Ref {
			s.Add(deployment("shop", "chat"))
			s.Intercept = clustertest.Answer(clustertest.PathIs(chatPath), clustertest.Typed(404, "text/html", "<html><body>Not Found</body></html>"))
			return []Ref{chatRef()}
		}, want: []Status{Failed}, wantErr: `GET ` + chatPath + `: answered 404 Not Found with HTML (text/html), not the API server's Status: the server could not find the requested resource`},
		{name: "a 404 Status of another object", serve: func(t *testing.T, s *clustertest.Server) []Ref {
			s.Intercept = clustertest.Answer(clustertest.PathIs(chatPath), func(w http.ResponseWriter, r *http.Request) {
				clustertest.Typed(404, "application/json", `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \"other\" not found","reason":"NotFound","details":{"name":"other","group":"apps","kind":"deployments"},"code":404}`)(w, r)
			})
			return []Ref{chatRef()}
		}, want: []Status{Failed}, wantErr: `GET ` + chatPath + `: answered 404 NotFound naming another object (deployments.apps "other") than the one asked for: not taken for its absence`},
		{name: "a Status NotFound spelled otherwise, answered 500", serve: func(t *testing.T, s *clustertest.Server) []Ref {
			s.Intercept = clustertest.Answer(clustertest.PathIs(chatPath), clustertest.Typed(500, "application/json",
				`{"kind":"Status","stAtus":"Failure","reAson":"NotFound","detAils":{"nAme":"chat","group":"apps","kind":"deployments"}}`))
			return []Ref{chatRef()}
		}, want: []Status{Failed}, wantErr: `GET ` + chatPath + `: answered 500 Internal Server Error with application/json, not the API server's Status`},
		{name: "a Status NotFound answered 200", serve: answer(chatPath, map[string]any{"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404,
			"details": map[string]any{"name": "chat", "group": "apps", "kind": "deployments"}}), want: []Status{Failed}, wantErr: `the answer is v1 Status (no name), not the object asked for`},
		{name: "a 404 whose Status says another code", serve: func(t *testing.T, s *clustertest.Server) []Ref {
			s.Intercept = clustertest.Answer(clustertest.PathIs(chatPath), clustertest.Typed(404, "application/json",
				`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","reason":"NotFound","details":{"name":"chat","group":"apps","kind":"deployments"},"code":500}`))
			return []Ref{chatRef()}
		}, want: []Status{Failed}, wantErr: `answered 404 Not Found with application/json, not the API server's Status`},
		{name: "204 No Content", serve: func(t *testing.T, s *clustertest.Server) []Ref {
			s.Intercept = clustertest.Answer(clustertest.PathIs(chatPath), clustertest.Typed(204, "application/json", ""))
			return []Ref{chatRef()}
		}, want: []Status{Failed}, wantErr: `GET ` + chatPath + `: answered 204 No Content, not the 200 OK of a read`},
		{name: "the object's own 404", serve: func(t *testing.T, s *clustertest.Server) []Ref { return []Ref{chatRef()} }, want: []Status{NotFound}},
	} {
		t.Run(h.name, h.run)
	}
}

func TestAnswersOfAnotherType(t *testing.T) {
	webAnswer := func(h http.HandlerFunc) func(t *testing.T, s *clustertest.Server) []Ref {
		return func(t *testing.T, s *clustertest.Server) []Ref {
			s.Add(cm("shop", "web"))
			s.Intercept = clustertest.Answer(clustertest.PathIs(webPath), h)
			return []Ref{webRef()}
		}
	}
	for _, h := range []hostile{
		{name: "a login page", serve: webAnswer(clustertest.Typed(200, "text/html; charset=utf-8", clustertest.LoginPage)), want: []Status{Failed},
			wantErr: "GET " + webPath + ": answered 200 OK with HTML (text/html), not the JSON asked for (Accept: application/json)"},
		{name: "protobuf", serve: webAnswer(clustertest.Typed(200, "application/vnd.kubernetes.protobuf", clustertest.ProtobufBody)), want: []Status{Failed},
			wantErr: "GET " + webPath + ": answered 200 OK with protobuf (application/vnd.kubernetes.protobuf), not the JSON asked for"},
		{name: "HTML said to be JSON", serve: webAnswer(clustertest.Typed(200, "application/json", clustertest.LoginPage)), want: []Status{Failed},
			wantErr: "GET " + webPath + ": the answer is not a JSON object: it is HTML (it starts with <)"},
		{name: "protobuf without a type", serve: webAnswer(clustertest.Typed(200, "", clustertest.ProtobufBody)), want: []Status{Failed},
			wantErr: `GET ` + webPath + `: the answer is not a JSON object: it is protobuf (it starts with k8s\x00)`},
		{name: "YAML", serve: webAnswer(clustertest.Typed(200, "application/yaml", "apiVersion: v1\nkind: ConfigMap\n")), want: []Status{Failed},
			wantErr: "answered 200 OK with YAML (application/yaml), not the JSON asked for"},
		{name: "empty", serve: webAnswer(clustertest.Typed(200, "application/json", "")), want: []Status{Failed},
			wantErr: "GET " + webPath + ": the answer is not a JSON object: it is an empty answer"},
		{name: "trailing garbage", serve: webAnswer(clustertest.JSON(clustertest.Marshal(cm("shop", "web")) + "}{")), want: []Status{Failed},
			wantErr: "GET " + webPath + ": the answer is not JSON: invalid character '}' after top-level value"},
		{name: "cut off", serve: webAnswer(clustertest.Truncated(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web"`)), want: []Status{Failed},
			wantErr: "GET " + webPath + ": unexpected EOF"},
		{name: "gzip not said", serve: webAnswer(clustertest.Typed(200, "application/json", "\x1f\x8b\x08\x00\x00\x00\x00\x00")), want: []Status{Failed},
			wantErr: "it is gzip data (compressed, but not marked so)"},
		{name: "an HTML 500 retried", opts: Options{Retries: 2, RetryBackoff: time.Millisecond},
			serve: webAnswer(clustertest.Typed(500, "text/html", "<html><h1>500 Internal Server Error</h1></html>")), want: []Status{Failed},
			wantErr: "GET " + webPath + `: answered 500 Internal Server Error with HTML (text/html), not the API server's Status: an error on the server ("<html><h1>500 Internal Server Error</h1></html>") has prevented the request from succeeding (the same answer after 2 retries)`},
	} {
		t.Run(h.name, h.run)
	}
}

// Every answer is bounded as it is read: an object by --max-document-bytes, all answers
// together by --max-input-bytes (the files read before count), after decompression. The
// allocations stay proportional to the bounds, never to what the server sends.
func TestAnswersBounded(t *testing.T) {
	const (
		doc   = 4 << 20
		total = 16 << 20
	)
	opts := Options{MaxBytes: total, MaxDocumentBytes: doc, RequestTimeout: "20s"}
	webAnswer := func(h http.HandlerFunc) func(t *testing.T, s *clustertest.Server) []Ref {
		return func(t *testing.T, s *clustertest.Server) []Ref {
			s.Add(cm("shop", "web"))
			s.Intercept = clustertest.Answer(clustertest.PathIs(webPath), h)
			return []Ref{webRef()}
		}
	}
	listAnswer := func(h http.HandlerFunc) func(t *testing.T, s *clustertest.Server) []Ref {
		return func(t *testing.T, s *clustertest.Server) []Ref {
			refs := twelve(s)
			s.Intercept = clustertest.Answer(clustertest.PathIs(cmsPath), h)
			return refs
		}
	}
	prefix := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"shop"},"data":{"a":"`
	listPrefix := `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"100"},"items":[{"metadata":{"name":"cm-00","namespace":"shop"},"data":{"a":"`
	for _, h := range []hostile{
		{name: "a gzip bomb, 10 MiB to 10 GiB", opts: opts, serve: webAnswer(clustertest.Repeat(prefix, "0", 10<<30, `"}}`, true)),
			want: []Status{Failed}, wantErr: "GET " + webPath + ": the answer is larger than 4Mi (raise the limit with --max-document-bytes)",
			within: 10 * time.Second, alloc: 64 << 20},
		{name: "2 GiB", opts: opts, serve: webAnswer(clustertest.Repeat(prefix, "0", 2<<30, `"}}`, false)),
			want: []Status{Failed}, wantErr: "GET " + webPath + ": the answer is larger than 4Mi (raise the limit with --max-document-bytes)",
			within: 10 * time.Second, alloc: 64 << 20},
		{name: "a LIST's gzip bomb", opts: opts, serve: listAnswer(clustertest.Repeat(listPrefix, "0", 10<<30, `"}}]}`, true)),
			want: all(12, Failed), wantErr: "GET " + cmsPath + "?limit=500: the cluster's answers, with the files read before them, are larger than 16Mi (raise the limit with --max-input-bytes)",
			within: 10 * time.Second, alloc: 64 << 20},
		{name: "a LIST of 2 GiB, one item after another", opts: opts, serve: listAnswer(func(w http.ResponseWriter, r *http.Request) {
			item := clustertest.Marshal(clustertest.BareItem(clustertest.Object("v1", "ConfigMap", "shop", "filler", map[string]any{"data": map[string]any{"a": strings.Repeat("x", 1000)}})))
			clustertest.Repeat(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"100"},"items":[`+item, ","+item, 2<<30, "]}", false)(w, r)
		}), want: all(12, Failed), wantErr: "are larger than 16Mi (raise the limit with --max-input-bytes)", within: 10 * time.Second, alloc: 64 << 20},
		{name: "one item too large", opts: opts, serve: func(t *testing.T, s *clustertest.Server) []Ref {
			refs := twelve(s)
			big := cm("shop", "cm-03")
			big["data"] = map[string]any{"a": strings.Repeat("x", doc)}
			s.Add(big)
			return refs
		}, want: append(append(all(3, Found), Failed), all(8, Found)...), wantErr: "GET /api/v1/namespaces/shop/configmaps/cm-03: the answer is larger than 4Mi (raise the limit with --max-document-bytes)",
			check: func(t *testing.T, s *clustertest.Server, res *Result) {
				// The LIST could not name the item: the objects it lacks are read with a GET.
				if res.Lists != 1 || res.Gets != 1 {
					t.Errorf("%d LIST and %d GET, want 1 and 1", res.Lists, res.Gets)
				}
			}},
		{name: "nested too deeply", serve: webAnswer(clustertest.JSON(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"shop"},"data":{"a":"1"},"x":` +
			strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`)), want: []Status{Failed},
			wantErr: "GET " + webPath + ": the object's maps and lists, in the List of the live state, nest deeper than 1000 levels (raise the limit with --max-depth)"},
		{name: "a LIST item nested too deeply", opts: Options{MaxDepth: 50}, serve: func(t *testing.T, s *clustertest.Server) []Ref {
			refs := twelve(s)
			deep := cm("shop", "cm-02")
			deep["data"] = map[string]any{"a": "1"}
			var v any = "x"
			for i := 0; i < 48; i++ {
				v = []any{v}
			}
			deep["x"] = v
			s.Add(deep)
			return refs
		}, want: append(append(all(2, Found), Failed), all(9, Found)...), wantErr: `GET ` + cmsPath + `?limit=500: the list's item "cm-02": the object's maps and lists, in the List of the live state, nest deeper than 50 levels`},
		{name: "the files read before count", opts: Options{MaxBytes: total, BytesBefore: total - 1000}, serve: webAnswer(clustertest.JSON(clustertest.Marshal(cm("shop", "web")) + strings.Repeat(" ", 1000))),
			want: []Status{Failed}, wantErr: "the cluster's answers, with the files read before them, are larger than 16Mi (raise the limit with --max-input-bytes)"},
		{name: "50 MiB of managedFields", opts: Options{MaxBytes: 1 << 30}, serve: func(t *testing.T, s *clustertest.Server) []Ref {
			var b strings.Builder
			b.WriteString(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"web","namespace":"shop","managedFields":[`)
			for i := 0; b.Len() < 50<<20; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"manager":"manager-%07d","operation":"Update","apiVersion":"v1","time":"2026-12-01T10:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}}`, i)
			}
			b.WriteString(`]},"data":{"a":"1"}}`)
			body := b.String()
			s.Intercept = clustertest.Answer(clustertest.PathIs(webPath), clustertest.JSON(body))
			return []Ref{webRef()}
		}, want: []Status{Failed}, wantErr: "GET " + webPath + ": the answer is larger than 32Mi (raise the limit with --max-document-bytes)"},
	} {
		t.Run(h.name, h.run)
	}
}

// A LIST is bounded: a continue token seen before is a loop, the pages are at most
// MaxListPages; its items are checked against the kind listed, each failing only the
// object it names.
func TestHostileLists(t *testing.T) {
	listAnswer := func(h http.HandlerFunc) func(t *testing.T, s *clustertest.Server) []Ref {
		return func(t *testing.T, s *clustertest.Server) []Ref {
			refs := twelve(s)
			s.Intercept = clustertest.Answer(clustertest.PathIs(cmsPath), h)
			return refs
		}
	}
	items := func(extra ...any) []any {
		var out []any
		for i := 0; i < 12; i++ {
			out = append(out, bareCM("shop", fmt.Sprintf("cm-%02d", i)))
		}
		return append(out, extra...)
	}
	pages := func(s *clustertest.Server) int { return countRequests(s, "GET "+cmsPath+"?") }
	for _, h := range []hostile{
		{name: "a continue token that never ends", serve: listAnswer(clustertest.EndlessList("v1", "ConfigMap", false)), want: all(12, Failed),
			wantErr: "GET " + cmsPath + "?continue=page-200&limit=500: the LIST did not end after 200 pages (100000 objects at 500 a page): its continue tokens do not end",
			within:  20 * time.Second, check: func(t *testing.T, s *clustertest.Server, res *Result) {
				if n := pages(s); n != MaxListPages {
					t.Errorf("%d pages asked for, want %d", n, MaxListPages)
				}
			}},
		{name: "a repeated continue token", serve: listAnswer(clustertest.EndlessList("v1", "ConfigMap", true)), want: all(12, Failed),
			wantErr: "GET " + cmsPath + "?continue=again&limit=500: the LIST loops: page 2 gave a continue token an earlier page gave (\"again\")",
			check: func(t *testing.T, s *clustertest.Server, res *Result) {
				if n := pages(s); n != 2 {
					t.Errorf("%d pages asked for, want 2", n)
				}
			}},
		{name: "a cycle of continue tokens", serve: listAnswer(func(w http.ResponseWriter, r *http.Request) {
			next := map[string]string{"": "a", "a": "b", "b": "a"}[r.URL.Query().Get("continue")]
			clustertest.JSON(clustertest.List("v1", "ConfigMap", next))(w, r)
		}), want: all(12, Failed), wantErr: "the LIST loops: page 3 gave a continue token an earlier page gave (\"a\")"},
		{name: "a huge continue token", serve: listAnswer(clustertest.JSON(clustertest.List("v1", "ConfigMap", strings.Repeat("t", 100<<10)))), want: all(12, Failed),
			wantErr: "the continue token is 100.0 KiB long, more than 16.0 KiB: not the API server's"},
		{name: "a list of another kind", serve: listAnswer(clustertest.JSON(clustertest.List("v1", "Secret", "", items()...))), want: all(12, Failed),
			wantErr: "GET " + cmsPath + "?limit=500: the answer is not a list of v1 ConfigMap: it is v1 SecretList"},
		{name: "a list without kind", serve: listAnswer(clustertest.JSON(`{"items":[]}`)), want: all(12, Failed),
			wantErr: "the answer is not a list of v1 ConfigMap: it is (no apiVersion) (no kind)"},
		{name: "an item of another kind", serve: listAnswer(func(w http.ResponseWriter, r *http.Request) {
			it := items()
			it[4] = clustertest.Object("v1", "Secret", "shop", "cm-04", nil)
			clustertest.JSON(clustertest.List("v1", "ConfigMap", "", it...))(w, r)
		}), want: append(append(all(4, Found), Failed), all(7, Found)...),
			wantErr: `cannot read ConfigMap shop/cm-04 from the cluster: GET ` + cmsPath + `?limit=500: the list's item "cm-04" is v1 Secret "cm-04" in namespace "shop", not an object of the kind listed (v1 ConfigMap in namespace "shop")`},
		{name: "an item of another namespace", serve: listAnswer(func(w http.ResponseWriter, r *http.Request) {
			it := items()
			it[0] = bareCM("kube-system", "cm-00")
			clustertest.JSON(clustertest.List("v1", "ConfigMap", "", it...))(w, r)
		}), want: append([]Status{Failed}, all(11, Found)...), wantErr: `the list's item "cm-00" is v1 ConfigMap "cm-00" in namespace "kube-system", not an object of the kind listed`},
		{name: "two items of one name", serve: listAnswer(clustertest.JSON(clustertest.List("v1", "ConfigMap", "", items(bareCM("shop", "cm-07"))...))),
			want: append(append(all(7, Found), Failed), all(4, Found)...), wantErr: `the list has two items named "cm-07": not taken for the object`},
		{name: "one item that is not an object", serve: listAnswer(clustertest.JSON(clustertest.List("v1", "ConfigMap", "", items("garbage", 42, nil, map[string]any{"no": "name"})...))),
			want: all(12, Found), check: func(t *testing.T, s *clustertest.Server, res *Result) {
				if res.Gets != 0 {
					t.Errorf("%d GETs: every object asked for was in the LIST", res.Gets)
				}
			}},
		{name: "one item that is not an object, an object missing", serve: func(t *testing.T, s *clustertest.Server) []Ref {
			refs := twelve(s)
			it := items()[1:]
			s.Intercept = clustertest.Answer(clustertest.PathIs(cmsPath), clustertest.JSON(strings.Replace(clustertest.List("v1", "ConfigMap", "", it...), `"items":[`, `"items":[{"metadata":{"name":"cm-00"},"data":{"a":tru}},`, 1)))
			return refs
		}, want: all(12, Found), check: func(t *testing.T, s *clustertest.Server, res *Result) {
			// The broken item may have been cm-00: it is read with a GET, not taken for a create.
			if res.Gets != 1 || countRequests(s, "GET "+cmsPath+"/cm-00") != 1 {
				t.Errorf("%d GETs, want 1 of cm-00", res.Gets)
			}
		}},
		{name: "broken JSON", serve: listAnswer(clustertest.JSON(`{"kind":"ConfigMapList","apiVersion":"v1","items":[{"metadata":{"name":"cm-00"}}`)), want: all(12, Failed),
			wantErr: "GET " + cmsPath + "?limit=500: the answer is not a JSON list: unexpected EOF (at byte"},
		{name: "HTML", serve: listAnswer(clustertest.Typed(200, "application/json", clustertest.LoginPage)), want: all(12, Failed),
			wantErr: "GET " + cmsPath + "?limit=500: the answer is not a JSON list: it is HTML (it starts with <)"},
		{name: "protobuf", serve: listAnswer(clustertest.Typed(200, "application/vnd.kubernetes.protobuf;stream=watch", clustertest.ProtobufBody)), want: all(12, Failed),
			wantErr: "GET " + cmsPath + "?limit=500: answered 200 OK with protobuf (application/vnd.kubernetes.protobuf), not the JSON asked for"},
		{name: "a LIST answered 404", serve: listAnswer(clustertest.Typed(404, "text/plain; charset=utf-8", "404 page not found\n")), want: all(12, Failed),
			wantErr: "GET " + cmsPath + "?limit=500: answered 404 Not Found with plain text (text/plain), not the API server's Status: the server could not find the requested resource"},
	} {
		t.Run(h.name, h.run)
	}
}

// Discovery is bounded: the versions a group lists, the documents a read asks for; and its
// answers are checked against what was asked.
func TestHostileDiscovery(t *testing.T) {
	widget := Ref{APIVersion: "example.com/v1", Kind: "Widget", Name: "w"}
	for _, h := range []hostile{
		{name: "10,000 versions", serve: func(t *testing.T, s *clustertest.Server) []Ref {
			s.Intercept = clustertest.Answer(clustertest.PathIs("/apis/example.com"), clustertest.ManyVersions("example.com", 10000))
			return []Ref{widget}
		}, want: []Status{Failed}, wantErr: "discovery /apis/example.com: GET /apis/example.com: the group lists 10000 versions, more than 64: not an API server's answer",
			check: func(t *testing.T, s *clustertest.Server, res *Result) {
				if n := countRequests(s, "GET /apis/example.com"); n != 2 {
					t.Errorf("%d discovery requests, want 2 (/apis/example.com/v1, /apis/example.com)", n)
				}
			}},
		{name: "60 versions, none with the kind", serve: func(t *testing.T, s *clustertest.Server) []Ref {
			s.Intercept = clustertest.Answer(clustertest.PathIs("/apis/example.com"), clustertest.ManyVersions("example.com", 60))
			return []Ref{widget}
		}, want: []Status{Failed}, wantErr: `the cluster serves no Widget.example.com at any version of "example.com"`},
		{name: "the resources of another group version", serve: func(t *testing.T, s *clustertest.Server) []Ref {
			s.Intercept = clustertest.Answer(clustertest.PathIs("/apis/apps/v1"), clustertest.JSON(`{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"evil/v1","resources":[{"name":"deployments","namespaced":true,"kind":"Deployment","verbs":["get"]}]}`))
			return []Ref{chatRef()}
		}, want: []Status{Failed}, wantErr: `discovery /apis/apps/v1: GET /apis/apps/v1: the answer is not the resources of apps/v1: it is a "APIResourceList" of "evil/v1"`},
		{name: "a resource named to climb the path", serve: func(t *testing.T, s *clustertest.Server) []Ref {
			s.Intercept = clustertest.Answer(clustertest.PathIs("/apis/apps/v1"), clustertest.JSON(`{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"apps/v1","resources":[{"name":"..","namespaced":true,"kind":"Deployment","verbs":["get"]}]}`))
			return []Ref{chatRef()}
		}, want: []Status{Failed}, wantErr: `the resource of Deployment is named "..", which is not a resource's name`},
		{name: "a version named to climb the path", serve: func(t *testing.T, s *clustertest.Server) []Ref {
			s.Intercept = clustertest.Answer(clustertest.PathIs("/apis/example.com"), clustertest.JSON(`{"kind":"APIGroup","apiVersion":"v1","name":"example.com","versions":[{"groupVersion":"example.com/../../api","version":"../../api"}],"preferredVersion":{"groupVersion":"example.com/v1","version":"v1"}}`))
			return []Ref{widget}
		}, want: []Status{Failed}, wantErr: `discovery /apis/example.com: the answer lists a version "../../api", which is not a version's name`},
		{name: "another group", serve: func(t *testing.T, s *clustertest.Server) []Ref {
			s.Intercept = clustertest.Answer(clustertest.PathIs("/apis/example.com"), clustertest.ManyVersions("evil.com", 1))
			return []Ref{widget}
		}, want: []Status{Failed}, wantErr: `the answer is not the group example.com: it is a "APIGroup" named "evil.com"`},
		{name: "HTML", serve: func(t *testing.T, s *clustertest.Server) []Ref {
			s.Intercept = clustertest.Answer(clustertest.PathIs("/apis/apps/v1"), clustertest.Typed(200, "text/html", clustertest.LoginPage))
			return []Ref{chatRef()}
		}, want: []Status{Failed}, wantErr: `discovery /apis/apps/v1: GET /apis/apps/v1: answered 200 OK with HTML (text/html), not the JSON asked for`},
	} {
		t.Run(h.name, h.run)
	}
}

// The time is bounded: each request by the request timeout, an answer that drips included;
// the whole read by ReadTimeout, however quickly each request is answered.
func TestHostileTime(t *testing.T) {
	for _, h := range []hostile{
		{name: "a slow drip", opts: Options{RequestTimeout: "1s"}, serve: func(t *testing.T, s *clustertest.Server) []Ref {
			s.Add(cm("shop", "web"))
			s.Intercept = clustertest.Answer(clustertest.PathIs(webPath), clustertest.Drip(clustertest.Marshal(cm("shop", "web")), 50*time.Millisecond))
			return []Ref{webRef(), {APIVersion: "v1", Kind: "ConfigMap", Name: "web2"}}
		}, read: ReadOptions{Parallel: 1}, want: []Status{Failed, Failed}, within: 3 * time.Second,
			wantErr: "GET " + webPath + ": the answer did not end within --request-timeout 1s ("},
		{name: "the whole read", opts: Options{RequestTimeout: "1s", ReadTimeout: 1500 * time.Millisecond}, serve: func(t *testing.T, s *clustertest.Server) []Ref {
			var refs []Ref
			for i := 0; i < 40; i++ {
				refs = append(refs, Ref{APIVersion: "v1", Kind: "ConfigMap", Name: fmt.Sprint("cm-", i)})
			}
			s.Delay = func(r *http.Request) time.Duration {
				if strings.Contains(r.URL.Path, "/configmaps/") {
					return 400 * time.Millisecond
				}
				return 0
			}
			return refs
		}, read: ReadOptions{Parallel: 2, ListThreshold: -1}, within: 3 * time.Second, check: func(t *testing.T, s *clustertest.Server, res *Result) {
			notAsked := 0
			for _, o := range res.Outcomes {
				if o.Status == Failed && strings.Contains(o.Err.Error(), "the read of the cluster did not end within 1.5s: raise --request-timeout") {
					notAsked++
				} else if o.Status != NotFound {
					t.Errorf("%s: %d (%v)", o.ID, o.Status, o.Err)
				}
			}
			if notAsked < 30 {
				t.Errorf("%d objects not asked, want most of the 40", notAsked)
			}
		}},
	} {
		t.Run(h.name, h.run)
	}
}

// The budget is the read's, all answers together, whichever is read first.
func TestBudgetShared(t *testing.T) {
	s := clustertest.New(t)
	var refs []Ref
	for i := 0; i < 4; i++ {
		obj := cm("shop", fmt.Sprint("big-", i))
		obj["data"] = map[string]any{"a": strings.Repeat("x", 300<<10)}
		s.Add(obj)
		refs = append(refs, Ref{APIVersion: "v1", Kind: "ConfigMap", Name: fmt.Sprint("big-", i)})
	}
	var served atomic.Int64
	s.Intercept = func(w http.ResponseWriter, r *http.Request) bool { served.Add(1); return false }
	res := read(t, connect(t, s, Options{MaxBytes: 1 << 20}), ReadOptions{Parallel: 1}, refs...)
	found, failed := 0, 0
	for _, o := range res.Outcomes {
		switch {
		case o.Status == Found:
			found++
		case o.Status == Failed && strings.Contains(o.Err.Error(), "larger than 1Mi (raise the limit with --max-input-bytes)"):
			failed++
		default:
			t.Errorf("%s: %d (%v)", o.ID, o.Status, o.Err)
		}
	}
	if found != 3 || failed != 1 {
		t.Errorf("%d found, %d failed: want 3 and 1", found, failed)
	}
}
