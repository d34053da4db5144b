package gather

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/cluster"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/livestate"
	"github.com/ssa-diff/ssa-diff/internal/render"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
	"sigs.k8s.io/yaml"
)

// This file reads the manifests as the appliers render them (kustomizations built as
// `kubectl apply -k` builds them, `helm template` output on standard input attributed to
// the chart's templates, a kubectl command's named objects, a Flux Kustomization's
// changes), and the cluster state the admission chain reads.

// kustomizer is the loader's renderer of kustomization directories met among the manifests.
type kustomizer struct {
	stderr io.Writer
	loader *input.Loader
}

func (k kustomizer) Renders(dir string) bool {
	return render.KustomizationFile(dir) != "" || helmChart(dir)
}

func (k kustomizer) Render(dir string) []input.Entry {
	if render.KustomizationFile(dir) == "" {
		return []input.Entry{{Err: input.FileError(dir, fmt.Errorf(
			"a Helm chart (it holds Chart.yaml): its templates are not manifests until Helm renders them, so it is not read as files; render it and give the output on standard input: helm template RELEASE %s | ssa-diff - LIVE (or --applier helm to predict the helm install or upgrade)", dir))}}
	}
	fmt.Fprintf(k.stderr, "ssa-diff: %s holds a kustomization: built as `kubectl apply -k %s` builds it, not read as files\n", dir, dir)
	return render.Kustomize(k.loader, dir)
}

// loadManifests reads the manifests: the kustomizations of -k, then the -f paths (paths:
// those of them that are read as manifests), whose kustomization directories are built and
// whose standard input is read as `helm template` output when it has its `# Source:`
// comments.
func (in *Inputs) loadManifests(paths []string) []input.Entry {
	opts, loader := in.opts, in.Loader
	var out []input.Entry
	for _, d := range opts.Kustomize {
		out = append(out, render.Kustomize(loader, d)...)
	}
	loader.Renderer = kustomizer{stderr: opts.Stderr, loader: loader}
	loader.SourceComments, loader.SourceRoot = true, opts.SourceRoot
	loader.SourceCommentsInFiles = opts.ApplierName == appliers.HelmApplier
	loader.IgnoreFile = opts.Noise.IgnoreFile
	for _, p := range paths {
		out = append(out, loader.Load(p)...)
	}
	loader.Renderer, loader.IgnoreFile = nil, nil
	loader.SourceComments, loader.SourceCommentsInFiles, loader.SourceRoot = false, false, ""
	return out
}

// helmChart reports a directory holding a Helm chart (Chart.yaml).
func helmChart(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, "Chart.yaml"))
	return err == nil && info.Mode().IsRegular()
}

// named reports a --kubectl command whose objects are named on its command line.
func named(cmd *appliers.KubectlCommand) bool {
	return cmd != nil && !cmd.ReadsFiles() && cmd.Verb != appliers.KubectlEdit
}

// commandManifests are the stubs of the objects a --kubectl command names, read as
// manifests (each paired with its live object).
func (in *Inputs) commandManifests(reg *schema.Registry) []input.Entry {
	cmd, ns := in.opts.Command, in.opts.Namespace
	if !in.opts.NamespaceSet {
		// Without -n (ssa-diff's or the command's) a stub names no namespace, as a
		// manifest that leaves it to kubectl's context: it goes where such manifests go
		// (the context's namespace with --live-from-cluster, the one live object's).
		ns = ""
	}
	objs, err := cmd.Objects(reg, ns)
	if err != nil {
		return []input.Entry{{Err: err}}
	}
	var out []input.Entry
	for _, o := range objs {
		b, _ := yaml.Marshal(o)
		out = append(out, input.Parse("kubectl "+cmd.Verb, b)...)
	}
	return out
}

// buildFlux changes each manifest as the --flux-kustomization-file's kustomize-controller
// does before it applies it (gitopsconfig.Kustomization.BuildEntries); substituteFrom's
// ConfigMaps and Secrets are looked up in the --flux-substitute-from files, then in live.
func (in *Inputs) buildFlux(live []input.Entry) error {
	k := in.opts.Flux
	if k == nil {
		return nil
	}
	var sources []map[string]any
	for _, f := range in.opts.SubstituteFrom {
		objs, err := k.SourcesIn(in.Loader.Load(f), true)
		if err != nil {
			return fmt.Errorf("--flux-substitute-from %s: %w", f, err)
		}
		sources = append(sources, objs...)
	}
	objs, _ := k.SourcesIn(live, false)
	vars, err := k.Variables(append(sources, objs...))
	if err != nil {
		return fmt.Errorf("%s: %w", in.opts.FluxFile, err)
	}
	in.Manifests = k.BuildEntries(in.Manifests, vars)
	return nil
}

// readAdmissionFiles reads --admission-from's files into the run's cluster state.
func (in *Inputs) readAdmissionFiles() error {
	if len(in.opts.AdmissionFrom) == 0 || in.opts.NoAdmission {
		return nil
	}
	state, err := predict.ClusterState(in.opts.AdmissionFrom...)
	if err != nil {
		return fmt.Errorf("--admission-from: %w", err)
	}
	in.ClusterState = state
	for _, w := range state.Warnings() {
		in.warnf("--admission-from: %s", w)
	}
	return nil
}

// readAdmissionCluster reads the cluster state from the cluster of a --live-from-cluster
// read, unless --admission-from said otherwise.
func (in *Inputs) readAdmissionCluster(ctx context.Context, client *cluster.Client, where string) error {
	if len(in.opts.AdmissionFrom) > 0 {
		return nil
	}
	read, err := client.ReadAdmission(ctx)
	if err != nil {
		return fmt.Errorf("--live-from-cluster: %w", err)
	}
	state, warnings, err := livestate.Admission(read)
	for _, w := range warnings {
		in.warnf("%s", w)
	}
	if err != nil {
		return fmt.Errorf("--live-from-cluster: %w", err)
	}
	in.ClusterState = state
	fmt.Fprintf(in.opts.Stderr, "admission state: %s: %d object%s read (%d LIST)\n", where, state.Len(), plural(state.Len()), read.Lists)
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
