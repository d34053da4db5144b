package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/input"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	sigsjson "sigs.k8s.io/json"
)

// Ref is an object a manifest applies to, as the manifest names it (Namespace "" when it
// names none).
type Ref struct {
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
}

func (r Ref) gv() (group, version string) {
	if i := strings.IndexByte(r.APIVersion, '/'); i >= 0 {
		return r.APIVersion[:i], r.APIVersion[i+1:]
	}
	return "", r.APIVersion
}

// ReadOptions tune Read; the zero value reads with the defaults and fetches no
// CustomResourceDefinition.
type ReadOptions struct {
	// Parallel is how many requests are in flight at most (0: DefaultParallel).
	Parallel int
	// ListThreshold is how many objects of one kind in one namespace make one LIST
	// cheaper than a GET each (0: DefaultListThreshold; negative: never LIST).
	ListThreshold int
	// HasSchema reports whether the caller knows the schema of a kind. The
	// CustomResourceDefinition of each custom kind it does not know is read too.
	HasSchema func(group, version, kind string) bool
	// Scope says whether a kind the cluster does not serve is namespaced, when the caller
	// knows it (known false: taken as namespaced, as kubectl takes it).
	Scope func(group, version, kind string) (namespaced, known bool)
	// DefinedHere reports whether a CustomResourceDefinition among the inputs defines a
	// kind: when the cluster does not serve it yet, its objects do not exist (NotFound),
	// rather than that being an error.
	DefinedHere func(group, kind string) bool
}

// Status is what the cluster answered about one object.
type Status int

// The statuses.
const (
	// Found: the object exists; Outcome.Object is it.
	Found Status = iota
	// NotFound: the cluster has no such object (the apply creates it).
	NotFound
	// Failed: the cluster could not be asked (forbidden, timeout, kind not served …);
	// Outcome.Err says why. Never a create.
	Failed
)

// Outcome is what was read for one Ref.
type Outcome struct {
	Ref Ref
	// ID is the object the apply goes to: the manifest's namespace, or the default one
	// for a namespaced kind, none for a cluster-scoped one.
	ID     input.Identity
	Status Status
	// Object is the live object as the server wrote it (JSON), with its managedFields,
	// when Found.
	Object json.RawMessage
	// Err says why, when Failed.
	Err error
	// Note explains a NotFound that is not the cluster's answer for the object (its kind
	// is not served yet).
	Note string
}

// Result is what Read read.
type Result struct {
	// Outcomes has one element per Ref, in order.
	Outcomes []Outcome
	// CRDs are the CustomResourceDefinitions read for custom kinds, by name.
	CRDs []json.RawMessage
	// CRDErrors are the CustomResourceDefinitions that could not be read, by kind
	// ("Kind.group"), which makes the objects of that kind Failed too.
	CRDErrors map[string]error
	// Resources are the kinds asked about as the cluster serves them, sorted.
	Resources []Resource
	// Gets, Lists and Pages count the requests sent for objects.
	Gets, Lists, Pages int
}

// Read reads the live state of refs: each object with a GET, or, for a kind and namespace
// with many of them, one paged LIST; and the CustomResourceDefinitions of custom kinds the
// caller has no schema for. Requests run in parallel (bounded) and rated; the result does
// not depend on their order. Read fails only when ctx ends; everything else is an Outcome.
func (c *Client) Read(ctx context.Context, refs []Ref, opts ReadOptions) (*Result, error) {
	if opts.Parallel <= 0 {
		opts.Parallel = DefaultParallel
	}
	if opts.ListThreshold == 0 {
		opts.ListThreshold = DefaultListThreshold
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, c.readTimeout)
	defer cancel()
	r := &reader{c: c, opts: opts, parent: parent, res: &Result{Outcomes: make([]Outcome, len(refs)), CRDErrors: map[string]error{}}}
	r.d = newDiscovery(r)
	d := r.d

	// The kinds, each resolved once.
	type gvk struct{ group, version, kind string }
	kinds := map[gvk]*resolved{}
	var order []gvk
	for _, ref := range refs {
		g, v := ref.gv()
		k := gvk{g, v, ref.Kind}
		if kinds[k] == nil {
			kinds[k] = &resolved{}
			order = append(order, k)
		}
	}
	r.parallel(len(order), func(i int) {
		k := order[i]
		res, err := d.resolve(ctx, k.group, k.version, k.kind)
		kinds[k].res, kinds[k].err = res, err
	})
	seenRes := map[Resource]bool{}
	for _, k := range order {
		if kinds[k].err == nil && !seenRes[kinds[k].res] {
			seenRes[kinds[k].res] = true
			r.res.Resources = append(r.res.Resources, kinds[k].res)
		}
	}
	sort.Slice(r.res.Resources, func(i, j int) bool {
		a, b := r.res.Resources[i], r.res.Resources[j]
		if a.APIVersion != b.APIVersion {
			return a.APIVersion < b.APIVersion
		}
		return a.Kind < b.Kind
	})

	// Each object once; objects grouped by resource and namespace.
	type bucket struct {
		res   Resource
		ns    string
		names []string
		refs  map[string][]int // name → indexes of refs
	}
	buckets := map[string]*bucket{}
	var bucketOrder []string
	crds := map[string]string{} // CRD name → the kind it is read for
	var crdOrder []string
	for i, ref := range refs {
		g, v := ref.gv()
		k := kinds[gvk{g, v, ref.Kind}]
		out := &r.res.Outcomes[i]
		out.Ref = ref
		out.ID = input.Identity{Group: g, Kind: ref.Kind, Name: ref.Name}
		namespaced := true
		switch {
		case k.err == nil:
			namespaced = k.res.Namespaced
		case opts.Scope != nil:
			if n, known := opts.Scope(g, v, ref.Kind); known {
				namespaced = n
			}
		}
		if namespaced {
			out.ID.Namespace = ref.Namespace
			if out.ID.Namespace == "" {
				out.ID.Namespace = c.Namespace
			}
		}
		switch {
		case errors.Is(k.err, errNotServed) && opts.DefinedHere != nil && opts.DefinedHere(g, ref.Kind):
			out.Status = NotFound
			out.Note = fmt.Sprintf("the cluster does not serve %s yet; its CustomResourceDefinition is among the inputs, so no such object exists (kubectl applies it only once the definition is established: a first apply of both refuses this object)", kindString(g, ref.Kind))
			continue
		case errors.Is(k.err, errNotServed):
			out.Status = Failed
			out.Err = fmt.Errorf("the cluster serves no %s at any version of %q (is its CustomResourceDefinition installed?): kubectl would refuse it (no matches for kind %q in version %q)", kindString(g, ref.Kind), groupName(g), ref.Kind, ref.APIVersion)
			continue
		case k.err != nil:
			out.Status = Failed
			out.Err = c.readError(out.ID.String(), "", "", k.err)
			continue
		}
		key := k.res.APIVersion + "\x00" + k.res.Kind + "\x00" + out.ID.Namespace
		b := buckets[key]
		if b == nil {
			b = &bucket{res: k.res, ns: out.ID.Namespace, refs: map[string][]int{}}
			buckets[key] = b
			bucketOrder = append(bucketOrder, key)
		}
		if b.refs[ref.Name] == nil {
			b.names = append(b.names, ref.Name)
		}
		b.refs[ref.Name] = append(b.refs[ref.Name], i)
		if g != "" && opts.HasSchema != nil && !opts.HasSchema(g, v, ref.Kind) {
			name := k.res.Name + "." + g
			if _, ok := crds[name]; !ok {
				crds[name] = kindString(g, ref.Kind)
				crdOrder = append(crdOrder, name)
			}
		}
	}
	// A CRD that is itself among the objects is read as one.
	crdBucket := buckets[crdResource.APIVersion+"\x00"+crdResource.Kind+"\x00"]
	var wantCRDs []string
	for _, name := range crdOrder {
		if crdBucket == nil || crdBucket.refs[name] == nil {
			wantCRDs = append(wantCRDs, name)
		}
	}

	// The tasks: a LIST per large bucket, a GET per object of the others, a GET per CRD.
	type task struct {
		b    *bucket
		name string // "" for a LIST of the bucket
		crd  string
	}
	var tasks []task
	for _, key := range bucketOrder {
		b := buckets[key]
		if opts.ListThreshold > 0 && len(b.names) >= opts.ListThreshold {
			tasks = append(tasks, task{b: b})
			continue
		}
		for _, n := range b.names {
			tasks = append(tasks, task{b: b, name: n})
		}
	}
	for _, name := range wantCRDs {
		tasks = append(tasks, task{crd: name})
	}
	crdObjs := make([]json.RawMessage, len(tasks))
	r.parallel(len(tasks), func(i int) {
		t := tasks[i]
		switch {
		case t.crd != "":
			obj, err := r.getObject(ctx, crdResource, "", t.crd)
			switch {
			case err == nil:
				crdObjs[i] = obj
			case absent(err, crdResource, t.crd):
				// A kind served by an aggregated API server, not a CRD: no schema to read.
			default:
				r.mu.Lock()
				what := fmt.Sprintf("the CustomResourceDefinition %s (the schema of %s)", t.crd, crds[t.crd])
				r.res.CRDErrors[crds[t.crd]] = c.readError(what, "get", what, err)
				r.mu.Unlock()
			}
		case t.name != "":
			r.getInto(ctx, t.b.res, t.b.ns, t.name, t.b.refs[t.name])
		default:
			r.listInto(ctx, t.b.res, t.b.ns, t.b.names, t.b.refs)
		}
	})
	if err := parent.Err(); err != nil {
		return nil, err
	}
	for _, o := range crdObjs {
		if o != nil {
			r.res.CRDs = append(r.res.CRDs, o)
		}
	}
	for i := range r.res.Outcomes {
		out := &r.res.Outcomes[i]
		g, _ := out.Ref.gv()
		if err := r.res.CRDErrors[kindString(g, out.Ref.Kind)]; err != nil && out.Status != Failed {
			out.Status, out.Object, out.Err = Failed, nil, err
		}
	}
	r.res.Gets, r.res.Lists, r.res.Pages = int(r.gets.Load()), int(r.lists.Load()), int(r.pages.Load())
	return r.res, nil
}

var crdResource = Resource{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition", Name: "customresourcedefinitions"}

type resolved struct {
	res Resource
	err error
}

type reader struct {
	c    *Client
	d    *discovery
	opts ReadOptions
	mu   sync.Mutex
	res  *Result
	// parent is the caller's context; the read's own ends with the read's deadline.
	parent context.Context

	gets, lists, pages atomic.Int64
	// halt is the first request of the read that the cluster did not answer at all; once
	// it is set, no request is sent.
	halt atomic.Pointer[haltError]
}

// parallel runs f(0..n-1) on at most opts.Parallel goroutines. (Once ctx ends, f's
// requests fail at once: client-go sends none.)
func (r *reader) parallel(n int, f func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < r.opts.Parallel && w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
}

// do sends one request of the read (see Client.get). After a request that got no answer
// at all — a timeout, a connection refused or broken once its retries are spent, a
// credential plugin that failed — the cluster is taken as gone: the requests not yet sent
// are not, and fail with a haltError, so that a server that stopped answering ends the read
// within one request timeout rather than one per object. So do they once the read's
// deadline has passed.
func (r *reader) do(ctx context.Context, cl call, max int64, read func(io.Reader) error) error {
	if h := r.halt.Load(); h != nil {
		return h
	}
	err := r.c.get(ctx, cl, max, read)
	switch {
	case err == nil || r.parent.Err() != nil:
	case ctx.Err() != nil:
		// The read's deadline, not the request's.
		h := &haltError{host: r.c.Host, deadline: r.c.readTimeout, factor: r.c.readTimeout == ReadTimeoutFactor*r.c.Timeout}
		r.halt.CompareAndSwap(nil, h)
		err = &RequestError{Request: cl.String(), Err: h.deadlineError()}
	case noAnswer(err):
		r.halt.CompareAndSwap(nil, &haltError{host: r.c.Host, err: err})
	}
	return err
}

// noAnswer says whether err is not an answer of the server: a request that failed or
// timed out, not a Status, an error page, a redirect or an answer that is not what was
// asked for.
func noAnswer(err error) bool {
	var re *RequestError
	if errors.As(err, &re) {
		return !re.answered
	}
	if _, ok := asRedirect(err); ok {
		return false
	}
	var st apierrors.APIStatus
	return !errors.As(err, &st)
}

// haltError is the error of a request not sent because an earlier one got no answer, or
// because the read's deadline passed.
type haltError struct {
	host string
	err  error
	// deadline is the read's, when it is what passed.
	deadline time.Duration
	factor   bool // the deadline is ReadTimeoutFactor request timeouts
}

func (h *haltError) deadlineError() error {
	how := ""
	if h.factor {
		how = fmt.Sprintf(", %d times --request-timeout", ReadTimeoutFactor)
	}
	return fmt.Errorf("the read of the cluster did not end within %s%s: raise --request-timeout, or read fewer objects at once", h.deadline, how)
}

func (h *haltError) Error() string {
	if h.err == nil {
		return fmt.Sprintf("not asked: %v; no more requests were sent", h.deadlineError())
	}
	return fmt.Sprintf("not asked: the cluster at %s stopped answering during the read (%v), so no more requests were sent", h.host, h.err)
}

// path is the URL path of a resource in a namespace ("" for all, or cluster-scoped), or of
// one object of it.
func path(res Resource, ns, name string) string {
	p := "/apis/" + res.APIVersion
	if res.Group() == "" {
		p = "/api/" + res.APIVersion
	}
	if ns != "" {
		p += "/namespaces/" + url.PathEscape(ns)
	}
	p += "/" + res.Name
	if name != "" {
		p += "/" + url.PathEscape(name)
	}
	return p
}

// getObject reads one object with a GET, and checks that the answer is that object: its
// apiVersion (the version asked for), kind, namespace and name.
func (r *reader) getObject(ctx context.Context, res Resource, ns, name string) (json.RawMessage, error) {
	r.gets.Add(1)
	var obj json.RawMessage
	err := r.do(ctx, call{path: path(res, ns, name)}, r.c.maxDoc, func(body io.Reader) error {
		data, err := readObject(body)
		if err != nil {
			return err
		}
		if err := checkObject(data, res, ns, name); err != nil {
			return err
		}
		if err := r.c.kept(data); err != nil {
			return err
		}
		obj = data
		return nil
	})
	if err != nil {
		return nil, err
	}
	return obj, nil
}

// readObject reads an answer that is one JSON object (bounded by the reader).
func readObject(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if isObject(data) && json.Valid(data) {
		return data, nil
	}
	if d := sniff(data); d != "" {
		return nil, fmt.Errorf("the answer is not a JSON object: it is %s", d)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("the answer is not JSON: %w", err)
	}
	return nil, fmt.Errorf("the answer is JSON but not an object: %.40s", bytes.TrimSpace(data))
}

// checkObject checks that an object answered is the one asked for.
func checkObject(data []byte, res Resource, ns, name string) error {
	head, err := readHead(data)
	if err != nil {
		return fmt.Errorf("the answer cannot be read as an object: %w", err)
	}
	av, kind, okAV, okKind := head.types()
	if okAV && okKind && av == res.APIVersion && kind == res.Kind && head.Metadata.Name == name && head.Metadata.Namespace == ns {
		return nil
	}
	return fmt.Errorf("the answer is %s, not the object asked for (%s): not taken for it",
		describeObject(head, av, kind), describeType(res.APIVersion, res.Kind)+" "+strconv.Quote(name)+inNamespace(ns))
}

// absent says whether err is the API server's answer that the object does not exist: a
// Status NotFound whose details name it. A 404 that is not a Status (a proxy's page, "404
// page not found" for a path nobody serves) or that names another object is not taken for
// the object's absence: that would predict a create.
func absent(err error, res Resource, name string) bool {
	var st *apierrors.StatusError
	if !errors.As(err, &st) || st.ErrStatus.Reason != metav1.StatusReasonNotFound || st.ErrStatus.Code != http.StatusNotFound {
		return false
	}
	var re *RequestError
	if errors.As(err, &re) {
		return false // client-go's error for a 404 that is not a Status
	}
	d := st.ErrStatus.Details
	return d != nil && d.Name == name && d.Kind == res.Name && d.Group == res.Group()
}

// notAbsent is the error of a 404 that is not taken for the object's absence.
func notAbsent(err error, res Resource, ns, name string) error {
	var st *apierrors.StatusError
	var re *RequestError
	if errors.As(err, &re) || !errors.As(err, &st) || st.ErrStatus.Reason != metav1.StatusReasonNotFound {
		return err
	}
	what := "no details"
	if d := st.ErrStatus.Details; d != nil {
		what = fmt.Sprintf("%s %q", resourceName(Resource{APIVersion: d.Group + "/", Name: d.Kind}), d.Name)
	}
	return &RequestError{Request: call{path: path(res, ns, name)}.String(), answered: true,
		Err: fmt.Errorf("answered 404 NotFound naming another object (%s) than the one asked for: not taken for its absence (%v)", what, err)}
}

// objectHead is what is read of an object: whether it says how it is typed (nil when it
// does not), and its name.
type objectHead struct {
	APIVersion json.RawMessage `json:"apiVersion"`
	Kind       json.RawMessage `json:"kind"`
	Metadata   struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
}

// types are the object's apiVersion and kind, each with whether it is a string.
func (h objectHead) types() (apiVersion, kind string, okAV, okKind bool) {
	okAV = h.APIVersion != nil && json.Unmarshal(h.APIVersion, &apiVersion) == nil
	okKind = h.Kind != nil && json.Unmarshal(h.Kind, &kind) == nil
	return apiVersion, kind, okAV, okKind
}

// readHead reads the head of an object with the exact member names, as the server's own
// decoding does: "apiVErsion" is not apiVersion (encoding/json would take it for one).
func readHead(data []byte) (objectHead, error) {
	var head objectHead
	err := sigsjson.UnmarshalCaseSensitivePreserveInts(data, &head)
	return head, err
}

func isObject(data []byte) bool {
	data = bytes.TrimSpace(data)
	return len(data) > 0 && data[0] == '{'
}

// typed is a LIST item (a JSON object) with the apiVersion and kind the items of built-in
// kinds lack (each only where it lacks it).
func typed(item json.RawMessage, head objectHead, res Resource) json.RawMessage {
	if head.APIVersion != nil && head.Kind != nil || !isObject(item) {
		return item
	}
	rest := bytes.TrimSpace(bytes.TrimSpace(item)[1:]) // after '{'
	var b bytes.Buffer
	b.Grow(len(item) + 64)
	b.WriteByte('{')
	member := func(key, value string) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		v, _ := json.Marshal(value)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	if head.APIVersion == nil {
		member("apiVersion", res.APIVersion)
	}
	if head.Kind == nil {
		member("kind", res.Kind)
	}
	if len(rest) > 0 && rest[0] != '}' {
		b.WriteByte(',')
	}
	b.Write(rest)
	return b.Bytes()
}

// getInto reads one object for the refs at idx.
func (r *reader) getInto(ctx context.Context, res Resource, ns, name string, idx []int) {
	obj, err := r.getObject(ctx, res, ns, name)
	for _, i := range idx {
		out := &r.res.Outcomes[i]
		switch {
		case err == nil:
			out.Status, out.Object = Found, obj
		case absent(err, res, name):
			out.Status = NotFound
		default:
			out.Status = Failed
			out.Err = r.c.readError(out.ID.String(), "get", objectIn(res, ns, name), notAbsent(err, res, ns, name))
		}
	}
}

// listInto reads the objects of a kind in a namespace with a LIST (see list) and keeps
// those asked for. A LIST the user may not send (RBAC allows get only) becomes GETs; so do
// the objects asked for that the LIST does not hold when one of its items could not be
// named (too large, not an object): the object may be that item. An item of the wrong kind
// or namespace fails the object it names only.
func (r *reader) listInto(ctx context.Context, res Resource, ns string, names []string, refs map[string][]int) {
	r.lists.Add(1)
	lr, err := r.list(ctx, res, ns, refs)
	if apierrors.IsForbidden(err) && !lr.restarted {
		for _, n := range names {
			r.getInto(ctx, res, ns, n, refs[n])
		}
		return
	}
	if err != nil {
		if lr.restarted {
			err = fmt.Errorf("%w (read again from the start once, after its continue token expired)", err)
		}
		for _, n := range names {
			for _, i := range refs[n] {
				out := &r.res.Outcomes[i]
				out.Status = Failed
				out.Err = r.c.readError(out.ID.String(), "list", resourceIn(res, ns), err)
			}
		}
		return
	}
	for _, n := range names {
		obj, found := lr.items[n]
		if bad := lr.bad[n]; bad == nil && !found && lr.unidentified != "" {
			r.getInto(ctx, res, ns, n, refs[n])
			continue
		}
		for _, i := range refs[n] {
			out := &r.res.Outcomes[i]
			switch {
			case lr.bad[n] != nil:
				out.Status = Failed
				out.Err = r.c.readError(out.ID.String(), "list", resourceIn(res, ns), lr.bad[n])
			case found:
				out.Status, out.Object = Found, obj
			default:
				out.Status = NotFound
			}
		}
	}
}

// objectIn names an object of a resource as kubectl's messages do: secrets "token" in
// namespace "shop".
func objectIn(res Resource, ns, name string) string {
	s := resourceName(res) + " " + strconv.Quote(name)
	if ns != "" {
		s += " in namespace " + strconv.Quote(ns)
	}
	return s
}

func resourceName(res Resource) string {
	if g := res.Group(); g != "" {
		return res.Name + "." + g
	}
	return res.Name
}

func resourceIn(res Resource, ns string) string {
	s := resourceName(res)
	if ns != "" {
		s += " in namespace " + strconv.Quote(ns)
	}
	return s
}

// readError is why what (an object, "Secret shop/token", or a CustomResourceDefinition)
// could not be read by the request verb on target: a refusal says what was forbidden and
// the permissions ssa-diff needs; the other errors say the rest themselves (the request, the
// limit, the retries).
func (c *Client) readError(what, verb, target string, err error) error {
	switch {
	case apierrors.IsForbidden(err) && verb != "":
		return fmt.Errorf("cannot predict: forbidden to %s %s: %w (ssa-diff needs get and list on what it reads: see \"Read-only access for a CI gate\" in its README)", verb, target, err)
	case apierrors.IsUnauthorized(err):
		return fmt.Errorf("cannot read %s from the cluster: %w (the cluster no longer accepts the kubeconfig's credentials)", what, err)
	}
	return fmt.Errorf("cannot read %s from the cluster: %w", what, err)
}

func kindString(group, kind string) string {
	if group == "" {
		return kind
	}
	return kind + "." + group
}

func groupName(g string) string {
	if g == "" {
		return "the core group"
	}
	return g
}
