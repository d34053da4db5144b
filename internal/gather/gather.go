package gather

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/internal/cluster"
	"github.com/ssa-diff/ssa-diff/internal/gitopsconfig"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/livestate"
	"github.com/ssa-diff/ssa-diff/internal/noise"
	"github.com/ssa-diff/ssa-diff/internal/rawpatch"
	"github.com/ssa-diff/ssa-diff/internal/schemafiles"
	"github.com/ssa-diff/ssa-diff/internal/shard"
	"github.com/ssa-diff/ssa-diff/judge"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/clusterstate"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// Options are what a run reads, as the command line says it.
type Options struct {
	Stdin io.Reader
	// Stderr receives the notes and the warnings ("warning: …" lines) as the run meets them.
	Stderr io.Writer
	Limits input.Limits
	// Manifests are the -f paths, Kustomize the -k directories, SourceRoot the directory of
	// helm template output's `# Source:` paths; Live the LIVE dump ("": none).
	Manifests, Kustomize []string
	SourceRoot           string
	Live                 string
	// Cluster, when set, reads the live state from the cluster (--live-from-cluster).
	Cluster *Cluster
	// Namespace is where objects that name none go; NamespaceSet: it was given (-n).
	Namespace    string
	NamespaceSet bool
	// Schemas and CRDs are the --schema and --crd paths.
	Schemas, CRDs []string
	// Minor decides the minor predicted (--kube-version, else the live state's).
	Minor predict.MinorChoice
	// AdmissionFrom are the files of the cluster state (--admission-from); NoAdmission:
	// none, not even from the cluster.
	AdmissionFrom []string
	NoAdmission   bool
	// ApplierName is --applier's name, Applier the applier the flags make, and NewApplier
	// makes it for another namespace (a cluster read's).
	ApplierName string
	Applier     appliers.Applier
	NewApplier  func(namespace string) (appliers.Applier, error)
	// Subresource, Verb and Command are what is written: --subresource, --verb, --kubectl.
	Subresource string
	Verb        merge.Verb
	Command     *appliers.KubectlCommand
	// Flux is a --flux-kustomization-file that changes the objects (FluxFile: how messages
	// name it), SubstituteFrom the --flux-substitute-from files.
	Flux           *gitopsconfig.Kustomization
	FluxFile       string
	SubstituteFrom []string
	// Noise are the run's noise rules (--skip, --ignore-filename-pattern).
	Noise *noise.Rules
	// FeatureGates and RuntimeConfig are kube-apiserver's --feature-gates and
	// --runtime-config: checked against the minor predicted, the API versions served applied
	// to its registry.
	FeatureGates  kubeapiserver.FeatureGates
	RuntimeConfig kubeapiserver.RuntimeConfig
	// AllowNoManagedFields: a dump without managedFields is predicted as owned by nobody.
	AllowNoManagedFields bool
	// Prune previews what the applier prunes (with the note its Kind gives); PruneVisits:
	// the applier visits Namespace too (kubectl's -n).
	Prune       bool
	PruneVisits bool
	Shard       shard.Spec
}

// Cluster is how the live state is read from the cluster.
type Cluster struct {
	Kubeconfig, Context, RequestTimeout, SaveLive string
	// More reads what the applier keeps in the cluster besides the objects
	// (livestate.ClusterRead.More; nil: nothing).
	More func(context.Context, *cluster.Client) ([]json.RawMessage, []cluster.Ref, error)
}

// Inputs are a run's inputs as read: its schemas (at the minor predicted), its manifests
// and its live state, as entries (objects, or what could not be read); after Pair, the
// manifests paired.
type Inputs struct {
	opts        *Options
	Loader      *input.Loader
	Registry    *schema.Registry
	Manifests   []input.Entry
	Live        []input.Entry
	schemaFiles schemafiles.Set
	// paths are the -f paths read as manifests.
	paths []string
	// RawPatches are the --verb patch documents that name no object.
	RawPatches rawpatch.Set
	// ClusterState is what the cluster's admission chain reads, when given or read.
	ClusterState *clusterstate.State

	// Set by Pair: the namespace objects that name none go to and the applier for it (a
	// cluster read's namespace unless -n), the judge of the predictions, the live state and
	// the pairing.
	Namespace   string
	Applier     appliers.Applier
	Judge       *judge.Judge
	State       *livestate.State
	Matching    input.Matching
	crdWarnings map[*input.Object]string
	liveErrs    []error
}

func (in *Inputs) warnf(format string, args ...any) {
	fmt.Fprintf(in.opts.Stderr, "warning: "+format+"\n", args...)
}

// Read reads the run's schemas, manifests and live state; the minor is the cluster's when
// the live state says it (Options.Minor decides).
func Read(ctx context.Context, opts Options) (*Inputs, error) {
	in := &Inputs{opts: &opts, Loader: &input.Loader{Stdin: opts.Stdin, Limits: opts.Limits}, paths: opts.Manifests, Namespace: opts.Namespace, Applier: opts.Applier}
	loader := in.Loader
	if opts.Live != "" && opts.Cluster == nil {
		// The dump is read while the schemas and manifests are: on two CPUs, reading the
		// manifests leaves one of them idle at times (readLive takes it, as if read then).
		loader.ReadAhead(opts.Live, readsLive)
	}
	if err := in.readAdmissionFiles(); err != nil {
		return nil, err
	}
	v, _ := in.minorFor("", "")
	reg, err := schema.NewRegistry(v)
	if err != nil {
		return nil, err
	}
	warnings, err := in.schemaFiles.Read(reg, loader, opts.Schemas, opts.CRDs)
	for _, w := range warnings {
		in.warnf("%s", w)
	}
	if err != nil {
		return nil, err
	}
	// Objects are kept as text, and each is decoded by the prediction that uses it: a
	// run holds a few trees at a time, not all of them.
	loader.DeferDecoding = true
	if err := in.readManifests(reg); err != nil {
		return nil, err
	}
	// Flux builds the objects before it reads the cluster: from a cluster, with the
	// --flux-substitute-from files alone; from a dump, after it (its ConfigMaps and Secrets).
	if opts.Cluster != nil {
		if err := in.buildFlux(nil); err != nil {
			return nil, err
		}
	}
	if in.Registry, err = in.readLive(ctx, reg); err == nil && opts.Cluster == nil {
		err = in.buildFlux(in.Live)
	}
	return in, cmp.Or(err, opts.FeatureGates.CheckFor(in.Registry), opts.RuntimeConfig.ApplyTo(in.Registry))
}

// readManifests reads the manifests: a --kubectl command's named objects, else the files
// (a --verb patch's documents that name no object set apart), less the empty files.
func (in *Inputs) readManifests(reg *schema.Registry) error {
	opts, loader := in.opts, in.Loader
	if named(opts.Command) {
		in.Manifests = in.commandManifests(reg)
		return nil
	}
	if opts.Verb == merge.VerbPatch {
		in.paths = in.RawPatches.Split(loader, opts.Manifests)
	}
	// A raw request's body is read as the server reads it.
	loader.RequestBodies = opts.ApplierName == "api" && opts.Command == nil
	in.Manifests = in.loadManifests(in.paths)
	loader.RequestBodies = false
	var left []error
	var err error
	if in.Manifests, left, err = input.WithoutEmptyFiles(in.Manifests); err != nil {
		return err
	}
	for _, err := range left {
		in.warnf("%v: left out", err)
	}
	return nil
}

// readLive reads the live state, and returns the registry of the minor predicted: reg, or
// the one of the cluster's minor when the live state says it.
func (in *Inputs) readLive(ctx context.Context, reg *schema.Registry) (*schema.Registry, error) {
	opts := in.opts
	if opts.Live == "" && opts.Cluster == nil {
		in.nearestUnknown("", reg.Minor())
		return reg, nil
	}
	readsLive(in.Loader)
	if opts.Cluster != nil {
		var err error
		in.Live, reg, err = in.readCluster(ctx, reg)
		return reg, err
	}
	in.Live = in.Loader.Load(opts.Live)
	server, where := cluster.RecordedServer(in.Live)
	if server == "" {
		in.nearestUnknown(opts.Live, reg.Minor())
		return reg, nil
	}
	v, err := in.minorFor(server, where)
	if err != nil || v == reg.Minor() {
		return reg, err
	}
	return in.schemaFiles.Registry(v)
}

// readsLive sets l to read the live state: field lines are asked of manifests only, so a
// dump's text need not be kept; its managedFields are kept as text, and its objects as
// text until predicted (as the manifests').
func readsLive(l *input.Loader) {
	l.NoFieldLines, l.CompactManagedFields, l.DeferDecoding = true, true, true
}

// readCluster reads the live state of the manifests from the cluster (livestate.ClusterRead),
// saved to SaveLive if asked; the registry returned is reg, or the registry of the
// cluster's minor when the run learns it from the cluster (minorFor).
func (in *Inputs) readCluster(ctx context.Context, reg *schema.Registry) ([]input.Entry, *schema.Registry, error) {
	opts, c := in.opts, in.opts.Cluster
	r := livestate.ClusterRead{Options: cluster.Options{Kubeconfig: c.Kubeconfig, Context: c.Context, RequestTimeout: c.RequestTimeout, Warnings: opts.Stderr,
		MaxBytes: opts.Limits.MaxInputBytes, BytesBefore: in.Loader.BytesRead(), MaxDocumentBytes: opts.Limits.MaxDocumentBytes, MaxDepth: opts.Limits.MaxDepth},
		Minor: in.minorFor, Registry: in.schemaFiles.Registry, SaveLive: c.SaveLive, Notes: opts.Stderr, More: c.More}
	if opts.NamespaceSet {
		r.Options.Namespace = opts.Namespace
	}
	if cmd := opts.Command; cmd != nil && cmd.Debug.Copy != nil {
		// The pod kubectl debug --copy-to creates is read too: one of that name answers
		// the POST with 409 (debugCopyExisting).
		ref := cluster.Ref{APIVersion: "v1", Kind: "Pod", Name: cmd.Debug.Copy.Name}
		if opts.NamespaceSet {
			ref.Namespace = opts.Namespace
		}
		more := r.More
		r.More = func(ctx context.Context, client *cluster.Client) ([]json.RawMessage, []cluster.Ref, error) {
			if more == nil {
				return nil, []cluster.Ref{ref}, nil
			}
			kept, refs, err := more(ctx, client)
			return kept, append(refs, ref), err
		}
	}
	if !opts.NoAdmission {
		r.Admission = in.readAdmissionCluster
	}
	return r.Read(ctx, in.Loader, in.Manifests, reg)
}

// minorFor is the minor a run predicts given the version of the cluster the live state
// comes from (its /version gitVersion; "" when not known) and where that was read
// (predict.MinorChoice.For decides it); a warning says when it is not the cluster's.
func (in *Inputs) minorFor(server, where string) (kube.Minor, error) {
	v, warning, err := in.opts.Minor.For(server, where)
	if warning != "" {
		in.warnf("%s", warning)
	}
	return v, err
}

// nearestUnknown says, for --kube-version nearest, that the live state (live: its path,
// "" for none) records no cluster version, and which minor is predicted instead.
func (in *Inputs) nearestUnknown(live string, v kube.Minor) {
	if w := in.opts.Minor.Unknown(live, v); w != "" {
		in.warnf("%s", w)
	}
}
