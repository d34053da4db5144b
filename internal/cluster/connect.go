package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/input"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
	// MaxBytes bounds the bytes of all the answers read, counted as they are read (after
	// decompression), together with BytesBefore, what the files of the run took already
	// (0: input.DefaultMaxInputBytes; the answers count as input, --max-input-bytes).
	MaxBytes, BytesBefore int64
	// MaxDocumentBytes bounds one object, and one answer that is not a LIST (0:
	// input.DefaultMaxDocumentBytes; --max-document-bytes).
	MaxDocumentBytes int64
	// MaxDepth bounds how deeply an object's maps and lists nest, counted as in the List of
	// the live state, two levels down (0: input.DefaultMaxDepth; --max-depth).
	MaxDepth int
	// ReadTimeout bounds a whole Read, all its requests together (0: ReadTimeoutFactor
	// times the request timeout): a server that answers each request just within the
	// request timeout must not hold a run for hours.
	ReadTimeout time.Duration
}

// ReadTimeoutFactor is how many request timeouts a whole read may take by default.
const ReadTimeoutFactor = 10

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

	base        *url.URL
	http        *http.Client
	limiter     flowcontrol.RateLimiter
	warnings    rest.WarningHandler
	budget      *budget
	maxDoc      int64
	maxDepth    int
	readTimeout time.Duration
	retries     int
	backoff     time.Duration
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
	c.limiter = flowcontrol.NewTokenBucketRateLimiter(qps, burst)
	if opts.Warnings != nil {
		c.warnings = rest.NewWarningWriter(opts.Warnings, rest.WarningWriterOptions{Deduplicate: true})
	}
	if opts.UserAgent != "" {
		cfg.UserAgent = opts.UserAgent
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	maxBytes, maxDoc := opts.MaxBytes, opts.MaxDocumentBytes
	if maxBytes <= 0 {
		maxBytes = input.DefaultMaxInputBytes
	}
	if maxDoc <= 0 {
		maxDoc = input.DefaultMaxDocumentBytes
	}
	c.budget, c.maxDoc = newBudget(maxBytes, opts.BytesBefore), min(maxDoc, maxBytes)
	c.maxDepth = opts.MaxDepth
	if c.maxDepth <= 0 {
		c.maxDepth = input.DefaultMaxDepth
	}
	c.readTimeout = opts.ReadTimeout
	if c.readTimeout <= 0 {
		c.readTimeout = ReadTimeoutFactor * c.Timeout
	}

	// The requests go over client-go's transport for the kubeconfig (TLS, credentials, exec
	// plugins, user agent); the request timeout is the requests' own (see request.go), and
	// no redirect is followed (redirect.go).
	tcfg := rest.CopyConfig(cfg)
	tcfg.Timeout = 0
	tcfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return noRedirect{rt} })
	httpClient, err := rest.HTTPClientFor(tcfg)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	c.http = &http.Client{Transport: httpClient.Transport, CheckRedirect: refuseRedirect}
	c.base, _, err = rest.DefaultServerUrlFor(tcfg)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	return c, nil
}

// ServerVersion asks the server its version (GET /version): the first request of a run,
// so its error says the cluster cannot be reached.
func (c *Client) ServerVersion(ctx context.Context) (*version.Info, error) {
	var info version.Info
	err := c.get(ctx, call{path: "/version"}, c.maxDoc, func(r io.Reader) error {
		data, err := readObject(r)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(data, &info); err != nil || info.GitVersion == "" && info.Major == "" {
			return fmt.Errorf("the answer is not a version (no gitVersion, no major): %.200s", data)
		}
		return nil
	})
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case apierrors.IsUnauthorized(err):
		return nil, fmt.Errorf("the cluster at %s does not accept the kubeconfig's credentials: %w", c.Host, err)
	case isCredentialError(err):
		return nil, fmt.Errorf("cannot reach the cluster at %s: the kubeconfig's credential plugin failed (what it printed is above): %w", c.Host, err)
	case err != nil:
		return nil, fmt.Errorf("cannot reach the cluster at %s: %w", c.Host, err)
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

// Where names the cluster in messages: its URL, and the context when there is one.
func (c *Client) Where() string {
	if c.Context != "" {
		return c.Host + ", context " + c.Context
	}
	return c.Host
}
