package appliers

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

// This file holds what Helm 4 (helm.sh/helm/v4 4.3, pkg/action's Install, Upgrade and
// Rollback) decides for a whole release before and after it writes: which revision's
// records it reads, whether it applies server-side, which objects it refuses to touch,
// how it writes each object (helm.go), where it stops, and what it deletes.

// HelmCommand is the Helm command predicted.
type HelmCommand string

// The commands.
const (
	HelmInstall  HelmCommand = "install"
	HelmUpgrade  HelmCommand = "upgrade"
	HelmRollback HelmCommand = "rollback"
)

// HelmRevision is one revision of a release, as its record says.
type HelmRevision struct {
	Version int
	// Status is the record's status label (deployed, superseded, failed, …).
	Status string
	// ApplyMethod is the record's apply_method: "ssa", "csa", or "" (written by Helm 3).
	ApplyMethod string
	// Objects are the objects of the record's manifest, as Helm builds them: a namespaced
	// object that names no namespace carries the release's.
	Objects []map[string]any
}

// HelmTarget is one object the command applies: a document of the rendered chart.
type HelmTarget struct {
	Object map[string]any
	// CRDFile, for a CustomResourceDefinition of a chart's crds/ directory, is its file in
	// that chart ("crds/widgets.yaml"), as Helm names it in its errors. Such an object is
	// installed first, as is (no release labels), only by an install, and skipped when a
	// client-side install finds it exists.
	CRDFile string
}

// HelmOptions are the command's flags and the release's history.
type HelmOptions struct {
	Command HelmCommand
	// Release and Namespace are the release's name and namespace (-n).
	Release, Namespace string
	// ServerSide is --server-side as given: "true", "false", or (upgrade and rollback)
	// "auto"; "" is the command's default (install: true; upgrade, rollback: auto).
	ServerSide string
	// ForceConflicts is --force-conflicts; TakeOwnership --take-ownership (install,
	// upgrade); Install is upgrade's --install; SkipCRDs --skip-crds.
	ForceConflicts, TakeOwnership, Install, SkipCRDs bool
	// Revision is the revision a rollback goes back to; 0 is the one before the last.
	Revision int
	// History is the release's records, in any order.
	History []HelmRevision
	// DryRun is --dry-run resolved (HelmDryRunStrategy): "" runs the command; "client"
	// or "server" stop it after its checks, before any write.
	DryRun string
}

// HelmDryRunStrategy is Helm's --dry-run value read as Helm reads it: "none", "false" or
// "" run the command; "server"; "client", "true" or the flag without a value (given as
// "unset") are "client".
func HelmDryRunStrategy(v string) (string, error) {
	switch v {
	case "", "none":
		return "", nil
	case "unset", "client":
		return "client", nil
	case "server":
		return "server", nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return "", fmt.Errorf("invalid dry-run value (%q). Must be \"none\", \"server\", or \"client\"", v)
	}
	if b {
		return "client", nil
	}
	return "", nil
}

// A HelmError is Helm refusing the command, or failing it, in its own words.
type HelmError struct {
	// Message is Helm's error, as `helm` prints it after "Error: ".
	Message string
	// BeforeWrites is true when Helm sends no write at all.
	BeforeWrites bool
}

func (e *HelmError) Error() string { return e.Message }

// HelmPlan is the command resolved against the release's history: everything Helm
// settles before it reads any object.
type HelmPlan struct {
	Options HelmOptions
	// Command is the command Helm runs: upgrade --install of a release with no history
	// (or an uninstalled one) is an install.
	Command HelmCommand
	// ServerSide is --server-side resolved; Reference the revision `auto` followed (nil
	// for an install or a value given).
	ServerSide bool
	Reference  *HelmRevision
	// Current is the revision whose objects the command starts from: the upgrade's last
	// deployed revision (the last, when a failed install is all there is), the rollback's
	// last; nil for an install. Target is the revision a rollback goes back to.
	Current, Target *HelmRevision
	// Migrate: Helm patches managedFields before each server-side apply of an existing
	// object, folding the helm Update entry into helm's Apply entry (an upgrade from a
	// client-side revision, a rollback, an install that adopts).
	Migrate bool
	// NewRevision is the revision the command records, and NewApplyMethod its
	// apply_method.
	NewRevision    int
	NewApplyMethod string
}

// PlanHelm resolves the command against the history, as Helm does before it renders
// anything. A *HelmError is Helm's refusal of the command.
func PlanHelm(o HelmOptions) (*HelmPlan, error) {
	hist := append([]HelmRevision(nil), o.History...)
	sort.SliceStable(hist, func(i, j int) bool { return hist[i].Version < hist[j].Version })
	var last *HelmRevision
	if len(hist) > 0 {
		last = &hist[len(hist)-1]
	}
	p := &HelmPlan{Options: o, Command: o.Command}
	refuse := func(format string, a ...any) (*HelmPlan, error) {
		return nil, &HelmError{Message: fmt.Sprintf(format, a...), BeforeWrites: true}
	}
	if o.Command == HelmUpgrade && o.Install && (last == nil || last.Status == "uninstalled") {
		p.Command = HelmInstall
	}
	switch p.Command {
	case HelmInstall:
		ss, err := helmBool(o.ServerSide, "true")
		if o.Command == HelmUpgrade {
			// upgrade --install passes --server-side != "false".
			ss, err = o.ServerSide != "false", nil
		}
		if err != nil {
			return refuse("invalid argument %q for \"--server-side\" flag: %v", o.ServerSide, err)
		}
		if last != nil && o.Command == HelmInstall && o.DryRun == "" {
			// A dry run skips the name check.
			return refuse("INSTALLATION FAILED: release name check failed: cannot reuse a name that is still in use")
		}
		p.ServerSide = ss
		p.Migrate = true // only adopted objects are ever patched by an install
		p.NewRevision = 1
		if last != nil {
			p.NewRevision = last.Version + 1
		}
	case HelmUpgrade:
		if last == nil {
			return refuse("UPGRADE FAILED: %q has no deployed releases", o.Release)
		}
		if strings.HasPrefix(last.Status, "pending-") {
			return refuse("UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress")
		}
		current := last
		if last.Status != "deployed" {
			current = nil
			for i := len(hist) - 1; i >= 0; i-- {
				if hist[i].Status == "deployed" {
					current = &hist[i]
					break
				}
			}
			if current == nil {
				if last.Status != "failed" && last.Status != "superseded" {
					return refuse("UPGRADE FAILED: %q has no deployed releases", o.Release)
				}
				current = last
			}
		}
		ss, err := helmServerSide(o.ServerSide, last)
		if err != nil {
			return refuse("UPGRADE FAILED: %v", err)
		}
		p.ServerSide, p.Current, p.NewRevision = ss, current, last.Version+1
		if o.ServerSide == "" || o.ServerSide == "auto" {
			p.Reference = last
		}
		p.Migrate = ss && (current.ApplyMethod == "" || current.ApplyMethod == "csa")
	case HelmRollback:
		if last == nil {
			return refuse("release: not found")
		}
		if o.Revision < 0 {
			return refuse("invalid release revision")
		}
		want := o.Revision
		if want == 0 {
			want = last.Version - 1
		}
		for i := range hist {
			if hist[i].Version == want {
				p.Target = &hist[i]
			}
		}
		if p.Target == nil {
			return refuse("release has no %d version", want)
		}
		ss, err := helmServerSide(o.ServerSide, p.Target)
		if err != nil {
			return refuse("%v", err)
		}
		p.ServerSide, p.Current, p.NewRevision, p.Migrate = ss, last, last.Version+1, ss
		if o.ServerSide == "" || o.ServerSide == "auto" {
			p.Reference = p.Target
		}
	default:
		return nil, fmt.Errorf("unknown Helm command %q", o.Command)
	}
	p.NewApplyMethod = "csa"
	if p.ServerSide {
		p.NewApplyMethod = "ssa"
	}
	return p, nil
}

// helmServerSide is upgrade's and rollback's --server-side: auto follows the reference
// revision's apply_method ("ssa" only: a Helm 3 revision has none).
func helmServerSide(flag string, ref *HelmRevision) (bool, error) {
	switch flag {
	case "", "auto":
		return ref.ApplyMethod == "ssa", nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("invalid/unknown release server-side apply method: %s", flag)
}

// helmBool is a boolean flag's value as pflag reads it (strconv.ParseBool).
func helmBool(v, def string) (bool, error) {
	if v == "" {
		v = def
	}
	return strconv.ParseBool(v)
}

// HelmObjectResult is what Helm does with one object of the command.
type HelmObjectResult struct {
	Target HelmTarget
	// Result is the prediction of Helm's requests for the object; nil when Helm sends
	// none (NotSent says why).
	Result  *merge.Result
	NotSent string
	// Error is Helm's error for this object, as it joins it into its own ("" when the
	// object's requests succeed).
	Error string

	// write and sent are how Helm wrote the object and what it sent (the object with the
	// release's metadata), for HelmApply's prediction with force.
	write helmWrite
	sent  map[string]any
}

// HelmDeletion is a live object Helm deletes because the new revision drops it, or keeps
// for its resource policy.
type HelmDeletion struct {
	Object map[string]any
	// Kept is true for an object annotated helm.sh/resource-policy: keep.
	Kept bool
	// Why says so in a sentence.
	Why string
}

// HelmOutcome is the prediction of a whole Helm command.
type HelmOutcome struct {
	Plan *HelmPlan
	// Objects are the command's objects, in the order given (the rendered manifest's,
	// which Helm sorts by kind): crds/ first, as Helm installs them first.
	Objects []HelmObjectResult
	// Deleted are the objects the command deletes (or keeps), in the current revision's
	// order; none when a write failed (Helm deletes only after every write succeeded).
	Deleted []HelmDeletion
	// Err is Helm's error when the command fails (`helm` exits 1); nil when it
	// succeeds.
	Err *HelmError
	// Status is the status Helm records for the new revision: deployed or failed ("" when
	// the command fails before it records one, or is a dry run).
	Status string
	// WithoutDryRun, for a dry run, is the command run without --dry-run: what the dry
	// run does not show (its conflicts, its refusals, its deletions).
	WithoutDryRun *HelmOutcome
}

// HelmLive finds the live object of a group, kind, namespace and name; nil when there is
// none.
type HelmLive func(group, kind, namespace, name string) map[string]any

// Run predicts the command: each object's requests, on e, in Helm's order, with live
// objects from live; schemas is the registry e resolves kinds through. now is the time
// the server stamps entries with.
func (p *HelmPlan) Run(e *merge.Engine, schemas *schema.Registry, targets []HelmTarget, live HelmLive, now time.Time) (*HelmOutcome, error) {
	out := &HelmOutcome{Plan: p}
	o := p.Options
	var crds, chart []int
	results := make([]HelmObjectResult, len(targets))
	for i, t := range targets {
		results[i].Target = t
		switch {
		case annotations(t.Object)[HelmHookAnnotation] != nil:
			results[i].NotSent = "a Helm hook (" + HelmHookAnnotation + "): Helm runs it apart, before or after the release's objects; not predicted"
		case t.CRDFile != "":
			crds = append(crds, i)
		default:
			chart = append(chart, i)
		}
	}
	objects := make([]map[string]any, len(targets))
	for _, i := range chart {
		objects[i] = helmChartObject(helmNamespaced(schemas, targets[i].Object, o.Namespace), o)
	}
	for _, i := range crds {
		objects[i] = helmNamespaced(schemas, targets[i].Object, o.Namespace)
	}
	liveOf := func(obj map[string]any) map[string]any {
		group, _ := splitAPIVersion(obj)
		ns, name := nsName(obj)
		kind, _ := obj["kind"].(string)
		return live(group, kind, ns, name)
	}
	notSent := func(from int, why string) {
		for _, i := range chart[from:] {
			results[i].NotSent = why
		}
	}
	fail := func(msg string, before bool) {
		out.Err = &HelmError{Message: msg, BeforeWrites: before}
	}
	prefix := map[HelmCommand]string{HelmInstall: "INSTALLATION FAILED: ", HelmUpgrade: "UPGRADE FAILED: "}[p.Command]
	if p.Command == HelmUpgrade && o.Command == HelmUpgrade {
		prefix = "UPGRADE FAILED: "
	}

	// crds/: an install's first writes, one Create each (apply with --force-conflicts
	// honoured, or POST, AlreadyExists skipped).
	if o.DryRun != "" {
		for _, i := range crds {
			results[i].NotSent = "--dry-run: Helm installs no CRD of crds/"
		}
	} else if p.Command == HelmInstall && !o.SkipCRDs {
		if len(crds) > 0 && o.ForceConflicts && !p.ServerSide {
			fail(prefix+fmt.Sprintf("failed to install CRD %s: invalid client create option(s): forceConflicts enabled when serverSideApply disabled", targets[crds[0]].CRDFile), true)
			notSent(0, "Helm refuses the command before it writes anything")
			for _, i := range crds {
				results[i].NotSent = "Helm refuses the command before it writes anything"
			}
			results[crds[0]].Error = out.Err.Message
			out.Objects = results
			return out, nil
		}
		for _, i := range crds {
			w := helmWrite{create: true, serverSide: p.ServerSide, force: o.ForceConflicts, fromCRDs: true}
			res, err := p.write(e, schemas, objects[i], liveOf(objects[i]), now, w)
			if err != nil {
				return nil, err
			}
			results[i].Result, results[i].write, results[i].sent = res, w, objects[i]
			if res.Rejection != nil {
				msg := prefix + "failed to install CRD " + targets[i].CRDFile + ": " + helmWriteError(objects[i], res, true, p.ServerSide)
				results[i].Error = msg
				fail(msg, false)
				notSent(0, "Helm stops at the CRD it failed to install")
				out.Objects = results
				return out, nil
			}
		}
	} else {
		for _, i := range crds {
			results[i].NotSent = map[bool]string{true: "--skip-crds: Helm installs no CRD of crds/",
				false: "Helm applies the CRDs of crds/ only when it installs a release, never on " + string(p.Command)}[o.SkipCRDs]
		}
	}

	// The objects the command starts from, and those it must not take without asking.
	var originals []map[string]any
	if p.Current != nil {
		originals = append(originals, p.Current.Objects...)
	}
	var rendered []map[string]any
	for _, i := range chart {
		rendered = append(rendered, objects[i])
	}
	adopted := map[int]bool{}
	// An install with --dry-run=client reads nothing from the cluster: no ownership check.
	if p.Command != HelmRollback && !(p.Command == HelmInstall && o.DryRun == "client") {
		for _, i := range chart {
			obj := objects[i]
			if p.Command == HelmUpgrade && helmContainsExactly(originals, obj) {
				continue // not new: an upgrade checks only the objects it creates
			}
			cur := liveOf(obj)
			if cur == nil {
				continue
			}
			if !o.TakeOwnership {
				if why := helmOwnershipError(cur, o.Release, o.Namespace); why != "" {
					action := map[HelmCommand]string{HelmInstall: "install", HelmUpgrade: "update"}[p.Command]
					fail(prefix+fmt.Sprintf("unable to continue with %s: %s exists and cannot be imported into the current release: %s", action, helmResourceString(obj), why), true)
					results[i].Error = out.Err.Message
					notSent(0, "Helm refuses the command before it writes anything")
					out.Objects = results
					return out, nil
				}
			}
			adopted[i] = true
			originals = append(originals, obj)
		}
	}

	// A dry run stops here: checked, rendered, nothing written, no revision recorded.
	if o.DryRun != "" {
		notSent(0, "--dry-run="+o.DryRun+": Helm sends no write (it checks the release and the objects' ownership, then stops)")
		out.Objects = results
		return out, nil
	}

	// The writes. An install that adopts nothing creates every object (Client.Create:
	// force is never sent); anything else goes through Client.Update, object by object.
	if p.Command == HelmInstall && len(adopted) == 0 {
		var errs []string
		for _, i := range chart {
			w := helmWrite{create: true, serverSide: p.ServerSide}
			res, err := p.write(e, schemas, objects[i], liveOf(objects[i]), now, w)
			if err != nil {
				return nil, err
			}
			results[i].Result, results[i].write, results[i].sent = res, w, objects[i]
			if res.Rejection != nil {
				results[i].Error = helmWriteError(objects[i], res, true, p.ServerSide)
				errs = append(errs, results[i].Error)
			}
		}
		if len(errs) > 0 {
			fail(prefix+strings.Join(errs, "\n"), false)
			out.Status = "failed"
		} else {
			out.Status = "deployed"
		}
		out.Objects = results
		return out, nil
	}
	if o.ForceConflicts && !p.ServerSide {
		fail(prefix+"invalid client update option(s): forceConflicts enabled when serverSideApply disabled", false)
		notSent(0, "Helm refuses --force-conflicts without server-side apply before it writes an object")
		if len(chart) > 0 {
			results[chart[0]].Error = out.Err.Message
		}
		out.Objects = results
		out.Status = "failed"
		return out, nil
	}
	var errs []string
	for n, i := range chart {
		obj := objects[i]
		cur := liveOf(obj)
		w := helmWrite{serverSide: p.ServerSide, force: o.ForceConflicts, migrate: p.Migrate,
			threeWayUnstructured: p.Command == HelmInstall && o.TakeOwnership && !p.ServerSide}
		if cur != nil && !p.ServerSide {
			w.original = helmMatching(originals, obj)
			if w.original == nil {
				w.original = cur // "resource exists on cluster but not in original release"
			}
		}
		res, err := p.write(e, schemas, obj, cur, now, w)
		if err != nil {
			return nil, err
		}
		results[i].Result, results[i].write, results[i].sent = res, w, obj
		if res.Rejection != nil {
			results[i].Error = helmWriteError(obj, res, cur == nil, p.ServerSide)
			if cur == nil {
				// A failed create stops the visit: the objects after it are not sent, and
				// Helm reports that error alone (the failed updates before it are dropped).
				results[i].Error = "failed to create resource: " + results[i].Error
				errs = []string{results[i].Error}
				notSent(n+1, "Helm stops at the object it failed to create")
				break
			}
			errs = append(errs, results[i].Error)
		}
	}
	if len(errs) > 0 {
		fail(prefix+strings.Join(errs, " && "), false)
		out.Status = "failed"
		out.Objects = results
		return out, nil
	}

	// The objects the new revision drops: deleted, unless kept by their resource policy.
	for _, orig := range originals {
		if helmMatching(rendered, orig) != nil {
			continue
		}
		cur := liveOf(orig)
		if cur == nil {
			continue
		}
		if annotations(cur)[HelmResourcePolicyAnnotation] == HelmKeepPolicy {
			out.Deleted = append(out.Deleted, HelmDeletion{Object: cur, Kept: true,
				Why: fmt.Sprintf("Helm keeps it: the new revision drops it, but its annotation %s is %q", HelmResourcePolicyAnnotation, HelmKeepPolicy)})
			continue
		}
		out.Deleted = append(out.Deleted, HelmDeletion{Object: cur,
			Why: fmt.Sprintf("Helm deletes it: revision %d names it and the new revision does not", p.Current.Version)})
	}
	out.Status = "deployed"
	out.Objects = results
	return out, nil
}

// RunHelm plans the command (PlanHelm) and runs it (HelmPlan.Run): a command Helm refuses
// before it reads any object is an outcome too, Helm's error on the first object and
// nothing sent for the others. A dry run's outcome carries the command run without
// --dry-run (WithoutDryRun).
func RunHelm(e *merge.Engine, schemas *schema.Registry, o HelmOptions, targets []HelmTarget, live HelmLive, now time.Time) (*HelmOutcome, error) {
	out, err := runHelm(e, schemas, o, targets, live, now)
	if err != nil || o.DryRun == "" {
		return out, err
	}
	real := o
	real.DryRun = ""
	out.WithoutDryRun, err = runHelm(e, schemas, real, targets, live, now)
	return out, err
}

func runHelm(e *merge.Engine, schemas *schema.Registry, o HelmOptions, targets []HelmTarget, live HelmLive, now time.Time) (*HelmOutcome, error) {
	p, err := PlanHelm(o)
	if err != nil {
		var he *HelmError
		if !errors.As(err, &he) {
			return nil, err
		}
		out := &HelmOutcome{Err: he}
		for i, t := range targets {
			r := HelmObjectResult{Target: t, NotSent: "Helm refuses the command before it writes anything"}
			if i == 0 {
				r.Error = he.Message
			}
			out.Objects = append(out.Objects, r)
		}
		return out, nil
	}
	return p.Run(e, schemas, targets, live, now)
}

// write predicts Helm's requests for one object.
func (p *HelmPlan) write(e *merge.Engine, schemas *schema.Registry, obj, live map[string]any, now time.Time, w helmWrite) (*merge.Result, error) {
	req := merge.Request{Live: live, Object: obj, Manager: HelmManager, Now: now}
	seq, refused, err := e.Begin(req, merge.ClientMapper)
	if refused != nil || err != nil {
		return refused, err
	}
	return helmObject(seq, schemas, w)
}

// helmChartObject is obj (a copy, built: helmNamespaced) as Helm sends it: with the label
// app.kubernetes.io/managed-by: Helm and the release annotations added
// (setMetadataVisitor).
func helmChartObject(obj map[string]any, o HelmOptions) map[string]any {
	out := obj
	md := unstructured.EnsureObject(out, "metadata")
	unstructured.EnsureObject(md, "labels")[HelmManagedByLabel] = HelmManagedByValue
	ann := unstructured.EnsureObject(md, "annotations")
	ann[HelmReleaseNameAnnotation] = o.Release
	ann[HelmReleaseNSAnnotation] = o.Namespace
	return out
}

// helmNamespaced is obj with the release's namespace when it is of a namespaced kind and
// names none, as Helm's builder fills it in.
func helmNamespaced(schemas *schema.Registry, obj map[string]any, ns string) map[string]any {
	out := unstructured.DeepCopyObject(obj)
	group, version := splitAPIVersion(out)
	kind, _ := out["kind"].(string)
	if t, ok := schemas.Lookup(schema.GVK{Group: group, Version: version, Kind: kind}); ok && t.Namespaced {
		md := unstructured.EnsureObject(out, "metadata")
		if s, _ := md["namespace"].(string); s == "" {
			md["namespace"] = ns
		}
	}
	return out
}

// HelmBuild is an object of a manifest as Helm's builder makes it: the release's
// namespace filled in when a namespaced object names none.
func HelmBuild(schemas *schema.Registry, obj map[string]any, namespace string) map[string]any {
	return helmNamespaced(schemas, obj, namespace)
}

// helmOwnershipError is Helm's check that an existing object belongs to the release
// (checkOwnership): "" when it does, else why not in Helm's words.
func helmOwnershipError(obj map[string]any, release, ns string) string {
	lbl, ann := stringMap(obj, "labels"), stringMap(obj, "annotations")
	var errs []string
	check := func(what string, m map[string]string, k, v string) {
		actual, ok := m[k]
		switch {
		case !ok:
			errs = append(errs, fmt.Sprintf("%s validation error: missing key %q: must be set to %q", what, k, v))
		case actual != v:
			errs = append(errs, fmt.Sprintf("%s validation error: key %q must equal %q: current value is %q", what, k, v, actual))
		}
	}
	check("label", lbl, HelmManagedByLabel, HelmManagedByValue)
	check("annotation", ann, HelmReleaseNameAnnotation, release)
	check("annotation", ann, HelmReleaseNSAnnotation, ns)
	if len(errs) == 0 {
		return ""
	}
	return "invalid ownership metadata; " + strings.Join(errs, "; ")
}

// helmResourceString names an object as Helm's messages do.
func helmResourceString(obj map[string]any) string {
	ns, name := nsName(obj)
	kind, _ := obj["kind"].(string)
	return fmt.Sprintf("%s %q in namespace %q", kind, name, ns)
}

// helmWriteError is Helm's error for a refused write of obj: created says the object did
// not exist (Helm's create path), serverSide how it was written.
func helmWriteError(obj map[string]any, res *merge.Result, created, serverSide bool) string {
	ns, name := nsName(obj)
	group, version := splitAPIVersion(obj)
	kind, _ := obj["kind"].(string)
	gvk := group + "/" + version + ", Kind=" + kind
	msg := res.Rejection.Message
	var text string
	switch {
	case len(res.Steps) > 1 && res.Steps[len(res.Steps)-1].Code < 300:
		text = msg
	case len(res.Steps) == 1 && strings.HasPrefix(res.Steps[0].Description, "managedFields migration"):
		text = fmt.Sprintf("failed to patch object to upgrade CSA field manager %s/%s %s: %s", ns, name, gvk, msg)
	case serverSide && res.Rejection.Code == 409 && res.Rejection.Reason == "Conflict":
		text = fmt.Sprintf("conflict occurred while applying object %s/%s %s: %s", ns, name, gvk, msg)
	case serverSide:
		text = fmt.Sprintf("server-side apply failed for object %s/%s %s: %s", ns, name, gvk, msg)
	case created:
		text = msg
	case res.Rejection.Code == 0:
		text = msg
	default:
		text = fmt.Sprintf("cannot patch %q with kind %s: %s", name, kind, msg)
	}
	return text
}

// helmMatching is the first object of list with obj's group, kind, namespace and name
// (kube.ResourceList.Get), nil when there is none.
func helmMatching(list []map[string]any, obj map[string]any) map[string]any {
	g, _ := splitAPIVersion(obj)
	k, _ := obj["kind"].(string)
	ns, name := nsName(obj)
	for _, o := range list {
		og, _ := splitAPIVersion(o)
		ok, _ := o["kind"].(string)
		ons, oname := nsName(o)
		if og == g && ok == k && ons == ns && oname == name {
			return o
		}
	}
	return nil
}

// helmContainsExactly reports whether list has an object of obj's apiVersion (group and
// version), kind, namespace and name: how an upgrade tells an object it creates.
func helmContainsExactly(list []map[string]any, obj map[string]any) bool {
	av, _ := obj["apiVersion"].(string)
	k, _ := obj["kind"].(string)
	ns, name := nsName(obj)
	for _, o := range list {
		oav, _ := o["apiVersion"].(string)
		ok, _ := o["kind"].(string)
		ons, oname := nsName(o)
		if oav == av && ok == k && ons == ns && oname == name {
			return true
		}
	}
	return false
}

func splitAPIVersion(obj map[string]any) (group, version string) {
	av, _ := obj["apiVersion"].(string)
	if g, v, ok := strings.Cut(av, "/"); ok {
		return g, v
	}
	return "", av
}
