package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
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
	// RequestTimeout bounds each request, in kubectl's syntax ("30s", "2m", or seconds;
	// "0" for no limit); "" is DefaultRequestTimeout.
	RequestTimeout string
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
	// Timeout is the limit of each request (0: none).
	Timeout time.Duration

	rest *rest.RESTClient
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
	if _, err := clientcmd.ParseTimeout(overrides.Timeout); err != nil {
		return nil, fmt.Errorf("--request-timeout %q: a duration with its unit (1s, 2m, 3h) or whole seconds is needed", overrides.Timeout)
	}
	loader := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides)
	cfg, err := loader.ClientConfig()
	if err != nil {
		if clientcmd.IsEmptyConfig(err) {
			return nil, errors.New("no cluster configured: no kubeconfig (--kubeconfig, KUBECONFIG, ~/.kube/config) and not running in a pod")
		}
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	c := &Client{Host: cfg.Host, Timeout: cfg.Timeout, Namespace: opts.Namespace}
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
	httpClient, err := rest.HTTPClientFor(jcfg)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	c.rest, err = rest.UnversionedRESTClientForConfigAndClient(jcfg, httpClient)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	return c, nil
}

// ServerVersion asks the server its version (GET /version): the first request of a run,
// so its error says the cluster cannot be reached.
func (c *Client) ServerVersion(ctx context.Context) (*version.Info, error) {
	body, err := raw(ctx, c.rest.Get().AbsPath("/version"))
	switch {
	case apierrors.IsUnauthorized(err):
		return nil, fmt.Errorf("the cluster at %s does not accept the kubeconfig's credentials: %w", c.Host, err)
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

// explain adds the request timeout to an error that is a timeout.
func (c *Client) explain(err error) error {
	if isTimeout(err) {
		if c.Timeout > 0 {
			return fmt.Errorf("%w (no answer within --request-timeout %s)", err, c.Timeout)
		}
		return fmt.Errorf("%w (timed out)", err)
	}
	return err
}

// raw sends a request and returns the body; an error answer is the server's Status when it
// sent one.
func raw(ctx context.Context, req *rest.Request) ([]byte, error) {
	res := req.Do(ctx)
	body, err := res.Raw()
	if err != nil {
		return nil, res.Error()
	}
	return body, nil
}
