package clusterstate

import (
	"fmt"
	"strings"
)

// User is who sends the writes, as the server's authentication would say: the policies'
// request.userInfo, the subject of their authorizer checks, PodSecurity's exempt users.
// The zero User is unknown.
type User struct {
	Name   string
	UID    string
	Groups []string
	Extra  map[string][]string
}

// Known reports whether the user was said.
func (u User) Known() bool { return u.Name != "" }

// Check is one question a policy's authorizer variable asks of the server's authorizer:
// may the user do Verb on a resource (Group, Resource, Subresource, in Namespace, named
// Name; "" for all) or on a non-resource Path.
type Check struct {
	Verb        string
	Group       string
	Resource    string
	Subresource string
	Namespace   string
	Name        string
	// Path is the URL path of a non-resource check (authorizer.path("/healthz")); "" for a
	// resource check.
	Path string
	// User is the subject asked about when it is not the one who sends the write (a
	// policy's authorizer.serviceAccount(…)); "" for the requester.
	User string
}

func (c Check) String() string {
	as := ""
	if c.User != "" {
		as = " (as " + c.User + ")"
	}
	if c.Path != "" {
		return c.Verb + " " + c.Path + as
	}
	r := c.Resource
	if c.Group != "" {
		r += "." + c.Group
	}
	if c.Subresource != "" {
		r += "/" + c.Subresource
	}
	s := c.Verb + " " + r
	switch {
	case c.Namespace != "" && c.Name != "":
		s += " " + c.Namespace + "/" + c.Name
	case c.Namespace != "":
		s += " in namespace " + c.Namespace
	case c.Name != "":
		s += " " + c.Name
	}
	return s + as
}

// Rule is one declared answer of the authorizer: the checks it matches ("" or "*" in a
// field matches anything) are allowed or denied.
type Rule struct {
	Check
	Allowed bool
}

// Authorization is what is known of the authorizer's answers for the user: the first rule
// that matches a check answers it; a check no rule matches has no known answer.
type Authorization struct {
	Rules []Rule
}

// Decide answers a check: allowed, and whether a rule answered it at all.
func (a Authorization) Decide(c Check) (allowed, known bool) {
	for _, r := range a.Rules {
		if r.matches(c) {
			return r.Allowed, true
		}
	}
	return false, false
}

func (r Rule) matches(c Check) bool {
	m := func(pattern, v string) bool { return pattern == "" || pattern == "*" || pattern == v }
	if r.User != c.User || (r.Path != "") != (c.Path != "") {
		return false
	}
	if r.Path != "" {
		return m(r.Verb, c.Verb) && (r.Path == c.Path || strings.HasSuffix(r.Path, "*") && strings.HasPrefix(c.Path, strings.TrimSuffix(r.Path, "*")))
	}
	return m(r.Verb, c.Verb) && m(r.Group, c.Group) && m(r.Resource, c.Resource) && m(r.Subresource, c.Subresource) &&
		m(r.Namespace, c.Namespace) && m(r.Name, c.Name)
}

// ParseRule reads a rule as the command line gives it:
//
//	VERB RESOURCE[.GROUP][/SUBRESOURCE] [NAMESPACE/NAME | NAMESPACE/* | NAME]=allow|deny
//	VERB /PATH=allow|deny
//
// "*" stands for any verb, resource, group, namespace or name: `create deployments.apps
// shop/*=allow`, `* secrets=deny`, `get /healthz=allow`.
func ParseRule(s string) (Rule, error) {
	lhs, answer, ok := strings.Cut(s, "=")
	if !ok {
		return Rule{}, fmt.Errorf("authorization rule %q: no =allow or =deny", s)
	}
	var r Rule
	switch strings.TrimSpace(answer) {
	case "allow":
		r.Allowed = true
	case "deny":
	default:
		return Rule{}, fmt.Errorf("authorization rule %q: %q is neither allow nor deny", s, answer)
	}
	f := strings.Fields(lhs)
	if len(f) < 2 || len(f) > 3 {
		return Rule{}, fmt.Errorf("authorization rule %q: want VERB RESOURCE[.GROUP][/SUBRESOURCE] [NAMESPACE/NAME]=allow|deny, or VERB /PATH=allow|deny", s)
	}
	r.Verb = f[0]
	if strings.HasPrefix(f[1], "/") {
		if len(f) == 3 {
			return Rule{}, fmt.Errorf("authorization rule %q: a non-resource path takes no namespace or name", s)
		}
		r.Path = f[1]
		return r, nil
	}
	res := f[1]
	if i := strings.Index(res, "/"); i >= 0 {
		res, r.Subresource = res[:i], res[i+1:]
		if r.Subresource == "" || strings.Contains(r.Subresource, "/") {
			return Rule{}, fmt.Errorf("authorization rule %q: bad subresource in %q", s, f[1])
		}
	}
	if i := strings.Index(res, "."); i >= 0 {
		res, r.Group = res[:i], res[i+1:]
		if r.Group == "core" {
			r.Group = ""
		}
	}
	if res == "" {
		return Rule{}, fmt.Errorf("authorization rule %q: no resource", s)
	}
	r.Resource = res
	if len(f) == 3 {
		if ns, name, ok := strings.Cut(f[2], "/"); ok {
			if ns == "" || name == "" {
				return Rule{}, fmt.Errorf("authorization rule %q: %q is not NAMESPACE/NAME", s, f[2])
			}
			r.Namespace, r.Name = ns, name
		} else {
			r.Name = f[2]
		}
	}
	return r, nil
}
