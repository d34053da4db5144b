package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/pflag"
	"github.com/ssa-diff/ssa-diff/internal/atomicfile"
	"github.com/ssa-diff/ssa-diff/internal/cluster"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
)

// This file holds where the live state comes from and how far it can be trusted: read
// from the cluster (package cluster), or a dump given as LIVE, which may be incomplete,
// made without managedFields, or silent about namespaces.

// liveOptions are the command line's settings of the live state.
type liveOptions struct {
	fromCluster    bool
	kubeconfig     string
	context        string
	requestTimeout string
	saveLive       string
	// allowNoManagedFields predicts against a dump that carries no managedFields at all.
	allowNoManagedFields bool
	// namespaceSet: -n was given.
	namespaceSet bool
}

var liveArgNames = map[string]string{"kubeconfig": "PATH", "context": "NAME", "request-timeout": "DURATION", "save-live": "FILE"}

// addLiveFlags defines the flags of the live state.
func (c *options) addLiveFlags(fs *pflag.FlagSet) {
	l := &c.liveOpts
	fs.BoolVar(&l.fromCluster, "live-from-cluster", false, "Read the live state from the cluster (kubectl's kubeconfig, context and credentials; get and list permissions are enough) instead of a LIVE file. The default of `kubectl ssa-diff` without LIVE.")
	fs.StringVar(&l.kubeconfig, "kubeconfig", "", "With --live-from-cluster: the kubeconfig file (default: KUBECONFIG, else ~/.kube/config, else the pod's own configuration).")
	fs.StringVar(&l.context, "context", "", "With --live-from-cluster: the kubeconfig context (default: the current context).")
	fs.StringVar(&l.requestTimeout, "request-timeout", cluster.DefaultRequestTimeout, "With --live-from-cluster: how long each request to the cluster may take, its retries included (1s, 2m, 3h; more than 0: a server that never answers must not hang the run).")
	fs.StringVar(&l.saveLive, "save-live", "", "With --live-from-cluster: write what was read to FILE (a v1 List, all at once: an interrupted run leaves the previous FILE) and predict from it: given as LIVE, it predicts the same again offline.")
	fs.BoolVar(&l.allowNoManagedFields, "allow-missing-managed-fields", false, "Predict against a LIVE dump (a List, or several objects) in which no object carries metadata.managedFields (made without kubectl get --show-managed-fields) as if nobody owned any field; without it such a dump cannot predict ownership (exit 2).")
}

// checkLive validates the flags of the live state once parsed; prog tells the kubectl
// plugin, which reads the cluster when no LIVE is given.
func (c *options) checkLive(fs *pflag.FlagSet, prog string) error {
	l := &c.liveOpts
	l.namespaceSet = fs.Changed("namespace")
	if !fs.Changed("live-from-cluster") && c.live == "" && strings.HasPrefix(prog, "kubectl ") {
		l.fromCluster = true
	}
	if l.fromCluster && c.live != "" {
		return fmt.Errorf("--live-from-cluster and a LIVE file (%s) exclude each other", c.live)
	}
	if l.fromCluster && c.prune.on && c.applier != "helm" {
		// The read fetches the manifests' objects only: what the applier would prune is
		// not among them, and a preview that finds nothing would be a false all-clear.
		// (Helm's read fetches the objects of the release's revisions too.)
		return fmt.Errorf("--prune needs a LIVE dump of what the applier may prune: --live-from-cluster reads only the objects the manifests name")
	}
	if !l.fromCluster {
		for _, f := range []string{"kubeconfig", "context", "request-timeout", "save-live"} {
			if fs.Changed(f) {
				return fmt.Errorf("--%s reads the cluster: it needs --live-from-cluster", f)
			}
		}
	}
	return nil
}

// readCluster reads the live state of the manifests from the cluster, and returns it as the
// entries of a live-state List (see package cluster), saved to --save-live if asked.
// The registry returned is reg, or the registry of the cluster's minor when the run learns
// it from the cluster (kubeVersionFor).
func (c *invocation) readCluster(ctx context.Context, loader *input.Loader, manifests []input.Entry, reg *schema.Registry) ([]input.Entry, *schema.Registry, error) {
	l := &c.liveOpts
	opts := cluster.Options{Kubeconfig: l.kubeconfig, Context: l.context, RequestTimeout: l.requestTimeout, Warnings: c.stderr,
		MaxBytes: c.limits.MaxInputBytes, BytesBefore: loader.BytesRead(), MaxDocumentBytes: c.limits.MaxDocumentBytes, MaxDepth: c.limits.MaxDepth}
	if l.namespaceSet {
		opts.Namespace = c.namespace
	}
	client, err := cluster.Connect(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("--live-from-cluster: %w", err)
	}
	info, err := client.ServerVersion(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("--live-from-cluster: %w", err)
	}
	where := client.Host
	if client.Context != "" {
		where += ", context " + client.Context
	}
	v, err := c.kubeVersionFor(info.GitVersion, "the cluster ("+where+")")
	if err != nil {
		return nil, nil, fmt.Errorf("--live-from-cluster: %w", err)
	}
	if v != reg.Minor() {
		if reg, err = c.registryFor(v); err != nil {
			return nil, nil, err
		}
	}

	var refs []cluster.Ref
	defined := map[[2]string]bool{} // group, kind of the manifests' CRDs
	for _, e := range manifests {
		if e.Object == nil {
			continue
		}
		av, kind, ns, name := e.Object.Meta()
		if av == "" || kind == "" || name == "" {
			continue // not identified: Match says why
		}
		refs = append(refs, cluster.Ref{APIVersion: av, Kind: kind, Namespace: ns, Name: name})
		if isCRD(e.Object.Object) {
			spec, _ := e.Object.Object["spec"].(map[string]any)
			names, _ := spec["names"].(map[string]any)
			g, _ := spec["group"].(string)
			k, _ := names["kind"].(string)
			defined[[2]string{g, k}] = true
		}
	}
	// What the registry knows so far: the built-in kinds and those of --crd.
	known := func(g, k string) (t *schema.Type) {
		for _, gvk := range reg.Versions(g, k) {
			if t, ok := reg.Lookup(gvk); ok {
				return t
			}
		}
		return nil
	}
	var helmRecords []json.RawMessage
	if c.applier == "helm" {
		var more []cluster.Ref
		if helmRecords, more, err = c.helmClusterRecords(ctx, client); err != nil {
			return nil, nil, err
		}
		refs = append(refs, more...)
	}
	res, err := client.Read(ctx, refs, cluster.ReadOptions{
		HasSchema: func(g, v, k string) bool { return known(g, k) != nil },
		Scope: func(g, v, k string) (bool, bool) {
			if t := known(g, k); t != nil && t.Resource != "" {
				return t.Namespaced, true
			}
			return false, false
		},
		// A kind the cluster does not serve yet, defined by a CRD given here: none of its
		// objects can exist.
		DefinedHere: func(g, k string) bool {
			t := known(g, k)
			return defined[[2]string{g, k}] || t != nil && t.Source == schema.SourceCRD
		},
	})
	if err != nil {
		return nil, nil, fmt.Errorf("--live-from-cluster: %w", err)
	}
	if !c.admission.none {
		if err := c.readAdmissionCluster(ctx, client, where); err != nil {
			return nil, nil, err
		}
	}
	rec := res.Record(client.Context, info.GitVersion, client.Namespace)
	data, err := cluster.ListJSON(rec, append(res.Objects(), helmRecords...))
	if err != nil {
		return nil, nil, err
	}
	n := len(res.Objects())
	fmt.Fprintf(c.stderr, "live state: %s, Kubernetes %s: %d object%s read, %d not found, %d not readable (%d GET, %d LIST)\n",
		where, info.GitVersion, n, plural(n), len(rec.NotFound), len(rec.Errors), res.Gets, res.Lists)

	name := "cluster:" + client.Context
	if client.Context == "" {
		name = "cluster:in-cluster"
	}
	if l.saveLive != "" {
		name = l.saveLive
	}
	entries := loader.LoadReader(name, bytes.NewReader(data))
	if l.saveLive != "" {
		// What this run cannot read back is not written: a later run would not either.
		for _, e := range entries {
			if e.Err != nil {
				return nil, nil, fmt.Errorf("--save-live %s: not written: what was read from the cluster cannot be read back: %w", l.saveLive, e.Err)
			}
		}
		// All at once: a run stopped while writing leaves the previous file, or none.
		if err := atomicfile.WriteFile(l.saveLive, data, 0o600); err != nil {
			return nil, nil, fmt.Errorf("--save-live: %w", err)
		}
		return entries, reg, nil
	}
	for _, e := range entries {
		if e.Object != nil {
			e.Object.Source.Line = 0 // lines of a document nobody sees
		}
	}
	return entries, reg, nil
}

// takeRecord removes the record of a cluster read from the live objects, and returns it;
// the objects come back without it even when it cannot be read.
func takeRecord(live []*input.Object) (*cluster.Record, []*input.Object, error) {
	var rec *cluster.Record
	var firstErr error
	out := live[:0:0]
	for _, o := range live {
		av, kind, _, _ := o.Meta()
		if !cluster.IsRecord(av, kind) {
			out = append(out, o)
			continue
		}
		if rec != nil || firstErr != nil {
			if firstErr == nil {
				firstErr = o.Errorf("", "a second %s in the live input: give one cluster read at a time", cluster.RecordKind)
			}
			continue
		}
		obj, err := o.Decode()
		if err == nil {
			rec, err = cluster.DecodeRecord(obj)
		}
		if err != nil {
			firstErr = o.Errorf("", "%v", err)
		}
	}
	if firstErr != nil {
		return nil, out, firstErr
	}
	return rec, out, nil
}

// liveState is what the live input says beyond its objects.
type liveState struct {
	given  bool            // a LIVE dump or a cluster read
	record *cluster.Record // the record of a cluster read, or nil
	objs   []*input.Object
}

// scope is how the cluster read serves a kind, when it says.
func (s *liveState) scope(gvk schema.GVK) (namespaced, known bool) {
	if s.record == nil {
		return false, false
	}
	for _, r := range s.record.Resources {
		if r.Kind == gvk.Kind && r.Group() == gvk.Group {
			return r.Namespaced, true
		}
	}
	return false, false
}

// judgeLive applies what the live input says to the pairs (predict.Evidence judges it), and
// says where it cannot be trusted: creates without evidence, namespaces assumed, ownership
// without managedFields (a dump in which no object carries them cannot predict ownership:
// its objects are errors).
func (c *invocation) judgeLive(pairs []input.Pair, ls *liveState, reg *schema.Registry) {
	if !ls.given {
		if len(pairs) > 0 {
			c.warnf("no live state given (a LIVE file, or --live-from-cluster): every object is predicted as a create")
		}
		return
	}
	ev := liveEvidence(ls, c.liveOpts.namespaceSet)
	var targets []predict.Target
	for _, p := range pairs {
		if p.Err != nil {
			targets = append(targets, predict.Target{})
			continue
		}
		_, _, ns, _ := p.Manifest.Meta()
		targets = append(targets, predict.Target{ID: predict.Identity(p.ID), NamesNamespace: ns != "", HasLive: p.Live != nil})
	}
	trusts := ev.Judge(targets)
	refused := ev.NoOwnership() && !c.liveOpts.allowNoManagedFields
	unowned := 0
	for i := range pairs {
		p, tr := &pairs[i], trusts[i]
		if p.Err != nil {
			continue
		}
		if tr.Unreadable {
			p.Err = p.Manifest.Errorf("", "%s", tr.Note)
			continue
		}
		if tr.NamespaceAssumed {
			p.Warnings = append(p.Warnings, fmt.Sprintf(
				"the manifest names no namespace: predicted in namespace %q (-n); kubectl would apply it to the namespace of its context", p.ID.Namespace))
		}
		switch {
		case tr.NotFound && tr.Note != "":
			p.Warnings = append(p.Warnings, tr.Note)
		case tr.WithoutEvidence && p.ID.Name == "":
			// A create naming only a generateName makes a new object whatever exists
			// (rules.md create.generate-name): the live input need not say anything.
		case tr.WithoutEvidence:
			p.Warnings = append(p.Warnings, fmt.Sprintf(
				"predicted as a create without evidence: the live input holds no %s at all%s, so it may just not have been dumped; read the live state from the cluster (--live-from-cluster), or dump it: %s",
				kindOf(p.ID), inNamespace(p.ID.Namespace), getCommand(p.GVK, p.ID, reg)))
		case tr.NoOwnership && refused:
			p.Err = p.Manifest.Errorf("", "cannot predict ownership: no object of the live input carries metadata.managedFields, which kubectl get hides unless asked: %s (or --allow-missing-managed-fields to predict as if nobody owned any field)",
				getCommand(p.Live.GVK(), p.ID, reg))
		case tr.Unowned:
			unowned++
			p.Warnings = append(p.Warnings, fmt.Sprintf(
				"the live object (%s) has no metadata.managedFields, so every field looks unowned and conflicts cannot be predicted; kubectl get hides them unless asked: %s",
				p.Live.Source, getCommand(p.Live.GVK(), p.ID, reg)))
		}
	}
	switch {
	case refused:
		c.warnf("no live object carries metadata.managedFields: ownership and conflicts cannot be predicted (exit 2). Get live objects with `kubectl get ... -o json --show-managed-fields`, read them from the cluster (--live-from-cluster), or pass --allow-missing-managed-fields.")
	case unowned > 0:
		c.warnf("%d live object%s without metadata.managedFields: ownership and conflicts cannot be predicted for %s. Get live objects with `kubectl get ... -o json --show-managed-fields`.",
			unowned, plural(unowned), map[bool]string{true: "it", false: "them"}[unowned == 1])
	}
}

// liveEvidence is what the live state is evidence of (predict.Evidence): its objects, the
// cluster read's record of what it found absent or could not read, whether it is a dump.
func liveEvidence(ls *liveState, namespaceGiven bool) predict.Evidence {
	// A dump is a List, or several objects; a single object says nothing of the namespace
	// it was read from. Without managedFields, either was most likely printed without them
	// (an object nobody tracks is rare: --allow-missing-managed-fields predicts it so).
	ev := predict.Evidence{Read: ls.record != nil, NamespaceGiven: namespaceGiven,
		Dump: len(ls.objs) != 1 || ls.objs[0].Source.Item != nil}
	for _, o := range ls.objs {
		av, kind, ns, name := o.Meta()
		g := schema.GVKFromAPIVersionKind(av, kind).Group
		ev.Objects = append(ev.Objects, predict.Identity{Group: g, Kind: kind, Namespace: ns, Name: name})
		ev.Managed = ev.Managed || o.HasManagedFields()
	}
	if rec := ls.record; rec != nil {
		ev.NotFound, ev.Unreadable = map[predict.Identity]string{}, map[predict.Identity]string{}
		for _, o := range rec.NotFound {
			ev.NotFound[predict.Identity(o.Identity())] = o.Message
		}
		for _, o := range rec.Errors {
			ev.Unreadable[predict.Identity(o.Identity())] = o.Message
		}
	}
	return ev
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func kindOf(id input.Identity) string {
	if id.Group == "" {
		return id.Kind
	}
	return id.Kind + "." + id.Group
}

func inNamespace(ns string) string {
	if ns == "" {
		return ""
	}
	return fmt.Sprintf(" in namespace %q", ns)
}

// getCommand is the kubectl command that prints an object with its managedFields.
func getCommand(gvk schema.GVK, id input.Identity, reg *schema.Registry) string {
	res := strings.ToLower(gvk.Kind)
	if t, ok := reg.Lookup(gvk); ok && t.Resource != "" {
		res = t.Resource
	}
	if gvk.Group != "" {
		res += "." + gvk.Group
	}
	cmd := "kubectl get " + res
	if id.Name != "" {
		cmd += " " + id.Name
	}
	if id.Namespace != "" {
		cmd += " -n " + id.Namespace
	}
	return cmd + " -o json --show-managed-fields"
}

// recordedServer is the version of the cluster a live dump was read from, when the dump
// holds the record of a cluster read (--save-live writes one), and where that dump is.
func recordedServer(live []input.Entry) (server, where string) {
	for _, e := range live {
		if e.Object == nil {
			continue
		}
		if av, kind, _, _ := e.Object.Meta(); !cluster.IsRecord(av, kind) {
			continue
		}
		obj, err := e.Object.Decode()
		if err != nil {
			return "", ""
		}
		rec, err := cluster.DecodeRecord(obj)
		if err != nil || rec.ServerVersion == "" {
			return "", ""
		}
		where := "the cluster the live state " + e.Object.Source.File + " was read from"
		if rec.Context != "" {
			where += " (context " + rec.Context + ")"
		}
		return rec.ServerVersion, where
	}
	return "", ""
}
