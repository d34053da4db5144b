package apps

import (
	"fmt"

	api "github.com/ssa-diff/ssa-diff/internal/api/apps"
	coreapi "github.com/ssa-diff/ssa-diff/internal/api/core"
	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	"github.com/ssa-diff/ssa-diff/internal/validation/core"
	"github.com/ssa-diff/ssa-diff/internal/validation/wellformed"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The warnings the workload strategies return with an accepted write: the pod template's
// (package core), a name that is no DNS label (it names pods), a StatefulSet's claim
// templates with fractional byte sizes and a negative revision history limit. An update
// warns of the template only when it moved the generation (the template or spec changed).

var templatePath = field.NewPath("spec", "template")

// nameWarnings: a Deployment's or ReplicaSet's name becomes part of its pods' names and
// hostnames.
func nameWarnings(name string) []string {
	if msgs := wellformed.IsDNS1123Label(name); len(msgs) != 0 {
		return []string{fmt.Sprintf("metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: %v", msgs)}
	}
	return nil
}

// generationMoved: the update changed what the generation counts.
func generationMoved(cur, old int64) bool { return cur != old }

func deploymentWarningsOnCreate(cfg *serverconfig.Config, d *api.Deployment) []string {
	return append(nameWarnings(d.Name), core.GetWarningsForPodTemplate(cfg, templatePath, &d.Spec.Template, nil)...)
}

func deploymentWarningsOnUpdate(cfg *serverconfig.Config, d, old *api.Deployment) []string {
	if !generationMoved(d.Generation, old.Generation) {
		return nil
	}
	return core.GetWarningsForPodTemplate(cfg, templatePath, &d.Spec.Template, &old.Spec.Template)
}

func replicaSetWarningsOnCreate(cfg *serverconfig.Config, rs *api.ReplicaSet) []string {
	return append(nameWarnings(rs.Name), core.GetWarningsForPodTemplate(cfg, templatePath, &rs.Spec.Template, nil)...)
}

func replicaSetWarningsOnUpdate(cfg *serverconfig.Config, rs, old *api.ReplicaSet) []string {
	if !generationMoved(rs.Generation, old.Generation) {
		return nil
	}
	return core.GetWarningsForPodTemplate(cfg, templatePath, &rs.Spec.Template, &old.Spec.Template)
}

func daemonSetWarningsOnCreate(cfg *serverconfig.Config, ds *api.DaemonSet) []string {
	return core.GetWarningsForPodTemplate(cfg, templatePath, &ds.Spec.Template, nil)
}

// daemonSetWarningsOnUpdate: a DaemonSet warns when its template generation moved.
func daemonSetWarningsOnUpdate(cfg *serverconfig.Config, ds, old *api.DaemonSet) []string {
	if ds.Spec.TemplateGeneration == old.Spec.TemplateGeneration {
		return nil
	}
	return core.GetWarningsForPodTemplate(cfg, templatePath, &ds.Spec.Template, &old.Spec.Template)
}

func statefulSetWarningsOnCreate(cfg *serverconfig.Config, ss *api.StatefulSet) []string {
	w := core.GetWarningsForPodTemplate(cfg, templatePath, &ss.Spec.Template, nil)
	for i := range ss.Spec.VolumeClaimTemplates {
		w = append(w, claimSpecWarnings(field.NewPath("spec", "volumeClaimTemplates").Index(i), &ss.Spec.VolumeClaimTemplates[i].Spec)...)
	}
	return append(w, historyLimitWarnings(cfg, ss.Spec.RevisionHistoryLimit)...)
}

// statefulSetWarningsOnUpdate: the template's warnings when the generation moved; the
// claim templates' always (at a path whose last element the server spells "Spec").
func statefulSetWarningsOnUpdate(cfg *serverconfig.Config, ss, old *api.StatefulSet) []string {
	var w []string
	if generationMoved(ss.Generation, old.Generation) {
		w = core.GetWarningsForPodTemplate(cfg, templatePath, &ss.Spec.Template, &old.Spec.Template)
	}
	for i := range ss.Spec.VolumeClaimTemplates {
		w = append(w, claimSpecWarnings(field.NewPath("spec", "volumeClaimTemplates").Index(i).Child("Spec"), &ss.Spec.VolumeClaimTemplates[i].Spec)...)
	}
	return append(w, historyLimitWarnings(cfg, ss.Spec.RevisionHistoryLimit)...)
}

// historyLimitWarnings: a negative revision history limit. Kubernetes 1.32 warns of none
// (1.33.13's StatefulSet strategy added the warning).
func historyLimitWarnings(cfg *serverconfig.Config, limit *int32) []string {
	if limit != nil && *limit < 0 && cfg.AtLeast(33) {
		return []string{"spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended"}
	}
	return nil
}

// claimSpecWarnings: a claim template's storage request or limit with a fractional byte
// value.
func claimSpecWarnings(p *field.Path, spec *coreapi.PersistentVolumeClaimSpec) []string {
	var w []string
	for _, r := range []struct {
		name string
		list coreapi.ResourceList
	}{{"requests", spec.Resources.Requests}, {"limits", spec.Resources.Limits}} {
		if v := r.list[coreapi.ResourceStorage]; v.MilliValue()%1000 != 0 {
			w = append(w, fmt.Sprintf("%s: fractional byte value %q is invalid, must be an integer",
				p.Child("resources").Child(r.name).Key(string(coreapi.ResourceStorage)), v.String()))
		}
	}
	return w
}
