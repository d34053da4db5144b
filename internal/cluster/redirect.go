package cluster

import (
	"errors"
	"fmt"
	"net/http"
)

// No redirect is followed. kube-apiserver never answers a GET of /version, discovery or an
// object with a redirect, so one comes from something between the kubeconfig's server and
// the API server (a proxy, a gateway, a captured name). Following it would send the
// credentials to wherever it points — client-go sets the bearer token, basic auth or an exec
// plugin's token on every request, including each request of a redirect, to any host, over
// plain http:// too — and predict from that host's objects. kubectl's client follows
// redirects; a gate refuses them.
//
// The refusal sits below client-go's authentication (a transport wrapper): a 3xx answer
// becomes an error before http.Client sees it, so no request of a redirect is ever made,
// and no connection is opened to another host (a client certificate is offered only in the
// TLS handshake of a connection, so it goes nowhere either). http.Client's CheckRedirect
// refuses too, should an answer reach it.

// RedirectError is a request the server answered with a redirect, which was not followed.
type RedirectError struct {
	// Request names the request: "GET /api/v1/namespaces/shop/configmaps/web".
	Request string
	// Code is the answer's status (301, 302, 303, 307, 308 …).
	Code int
	// Location is where the redirect pointed, resolved against the request's URL ("" when
	// the answer named no place).
	Location string
}

func (e *RedirectError) Error() string {
	to := "to no Location"
	if e.Location != "" {
		to = "to " + e.Location
	}
	return fmt.Sprintf("%s was answered %d %s, a redirect %s, which is not followed: the API server never redirects a read, and following it would send the kubeconfig's credentials there",
		e.Request, e.Code, http.StatusText(e.Code), to)
}

// noRedirect turns every 3xx answer into a *RedirectError (see above).
type noRedirect struct{ rt http.RoundTripper }

func (n noRedirect) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := n.rt.RoundTrip(req)
	if err != nil || resp.StatusCode < 300 || resp.StatusCode > 399 {
		return resp, err
	}
	resp.Body.Close()
	return nil, redirectError(req, resp)
}

// WrappedRoundTripper lets client-go reach the transport below (to cancel a request).
func (n noRedirect) WrappedRoundTripper() http.RoundTripper { return n.rt }

func redirectError(req *http.Request, resp *http.Response) *RedirectError {
	e := &RedirectError{Request: requestName(req), Code: resp.StatusCode}
	if loc := resp.Header.Get("Location"); loc != "" {
		e.Location = loc
		if u, err := req.URL.Parse(loc); err == nil {
			e.Location = u.String()
		}
	}
	return e
}

// refuseRedirect is http.Client's CheckRedirect: never follow.
func refuseRedirect(req *http.Request, via []*http.Request) error {
	e := &RedirectError{Request: "GET " + req.URL.Path, Location: req.URL.String()}
	if len(via) > 0 {
		e.Request = requestName(via[len(via)-1])
	}
	if req.Response != nil {
		e.Code = req.Response.StatusCode
	}
	return e
}

// requestName names a request as the errors do: its method and path, and its query but
// for client-go's timeout parameter ("GET /api/v1/namespaces/shop/configmaps?limit=500").
func requestName(req *http.Request) string {
	u := *req.URL
	q := u.Query()
	if q.Has("timeout") {
		q.Del("timeout")
		u.RawQuery = q.Encode()
	}
	s := req.Method + " " + u.EscapedPath()
	if u.RawQuery != "" {
		s += "?" + u.RawQuery
	}
	return s
}

// asRedirect finds a *RedirectError in err (http.Client wraps it in a *url.Error naming the
// whole URL).
func asRedirect(err error) (*RedirectError, bool) {
	var re *RedirectError
	ok := errors.As(err, &re)
	return re, ok
}
