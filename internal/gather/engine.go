package gather

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/admission/wire"
	"github.com/ssa-diff/ssa-diff/merge"
	"github.com/ssa-diff/ssa-diff/predict"
	"github.com/ssa-diff/ssa-diff/schema"
	"github.com/ssa-diff/ssa-diff/server/clusterstate"
	"github.com/ssa-diff/ssa-diff/server/kubeapiserver"
)

// Admission is who sends a run's writes and how its admission runs, when the inputs hold a
// cluster state: in this process by Library when set (tests, with Diff for the diffs the
// helper prints), else by the helper program (wire.FindHelper, through Getenv), whose
// absence each admission — and each diff the helper would have printed — then says.
type Admission struct {
	User          clusterstate.User
	Authorization clusterstate.Authorization
	Library       func(wire.Setup) (wire.Library, error)
	Diff          func(wire.Diff) (string, error)
	Getenv        func(string) string
}

// Engine is the engine of reg's schemas on kube-apiserver's model at their minor, for the
// cluster cfg describes, with the cluster state the inputs hold and adm's admission. The
// helper program is looked for when the model may need it (kubeapiserver.Config.NeedsHelper:
// a cluster state, or a minor whose server prints go-cmp's diffs). The model's Close stops
// the helpers it started.
func (in *Inputs) Engine(reg *schema.Registry, cfg kubeapiserver.Config, adm Admission) (predict.Engine, *kubeapiserver.Model) {
	cfg.Minor = reg.Minor()
	if in.ClusterState != nil {
		cfg.Cluster, cfg.User, cfg.Authorization = in.ClusterState, adm.User, adm.Authorization
	}
	switch {
	case adm.Library != nil:
		cfg.AdmissionLibrary, cfg.Diff = adm.Library, adm.Diff
	case cfg.NeedsHelper():
		if helper, err := wire.FindHelper(adm.Getenv); err != nil {
			msg := strings.TrimSpace(err.Error())
			cfg.AdmissionLibrary = func(wire.Setup) (wire.Library, error) { return nil, fmt.Errorf("%s", msg) }
			cfg.Diff = func(wire.Diff) (string, error) { return "", fmt.Errorf("%s", msg) }
		} else {
			cfg.AdmissionHelper = helper
		}
	}
	model := kubeapiserver.MustNew(cfg)
	return predict.Engine{Engine: merge.New(reg, model, merge.WithCompactManagedFields())}, model
}

// NoDrift reports a run whose manifests are not what a person wrote of whole objects — a
// kubectl command's named objects, raw patches — of which no drift is said.
func (in *Inputs) NoDrift() bool {
	return named(in.opts.Command) || in.opts.Verb == merge.VerbPatch
}
