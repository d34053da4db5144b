package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	sigsjson "sigs.k8s.io/json"
)

// This file sends the requests of a read: GETs over the kubeconfig's transport
// (client-go's: TLS, credentials, exec plugins, user agent), each bounded by the request
// timeout — its retries, its wait for the rate limiter and the reading of its answer
// included — and each answer bounded in bytes as it is read (after decompression), before
// anything holds it. client-go's REST client is not used for them: it reads every answer
// whole before anyone can look at its size, inflates gzip by itself, and logs through klog.

// call is one GET of the read: a path below the server's URL, and its query.
type call struct {
	path  string
	query url.Values
}

// String names the request as errors do: "GET /api/v1/namespaces/shop/configmaps?limit=500".
func (c call) String() string {
	s := "GET " + c.path
	if q := c.query.Encode(); q != "" {
		s += "?" + q
	}
	return s
}

// RequestError is a request of the read that failed; it names the request.
type RequestError struct {
	// Request is "GET /path?query".
	Request string
	Err     error
	// answered: the server answered (something that is not what was asked for); else the
	// request got no answer at all (a connection that failed, a timeout).
	answered bool
}

func (e *RequestError) Error() string { return e.Request + ": " + e.Err.Error() }
func (e *RequestError) Unwrap() error { return e.Err }

// timeoutError is a request that ran out of its time.
type timeoutError struct {
	limit time.Duration
	// read is how much of the answer had been read (-1: no answer had begun).
	read int64
	// last is the last answer, when the time ran out waiting to send the request again.
	last string
}

func (e *timeoutError) Error() string {
	s := fmt.Sprintf("no answer within --request-timeout %s", e.limit)
	if e.read >= 0 {
		s = fmt.Sprintf("the answer did not end within --request-timeout %s (%s of it read)", e.limit, sizeString(e.read))
	}
	if e.last != "" {
		s += " but " + e.last
	}
	return s
}

func (e *timeoutError) Timeout() bool { return true }
func (e *timeoutError) Unwrap() error { return context.DeadlineExceeded }

// retriedError is an error answer that was the same after the retries.
type retriedError struct {
	err     error
	retries int
}

func (e *retriedError) Error() string {
	return fmt.Sprintf("%v (the same answer after %d retries)", e.err, e.retries)
}
func (e *retriedError) Unwrap() error { return e.err }

// statusBodyLimit bounds the body of an error answer read for its Status.
const statusBodyLimit = 1 << 20

// get sends one GET and hands a successful answer's body to read, bounded by max bytes
// (and by what remains of the read's budget). A GET answered 429 or 500, 502, 503, 504 (or
// any 5xx with Retry-After), or whose connection broke, is sent again after a backoff that
// doubles (or after Retry-After when longer), at most c.retries times, within the request
// timeout. An error answer is the server's Status (apierrors) when it sent one.
func (c *Client) get(ctx context.Context, cl call, limit int64, read func(io.Reader) error) error {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	u := *c.base
	u.Path = strings.TrimSuffix(u.Path, "/") + cl.path
	u.RawPath = ""
	// The request timeout, told to the server too (as client-go tells it).
	q := url.Values{}
	for k, v := range cl.query {
		q[k] = v
	}
	q.Set("timeout", c.Timeout.String())
	u.RawQuery = q.Encode()
	name := cl.String()

	var lastAnswer string // the last answer retried, for a timeout while waiting
	var bodyRead int64 = -1
	timedOut := func() error {
		if err := parent.Err(); err != nil {
			return err
		}
		return &RequestError{Request: name, Err: &timeoutError{limit: c.Timeout, read: bodyRead, last: lastAnswer}}
	}
	var delay time.Duration
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			t := time.NewTimer(delay)
			select {
			case <-ctx.Done():
				t.Stop()
				return timedOut()
			case <-t.C:
			}
		}
		if err := c.limiter.Wait(ctx); err != nil {
			return timedOut()
		}
		if ctx.Err() != nil {
			return timedOut()
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return &RequestError{Request: name, Err: err}
		}
		req.Header.Set("Accept", "application/json")
		resp, err := c.http.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return timedOut()
			}
			if re, ok := asRedirect(err); ok {
				return re
			}
			inner := unwrapURL(err)
			if attempt < c.retries && (utilnet.IsConnectionReset(inner) || utilnet.IsProbableEOF(inner) || utilnet.IsHTTP2ConnectionLost(inner)) {
				lastAnswer = "the last attempt's connection broke (" + inner.Error() + ")"
				delay = max(c.backoffFor(attempt), time.Second)
				continue
			}
			return &RequestError{Request: name, Err: inner}
		}
		c.warn(resp)
		if resp.StatusCode == http.StatusOK {
			err := c.readAnswer(ctx, name, resp, limit, read, &bodyRead)
			resp.Body.Close()
			if err != nil && ctx.Err() != nil {
				return timedOut()
			}
			return err
		}
		if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
			// 201, 204, 206 …: not the answer of a GET.
			resp.Body.Close()
			return &RequestError{Request: name, answered: true, Err: fmt.Errorf("answered %d %s, not the 200 OK of a read", resp.StatusCode, http.StatusText(resp.StatusCode))}
		}
		stErr := c.errorAnswer(name, resp)
		resp.Body.Close()
		if ctx.Err() != nil {
			return timedOut()
		}
		retryAfter, hasRetryAfter := retryAfterSeconds(resp)
		if isRetryableCode(resp.StatusCode) || resp.StatusCode >= 500 && hasRetryAfter {
			if attempt < c.retries {
				lastAnswer = fmt.Sprintf("the last answer was %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
				if hasRetryAfter && retryAfter > 0 {
					lastAnswer += fmt.Sprintf(", Retry-After %d s", retryAfter)
				}
				delay = max(c.backoffFor(attempt), time.Duration(retryAfter)*time.Second)
				continue
			}
			if attempt > 0 {
				return &retriedError{err: stErr, retries: attempt}
			}
		}
		return stErr
	}
}

// backoffFor is the wait before retry attempt+1: the first backoff, doubled at each retry up
// to MaxRetryBackoff, with 10% jitter.
func (c *Client) backoffFor(attempt int) time.Duration {
	d := c.backoff
	for i := 0; i < attempt && d < MaxRetryBackoff; i++ {
		d *= 2
	}
	d = min(d, MaxRetryBackoff)
	return d + time.Duration(rand.Float64()*0.1*float64(d))
}

func retryAfterSeconds(resp *http.Response) (int, bool) {
	if h := resp.Header.Get("Retry-After"); h != "" {
		if i, err := strconv.Atoi(h); err == nil && i >= 0 {
			return i, true
		}
	}
	return 0, false
}

// warn hands the answer's warnings to the warning handler.
func (c *Client) warn(resp *http.Response) {
	if c.warnings == nil || len(resp.Header["Warning"]) == 0 {
		return
	}
	ws, _ := utilnet.ParseWarningHeaders(resp.Header["Warning"])
	for _, w := range ws {
		c.warnings.HandleWarningHeader(w.Code, w.Agent, w.Text)
	}
}

// readAnswer checks that a successful answer is JSON and hands its body to read, counted
// against max and the read's budget as it is read.
func (c *Client) readAnswer(ctx context.Context, name string, resp *http.Response, max int64, read func(io.Reader) error, n *int64) error {
	if err := jsonContent(resp); err != nil {
		return &RequestError{Request: name, Err: err, answered: true}
	}
	*n = 0
	body := &countingReader{r: resp.Body, n: n, max: max, budget: c.budget}
	err := read(body)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return err
	}
	if le := body.exceeded; le != nil {
		return &RequestError{Request: name, Err: le, answered: true}
	}
	var re *RequestError
	if errors.As(err, &re) {
		return err
	}
	return &RequestError{Request: name, Err: err, answered: !body.failed}
}

// jsonContent checks that a successful answer says it is JSON, as asked: a login page, a
// proxy's page or protobuf is said to be so, not read as broken JSON.
func jsonContent(resp *http.Response) error {
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		return nil // read as JSON; a body that is not is described then (sniff)
	}
	media, _, err := mime.ParseMediaType(ct)
	if err == nil && (media == "application/json" || strings.HasSuffix(media, "+json")) {
		return nil
	}
	return fmt.Errorf("answered %d %s with %s, not the JSON asked for (Accept: application/json): not an answer of the API server (a proxy's or a login page?)",
		resp.StatusCode, http.StatusText(resp.StatusCode), describeMedia(ct))
}

// describeMedia names a content type the way a reader knows it: "HTML (text/html)".
func describeMedia(ct string) string {
	media, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return fmt.Sprintf("a Content-Type that cannot be read (%q)", ct)
	}
	switch {
	case media == "text/html" || media == "application/xhtml+xml":
		return "HTML (" + media + ")"
	case media == "application/vnd.kubernetes.protobuf" || strings.Contains(media, "protobuf"):
		return "protobuf (" + media + ")"
	case media == "application/yaml" || media == "application/x-yaml" || media == "text/yaml":
		return "YAML (" + media + ")"
	case media == "text/plain":
		return "plain text (" + media + ")"
	}
	return media
}

// sniff describes data that is not JSON by what it starts with: HTML, protobuf, gzip, or
// nothing at all.
func sniff(data []byte) string {
	t := strings.TrimLeft(string(data[:min(len(data), 512)]), " \t\r\n")
	switch {
	case len(data) == 0:
		return "an empty answer"
	case strings.HasPrefix(t, "<"):
		return "HTML (it starts with <)"
	case strings.HasPrefix(string(data), "k8s\x00"):
		return "protobuf (it starts with k8s\\x00)"
	case strings.HasPrefix(string(data), "\x1f\x8b"):
		return "gzip data (compressed, but not marked so)"
	}
	return ""
}

// errorAnswer is the error of an answer that is not a success: the server's Status when the
// body is one, else client-go's generic error for the code, naming the request and what
// the answer was.
func (c *Client) errorAnswer(name string, resp *http.Response) error {
	body, _ := io.ReadAll(&countingReader{r: resp.Body, n: new(int64), max: statusBodyLimit, budget: c.budget})
	// The server's Status, read as the server writes it (the exact member names), with the
	// code of the answer.
	var st metav1.Status
	if sigsjson.UnmarshalCaseSensitivePreserveInts(body, &st) == nil && st.Kind == "Status" && st.Status == metav1.StatusFailure &&
		(st.Code == 0 || int(st.Code) == resp.StatusCode) {
		st.Code = int32(resp.StatusCode)
		return &apierrors.StatusError{ErrStatus: st}
	}
	message := "unknown"
	if isText(resp) {
		message = strings.TrimSpace(string(body[:min(len(body), 2048)]))
	}
	retryAfter, _ := retryAfterSeconds(resp)
	err := apierrors.NewGenericServerResponse(resp.StatusCode, "GET", schema.GroupResource{}, "", message, retryAfter, true)
	what := "an answer that is not the API server's Status"
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		what = describeMedia(ct) + ", not the API server's Status"
	}
	return &RequestError{Request: name, Err: fmt.Errorf("answered %d %s with %s: %w", resp.StatusCode, http.StatusText(resp.StatusCode), what, err), answered: true}
}

// isText says whether an answer says it is text (or says nothing), as client-go takes it.
func isText(resp *http.Response) bool {
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		return true
	}
	media, _, err := mime.ParseMediaType(ct)
	return err == nil && strings.HasPrefix(media, "text/")
}

// unwrapURL drops http.Client's *url.Error, which repeats the whole URL.
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}

func isRetryableCode(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// isCredentialError says whether err comes from the kubeconfig's exec credential plugin
// (client-go wraps it as text only: "getting credentials: exec: ...").
func isCredentialError(err error) bool {
	return err != nil && strings.Contains(err.Error(), "getting credentials: ")
}

func sizeString(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
