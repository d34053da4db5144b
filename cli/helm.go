package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/cluster"
	"github.com/ssa-diff/ssa-diff/internal/helmrelease"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/schema"
)

// This file wires --applier helm into the command: Helm's flags, the release's records
// read from the live state (a dump, or listed from the cluster), a rollback's manifests
// taken from its target revision, and the whole command predicted once
// (appliers.RunHelm) before the objects are reported one by one.

// helmOptions are Helm's flags.
type helmOptions struct {
	command, release, serverSide, driver string
	dryRun                               string
	takeOwnership, install, skipCRDs     bool
	revision                             int
}

// checkHelm validates Helm's flags once parsed (its Kind's options, whose values checkGate
// checks), and reads them.
func (c *options) checkHelm(fs *pflag.FlagSet) error {
	h := &c.helm
	helm, _ := appliers.KindOf(appliers.HelmApplier)
	if c.applier != helm.Name {
		for _, o := range helm.Options {
			switch {
			case !fs.Changed(o.Name):
			case o.Others == nil:
				return fmt.Errorf("--%s is Helm's (--applier helm)", o.Name)
			default: // an option the other appliers take (kubectl's --server-side)
				if err := o.Others(c.helmValue(o.Name)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	value := c.helmValue
	h.command, h.release, h.serverSide, h.driver, h.dryRun = value("helm-command"), value("helm-release"), value("server-side"), value("helm-driver"), value("helm-dry-run")
	h.takeOwnership, h.install, h.skipCRDs = value("take-ownership") == "true", value("helm-install") == "true", value("skip-crds") == "true"
	for _, o := range helm.Options {
		if err := o.CheckOption(value(o.Name)); err != nil {
			return err
		}
	}
	h.revision, _ = strconv.Atoi(value("helm-revision"))
	if h.release == "" {
		return fmt.Errorf("--applier helm needs --helm-release NAME")
	}
	d, err := appliers.HelmDryRunStrategy(h.dryRun)
	if err != nil {
		return fmt.Errorf("--helm-dry-run: %w", err)
	}
	h.dryRun = d
	if c.subresource != "" {
		return fmt.Errorf("--subresource: Helm applies objects, not subresources")
	}
	if fs.Changed("field-manager") {
		return fmt.Errorf("--field-manager: Helm's field manager is always %s", appliers.HelmManager)
	}
	return nil
}

// helmRollback reports a rollback, whose manifests are its target revision's.
// It reads the flag itself: the command line's arguments are checked before Helm's flags.
func (c *options) helmRollback() bool {
	return c.applier == appliers.HelmApplier && c.helmValue("helm-command") == string(appliers.HelmRollback)
}

// helmValue is the value of one of Helm's flags (its Kind's options); "" when not defined.
func (c *options) helmValue(name string) string {
	get, ok := c.gate.applierFlags[name]
	if !ok {
		return ""
	}
	v := get()
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// helmDriverKind is the kind of the release's records.
func (c *options) helmDriverKind() (kind, resource string) {
	if strings.HasPrefix(c.helm.driver, "configmap") {
		return "ConfigMap", "configmaps"
	}
	return "Secret", "secrets"
}

// helmHistory is the release's history among the live objects.
func (c *session) helmHistory(objs []*input.Object, reg *schema.Registry) ([]appliers.HelmRevision, error) {
	kind, _ := c.helmDriverKind()
	var decoded []map[string]any
	prefix := "sh.helm.release.v1." + c.helm.release + ".v"
	for _, o := range objs {
		av, k, ns, name := o.Meta()
		if av != "v1" || k != kind || ns != c.namespace || !strings.HasPrefix(name, prefix) {
			continue
		}
		obj, err := o.Decode()
		if err != nil {
			return nil, err
		}
		decoded = append(decoded, obj)
	}
	h, skipped := helmrelease.Find(decoded, kind, c.helm.release, c.namespace)
	for _, s := range skipped {
		c.warnf("the release record %s cannot be read, and Helm skips it too: %v", s.Key, s.Err)
	}
	if len(h) == 0 && c.helm.command != "install" {
		c.warnf("no record of the release %q in namespace %q in the live state (%ss labelled owner=helm,name=%s): Helm would find none", c.helm.release, c.namespace, kind, c.helm.release)
	}
	return helmrelease.Revisions(h, reg)
}

// helmOptionsFor are the command's options with the release's history.
func (c *session) helmOptionsFor(history []appliers.HelmRevision) appliers.HelmOptions {
	h := c.helm
	return appliers.HelmOptions{Command: appliers.HelmCommand(h.command), Release: h.release, Namespace: c.namespace,
		ServerSide: h.serverSide, ForceConflicts: c.force, TakeOwnership: h.takeOwnership, Install: h.install,
		SkipCRDs: h.skipCRDs, Revision: h.revision, History: history, DryRun: h.dryRun}
}

// helmRollbackManifests are the objects of the revision a rollback goes back to, read as
// manifests (each at the template its `# Source:` comment names).
func (c *session) helmRollbackManifests(loader *input.Loader, live []input.Entry, reg *schema.Registry) ([]input.Entry, error) {
	objs, _ := input.Split(live)
	history, err := c.helmHistory(objs, reg)
	if err != nil {
		return nil, err
	}
	p, err := appliers.PlanHelm(c.helmOptionsFor(history))
	if err != nil {
		return nil, err
	}
	h, _ := helmrelease.Find(decodedRecords(objs, c.options), helmRecordKind(c.options), c.helm.release, c.namespace)
	rec := h.Revision(p.Target.Version)
	if rec == nil {
		return nil, fmt.Errorf("the record of revision %d is not in the live state", p.Target.Version)
	}
	loader.SourceComments = true
	defer func() { loader.SourceComments = false }()
	name := fmt.Sprintf("release %s revision %d", c.helm.release, rec.Version)
	return loader.ParseRendered(name, []byte(rec.Manifest)), nil
}

func helmRecordKind(c *options) string {
	k, _ := c.helmDriverKind()
	return k
}

// decodedRecords are the live objects that may be the release's records, decoded.
func decodedRecords(objs []*input.Object, c *options) []map[string]any {
	kind, _ := c.helmDriverKind()
	var out []map[string]any
	for _, o := range objs {
		av, k, _, _ := o.Meta()
		if av != "v1" || k != kind {
			continue
		}
		if obj, err := o.Decode(); err == nil {
			out = append(out, obj)
		}
	}
	return out
}

// runHelm predicts the whole Helm command once, and makes the run's applier answer for
// each object from it.
func (c *session) runHelm(eng predictor, reg *schema.Registry, pairs []input.Pair, objs []*input.Object) error {
	e, ok := eng.(engine)
	if !ok {
		return errors.New("--applier helm needs the engine")
	}
	history, err := c.helmHistory(objs, reg)
	if err != nil {
		return err
	}
	var targets []appliers.HelmTarget
	for _, p := range pairs {
		if p.Err != nil {
			continue
		}
		obj, err := p.Manifest.Decode()
		if err != nil {
			continue
		}
		t := appliers.HelmTarget{Object: obj}
		if p.Manifest.Source.Via == "helm template" || strings.HasPrefix(p.Manifest.Source.File, "release ") {
			t.CRDFile = helmrelease.CRDFile(filepath.ToSlash(p.Manifest.Source.File))
		}
		targets = append(targets, t)
	}
	live := func(group, kind, ns, name string) map[string]any {
		for _, o := range objs {
			gvk := o.GVK()
			_, _, ons, oname := o.Meta()
			if gvk.Group == group && gvk.Kind == kind && ons == ns && oname == name {
				if obj, err := o.Decode(); err == nil {
					return obj
				}
			}
		}
		return nil
	}
	out, err := appliers.RunHelm(e.Engine, reg, c.helmOptionsFor(history), targets, live, c.now)
	if err != nil {
		return err
	}
	if out.Err != nil {
		c.warnf("helm would fail: Error: %s", out.Err.Message)
	} else if out.WithoutDryRun != nil {
		fmt.Fprintf(c.stderr, "helm %s %s --dry-run=%s: no write, no revision recorded\n", out.Plan.Command, c.helm.release, c.helm.dryRun)
		if real := out.WithoutDryRun; real.Err != nil {
			c.warnf("without --dry-run, helm would fail: Error: %s", real.Err.Message)
		} else if real.Plan != nil {
			method := map[bool]string{true: "server-side", false: "client-side"}[real.Plan.ServerSide]
			fmt.Fprintf(c.stderr, "without --dry-run, helm %s %s would record revision %d, applied %s, and delete %d object(s)\n", real.Plan.Command, c.helm.release, real.Plan.NewRevision, method, deletedCount(real))
		}
	} else if out.Plan != nil {
		method := map[bool]string{true: "server-side", false: "client-side"}[out.Plan.ServerSide]
		fmt.Fprintf(c.stderr, "helm %s %s: revision %d, applied %s\n", out.Plan.Command, c.helm.release, out.Plan.NewRevision, method)
	}
	for _, d := range out.Deleted {
		if d.Kept {
			_, ns, name := objectMeta(d.Object)
			c.warnf("%s %s/%s: %s", d.Object["kind"], ns, name, d.Why)
		}
	}
	c.client = appliers.HelmApply{Outcome: out, Schemas: reg}
	return nil
}

// deletedCount is how many objects the command deletes.
func deletedCount(out *appliers.HelmOutcome) int {
	n := 0
	for _, d := range out.Deleted {
		if !d.Kept {
			n++
		}
	}
	return n
}

// helmClusterRecords lists the release's records from the cluster, and the objects of the
// revisions the command reads (the one it starts from; a rollback's target) that the
// manifests do not name, to be read too.
func (c *session) helmClusterRecords(ctx context.Context, client *cluster.Client) ([]json.RawMessage, []cluster.Ref, error) {
	kind, resource := c.helmDriverKind()
	ns := c.namespace
	if !c.liveOpts.namespaceSet && client.Namespace != "" {
		ns = client.Namespace
	}
	recs, err := client.ListLabeled(ctx, resource, kind, ns, "owner=helm,name="+c.helm.release)
	if err != nil {
		return nil, nil, fmt.Errorf("--live-from-cluster: the release's records: %w", err)
	}
	var decoded []map[string]any
	for _, r := range recs {
		var m map[string]any
		if err := json.Unmarshal(r, &m); err == nil {
			decoded = append(decoded, m)
		}
	}
	h, _ := helmrelease.Find(decoded, kind, c.helm.release, ns)
	var refs []cluster.Ref
	add := func(r *helmrelease.Record) {
		if r == nil {
			return
		}
		objs, err := helmrelease.Objects(r.Manifest)
		if err != nil {
			return
		}
		for _, o := range objs {
			av, _ := o.Object["apiVersion"].(string)
			k, _ := o.Object["kind"].(string)
			_, ons, name := objectMeta(o.Object)
			if ons == "" {
				ons = ns
			}
			refs = append(refs, cluster.Ref{APIVersion: av, Kind: k, Namespace: ons, Name: name})
		}
	}
	last := h.Last()
	add(last)
	add(h.Deployed())
	if c.helmRollback() && last != nil {
		v := c.helm.revision
		if v == 0 {
			v = last.Version - 1
		}
		add(h.Revision(v))
	}
	return recs, refs, nil
}

// objectMeta is an object's apiVersion, namespace and name.
func objectMeta(obj map[string]any) (apiVersion, namespace, name string) {
	apiVersion, _ = obj["apiVersion"].(string)
	md, _ := obj["metadata"].(map[string]any)
	namespace, _ = md["namespace"].(string)
	name, _ = md["name"].(string)
	return
}
