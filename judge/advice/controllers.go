package advice

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/merge"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// contest is what the applier and one other manager dispute.
type contest struct {
	ref      fieldpath.ManagerRef
	paths    []string
	conflict *merge.Conflict // the first conflict, for its values
}

// contests groups, per manager entry of the given roles, the fields the apply conflicts on
// or takes from it (by force, or by kubectl's last-applied relaxation).
func (a *analysis) contests(roles ...managerRole) []*contest {
	if a.res == nil {
		return nil
	}
	wanted := func(ref fieldpath.ManagerRef) bool {
		r := roleOf(ref)
		for _, x := range roles {
			if r == x {
				return true
			}
		}
		return false
	}
	var list []*contest
	byKey := map[string]*contest{}
	get := func(ref fieldpath.ManagerRef) *contest {
		key := fieldpath.ManagerKey(fieldpath.Entry{Manager: ref.Manager, Operation: ref.Operation, APIVersion: ref.APIVersion, Subresource: ref.Subresource})
		if c, ok := byKey[key]; ok {
			return c
		}
		c := &contest{ref: ref}
		byKey[key] = c
		list = append(list, c)
		return c
	}
	addPath := func(c *contest, p string) {
		for _, x := range c.paths {
			if x == p {
				return
			}
		}
		c.paths = append(c.paths, p)
	}
	for i := range a.res.Conflicts {
		cf := &a.res.Conflicts[i]
		if !wanted(cf.Manager) {
			continue
		}
		c := get(cf.Manager)
		if c.conflict == nil {
			c.conflict = cf
		}
		addPath(c, cf.Path)
	}
	deleted := map[string]bool{}
	for _, p := range a.res.Deleted {
		deleted[p] = true
	}
	for _, oc := range a.res.Ownership {
		if len(oc.Taken) == 0 || !wanted(oc.Manager) || a.res.Rejection != nil {
			continue
		}
		if oc.Manager.Manager == a.manager && oc.Manager.Operation == fieldpath.OperationUpdate {
			continue // the applier's own former writes (Helm's client-side entry it migrates)
		}
		for _, p := range oc.Taken {
			if !deleted[p] { // a field deleted with its item was lost, not taken
				addPath(get(oc.Manager), p)
			}
		}
	}
	return list
}

// controllers: fights-controller and overrides-manual-change.
func (a *analysis) controllers() {
	rejected := a.res != nil && a.res.Rejection != nil
	for _, c := range a.contests(roleController) {
		a.add(a.fight(c, rejected))
	}
	for _, c := range a.contests(roleManual) {
		cmd := manualCommand(c.ref.Manager)
		var msg string
		if rejected {
			msg = fmt.Sprintf("the manifest sets %s, last changed by hand with %s (manager %s)%s: the apply conflicts on %s",
				listPaths(c.paths), cmd, describe(c.ref), values(c.conflict), plural(len(c.paths), "it", "them"))
		} else {
			msg = fmt.Sprintf("the apply reverts %s, last changed by hand with %s (manager %s)%s", listPaths(c.paths), cmd, describe(c.ref), values(c.conflict))
		}
		fix := fmt.Sprintf("if the manual change is meant to stay, put it into the manifest; if not, take %s with %s", plural(len(c.paths), "it", "them"), a.forceHint())
		if a.applier.RendersChart {
			fix = fmt.Sprintf("if the manual change is meant to stay, put it into the chart's values (-f values.yaml or --set) so the chart renders it; if not, take %s back with %s", plural(len(c.paths), "it", "them"), a.forceHint())
		}
		a.add(Advice{ID: IDOverridesManualChange, Severity: SeverityInfo, Message: msg,
			Fix:   fix,
			Paths: c.paths, Managers: []string{c.ref.Manager}})
	}
}

func (a *analysis) fight(c *contest, rejected bool) Advice {
	replicas := false
	for _, p := range c.paths {
		if strings.HasSuffix(p, ".replicas") {
			replicas = true
		}
	}
	who := fmt.Sprintf("the controller %q", c.ref.Manager)
	if replicas && (c.ref.Subresource == "scale" || looksLikeAutoscaler(c.ref.Manager)) {
		who = fmt.Sprintf("the autoscaler %q", c.ref.Manager)
	}
	how := "writes with updates"
	if c.ref.Subresource != "" {
		how = "writes through /" + c.ref.Subresource
	}
	if c.ref.Manager == merge.AncientChangesManager {
		who = fmt.Sprintf("%q (older updaters the server folded together)", c.ref.Manager)
		how = "wrote with updates"
	}
	var msg string
	switch {
	case rejected:
		msg = fmt.Sprintf("the manifest sets %s, which %s %s%s: the apply is refused with a conflict", listPaths(c.paths), who, how, values(c.conflict))
	case a.alwaysForces():
		msg = fmt.Sprintf("every sync forces %s away from %s%s, and the controller writes %s back: the two keep overwriting each other", listPaths(c.paths), who, values(c.conflict), plural(len(c.paths), "it", "them"))
	default:
		msg = fmt.Sprintf("the apply takes %s from %s%s, which will write %s back: the two will keep overwriting each other", listPaths(c.paths), who, values(c.conflict), plural(len(c.paths), "it", "them"))
	}
	var fix string
	switch {
	case a.applier.RendersChart:
		fix = helmFightFix(c, replicas)
	case replicas:
		fix = fmt.Sprintf("remove spec.replicas from the manifest and let %q own it (set the floor in the autoscaler's minReplicas); only to hand it over deliberately, apply with %s", c.ref.Manager, a.forceHint())
	case a.alwaysForces():
		fix = fmt.Sprintf("remove %s from the manifest (or have the sync ignore %s) and leave %s to %q", listPaths(c.paths), plural(len(c.paths), "it", "them"), plural(len(c.paths), "it", "them"), c.ref.Manager)
	default:
		fix = fmt.Sprintf("remove %s from the manifest and leave %s to %q; to hand %s over deliberately, apply with %s and stop the controller writing %s",
			listPaths(c.paths), plural(len(c.paths), "it", "them"), c.ref.Manager, plural(len(c.paths), "it", "them"), a.forceHint(), plural(len(c.paths), "it", "them"))
	}
	return Advice{ID: IDFightsController, Severity: SeverityWarning, Message: msg, Fix: fix, Paths: c.paths, Managers: []string{c.ref.Manager}}
}

func looksLikeAutoscaler(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{"hpa", "autoscal", "keda", "vpa", "scaler"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// values prints a conflict's two values: " (live 10, manifest 4)".
func values(c *merge.Conflict) string {
	if c == nil {
		return ""
	}
	return fmt.Sprintf(" (live %s, manifest %s)", compact(c.Live), compact(c.Applied))
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

// coOwnerOfController: fields the applier newly owns that a controller's Update entry owns
// too. The apply succeeds (same value), but the next time the controller changes the value
// its update silently takes the field, and the applier's next apply conflicts.
func (a *analysis) coOwnerOfController() {
	if a.after == nil {
		return
	}
	// Only a controller's entry takes advice here: without one, the applier's gains are
	// not listed.
	controllers := keysOfRole(a.afterFields, roleController)
	if len(controllers) == 0 {
		return
	}
	gained := leavesNotIn(setOf(a.afterFields, a.self), setOf(a.before, a.self))
	if len(gained) == 0 {
		return
	}
	for _, key := range controllers {
		ref := a.afterFields.Ref(key)
		if key == a.self {
			continue
		}
		var shared []smdpath.Path
		for _, p := range gained {
			if setOf(a.afterFields, key).Has(p) {
				shared = append(shared, p)
			}
		}
		if len(shared) == 0 {
			continue
		}
		paths := pathStrings(shared)
		val := ""
		if len(shared) == 1 {
			if v, ok := fieldpath.ValueAt(a.after, shared[0]); ok {
				val = " = " + compact(v)
			}
		}
		a.add(Advice{ID: IDCoOwnerOfControllerValue, Severity: SeverityWarning,
			Message: fmt.Sprintf("the apply makes %q co-owner of %s%s with the controller %s: when the controller changes %s, its update takes %s silently and the next apply of this manifest conflicts",
				a.manager, listPaths(paths), val, describe(ref), plural(len(paths), "it", "them"), plural(len(paths), "it", "them")),
			Fix:   fmt.Sprintf("leave %s out of the manifest unless %q must manage %s: sharing a controller's value only postpones the conflict", listPaths(paths), a.manager, plural(len(paths), "it", "them")),
			Paths: paths, Managers: []string{ref.Manager}})
	}
}
