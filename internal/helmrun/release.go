package helmrun

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/cluster"
	"github.com/ssa-diff/ssa-diff/internal/helmrelease"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/schema"
)

// A Release is a Helm release as the command's flags name it, and the Helm command run on it.
type Release struct {
	// Name and Namespace are the release's (--helm-release, the run's namespace); Driver is
	// --helm-driver (its records are ConfigMaps when it starts with "configmap", else
	// Secrets).
	Name, Namespace, Driver string
	// Command is Helm's command and its options (appliers.HelmOptions: their Release,
	// Namespace and History are filled in here).
	Command appliers.HelmOptions
}

// A Message is something Helm would say of the command: a warning, or a line of its own.
type Message struct {
	Warning bool
	Text    string
}

// Say prints what Helm would say on w: the warnings as "warning: " lines, its own lines as
// they are.
func Say(w io.Writer, msgs []Message) {
	for _, m := range msgs {
		if m.Warning {
			fmt.Fprintf(w, "warning: %s\n", m.Text)
		} else {
			fmt.Fprintln(w, m.Text)
		}
	}
}

// RecordKind is the kind of the release's records, and its resource.
func (r Release) RecordKind() (kind, resource string) {
	if strings.HasPrefix(r.Driver, "configmap") {
		return "ConfigMap", "configmaps"
	}
	return "Secret", "secrets"
}

// rollback reports a rollback, whose manifests are its target revision's.
func (r Release) rollback() bool { return r.Command.Command == appliers.HelmRollback }

// History is the release's history among the live objects, with warnings of the records
// Helm would skip, or of a release without one.
func (r Release) History(objs []*input.Object, reg *schema.Registry) ([]appliers.HelmRevision, []Message, error) {
	kind, _ := r.RecordKind()
	var decoded []map[string]any
	prefix := "sh.helm.release.v1." + r.Name + ".v"
	for _, o := range objs {
		av, k, ns, name := o.Meta()
		if av != "v1" || k != kind || ns != r.Namespace || !strings.HasPrefix(name, prefix) {
			continue
		}
		obj, err := o.Decode()
		if err != nil {
			return nil, nil, err
		}
		decoded = append(decoded, obj)
	}
	h, skipped := helmrelease.Find(decoded, kind, r.Name, r.Namespace)
	var msgs []Message
	for _, s := range skipped {
		msgs = append(msgs, Message{Warning: true, Text: fmt.Sprintf("the release record %s cannot be read, and Helm skips it too: %v", s.Key, s.Err)})
	}
	if len(h) == 0 && r.Command.Command != "install" {
		msgs = append(msgs, Message{Warning: true, Text: fmt.Sprintf("no record of the release %q in namespace %q in the live state (%ss labelled owner=helm,name=%s): Helm would find none", r.Name, r.Namespace, kind, r.Name)})
	}
	history, err := helmrelease.Revisions(h, reg)
	return history, msgs, err
}

// options are the command's options with the release's history.
func (r Release) options(history []appliers.HelmRevision) appliers.HelmOptions {
	o := r.Command
	o.Release, o.Namespace, o.History = r.Name, r.Namespace, history
	return o
}

// RollbackManifests are the objects of the revision a rollback goes back to, read as
// manifests (each at the template its `# Source:` comment names).
func (r Release) RollbackManifests(loader *input.Loader, live []input.Entry, reg *schema.Registry) ([]input.Entry, []Message, error) {
	objs, _ := input.Split(live)
	history, msgs, err := r.History(objs, reg)
	if err != nil {
		return nil, msgs, err
	}
	p, err := appliers.PlanHelm(r.options(history))
	if err != nil {
		return nil, msgs, err
	}
	kind, _ := r.RecordKind()
	h, _ := helmrelease.Find(r.decodedRecords(objs), kind, r.Name, r.Namespace)
	rec := h.Revision(p.Target.Version)
	if rec == nil {
		return nil, msgs, fmt.Errorf("the record of revision %d is not in the live state", p.Target.Version)
	}
	loader.SourceComments = true
	defer func() { loader.SourceComments = false }()
	name := fmt.Sprintf("release %s revision %d", r.Name, rec.Version)
	return loader.ParseRendered(name, []byte(rec.Manifest)), msgs, nil
}

// decodedRecords are the live objects that may be the release's records, decoded.
func (r Release) decodedRecords(objs []*input.Object) []map[string]any {
	kind, _ := r.RecordKind()
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

// Run predicts the whole Helm command once, on the manifests of pairs and the live objects
// objs, and returns the applier that answers for each object from it, with what Helm would
// say, in order.
func (r Release) Run(eng *merge.Engine, reg *schema.Registry, pairs []input.Pair, objs []*input.Object, now time.Time) (appliers.HelmApply, []Message, error) {
	history, msgs, err := r.History(objs, reg)
	if err != nil {
		return appliers.HelmApply{}, msgs, err
	}
	out, err := appliers.RunHelm(eng, reg, r.options(history), targets(pairs), liveLookup(objs), now)
	if err != nil {
		return appliers.HelmApply{}, msgs, err
	}
	msgs = append(msgs, r.outcomeMessages(out)...)
	return appliers.HelmApply{Outcome: out, Schemas: reg}, msgs, nil
}

// targets are the objects the command applies: the pairs' manifests, each with its CRD
// file when it comes from a chart.
func targets(pairs []input.Pair) []appliers.HelmTarget {
	var out []appliers.HelmTarget
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
		out = append(out, t)
	}
	return out
}

// liveLookup finds a live object by group, kind, namespace and name.
func liveLookup(objs []*input.Object) func(group, kind, ns, name string) map[string]any {
	return func(group, kind, ns, name string) map[string]any {
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
}

// outcomeMessages are what Helm would say of the command's outcome.
func (r Release) outcomeMessages(out *appliers.HelmOutcome) []Message {
	var msgs []Message
	say := func(warning bool, format string, args ...any) {
		msgs = append(msgs, Message{Warning: warning, Text: fmt.Sprintf(format, args...)})
	}
	methods := map[bool]string{true: "server-side", false: "client-side"}
	switch {
	case out.Err != nil:
		say(true, "helm would fail: Error: %s", out.Err.Message)
	case out.WithoutDryRun != nil:
		say(false, "helm %s %s --dry-run=%s: no write, no revision recorded", out.Plan.Command, r.Name, r.Command.DryRun)
		if real := out.WithoutDryRun; real.Err != nil {
			say(true, "without --dry-run, helm would fail: Error: %s", real.Err.Message)
		} else if real.Plan != nil {
			say(false, "without --dry-run, helm %s %s would record revision %d, applied %s, and delete %d object(s)", real.Plan.Command, r.Name, real.Plan.NewRevision, methods[real.Plan.ServerSide], deletedCount(real))
		}
	case out.Plan != nil:
		say(false, "helm %s %s: revision %d, applied %s", out.Plan.Command, r.Name, out.Plan.NewRevision, methods[out.Plan.ServerSide])
	}
	for _, d := range out.Deleted {
		if d.Kept {
			_, ns, name := objectMeta(d.Object)
			say(true, "%s %s/%s: %s", d.Object["kind"], ns, name, d.Why)
		}
	}
	return msgs
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

// ClusterRecords lists the release's records from the cluster, and the objects of the
// revisions the command reads (the one it starts from; a rollback's target) that the
// manifests do not name, to be read too. namespaceSet: the release's namespace was given
// (else the client's is the release's, when it has one).
func (r Release) ClusterRecords(ctx context.Context, client *cluster.Client, namespaceSet bool) ([]json.RawMessage, []cluster.Ref, error) {
	kind, resource := r.RecordKind()
	ns := r.Namespace
	if !namespaceSet && client.Namespace != "" {
		ns = client.Namespace
	}
	recs, err := client.ListLabeled(ctx, resource, kind, ns, "owner=helm,name="+r.Name)
	if err != nil {
		return nil, nil, fmt.Errorf("--live-from-cluster: the release's records: %w", err)
	}
	var decoded []map[string]any
	for _, rec := range recs {
		var m map[string]any
		if err := json.Unmarshal(rec, &m); err == nil {
			decoded = append(decoded, m)
		}
	}
	h, _ := helmrelease.Find(decoded, kind, r.Name, ns)
	var refs []cluster.Ref
	add := func(rec *helmrelease.Record) {
		if rec == nil {
			return
		}
		objs, err := helmrelease.Objects(rec.Manifest)
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
	if r.rollback() && last != nil {
		v := r.Command.Revision
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
