package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/admission/wire"
	"github.com/ssa-diff/ssa-diff/internal/api/gocmp"
	"github.com/ssa-diff/ssa-diff/internal/api/layout"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/clusterstate"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// ErrMinorNotPredicted says that ssa-diff does not predict the Kubernetes minor a case was
// recorded from (yet): the server model or the embedded schemas of that minor are missing.
var ErrMinorNotPredicted = errors.New("kubernetes minor not predicted")

// Registry returns the built-in schemas of the case's minor plus the case's CRDs.
func (c *Case) Registry() (*schema.Registry, error) {
	v, err := c.Minor()
	if err != nil {
		return nil, err
	}
	reg, err := builtinSchemas(v)
	if err != nil {
		return nil, err
	}
	for i, crd := range c.CRDs {
		// The CRDs the server held: read as the server reads its own.
		if err := reg.AddStoredCRDObject(fmt.Sprintf("%s/crds.yaml#%d", c.Name, i), crd); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// builtinSchemas are the embedded schemas of the built-in kinds of Kubernetes v;
// ErrMinorNotPredicted for a minor ssa-diff does not predict.
func builtinSchemas(v kube.Minor) (*schema.Registry, error) {
	reg, err := schema.NewRegistry(v)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMinorNotPredicted, err)
	}
	return reg, nil
}

// Model is kube-apiserver's model at the case's minor, for the cluster the case was
// recorded from; ErrMinorNotPredicted when ssa-diff does not predict that minor. The
// admission policies and PodSecurity of a case recorded with admission.json run through
// library (internal/admission/library's New; nil: not predicted). The go-cmp diffs of 1.32
// and 1.33 are printed in this process, from the request the helper program would be sent
// (PrintDiff).
func (c *Case) Model(library func(wire.Setup) (wire.Library, error)) (*kubeapiserver.Model, error) {
	v, err := c.Minor()
	if err != nil {
		return nil, err
	}
	cfg := kubeapiserver.Config{Minor: v, ServiceIPFamilies: c.Cluster.ServiceIPFamilies, ForbidPrivileged: !c.Cluster.AllowPrivileged, Diff: PrintDiff}
	if cfg.FeatureGates, err = kubeapiserver.ParseFeatureGates(c.Cluster.FeatureGates); err != nil {
		return nil, fmt.Errorf("%s: cluster.featureGates: %w", c.Name, err)
	}
	if c.Admission != nil {
		if cfg.Cluster, cfg.User, cfg.Authorization, err = c.admission(); err != nil {
			return nil, err
		}
		cfg.AdmissionLibrary = library
	}
	m, err := kubeapiserver.New(cfg)
	if err != nil && !v.IsSupported() {
		return nil, fmt.Errorf("%w: %v", ErrMinorNotPredicted, err)
	}
	return m, err
}

// PrintDiff prints a diff the helper program prints (cmd/ssa-diff-admission), in this process.
func PrintDiff(d wire.Diff) (string, error) { return gocmp.Print(d.Minor, d.Type, d.Old, d.New) }

// admission is the cluster the case's admission.json describes, its requester and authorizer.
func (c *Case) admission() (*clusterstate.State, clusterstate.User, clusterstate.Authorization, error) {
	var objs []clusterstate.Object
	for i, o := range c.Admission {
		objs = append(objs, clusterstate.Object{Object: o, Source: fmt.Sprintf("%s/admission.json#%d", c.Name, i)})
	}
	state, err := clusterstate.New(objs)
	if err != nil {
		return nil, clusterstate.User{}, clusterstate.Authorization{}, err
	}
	user := clusterstate.User{Name: c.Requester.Username, UID: c.Requester.UID, Groups: c.Requester.Groups}
	var authz clusterstate.Authorization
	for _, r := range c.Authorization {
		rule, err := clusterstate.ParseRule(r)
		if err != nil {
			return nil, user, authz, fmt.Errorf("%s: %w", c.Name, err)
		}
		authz.Rules = append(authz.Rules, rule)
	}
	return state, user, authz, nil
}

// Endpoint is where the case's request went, from its URL path and live object: the
// group and version are the URL's (the live object may have been read at another version
// of its kind, rules.md version.conversion), the kind the live object's (the manifest's on a create).
func (c *Case) Endpoint() merge.Endpoint {
	src := c.Live
	if src == nil {
		src = c.Manifest
	}
	av, _ := src["apiVersion"].(string)
	kind, _ := src["kind"].(string)
	md, _ := src["metadata"].(map[string]any)
	ns, _ := md["namespace"].(string)
	name, _ := md["name"].(string)
	if gv, ok := apiVersionOfPath(c.Request.Path); ok {
		av = gv
	}
	if pns := namespaceOfPath(c.Request.Path); pns != "" {
		ns = pns // a body without a namespace goes to the URL's
	}
	return merge.Endpoint{GVK: schema.GVKFromAPIVersionKind(av, kind), Namespace: ns, Name: name, Subresource: c.Subresource()}
}

// Subresource is the subresource the case's request went to.
func (c *Case) Subresource() string {
	if c.Request.Subresource != "" {
		return c.Request.Subresource
	}
	if _, sub, ok := strings.Cut(c.Request.Verb, "-"); ok {
		return sub
	}
	return ""
}

// BaseVerb is the case's verb without its subresource: apply, update, patch or create.
func (c *Case) BaseVerb() string {
	v, _, _ := strings.Cut(c.Request.Verb, "-")
	return v
}

// namespaceOfPath reads the namespace of a resource URL, "" for a cluster-scoped one.
func namespaceOfPath(path string) string {
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i := 0; i+1 < len(parts); i++ {
		if parts[i] == "namespaces" && i+2 < len(parts) {
			return parts[i+1]
		}
	}
	return ""
}

// apiVersionOfPath reads the group and version of a resource URL: /api/v1/… or
// /apis/<group>/<version>/….
func apiVersionOfPath(path string) (string, bool) {
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	switch {
	case len(parts) >= 2 && parts[0] == "api":
		return parts[1], true
	case len(parts) >= 3 && parts[0] == "apis":
		return parts[1] + "/" + parts[2], true
	}
	return "", false
}

// kubectlSource is the file kubectl was given (-f), as it names it in its messages.
func (c *Case) kubectlSource() string {
	for i, a := range c.Request.Args {
		if (a == "-f" || a == "--filename") && i+1 < len(c.Request.Args) {
			return c.Request.Args[i+1]
		}
		if v, ok := strings.CutPrefix(a, "--filename="); ok {
			return v
		}
	}
	return ""
}

// Replay sends the case's request through a fresh engine, for the cluster and the
// Kubernetes minor the case was recorded from.
func Replay(c *Case) (*merge.Result, error) { return ReplayWith(c, nil) }

// ReplayWith is Replay with the admission policies and PodSecurity of a case recorded
// with admission.json run through library, and the engine built with opts.
func ReplayWith(c *Case, library func(wire.Setup) (wire.Library, error), opts ...merge.Option) (*merge.Result, error) {
	model, err := c.Model(library)
	if err != nil {
		return nil, err
	}
	defer model.Close()
	reg, err := c.Registry()
	if err != nil {
		return nil, err
	}
	e := merge.New(reg, model, opts...)
	req := merge.Request{Live: c.Live, Object: c.Manifest, Endpoint: c.Endpoint(),
		Manager: c.Request.FieldManager, Force: c.Request.Force, Now: c.NowTime(), Source: c.kubectlSource()}
	switch {
	case c.Request.Mode == "kubectl" && c.Request.Verb != "apply":
		cmd, err := appliers.ParseKubectlCommand(c.Request.Args)
		if err != nil {
			return nil, err
		}
		if req.Live == nil && req.Object == nil {
			// An object named TYPE NAME that does not exist: the request goes to the
			// object the command names, as the command resolves it.
			objs, err := cmd.Objects(reg, namespaceOfPath(c.Request.Path))
			if err != nil || len(objs) != 1 {
				return nil, fmt.Errorf("kubectl %s names %d objects: %v", cmd.Verb, len(objs), err)
			}
			req.Object, req.Endpoint = objs[0], merge.Endpoint{}
		}
		return cmd.Apply(e, req)
	case c.Request.Mode == "kubectl":
		return appliers.Kubectl(e, req)
	case c.BaseVerb() == "apply":
		return e.Apply(req)
	case c.BaseVerb() == "patch":
		pt, err := merge.ParsePatchType(c.Request.PatchType)
		if err != nil {
			return nil, err
		}
		req.Object, req.Patch = nil, merge.Patch{Type: pt, Body: c.ManifestText}
		return e.Patch(req)
	case c.BaseVerb() == "create":
		return e.Create(req)
	default:
		return e.Update(req)
	}
}

// Compare checks a prediction against the recording and lists the differences. With
// strict, server defaults nobody owns and metadata.generation must match too.
func Compare(c *Case, res *merge.Result, strict bool) []string {
	c = withGeneratedName(c)
	var problems []string
	code := c.Response.Code
	if c.Request.Mode == "kubectl" && c.Response.KubectlExit == 0 {
		code = 200
	}
	if code >= 300 {
		if res.Rejection == nil {
			return []string{fmt.Sprintf("predicted success (%s), server answered %d", res.Action, code)}
		}
		if c.Request.Mode == "kubectl" {
			first := strings.SplitN(c.Response.KubectlStderr, "\n", 2)[0]
			if want := strings.TrimPrefix(first, "error: "); res.Rejection.Message != want && !strings.HasPrefix(res.Rejection.Message, want) {
				problems = append(problems, fmt.Sprintf("message %q, kubectl printed %q", res.Rejection.Message, want))
			}
			if res.Rejection.Code != c.Response.Code {
				problems = append(problems, fmt.Sprintf("code %d, server %d", res.Rejection.Code, c.Response.Code))
			}
			return problems
		}
		if c.WantText != "" || res.Rejection.PlainText {
			// A plain-text answer (want.txt): the code and the text, which the server ends
			// with a newline.
			if !res.Rejection.PlainText || c.WantText == "" || res.Rejection.Message != strings.TrimSuffix(c.WantText, "\n") || res.Rejection.Code != code {
				problems = append(problems, fmt.Sprintf("predicted %d %q (plain text %v), server answered %d %q", res.Rejection.Code, res.Rejection.Message, res.Rejection.PlainText, code, c.WantText))
			}
			return problems
		}
		var got map[string]any
		_ = json.Unmarshal(res.Rejection.Status(), &got)
		want := standInAddresses(generic(c.Want))
		wc, gc := causes(want), causes(got)
		if !reflect.DeepEqual(wc, gc) {
			problems = append(problems, fmt.Sprintf("causes %v, server %v", gc, wc))
		}
		if wm, gm, ok := invalidMessages(want, got); ok && sameInvalidMessage(wm, gm, want) {
			got["message"] = wm
		}
		delete(details(want), "causes")
		delete(details(got), "causes")
		if d := details(want); d != nil && len(d) == 0 {
			delete(want, "details")
		}
		if d := details(got); d != nil && len(d) == 0 {
			delete(got, "details")
		}
		if !reflect.DeepEqual(want, got) {
			problems = append(problems, fmt.Sprintf("status %s, server %s", compact(got), compact(want)))
		}
		return problems
	}
	if res.Rejection != nil {
		return []string{fmt.Sprintf("predicted %d %q, server answered %d", res.Rejection.Code, res.Rejection.Message, code)}
	}
	want := c.Want
	if c.Subresource() == "scale" {
		want = c.After // the answer is a Scale: the parent afterwards says what was stored
	}
	want, got := generic(want), generic(res.Object)
	liveTimes := map[string]bool{}
	for _, e := range entriesOf(generic(c.Live)) {
		if t, ok := e["time"].(string); ok {
			liveTimes[t] = true
		}
	}
	wm, gm := normTimes(entriesOf(want), liveTimes, c.Now), normTimes(entriesOf(got), liveTimes, c.Now)
	if !reflect.DeepEqual(wm, gm) {
		problems = append(problems, fmt.Sprintf("managedFields %s, server %s", compact(gm), compact(wm)))
	} else {
		problems = append(problems, CompareFieldsV1Order(c, res)...)
	}
	created := c.Live == nil
	owned := ownedTree(entriesOf(want))
	compareNode(stripMeta(want, created, strict), stripMeta(got, created, strict), owned, "", strict, &problems)
	if c.Live != nil {
		serverWrote := !reflect.DeepEqual(rv(generic(c.Live)), rv(want))
		predictedWrite := res.Action != merge.ActionUnchanged
		if serverWrote != predictedWrite && c.Request.Mode != "kubectl" {
			problems = append(problems, fmt.Sprintf("predicted %s, server wrote: %v", res.Action, serverWrote))
		}
	}
	return problems
}

func generic(v any) map[string]any {
	if v == nil {
		return nil
	}
	b, _ := json.Marshal(v)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}

// standInAddresses is a recorded Status with layout.PointerStandIn for the addresses a
// server before 1.34 printed in its messages (a nested pointer's, the server process's,
// unknowable), and go-cmp's diffs in them with their lines marked by spaces (a server
// before 1.34 marks them with spaces or non-breaking spaces, as its process picked:
// gocmp.Deterministic): the answer ssa-diff can give.
func standInAddresses(s map[string]any) map[string]any {
	if m, ok := s["message"].(string); ok {
		s["message"] = gocmp.Deterministic(layout.StandInAddresses(m))
	}
	cs, _ := details(s)["causes"].([]any)
	for _, c := range cs {
		if m, ok := c.(map[string]any); ok {
			if msg, ok := m["message"].(string); ok {
				m["message"] = gocmp.Deterministic(layout.StandInAddresses(msg))
			}
		}
	}
	return s
}

func details(s map[string]any) map[string]any {
	d, _ := s["details"].(map[string]any)
	return d
}

func causes(s map[string]any) []string {
	var out []string
	cs, _ := details(s)["causes"].([]any)
	for _, c := range cs {
		out = append(out, compact(c))
	}
	sort.Strings(out)
	return out
}

func rv(obj map[string]any) any {
	md, _ := obj["metadata"].(map[string]any)
	return md["resourceVersion"]
}

func entriesOf(obj map[string]any) []map[string]any {
	md, _ := obj["metadata"].(map[string]any)
	l, _ := md["managedFields"].([]any)
	var out []map[string]any
	for _, e := range l {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func normTimes(entries []map[string]any, liveTimes map[string]bool, now string) []map[string]any {
	var out []map[string]any
	for _, e := range entries {
		c := map[string]any{}
		for k, v := range e {
			c[k] = v
		}
		if t, ok := c["time"].(string); ok && !liveTimes[t] {
			c["time"] = "NOW"
		}
		out = append(out, c)
	}
	return out
}

func ownedTree(entries []map[string]any) map[string]any {
	t := map[string]any{}
	for _, e := range entries {
		if f, ok := e["fieldsV1"].(map[string]any); ok {
			mergeTree(t, f)
		}
	}
	return t
}

func mergeTree(a, b map[string]any) {
	for k, v := range b {
		vm, _ := v.(map[string]any)
		if am, ok := a[k].(map[string]any); ok {
			mergeTree(am, vm)
		} else {
			c := map[string]any{}
			mergeTree(c, vm)
			a[k] = c
		}
	}
}

func stripMeta(obj map[string]any, created, strict bool) map[string]any {
	obj = generic(obj)
	md, _ := obj["metadata"].(map[string]any)
	delete(md, "resourceVersion")
	delete(md, "managedFields")
	if created {
		delete(md, "uid")
		delete(md, "creationTimestamp")
	}
	if !strict {
		delete(md, "generation")
	}
	return obj
}

func childForItem(tree map[string]any, item any, index int) map[string]any {
	for k, v := range tree {
		vm, _ := v.(map[string]any)
		switch {
		case strings.HasPrefix(k, "k:"):
			var keys map[string]any
			if json.Unmarshal([]byte(k[2:]), &keys) != nil {
				continue
			}
			m, ok := item.(map[string]any)
			if !ok {
				continue
			}
			match := true
			for kk, kv := range keys {
				if !reflect.DeepEqual(m[kk], kv) {
					match = false
				}
			}
			if match {
				return vm
			}
		case strings.HasPrefix(k, "v:"):
			var v any
			if json.Unmarshal([]byte(k[2:]), &v) == nil && reflect.DeepEqual(v, item) {
				return vm
			}
		case k == fmt.Sprintf("i:%d", index):
			return vm
		}
	}
	return nil
}

func compareNode(want, got any, tree map[string]any, path string, strict bool, problems *[]string) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		for k, wv := range w {
			var sub map[string]any
			if tree != nil {
				sub, _ = tree["f:"+k].(map[string]any)
			}
			gv, present := g[k]
			if !present {
				if sub == nil && !strict {
					continue
				}
				*problems = append(*problems, fmt.Sprintf("%s.%s: missing in prediction", path, k))
				continue
			}
			compareNode(wv, gv, sub, path+"."+k, strict, problems)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				*problems = append(*problems, fmt.Sprintf("%s.%s: predicted but the server has no such field", path, k))
			}
		}
		return
	case []any:
		g, ok := got.([]any)
		if !ok {
			break
		}
		if len(w) != len(g) {
			*problems = append(*problems, fmt.Sprintf("%s: %d items predicted, server has %d", path, len(g), len(w)))
			return
		}
		for i := range w {
			var sub map[string]any
			if tree != nil {
				sub = childForItem(tree, w[i], i)
			}
			compareNode(w[i], g[i], sub, fmt.Sprintf("%s[%d]", path, i), strict, problems)
		}
		return
	}
	if !reflect.DeepEqual(want, got) {
		*problems = append(*problems, fmt.Sprintf("%s: predicted %s, server has %s", path, compact(got), compact(want)))
	}
}

// invalidMessages returns the messages of two 422 Invalid statuses.
func invalidMessages(want, got map[string]any) (string, string, bool) {
	wm, _ := want["message"].(string)
	gm, _ := got["message"].(string)
	if want["reason"] != "Invalid" || got["reason"] != "Invalid" || wm == gm {
		return "", "", false
	}
	return wm, gm, true
}

// sameInvalidMessage says whether two 422 Invalid messages have the same head and the
// same errors in some order: for labels, annotations and CRD schema errors the server's
// order is Go map order (fixtures README, "How a checker should compare"). The errors are
// the `field: message` of the causes of the recorded status.
func sameInvalidMessage(want, got string, status map[string]any) bool {
	const sep = " is invalid: ["
	wi, gi := strings.Index(want, sep), strings.Index(got, sep)
	if wi < 0 || gi < 0 || want[:wi] != got[:gi] || !strings.HasSuffix(want, "]") || !strings.HasSuffix(got, "]") {
		return false
	}
	var items []string
	cs, _ := details(status)["causes"].([]any)
	for _, c := range cs {
		m, _ := c.(map[string]any)
		msg, _ := m["message"].(string)
		if f, _ := m["field"].(string); f != "" {
			msg = f + ": " + msg
		}
		items = append(items, msg)
	}
	return permutationOf(want[wi+len(sep):len(want)-1], items) && permutationOf(got[gi+len(sep):len(got)-1], items)
}

// permutationOf says whether body is the items, in some order, joined with ", ".
func permutationOf(body string, items []string) bool {
	if len(items) == 0 {
		return body == ""
	}
	for i, it := range items {
		if !strings.HasPrefix(body, it) {
			continue
		}
		rest := body[len(it):]
		if len(items) > 1 {
			if !strings.HasPrefix(rest, ", ") {
				continue
			}
			rest = rest[2:]
		}
		others := append(append([]string(nil), items[:i]...), items[i+1:]...)
		if permutationOf(rest, others) {
			return true
		}
	}
	return false
}
