package livestate

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/ssa-diff/ssa-diff/internal/cluster"
	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/kube"
	"github.com/ssa-diff/ssa-diff/schema"
)

// A ClusterRead reads the live state of a run's manifests from the cluster (package
// cluster): the cluster's version first (it may decide the minor predicted, and so the
// registry that says what to fetch), the objects the manifests name and those the applier
// asks for, the admission state, then the live state as the entries of a live-state List
// (cluster.ListJSON, with the read's record), saved if asked (Keep).
type ClusterRead struct {
	// Options are the connection's and the read's (kubeconfig, context, limits, namespace).
	Options cluster.Options
	// Minor is the minor predicted given the cluster's version (its /version gitVersion)
	// and where it was read.
	Minor func(gitVersion, where string) (kube.Minor, error)
	// Registry is the registry of a minor other than the one the read starts with.
	Registry func(kube.Minor) (*schema.Registry, error)
	// More, when set, reads what the applier keeps in the cluster besides the objects
	// (Helm's release records, kept as they are), and the refs of more objects to fetch.
	More func(context.Context, *cluster.Client) ([]json.RawMessage, []cluster.Ref, error)
	// Admission, when set, reads the cluster's admission state (where: the cluster, as
	// the messages name it).
	Admission func(ctx context.Context, client *cluster.Client, where string) error
	// SaveLive is the file the live state read is saved to ("": none).
	SaveLive string
	// Notes receives the read's summary line (ReadSummary).
	Notes io.Writer
}

// Read reads the live state of manifests; reg is the registry the run starts with (the
// built-in kinds and those of --crd). It returns the live state's entries and the
// registry of the minor predicted: reg, or Registry's of the cluster's minor.
func (r ClusterRead) Read(ctx context.Context, loader *input.Loader, manifests []input.Entry, reg *schema.Registry) ([]input.Entry, *schema.Registry, error) {
	client, err := cluster.Connect(r.Options)
	if err != nil {
		return nil, nil, fmt.Errorf("--live-from-cluster: %w", err)
	}
	info, err := client.ServerVersion(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("--live-from-cluster: %w", err)
	}
	where := client.Where()
	v, err := r.Minor(info.GitVersion, "the cluster ("+where+")")
	if err != nil {
		return nil, nil, fmt.Errorf("--live-from-cluster: %w", err)
	}
	if v != reg.Minor() {
		if reg, err = r.Registry(v); err != nil {
			return nil, nil, err
		}
	}
	refs, defined := Refs(manifests)
	var kept []json.RawMessage
	if r.More != nil {
		var more []cluster.Ref
		if kept, more, err = r.More(ctx, client); err != nil {
			return nil, nil, err
		}
		refs = append(refs, more...)
	}
	// What the registry knows so far: the built-in kinds and those of --crd.
	res, err := client.Read(ctx, refs, ReadOptions(reg, defined))
	if err != nil {
		return nil, nil, fmt.Errorf("--live-from-cluster: %w", err)
	}
	if r.Admission != nil {
		if err := r.Admission(ctx, client, where); err != nil {
			return nil, nil, err
		}
	}
	rec := res.Record(client.Context, info.GitVersion, client.Namespace)
	data, err := cluster.ListJSON(rec, append(res.Objects(), kept...))
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintln(r.Notes, ReadSummary(where, info.GitVersion, res, rec))
	entries, err := Keep(loader, client.Context, r.SaveLive, data)
	return entries, reg, err
}
