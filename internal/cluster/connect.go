package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/flowcontrol"
)

// Defaults of Options: kubectl's rate for discovery (the requests it sends in bursts), and
// a bounded number of requests in flight.
const (
	DefaultQPS            = 50
	DefaultBurst          = 300
	DefaultParallel       = 8
	DefaultRequestTimeout = "30s"
	// DefaultRetries is how many times a GET is sent again when the answer says the server
	// is overloaded or failing (429, 5xx) or the connection broke; DefaultRetryBackoff is
	// the first wait, doubled at each retry up to MaxRetryBackoff, or the answer's
	// Retry-After when longer. All retries of a request fit in its request timeout.
	DefaultRetries      = 5
	DefaultRetryBackoff = 500 * time.Millisecond
	MaxRetryBackoff     = 8 * time.Second
	// DefaultListThreshold is how many objects of one kind in one namespace are read with
	// one LIST (paged) instead of a GET each.
	DefaultListThreshold = 10
)

// Options say how to reach the cluster, with kubectl's conventions: the kubeconfig files of
// KUBECONFIG (or ~/.kube/config) unless Kubeconfig names one, its current context unless
// Context names another, and the configuration of the pod the program runs in when there
// is no kubeconfig at all. Credentials are the kubeconfig's: tokens, client certificates,
// exec plugins.
type Options struct {
	// Kubeconfig is the kubeconfig file to use (kubectl's --kubeconfig); "" for KUBECONFIG,
	// ~/.kube/config, or the in-cluster configuration.
	Kubeconfig string
	// Context is the kubeconfig context to use (kubectl's --context); "" for the current one.
	Context string
	// Namespace is the namespace of namespaced objects that name none (kubectl's -n); ""
	// for the context's namespace (in a pod: the pod's), else "default".
	Namespace string
	// RequestTimeout bounds each request, its retries included, in kubectl's syntax ("30s",
	// "2m", or seconds); "" is DefaultRequestTimeout. There is no unbounded wait: a server
	// that accepts a connection and never answers would hang the run.
	RequestTimeout string
	// Retries is how many times a GET is sent again after an answer 429 or 5xx, or a
	// connection that broke (0: DefaultRetries; negative: never). RetryBackoff is the first
	// wait between them (0: DefaultRetryBackoff).
	Retries      int
	RetryBackoff time.Duration
	// QPS and Burst rate the requests on the client side (0: the defaults above).
	QPS   float32
	Burst int
	// Warnings receives the warnings the server sends with its answers (deprecated
	// versions …), each once; nil drops them.
	Warnings io.Writer
	// UserAgent is sent with every request ("": client-go's).
	UserAgent string
}

// Client reads from one cluster. It is safe for concurrent use.
type Client struct {
	// Host is the API server's URL.
	Host string
	// Context is the kubeconfig context used ("" for the in-cluster configuration).
	Context string
	// Namespace is the namespace of namespaced objects that name none.
	Namespace string
	// Timeout is the limit of each request, its retries included.
	Timeout time.Duration

	rest    *rest.RESTClient
	retries int
	backoff time.Duration
}

// Connect prepares a client from the kubeconfig (or the in-cluster configuration). It
// sends no request: errors are those of the configuration.
func Connect(opts Options) (*Client, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = opts.Kubeconfig
	overrides := &clientcmd.ConfigOverrides{CurrentContext: opts.Context, Timeout: opts.RequestTimeout}
	if overrides.Timeout == "" {
		overrides.Timeout = DefaultRequestTimeout
	}
	if d, err := clientcmd.ParseTimeout(overrides.Timeout); err != nil || d <= 0 {
		return nil, fmt.Errorf("--request-timeout %q: a duration with its unit (1s, 2m, 3h) or whole seconds, more than 0, is needed (a request without a limit can hang the run on a server that never answers)", overrides.Timeout)
	}
	loader := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides)
	cfg, err := loader.ClientConfig()
	if err != nil {
		if clientcmd.IsEmptyConfig(err) {
			return nil, errors.New("no cluster configured: no kubeconfig (--kubeconfig, KUBECONFIG, ~/.kube/config) and not running in a pod")
		}
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	c := &Client{Host: cfg.Host, Timeout: cfg.Timeout, Namespace: opts.Namespace, retries: opts.Retries, backoff: opts.RetryBackoff}
	switch {
	case c.retries == 0:
		c.retries = DefaultRetries
	case c.retries < 0:
		c.retries = 0
	}
	if c.backoff <= 0 {
		c.backoff = DefaultRetryBackoff
	}
	if raw, err := loader.RawConfig(); err == nil && len(raw.Contexts) > 0 {
		c.Context = raw.CurrentContext
		if opts.Context != "" {
			c.Context = opts.Context
		}
	}
	if c.Namespace == "" {
		ns, _, err := loader.Namespace()
		if err != nil {
			return nil, fmt.Errorf("kubeconfig: %w", err)
		}
		c.Namespace = ns
	}
	if c.Namespace == "" {
		c.Namespace = "default"
	}

	qps, burst := opts.QPS, opts.Burst
	if qps <= 0 {
		qps = DefaultQPS
	}
	if burst <= 0 {
		burst = DefaultBurst
	}
	cfg.RateLimiter = flowcontrol.NewTokenBucketRateLimiter(qps, burst)
	if opts.Warnings != nil {
		cfg.WarningHandler = rest.NewWarningWriter(opts.Warnings, rest.WarningWriterOptions{Deduplicate: true})
	} else {
		cfg.WarningHandler = rest.NoWarnings{}
	}
	if opts.UserAgent != "" {
		cfg.UserAgent = opts.UserAgent
	}
	// One JSON client for everything, objects kept as the server's JSON text. Its codecs
	// know only metav1's kinds: enough to read the server's Status errors.
	scheme := runtime.NewScheme()
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	jcfg := rest.CopyConfig(cfg)
	jcfg.GroupVersion, jcfg.APIPath = nil, "/"
	jcfg.ContentType, jcfg.AcceptContentTypes = "application/json", "application/json"
	jcfg.NegotiatedSerializer = serializer.NewCodecFactory(scheme).WithoutConversion()
	if jcfg.UserAgent == "" {
		jcfg.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	jcfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return retryable{rt} })
	jcfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return noRedirect{rt} })
	httpClient, err := rest.HTTPClientFor(jcfg)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	if httpClient == http.DefaultClient {
		// (no TLS, no credentials, no timeout: never the case here, the timeout is set)
		copied := *httpClient
		httpClient = &copied
	}
	httpClient.CheckRedirect = refuseRedirect
	c.rest, err = rest.UnversionedRESTClientForConfigAndClient(jcfg, httpClient)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	return c, nil
}

// ServerVersion asks the server its version (GET /version): the first request of a run,
// so its error says the cluster cannot be reached.
func (c *Client) ServerVersion(ctx context.Context) (*version.Info, error) {
	body, err := c.raw(ctx, c.rest.Get().AbsPath("/version"))
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case apierrors.IsUnauthorized(err):
		return nil, fmt.Errorf("the cluster at %s does not accept the kubeconfig's credentials: %w", c.Host, err)
	case isCredentialError(err):
		return nil, fmt.Errorf("cannot reach the cluster at %s: the kubeconfig's credential plugin failed (what it printed is above): %w", c.Host, err)
	case err != nil:
		return nil, fmt.Errorf("cannot reach the cluster at %s: %w", c.Host, c.explain(err))
	}
	var info version.Info
	if err := json.Unmarshal(body, &info); err != nil {
		return nil, fmt.Errorf("the cluster at %s answered /version with something else than a version: %w", c.Host, err)
	}
	return &info, nil
}

// MinorVersion reads "1.37" from a version (GitVersion, else Major and Minor, which some
// distributions write as "37+"); ok is false when it cannot.
func MinorVersion(info *version.Info) (major, minor int, ok bool) {
	digits := func(s string) (int, bool) {
		s = strings.TrimRight(s, "+")
		n, err := strconv.Atoi(s)
		return n, err == nil
	}
	if v := strings.TrimPrefix(info.GitVersion, "v"); v != info.GitVersion {
		parts := strings.SplitN(v, ".", 3)
		if len(parts) >= 2 {
			if a, ok1 := digits(parts[0]); ok1 {
				if b, ok2 := digits(parts[1]); ok2 {
					return a, b, true
				}
			}
		}
	}
	a, ok1 := digits(info.Major)
	b, ok2 := digits(info.Minor)
	return a, b, ok1 && ok2
}

// explain adds the request timeout to an error that is a timeout, and the retries to an
// answer that was retried.
func (c *Client) explain(err error) error {
	var last *lastAnswer
	switch {
	case isTimeout(err) && errors.As(err, &last):
		return fmt.Errorf("%w (no answer within --request-timeout %s but %s)", err, c.Timeout, last.String())
	case isTimeout(err):
		return fmt.Errorf("%w (no answer within --request-timeout %s)", err, c.Timeout)
	case retriedStatus(err) && c.retries > 0:
		return fmt.Errorf("%w (the same answer after %d retries)", err, c.retries)
	}
	return err
}

// raw sends a request and returns the body; an error answer is the server's Status when it
// sent one. A GET answered 429 or 5xx, or whose connection broke, is sent again (client-go's
// retry, with the client's backoff, honouring Retry-After), within the request timeout.
func (c *Client) raw(ctx context.Context, req *rest.Request) ([]byte, error) {
	req = req.MaxRetries(c.retries).BackOffWithContext(&rest.URLBackoff{Backoff: flowcontrol.NewBackOffWithJitter(c.backoff, MaxRetryBackoff, 0.1)})
	last := &answer{}
	res := req.Do(context.WithValue(ctx, answerKey{}, last))
	body, err := res.Raw()
	if err != nil {
		err = res.Error()
		if re, ok := asRedirect(err); ok {
			return nil, re
		}
		if code, retryAfter := last.get(); code != 0 && isTimeout(err) {
			// The time ran out waiting to send it again: say what the server had answered.
			err = &lastAnswer{err: err, code: code, retryAfter: retryAfter}
		}
		return nil, err
	}
	return body, nil
}

// answer is the last answer to be retried of a request (its attempts share it through the
// request's context).
type answer struct {
	mu         sync.Mutex
	code       int
	retryAfter string
}

type answerKey struct{}

func (a *answer) set(code int, retryAfter string) {
	a.mu.Lock()
	a.code, a.retryAfter = code, retryAfter
	a.mu.Unlock()
}

func (a *answer) get() (int, string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.code, a.retryAfter
}

// lastAnswer is a request that timed out waiting to be sent again: the answer it had.
type lastAnswer struct {
	err        error
	code       int
	retryAfter string
}

func (e *lastAnswer) Error() string { return e.err.Error() }
func (e *lastAnswer) Unwrap() error { return e.err }

// String describes the answer: "the last answer was 429 Too Many Requests, Retry-After 60 s".
func (e *lastAnswer) String() string {
	s := fmt.Sprintf("the last answer was %d %s", e.code, http.StatusText(e.code))
	if e.retryAfter != "" && e.retryAfter != "0" {
		s += ", Retry-After " + e.retryAfter + " s"
	}
	return s
}

// retryable marks, for client-go's retry, the answers to a GET worth sending again that do
// not say when. client-go retries an answer 429 or 5xx only when it carries Retry-After,
// as kube-apiserver's own do; a load balancer in front of the server (502, 503, 504) or an
// overloaded server may send none. Marked "Retry-After: 0", they are retried after the
// backoff alone.
type retryable struct{ rt http.RoundTripper }

func (r retryable) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.rt.RoundTrip(req)
	if err != nil || req.Method != http.MethodGet || !isRetryableCode(resp.StatusCode) {
		return resp, err
	}
	retryAfter := resp.Header.Get("Retry-After")
	if a, ok := req.Context().Value(answerKey{}).(*answer); ok {
		a.set(resp.StatusCode, retryAfter)
	}
	if retryAfter == "" {
		resp.Header = resp.Header.Clone()
		if resp.Header == nil {
			resp.Header = http.Header{}
		}
		resp.Header.Set("Retry-After", "0")
	}
	return resp, nil
}

// WrappedRoundTripper lets client-go reach the transport below (to cancel a request).
func (r retryable) WrappedRoundTripper() http.RoundTripper { return r.rt }

func isRetryableCode(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// retriedStatus says whether err is an answer that raw retried.
func retriedStatus(err error) bool {
	var st apierrors.APIStatus
	return errors.As(err, &st) && isRetryableCode(int(st.Status().Code))
}

// isCredentialError says whether err comes from the kubeconfig's exec credential plugin
// (client-go wraps it as text only: "getting credentials: exec: ...").
func isCredentialError(err error) bool {
	return err != nil && strings.Contains(err.Error(), "getting credentials: ")
}
