// Package cluster reads, from a running cluster, the live state a prediction needs, and
// nothing more, with read-only permissions (get and list).
//
// # What is read
//
// A prediction needs, for each manifest, the object it applies to as the server stores it,
// with metadata.managedFields (the API always returns them; only kubectl's printing hides
// them), and the schema of each kind. So a read is:
//
//   - the server's version (GET /version), the first request, which also says whether the
//     cluster can be reached at all;
//   - discovery, one group version at a time and only for the kinds of the manifests (GET
//     /api/v1, /apis/GROUP/VERSION; GET /apis/GROUP when the manifest's version is not
//     served, to find the one that is): the resource of each kind and whether it is
//     namespaced;
//   - each object with a GET, or, for a kind and namespace with many of them
//     (ReadOptions.ListThreshold), one LIST paged with limit and continue, of which only
//     the objects asked for are kept (a LIST RBAC forbids becomes GETs);
//   - the CustomResourceDefinition of each custom kind the caller has no schema for
//     (ReadOptions.HasSchema), by its name, resource.group.
//
// Requests run on a bounded number of goroutines and are rated on the client side as
// kubectl rates discovery (50 per second, bursts of 300), each bounded by the request
// timeout — its retries, its wait for the rate and the reading of its answer included — and
// the whole read by ReadTimeoutFactor request timeouts (Options.ReadTimeout); the result
// does not depend on their order. They are GETs sent over client-go's transport for the
// kubeconfig (TLS, tokens, client certificates, exec plugins, the user agent), not through
// client-go's REST client: that reads every answer whole, inflates gzip by itself and logs
// through klog, before anyone can look at what the server sent (request.go).
//
// # A cluster that answers badly or maliciously
//
// The cluster is the one network input of a gate, reached through proxies and gateways the
// gate does not control, so nothing it answers is trusted:
//
//   - Every answer is bounded as it is read, after decompression: the answers of a run
//     together by what --max-input-bytes leaves after the files (Options.MaxBytes,
//     BytesBefore), one object or discovery document by --max-document-bytes
//     (Options.MaxDocumentBytes). A gzip bomb or an endless body stops at the bound, with
//     the request and the flag to raise named (budget.go).
//   - A LIST is read item by item as it arrives, and only the objects asked for are kept:
//     its memory is what it keeps, not what was sent. Its pages are bounded: a continue
//     token seen before is a loop, and there are at most MaxListPages (list.go).
//   - Every answer is checked against its request: a successful answer must say it is
//     JSON (HTML, protobuf, YAML are named as such) and be one JSON object; a GET's object
//     must have the apiVersion asked for, the kind, the namespace and the name; a LIST must
//     be a list of the kind at the version asked, and each item kept an object of that kind
//     in that namespace; discovery documents must be the group, or group version, asked
//     for, with at most MaxGroupVersions versions, and names that are path segments. An
//     answer that is not what was asked for fails the object it concerns (never a create,
//     never another object), naming the request; an item of a LIST fails the one object
//     it names, and an item that cannot be named (too large, not an object) makes the
//     objects the LIST lacks be read with a GET each, since one of them may be that item.
//   - A 404 is an object's absence only when it is the API server's Status NotFound naming
//     that object; a proxy's 404 page is an error.
//   - Discovery asks for at most MaxDiscoveryDocuments documents in a read.
//
// # When the cluster fails
//
// Each failure has one behaviour, and none is taken for a create:
//
//   - A GET answered 429 or 500, 502, 503, 504 (or another 5xx with Retry-After), or whose
//     connection broke, is sent again (Options.Retries, 5) after a backoff that doubles
//     (Options.RetryBackoff, 0.5 s, up to 8 s, with 10% jitter) or after the answer's
//     Retry-After when longer, 1 s at least after a broken connection (client-go's retry,
//     with a backoff). The retries fit in the request timeout.
//   - The request timeout (30 s by default) has no "none": a server that accepts
//     connections and never answers, or drips its answer, ends each request.
//   - After the first request of a read that got no answer at all — a timeout, a connection
//     refused, a connection still broken after its retries, a credential plugin that failed
//     — the cluster is taken as gone: no further request is sent, and what was not read is
//     Failed, "not asked", so that the read ends within one request timeout. So it is once
//     the read's deadline has passed.
//   - A LIST whose continue token has expired (410 Gone) is read again, once and unpaged,
//     as client-go's pager does.
//   - A redirect (3xx) is never followed: the request fails with a [RedirectError] naming
//     it and where the redirect pointed. The API server never redirects a read; following
//     one, as kubectl's client does, would send the kubeconfig's credentials to that host.
//     No request of a redirect is made, no connection opened (redirect.go).
//   - A refusal (403) fails the objects it concerns only, "cannot predict: forbidden to get
//     …"; a LIST refused becomes GETs.
//   - When the caller's context ends (SIGINT), the requests in flight are cancelled, no
//     other is sent, and Read returns the context's error.
//
// # What an answer means
//
// Every object asked about gets an [Outcome]: Found (the object), NotFound (the apply
// creates it: the server said so), or Failed — forbidden, a timeout, a kind the cluster does
// not serve, a schema that could not be read — with the reason. A Failed object is never
// taken for a create: a prediction against what could not be read would be a guess. The one
// NotFound the server did not say is a kind it does not serve yet whose
// CustomResourceDefinition is among the inputs (ReadOptions.DefinedHere): no object of a
// kind that does not exist yet can exist.
//
// # Reading it again offline
//
// [ListJSON] writes what was read as a v1 List, the form `kubectl get -o json` gives and
// ssa-diff reads as a live-state dump. Its first item is a [Record] (kind LiveStateRead)
// that keeps what the objects alone cannot say: which objects the cluster does not have,
// which could not be read and why, how the kinds are served, the namespace used for
// objects that name none. A run given that List predicts exactly as the run that read it.
//
// # Connecting
//
// [Connect] follows kubectl's conventions through client-go's clientcmd: --kubeconfig, else
// KUBECONFIG, else ~/.kube/config, else the configuration of the pod the program runs in;
// --context; the context's namespace unless -n names one; any credential a kubeconfig can
// hold (tokens, certificates, exec plugins). Discovery is done here, over the same
// transport, rather than with client-go's discovery package, whose import registers every built-in
// type of Kubernetes at program start (milliseconds every run, and 20 MB of binary).
package cluster
