package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/helmrelease"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
	"sigs.k8s.io/yaml"
)

// HelmCase is one Helm 4 command of a recorded scenario (testdata/helm/recorded, written
// by record.py's helm mode): the objects and release records before and after it, what
// the chart rendered, and what Helm printed and sent.
type HelmCase struct {
	Case
	HelmRequest struct {
		Args      []string `json:"args"`
		Command   string   `json:"command"`
		Release   string   `json:"release"`
		Namespace string   `json:"namespace"`
		Chart     string   `json:"chart"`
		// Driver is HELM_DRIVER: secret (the default) or configmap.
		Driver string `json:"driver"`
	} `json:"request"`
	HelmResponse struct {
		HelmExit   int      `json:"helmExit"`
		HelmStderr string   `json:"helmStderr"`
		Requests   []string `json:"requests"`
	} `json:"response"`
	// LiveItems and WantItems are the objects of live.json and want.json (Lists).
	LiveItems, WantItems []map[string]any
	// Rendered is manifest.yaml's objects (nil for a rollback, which renders nothing).
	Rendered []helmrelease.ManifestObject
}

// LoadHelmCase reads the Helm case in dir.
func LoadHelmCase(dir string) (*HelmCase, error) {
	c := &HelmCase{}
	c.Name, c.Dir = filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), dir
	b, err := os.ReadFile(filepath.Join(dir, "case.yaml"))
	if err != nil {
		return nil, err
	}
	if err := yaml.Unmarshal(b, c); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "case.yaml"), err)
	}
	if err := yaml.Unmarshal(b, &c.Case); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "case.yaml"), err)
	}
	for name, to := range map[string]*[]map[string]any{"live.json": &c.LiveItems, "want.json": &c.WantItems} {
		list, err := readObject(filepath.Join(dir, name), false)
		if err != nil {
			return nil, err
		}
		items, _ := list["items"].([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				*to = append(*to, m)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "manifest.yaml")); err == nil {
		if c.Rendered, err = helmrelease.Objects(string(b)); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "manifest.yaml"), err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "crds.yaml")); err == nil {
		for i, doc := range splitYAML(b) {
			var obj map[string]any
			if err := yaml.Unmarshal(doc, &obj); err != nil {
				return nil, fmt.Errorf("%s: document %d: %w", filepath.Join(dir, "crds.yaml"), i, err)
			}
			if obj != nil {
				c.CRDs = append(c.CRDs, obj)
			}
		}
	}
	return c, nil
}

// LoadHelmCases reads every Helm case below root (root/<scenario>/<NN-command>), in
// order.
func LoadHelmCases(root string) ([]*HelmCase, error) {
	dirs, err := filepath.Glob(filepath.Join(root, "*", "*", "case.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(dirs)
	var out []*HelmCase
	for _, d := range dirs {
		c, err := LoadHelmCase(filepath.Dir(d))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// HelmOptions are the options of the case's command, read from its arguments as Helm
// reads its flags, and the release's history from live.json's records.
func (c *HelmCase) HelmOptions(reg *schema.Registry) (appliers.HelmOptions, error) {
	r := c.HelmRequest
	o := appliers.HelmOptions{Command: appliers.HelmCommand(r.Command), Release: r.Release, Namespace: r.Namespace}
	args := r.Args
	if r.Command == "rollback" && len(args) > 2 {
		n, err := strconv.Atoi(args[2])
		if err != nil {
			return o, fmt.Errorf("rollback revision %q: %w", args[2], err)
		}
		o.Revision = n
	}
	for _, a := range args {
		name, value, hasValue := strings.Cut(a, "=")
		flag := func() bool {
			if !hasValue {
				return true
			}
			b, _ := strconv.ParseBool(value)
			return b
		}
		switch name {
		case "--server-side":
			o.ServerSide = value
		case "--force-conflicts":
			o.ForceConflicts = flag()
		case "--take-ownership":
			o.TakeOwnership = flag()
		case "--install":
			o.Install = flag()
		case "--skip-crds":
			o.SkipCRDs = flag()
		case "--dry-run":
			if !hasValue {
				value = "unset"
			}
			d, err := appliers.HelmDryRunStrategy(value)
			if err != nil {
				return o, err
			}
			o.DryRun = d
		}
	}
	h, _ := helmrelease.Find(c.LiveItems, c.driverKind(), r.Release, r.Namespace)
	revs, err := helmrelease.Revisions(h, reg)
	if err != nil {
		return o, err
	}
	o.History = revs
	return o, nil
}

// driverKind is the kind of the release's records.
func (c *HelmCase) driverKind() string {
	if c.HelmRequest.Driver == "configmap" {
		return "ConfigMap"
	}
	return "Secret"
}

// ReplayHelm predicts the case's command.
func ReplayHelm(c *HelmCase) (*appliers.HelmOutcome, error) {
	model, err := c.Model(nil)
	if err != nil {
		return nil, err
	}
	reg, err := c.Registry()
	if err != nil {
		return nil, err
	}
	e := merge.New(reg, model)
	o, err := c.HelmOptions(reg)
	if err != nil {
		return nil, err
	}
	plan, err := appliers.PlanHelm(o)
	if err != nil {
		if he, ok := err.(*appliers.HelmError); ok {
			return &appliers.HelmOutcome{Err: he}, nil
		}
		return nil, err
	}
	var targets []appliers.HelmTarget
	if plan.Command == appliers.HelmRollback {
		for _, obj := range plan.Target.Objects {
			targets = append(targets, appliers.HelmTarget{Object: obj})
		}
	} else {
		for _, m := range c.Rendered {
			targets = append(targets, appliers.HelmTarget{Object: m.Object, CRDFile: helmrelease.CRDFile(m.Source)})
		}
	}
	live := func(group, kind, ns, name string) map[string]any {
		return findObject(c.LiveItems, group, kind, ns, name)
	}
	return plan.Run(e, reg, targets, live, c.NowTime())
}

// findObject is the object of items with that group, kind, namespace and name.
func findObject(items []map[string]any, group, kind, ns, name string) map[string]any {
	for _, it := range items {
		av, _ := it["apiVersion"].(string)
		g := ""
		if i := strings.Index(av, "/"); i >= 0 {
			g = av[:i]
		}
		md, _ := it["metadata"].(map[string]any)
		ins, _ := md["namespace"].(string)
		iname, _ := md["name"].(string)
		if it["kind"] == kind && g == group && ins == ns && iname == name {
			return it
		}
	}
	return nil
}

// CompareHelm checks the prediction of a Helm command against the recording: whether
// Helm failed and its message, each object as the server left it (managedFields
// exactly), the objects deleted, the writes sent for each object, and the new revision's
// status and apply_method.
func CompareHelm(c *HelmCase, out *appliers.HelmOutcome) []string {
	var problems []string
	reg, err := c.Registry()
	if err != nil {
		return []string{err.Error()}
	}
	failed := c.HelmResponse.HelmExit != 0
	if failed != (out.Err != nil) {
		msg := ""
		if out.Err != nil {
			msg = out.Err.Message
		}
		problems = append(problems, fmt.Sprintf("predicted failure %v (%s), helm exited %d: %s", out.Err != nil, msg, c.HelmResponse.HelmExit, lastLines(c.HelmResponse.HelmStderr)))
	} else if failed {
		if want := helmErrorOf(c.HelmResponse.HelmStderr); want != out.Err.Message {
			problems = append(problems, fmt.Sprintf("error %q, helm printed %q", out.Err.Message, want))
		}
	}
	wrote := writesByObject(c.HelmResponse.Requests)
	seen := map[string]bool{}
	for _, r := range out.Objects {
		obj := r.Target.Object
		key := keyOf(obj, c.HelmRequest.Namespace)
		seen[key] = true
		group, kind, ns, name := splitKey(key)
		live := findObject(c.LiveItems, group, kind, ns, name)
		want := findObject(c.WantItems, group, kind, ns, name)
		// What the server holds afterwards: the result's object (a refused apply after a
		// migration patch leaves the patched object), else the live one.
		got := live
		var res *merge.Result
		if r.Result != nil && r.Result.Object != nil {
			cp := *r.Result
			cp.Rejection, cp.Conflicts = nil, nil
			got, res = cp.Object, &cp
		}
		predicted := predictedWrites(r.Result)
		if p := objectPath(reg, obj, c.HelmRequest.Namespace); !reflect.DeepEqual(predicted, wrote[p]) {
			problems = append(problems, fmt.Sprintf("%s: writes %q, helm sent %q", key, predicted, wrote[p]))
		}
		if want == nil {
			if got != nil {
				problems = append(problems, fmt.Sprintf("%s: predicted to exist, absent after the command", key))
			}
			continue
		}
		if got == nil {
			problems = append(problems, fmt.Sprintf("%s: predicted absent, the server has it", key))
			continue
		}
		if kind == "CustomResourceDefinition" {
			// kube-apiserver's own controllers write a CRD's status (NamesAccepted,
			// Established, their /status entry) right after it is written; the recording
			// reads it after them.
			want, got = withoutStatus(want), withoutStatus(got)
		}
		one := &Case{Name: c.Name, Live: live, Want: want, Now: c.Now}
		one.Response.Code = 200
		if res == nil {
			res = &merge.Result{Action: merge.ActionUnchanged, Object: got}
		} else {
			res.Object = got
		}
		for _, p := range Compare(one, res, false) {
			problems = append(problems, key+": "+p)
		}
	}
	for _, d := range out.Deleted {
		key := keyOf(d.Object, c.HelmRequest.Namespace)
		seen[key] = true
		group, kind, ns, name := splitKey(key)
		present := findObject(c.WantItems, group, kind, ns, name) != nil
		if present == !d.Kept {
			problems = append(problems, fmt.Sprintf("%s: predicted kept %v, present after the command %v", key, d.Kept, present))
		}
		want := []string(nil)
		if !d.Kept {
			want = []string{"DELETE -> 200"}
		}
		if p := objectPath(reg, d.Object, c.HelmRequest.Namespace); !reflect.DeepEqual(want, wrote[p]) {
			problems = append(problems, fmt.Sprintf("%s: writes %q, helm sent %q", key, want, wrote[p]))
		}
	}
	for _, it := range c.LiveItems {
		key := keyOf(it, c.HelmRequest.Namespace)
		if seen[key] || helmrelease.IsRecord(it) {
			continue
		}
		group, kind, ns, name := splitKey(key)
		if w := findObject(c.WantItems, group, kind, ns, name); w == nil || !reflect.DeepEqual(rv(generic(it)), rv(generic(w))) {
			problems = append(problems, fmt.Sprintf("%s: predicted untouched, the command changed it", key))
		}
	}
	if out.Plan != nil && out.Status != "" {
		h, _ := helmrelease.Find(c.WantItems, c.driverKind(), c.HelmRequest.Release, c.HelmRequest.Namespace)
		if last := h.Last(); last == nil || last.Version != out.Plan.NewRevision {
			problems = append(problems, fmt.Sprintf("predicted revision %d recorded, the last record is %+v", out.Plan.NewRevision, last))
		} else if last.Status != out.Status || last.ApplyMethod != out.Plan.NewApplyMethod {
			problems = append(problems, fmt.Sprintf("predicted revision %d %s (%s), recorded %s (%s)", last.Version, out.Status, out.Plan.NewApplyMethod, last.Status, last.ApplyMethod))
		}
	}
	return problems
}

// helmErrorOf is the error Helm printed: stderr from "Error: " on, without it.
func helmErrorOf(stderr string) string {
	i := strings.LastIndex(stderr, "Error: ")
	if i < 0 {
		return ""
	}
	return strings.TrimSuffix(stderr[i+len("Error: "):], "\n")
}

func lastLines(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	return strings.Join(lines, " | ")
}

// keyOf is "group/kind/namespace/name"; a namespaced object that names none is in ns.
func keyOf(obj map[string]any, ns string) string {
	av, _ := obj["apiVersion"].(string)
	g := ""
	if i := strings.Index(av, "/"); i >= 0 {
		g = av[:i]
	}
	kind, _ := obj["kind"].(string)
	md, _ := obj["metadata"].(map[string]any)
	ons, _ := md["namespace"].(string)
	name, _ := md["name"].(string)
	if ons == "" && !clusterScoped(kind) {
		ons = ns
	}
	return g + "/" + kind + "/" + ons + "/" + name
}

func clusterScoped(kind string) bool {
	switch kind {
	case "CustomResourceDefinition", "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
		"ClusterRole", "ClusterRoleBinding", "Namespace", "PriorityClass", "StorageClass":
		return true
	}
	return false
}

func splitKey(key string) (group, kind, ns, name string) {
	p := strings.SplitN(key, "/", 4)
	return p[0], p[1], p[2], p[3]
}

// writesByObject groups the write requests of a recording by the object's path, each as
// "METHOD type force=… -> code" (the content type of a PATCH without application/).
func writesByObject(requests []string) map[string][]string {
	out := map[string][]string{}
	for _, r := range requests {
		fields := strings.Fields(r)
		if len(fields) < 4 || fields[0] == "GET" {
			continue
		}
		method, url := fields[0], fields[1]
		path, query, _ := strings.Cut(url, "?")
		w := method
		for _, f := range fields[2 : len(fields)-2] {
			switch {
			case strings.HasPrefix(f, "(application/"):
				w += " " + strings.TrimSuffix(strings.TrimPrefix(f, "(application/"), ")")
				if strings.Contains(f, "apply-patch") {
					force := "false"
					for _, kv := range strings.Split(query, "&") {
						if v, ok := strings.CutPrefix(kv, "force="); ok {
							force = v
						}
					}
					w += " force=" + force
				}
			case strings.HasPrefix(f, "name="):
				path += "/" + strings.TrimPrefix(f, "name=")
			}
		}
		out[path] = append(out[path], w+" -> "+fields[len(fields)-1])
	}
	return out
}

// objectPath is the URL path of an object (its namespace ns when it names none).
func objectPath(reg *schema.Registry, obj map[string]any, ns string) string {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	g, v, ok := strings.Cut(av, "/")
	if !ok {
		g, v = "", av
	}
	md, _ := obj["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	ons, _ := md["namespace"].(string)
	t, found := reg.Lookup(schema.GVK{Group: g, Version: v, Kind: kind})
	if !found {
		return "?" + keyOf(obj, ns)
	}
	p := "/apis/" + av
	if g == "" {
		p = "/api/" + v
	}
	if t.Namespaced {
		if ons == "" {
			ons = ns
		}
		p += "/namespaces/" + ons
	}
	return p + "/" + t.Resource + "/" + name
}

// predictedWrites is a result's steps in the form of writesByObject.
func predictedWrites(res *merge.Result) []string {
	if res == nil {
		return nil
	}
	var out []string
	for _, s := range res.Steps {
		var w string
		switch {
		case strings.HasPrefix(s.Description, "apply"):
			w = "PATCH apply-patch+yaml force=" + strings.TrimSuffix(strings.TrimPrefix(s.Description, "apply (force="), ")")
		case strings.HasPrefix(s.Description, "managedFields migration"):
			w = "PATCH json-patch+json"
		case s.Description == "strategic merge patch":
			w = "PATCH strategic-merge-patch+json"
		case s.Description == "JSON merge patch":
			w = "PATCH merge-patch+json"
		case strings.HasPrefix(s.Description, "create"):
			w = "POST"
		default:
			w = s.Description
		}
		out = append(out, w+" -> "+strconv.Itoa(s.Code))
	}
	return out
}

// withoutStatus is obj without its status and the managedFields entries of /status.
func withoutStatus(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		if k != "status" {
			out[k] = v
		}
	}
	md, _ := obj["metadata"].(map[string]any)
	entries, _ := md["managedFields"].([]any)
	var kept []any
	for _, e := range entries {
		if m, _ := e.(map[string]any); m["subresource"] != "status" {
			kept = append(kept, e)
		}
	}
	if len(kept) != len(entries) {
		nmd := make(map[string]any, len(md))
		for k, v := range md {
			nmd[k] = v
		}
		nmd["managedFields"] = kept
		out["metadata"] = nmd
	}
	return out
}
