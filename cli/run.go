package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
)

// slot is one result to print: a manifest to predict, or input that could not be read.
type slot struct {
	pair   *input.Pair    // nil for an error or a prune
	pruned *report.Result // a live object the applier prunes
	err    error
	src    input.Source
	res    *report.Result
	body   map[string]any // the manifest's tree, while it is predicted and judged
	done   chan struct{}
}

func (c *invocation) warnf(format string, args ...any) {
	fmt.Fprintf(c.stderr, "warning: "+format+"\n", args...)
}

func (c *invocation) errorf(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "error: "+format+"\n", args...)
	return report.ExitError
}

// execute predicts every manifest and prints the report; it returns the exit status. When
// ctx ends (SIGINT), it stops and writes nothing more. newPredictor makes the engine of the
// run's schemas, whose Version is the minor predicted.
func (c *invocation) execute(ctx context.Context, newPredictor func(*schema.Registry) predictor) int {
	if c.getenv != nil {
		if restore := readingGC(c.getenv); restore != nil {
			defer restore()
		}
	}
	defer func() {
		for _, closer := range c.closers {
			_ = closer()
		}
	}()
	loader := &input.Loader{Stdin: c.stdin, Limits: c.limits}
	if err := c.readAdmissionFiles(); err != nil {
		return c.errorf("%v", err)
	}
	v, _ := c.kubeVersionFor("", "")
	reg, err := schema.NewRegistry(v)
	if err != nil {
		return c.errorf("%v", err)
	}
	if err := c.loadSchemas(reg, loader); err != nil {
		return c.errorf("%v", err)
	}
	if err := c.loadCRDs(reg, loader); err != nil {
		return c.errorf("%v", err)
	}

	// Objects are kept as text, and each is decoded by the prediction that uses it: a
	// run holds a few trees at a time, not all of them.
	loader.DeferDecoding = true
	var live []input.Entry
	var manifests []input.Entry
	switch {
	case c.verbs.named():
		manifests = c.commandManifests(reg)
	default:
		if c.verbs.v == merge.VerbPatch {
			c.manifests = c.splitPatches(loader)
		}
		// A raw request's body is read as the server reads it.
		loader.RequestBodies = c.applier == "api" && c.verbs.cmd == nil
		manifests = c.loadManifests(loader)
		loader.RequestBodies = false
		var err error
		if manifests, err = c.withoutEmptyFiles(manifests); err != nil {
			return c.errorf("%v", err)
		}
	}
	if c.live != "" || c.liveOpts.fromCluster {
		// Field lines are asked of manifests only: a dump's text need not be kept; its
		// managedFields are kept as text.
		loader.NoFieldLines, loader.CompactManagedFields = true, true
		if c.liveOpts.fromCluster {
			var err error
			if live, reg, err = c.readCluster(ctx, loader, manifests, reg); err != nil {
				if ctx.Err() != nil {
					return report.ExitError // interrupted: nothing more to say
				}
				return c.errorf("%v", err)
			}
		} else {
			live = loader.Load(c.live)
			if server, where := recordedServer(live); server != "" {
				v, err := c.kubeVersionFor(server, where)
				if err != nil {
					return c.errorf("%v", err)
				}
				if v != reg.Minor() {
					if reg, err = c.registryFor(v); err != nil {
						return c.errorf("%v", err)
					}
				}
			} else {
				c.nearestUnknown(c.live, reg.Minor())
			}
		}
	} else {
		c.nearestUnknown("", reg.Minor())
	}
	if c.getenv != nil {
		defer tuneGC(c.getenv, loader.BytesRead()).stop()
	}
	if c.helmRollback() {
		if manifests, err = c.helmRollbackManifests(loader, live, reg); err != nil {
			return c.errorf("%v", err)
		}
	}

	// CustomResourceDefinitions among the inputs define kinds: the live ones first, then the
	// manifests' (the state the apply moves to).
	crdWarnings := map[*input.Object]string{}
	for i, entries := range [][]input.Entry{live, manifests} {
		add := reg.AddCRDObject
		if i == 0 {
			add = reg.AddStoredCRDObject // a CRD the cluster holds: read as the server reads it
		}
		for _, e := range entries {
			if e.Object != nil && isCRDKind(e.Object.GVK()) {
				if err := add(e.Object.Source.String(), e.Object.Object); err != nil {
					msg := fmt.Sprintf("the CustomResourceDefinition at %s was not registered: %v", e.Object.Source, err)
					crdWarnings[e.Object] = msg
					c.warnf("%s", msg)
				}
			}
		}
	}

	liveObjs, liveErrs := input.Split(live)
	ls := &liveState{given: c.live != "" || c.liveOpts.fromCluster}
	if ls.record, ls.objs, err = takeRecord(liveObjs); err != nil {
		liveErrs = append(liveErrs, err)
	}
	manifests = append(manifests, c.patchStubs(ls.objs)...)
	manifestObjs, _ := input.Split(manifests)
	if err := c.checkSwapped(manifestObjs, ls); err != nil {
		return c.errorf("%v", err)
	}
	if ls.record != nil && !c.liveOpts.namespaceSet {
		// Objects that name no namespace go where the cluster read put them.
		c.namespace = ls.record.Namespace
		s := c.applierSettings
		s.Namespace = c.namespace
		c.client, _ = c.newApplier(s) // the settings were checked when parsed
	}
	c.judge = &judge.Judge{Schemas: reg, Webhooks: judge.ReadWebhooks(liveObjects(ls.objs))}
	if c.clusterState != nil {
		// The webhooks of the cluster state intercept requests too.
		var hooks []judge.LiveObject
		for _, o := range c.clusterState.Objects() {
			hooks = append(hooks, judge.LiveObject{Object: o.Object, Source: o.Source})
		}
		c.judge.Webhooks = append(c.judge.Webhooks, judge.ReadWebhooks(hooks)...)
	}
	scope := func(gvk schema.GVK) (bool, bool) {
		if n, ok := ls.scope(gvk); ok {
			return n, true
		}
		if t, ok := reg.Lookup(gvk); ok {
			return t.Namespaced, true
		}
		return false, false
	}
	m := input.Match(manifestObjs, ls.objs, scope, c.namespace, c.matchOptions(liveErrs)...)
	for _, w := range m.Warnings {
		c.warnf("%s", w)
	}

	pred := newPredictor(reg)
	if c.applier == "helm" {
		if err := c.runHelm(pred, reg, m.Pairs, ls.objs); err != nil {
			return c.errorf("%v", err)
		}
	}

	var slots []*slot
	next := 0
	for _, e := range manifests {
		s := &slot{done: make(chan struct{})}
		if e.Err != nil {
			s.err, s.src = e.Err, sourceOf(e.Err)
		} else {
			s.pair = &m.Pairs[next]
			s.src = s.pair.Manifest.Source
			if w, ok := crdWarnings[s.pair.Manifest]; ok {
				s.pair.Warnings = append(s.pair.Warnings, w)
			}
			next++
		}
		slots = append(slots, s)
	}
	slots = append(slots, c.pruneSlots(m.Pairs, ls.objs, reg)...)
	c.pruneWarnings()
	for _, err := range append(liveErrs, m.Errors...) {
		slots = append(slots, &slot{err: fmt.Errorf("live object: %w", err), src: sourceOf(err), done: make(chan struct{})})
	}
	c.judgeLive(m.Pairs, ls, reg)
	slots = c.noise.skipSlots(slots)
	slots = c.shardSlots(slots)

	return c.predictAndReport(ctx, pred, reg, slots)
}

func sourceOf(err error) input.Source {
	var ie *input.Error
	if errors.As(err, &ie) {
		return ie.Source
	}
	return input.Source{}
}

func isCRD(obj map[string]any) bool {
	return isCRDKind(schema.GVKOf(obj))
}

func isCRDKind(gvk schema.GVK) bool {
	return gvk.Group == "apiextensions.k8s.io" && gvk.Kind == "CustomResourceDefinition"
}

// loadSchemas reads the --schema OpenAPI documents.
func (c *invocation) loadSchemas(reg *schema.Registry, loader *input.Loader) error {
	for _, p := range c.schemas {
		files, err := filesOf(p)
		if err != nil {
			return fmt.Errorf("--schema %s: %w", p, err)
		}
		for _, f := range files {
			data, err := loader.ReadFile(f)
			if err != nil {
				return fmt.Errorf("--schema: %w", err)
			}
			warnings, err := reg.AddOpenAPI(f, data)
			if err != nil {
				return fmt.Errorf("--schema %s: %w", f, err)
			}
			c.schemaDocs = append(c.schemaDocs, schemaDoc{name: f, data: data})
			for _, w := range warnings {
				c.warnf("%s: %s", f, w)
			}
		}
	}
	return nil
}

// filesOf is p itself, or the schema files (.json, .yaml, .yml) under the directory p.
func filesOf(p string) ([]string, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	var files []string
	err = filepath.WalkDir(p, func(f string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && input.IsManifestFile(f) {
			files = append(files, f)
		}
		return err
	})
	sort.Strings(files)
	return files, err
}

// loadCRDs registers the --crd files' CustomResourceDefinitions.
func (c *invocation) loadCRDs(reg *schema.Registry, loader *input.Loader) error {
	for _, p := range c.crds {
		objs, errs := input.Split(loader.Load(p))
		if len(errs) > 0 {
			return fmt.Errorf("--crd %s: %w", p, errs[0])
		}
		for _, o := range objs {
			if !isCRDKind(o.GVK()) {
				c.warnf("--crd %s: %s is a %s, not a CustomResourceDefinition; ignored", p, o.Source, o.GVK().Kind)
				continue
			}
			// The schema of live objects: the CRD as the server holds it.
			if err := reg.AddStoredCRDObject(o.Source.String(), o.Object); err != nil {
				return fmt.Errorf("--crd %s: %w", o.Source, err)
			}
			c.crdObjects = append(c.crdObjects, crdObject{origin: o.Source.String(), obj: o.Object})
		}
	}
	return nil
}

// predictAll predicts every slot with a bounded pool of workers. Manifests of the same
// object form a chain predicted in order, each against the object the previous one leaves.
// Once ctx ends, no chain starts (the slots not predicted are never done); predictAll
// returns when the workers have stopped.
func (c *invocation) predictAll(ctx context.Context, eng predictor, reg *schema.Registry, slots []*slot) {
	c.registry = reg
	run := c.run(eng, reg)
	var chains [][]*slot
	byID := map[input.Identity]int{}
	for _, s := range slots {
		if s.pair == nil || s.pair.Err != nil {
			chains = append(chains, []*slot{s})
			continue
		}
		if i, ok := byID[s.pair.ID]; ok {
			chains[i] = append(chains[i], s)
			continue
		}
		byID[s.pair.ID] = len(chains)
		chains = append(chains, []*slot{s})
	}
	work := make(chan []*slot)
	var wg sync.WaitGroup
	for i := 0; i < c.jobs && i < len(chains); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for chain := range work {
				c.predictChain(run, chain)
			}
		}()
	}
feed:
	for _, ch := range chains {
		select {
		case work <- ch:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
}

func (c *invocation) predictChain(run *predict.Run, chain []*slot) {
	var live map[string]any
	var liveSrc *input.Source
	var liveErr error
	if p := chain[0].pair; p != nil && p.Live != nil && p.Err == nil {
		// A live object kept as text is decoded here, in the worker, and its tree goes
		// with the result once written.
		live, liveErr = p.Live.Decode()
		src := p.Live.Source
		liveSrc = &src
	}
	var prev *slot
	for _, s := range chain {
		switch {
		case s.pruned != nil:
			s.res = s.pruned
		case s.pair == nil:
			s.res = report.FromError(s.src, s.err)
		case s.pair.Err != nil:
			s.res = report.FromError(s.src, s.pair.Err)
			fillIdentity(s.res, s.pair)
		case liveErr != nil:
			s.res = report.FromError(s.src, fmt.Errorf("live object: %w", liveErr))
			fillIdentity(s.res, s.pair)
		default:
			body, err := s.pair.Manifest.Decode()
			if err != nil {
				s.res = report.FromError(s.src, err)
				fillIdentity(s.res, s.pair)
				break
			}
			s.body = body
			s.res = c.predict(run, s.pair, body, live)
			s.res.LiveSource = liveSrc
			if prev != nil {
				s.res.Warnings = append(s.res.Warnings, fmt.Sprintf("the same object is also applied by %s; this apply is predicted against the object that one leaves", prev.src))
			}
			if s.res.Object != nil {
				live = s.res.Object
				src := s.src
				liveSrc = &src
			}
			prev = s
		}
		c.evaluatePolicy(s)
		close(s.done)
	}
}

func fillIdentity(res *report.Result, p *input.Pair) {
	av, kind, ns, name := p.Manifest.Meta()
	if p.ID.Name != "" || p.GenerateName != "" {
		ns, name = p.ID.Namespace, p.ID.Name
	}
	res.Identity(av, kind, ns, name)
	res.GenerateName = p.GenerateName
	res.Warnings = append(res.Warnings, p.Manifest.Warnings...)
	res.Warnings = append(res.Warnings, p.Warnings...)
}

// predict asks the library about one apply (predict.Run.Predict) and reports it. A panic
// in the engine becomes this object's error. manifest is the manifest's tree
// (p.Manifest.Decode).
func (c *invocation) predict(run *predict.Run, p *input.Pair, manifest, live map[string]any) (res *report.Result) {
	src := p.Manifest.Source
	defer func() {
		if r := recover(); r != nil {
			res = report.FromError(src, fmt.Errorf("internal error in ssa-diff (please report it): %v\n%s", r, debug.Stack()))
			fillIdentity(res, p)
		}
	}()
	gvk := p.GVK
	if p.Mismatched {
		gvk = p.Live.GVK()
	}
	pred, err := run.Predict(predict.Apply{Manifest: manifest, Live: live, GVK: gvk, Namespace: p.ID.Namespace, Name: p.ID.Name,
		AsWritten: p.Mismatched, Source: kubectlSource(src), Patch: c.rawPatch(p)})
	if err != nil {
		res = report.FromError(src, fmt.Errorf("cannot predict %s: %w", p.ID, err))
		fillIdentity(res, p)
		return res
	}
	manager := run.Applier.Manager()
	res = report.FromPrediction(src, pred.Live, manifest, manager, pred.Result)
	res.Warnings = append(res.Warnings[:0], pred.Warnings...)
	fillIdentity(res, p)
	res.Approximations = pred.Approximations
	if res.Action == report.ActionRejected && res.Error != nil {
		res.Error.Fields = pred.RefusalFields
	}
	res.Advice, res.State, res.Drift = pred.Advice, pred.State, pred.Drift
	if h := exportHint(p, manifest); h != "" && c.applies() {
		res.Warnings = append(res.Warnings, h)
	}
	if res.Action == report.ActionRejected {
		res.Warnings = append(res.Warnings, variableHints(p, manifest)...)
	}
	if pred.WithForce != nil {
		res.WithForce = report.FromPrediction(src, pred.Live, manifest, manager, pred.WithForce)
		res.WithForce.Identity(res.APIVersion, res.Kind, res.Namespace, res.Name)
		res.WithForce.Drift = pred.WithForceDrift
	}
	return res
}

// run is what the run's predictions share (predict.Run), once its schemas and live state
// are known.
func (c *invocation) run(eng predictor, reg *schema.Registry) *predict.Run {
	r := &predict.Run{Predictor: eng, Applier: c.client, Schemas: reg, Judge: c.judge, Subresource: c.subresource,
		Force: c.force, ForcedAlso: c.wantsWithForce(), Now: c.now, NoDrift: c.verbs.named() || c.verbs.v == merge.VerbPatch}
	if !c.advice.off {
		r.Advice = c.adviceOptions(reg)
	}
	return r
}

// kubectlSource names a manifest's file as kubectl does in its messages.
func kubectlSource(src input.Source) string {
	if src.File == input.StdinName {
		return "STDIN"
	}
	return src.File
}

// liveObjects are the live state's objects as package judge reads them: the admission
// webhook configurations decoded, each with the place it was read.
func liveObjects(objs []*input.Object) []judge.LiveObject {
	var out []judge.LiveObject
	for _, o := range objs {
		if !judge.IsWebhookConfiguration(o.GVK()) {
			continue
		}
		obj, err := o.Decode()
		if err != nil {
			continue
		}
		out = append(out, judge.LiveObject{Object: obj, Source: o.Source.Short()})
	}
	return out
}
