package advice

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/appliers"
	"github.com/ssa-diff/ssa-diff/fieldpath"
	"github.com/ssa-diff/ssa-diff/merge"
	smdpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// lastAppliedPath is the field of the last-applied annotation.
func lastAppliedPath() smdpath.Path {
	return smdpath.MakePathOrDie("metadata", "annotations", merge.LastAppliedAnnotation)
}

// clientSideLeftovers: the traces of client-side apply (kubectl-client-side-apply entries,
// the last-applied annotation) and of untracked objects (before-first-apply, rules.md untracked.first-apply),
// and what this apply does with them (rules.md kubectl.relaxation, kubectl.no-relaxation, kubectl.annotation-sync, kubectl.annotation-too-large and kubectl's migration).
func (a *analysis) clientSideLeftovers() {
	if a.applier.ClientSideIsItsOwn && !helmServerSide(a.res) {
		// Helm's client-side writes are its own entry, and its patches delete what the
		// chart drops: nothing is left behind.
		return
	}
	a.migrated()
	a.stuck()
	a.staleAnnotation()
}

func leftoverKeys(m fieldpath.Managed) []string { return keysOfRole(m, roleLeftover) }

// migrated: leftover entries of the live object that the write folded into the applier.
func (a *analysis) migrated() {
	if a.after == nil {
		return
	}
	var gone []string
	for _, k := range leftoverKeys(a.before) {
		if _, ok := a.afterFields.Fields[k]; !ok {
			gone = append(gone, a.before.Ref(k).Manager)
		}
	}
	if len(gone) == 0 {
		return
	}
	gone = unique(gone)
	who := a.applier.Apply
	msg := fmt.Sprintf("%s migrates client-side ownership: the fields %s owned move into %q's Apply entry, so from now on dropping a field from the manifest deletes it",
		who, quoteAll(gone), a.manager)
	sev, fix, paths := SeverityInfo, "nothing to do: this is the intended move to server-side apply", []string(nil)
	if len(a.res.Deleted) > 0 {
		paths = topmost(a.res.Deleted)
		msg += fmt.Sprintf("; this apply already deletes %s, which the manifest no longer sets", listPaths(paths))
		sev = SeverityWarning
		fix = fmt.Sprintf("keep %s in the manifest if %s must stay", listPaths(paths), plural(len(paths), "it", "they"))
	}
	a.add(Advice{ID: IDClientSideApplyLeftovers, Severity: sev, Message: msg, Fix: fix, Paths: paths, Managers: gone})
}

// stuck: leftover entries the write keeps. Whatever they own can never be removed by
// editing the manifest, since the applier's pruning spares fields others own. When the
// apply is refused, only its conflicts with them are told.
func (a *analysis) stuck() {
	var conflicts []merge.Conflict
	if a.res != nil {
		for _, c := range a.res.Conflicts {
			if roleOf(c.Manager) == roleLeftover {
				conflicts = append(conflicts, c)
			}
		}
	}
	if a.after == nil {
		a.leftoverConflicts(conflicts)
		return
	}
	mine := setOf(a.afterFields, a.self)
	forced := a.res.Rejection == nil && len(a.res.Conflicts) > 0
	for _, key := range leftoverKeys(a.afterFields) {
		ref := a.afterFields.Ref(key)
		owned := setOf(a.afterFields, key)
		in, notIn := leavesSplit(owned, mine, true, true)
		shared, only := pathStrings(in), pathStrings(notIn)
		var cs []string
		for _, c := range conflicts {
			if c.Manager.Manager == ref.Manager {
				cs = append(cs, c.Path)
			}
		}
		if len(cs) == 0 && len(shared) == 0 && len(only) == 0 {
			continue
		}
		var msg strings.Builder
		_, before := a.before.Fields[key]
		switch {
		case ref.Manager == merge.BeforeFirstApplyManager && !before:
			fmt.Fprintf(&msg, "the object has no managedFields, so the server first records everything it holds under %q", ref.Manager)
		case ref.Manager == merge.BeforeFirstApplyManager:
			fmt.Fprintf(&msg, "%q (what the object held when nobody tracked its fields) stays", ref.Manager)
		default:
			fmt.Fprintf(&msg, "client-side apply's %q stays", ref.Manager)
		}
		if len(cs) > 0 && forced {
			fmt.Fprintf(&msg, "; the apply takes %s from it by force", listPaths(cs))
		}
		if len(shared) > 0 {
			fmt.Fprintf(&msg, "; it co-owns %d %s the manifest sets (%s), which dropping from the manifest will never delete", len(shared), plural(len(shared), "field", "fields"), listPaths(shared))
		}
		if len(only) > 0 {
			fmt.Fprintf(&msg, "; it alone owns %d more (%s), which no apply of %q can remove", len(only), listPaths(only), a.manager)
		}
		if p := a.predictMigration(key, forced); p != "" {
			msg.WriteString("; " + p)
		}
		var fix string
		switch {
		case owned.Has(lastAppliedPath()) && !a.applier.RunsKubectlApply:
			fix = fmt.Sprintf("apply once with `kubectl apply --server-side --field-manager=%s`: it folds %q into that manager, after which dropped fields are deleted", a.manager, ref.Manager)
		case a.res.Action == merge.ActionCreate:
			fix = "once the object exists, remove the entry with a JSON patch on metadata.managedFields"
		default:
			fix = fmt.Sprintf("remove the entry once: `kubectl patch %s --type=json -p '[{\"op\":\"remove\",\"path\":\"/metadata/managedFields/%d\"}]'` (check the index first), then re-apply",
				a.target(a.after), indexOf(a.res.ManagedFields, ref))
		}
		a.add(Advice{ID: IDClientSideApplyLeftovers, Severity: SeverityWarning, Message: msg.String(), Fix: fix,
			Paths: append(append(append([]string(nil), cs...), shared...), only...), Managers: []string{ref.Manager}})
	}
}

// leftoverConflicts explains a refused apply's conflicts with leftover entries.
func (a *analysis) leftoverConflicts(conflicts []merge.Conflict) {
	byManager := map[string][]string{}
	var names []string
	for _, c := range conflicts {
		if _, ok := byManager[c.Manager.Manager]; !ok {
			names = append(names, c.Manager.Manager)
		}
		byManager[c.Manager.Manager] = append(byManager[c.Manager.Manager], c.Path)
	}
	for _, name := range names {
		paths := byManager[name]
		what := "client-side apply's record of the fields `kubectl apply` set"
		if name == merge.BeforeFirstApplyManager {
			what = "the server's record of everything the object held before anyone applied it"
			if len(a.before.Fields) == 0 {
				what += " (the object has no managedFields, so the server creates it now)"
			}
		}
		a.add(Advice{ID: IDClientSideApplyLeftovers, Severity: SeverityWarning,
			Message: fmt.Sprintf("the apply conflicts on %s with %q, %s: nobody decided these values, a leftover owns them", listPaths(paths), name, what),
			Fix:     fmt.Sprintf("if the manifest is now the source of truth for %s, apply once with %s; the leftover entry loses %s", plural(len(paths), "it", "them"), a.forceHint(), plural(len(paths), "it", "them")),
			Paths:   paths, Managers: []string{name}})
	}
}

// predictMigration says what `kubectl apply --server-side` would do to a leftover entry,
// when an engine is at hand and the applier is not kubectl already.
func (a *analysis) predictMigration(key string, force bool) string {
	if a.opts.Engine == nil || a.applier.RunsKubectlApply || a.live == nil || a.in.Manifest == nil {
		return ""
	}
	ep := merge.Endpoint{GVK: a.gvk, Subresource: a.sub}
	if a.res != nil {
		ep = a.res.Endpoint
	}
	md, _ := a.live["metadata"].(map[string]any)
	ep.Namespace, _ = md["namespace"].(string)
	ep.Name, _ = md["name"].(string)
	// The engine never changes the objects of a request: they need no copies.
	res, err := appliers.Kubectl(a.opts.Engine, merge.Request{Live: a.live, Object: a.in.Manifest,
		Endpoint: ep, Manager: a.manager, Force: force, Now: a.opts.Now})
	if err != nil || res == nil {
		return ""
	}
	cmd := fmt.Sprintf("`kubectl apply --server-side --field-manager=%s`", a.manager)
	if res.Rejection != nil {
		return fmt.Sprintf("%s would be refused too (%d)", cmd, res.Rejection.Code)
	}
	after, ok := res.ManagedFieldsDecoded(res.ManagedFields)
	if !ok {
		after = decode(res.ManagedFields)
	}
	if _, ok := after.Fields[key]; ok {
		return fmt.Sprintf("%s would not migrate it (it does not own the last-applied annotation)", cmd)
	}
	s := fmt.Sprintf("%s would fold it into %q", cmd, a.manager)
	if len(res.Deleted) > 0 {
		s += fmt.Sprintf(" and delete %s", listPaths(topmost(res.Deleted)))
	}
	return s
}

// staleAnnotation: the last-applied annotation outlives client-side apply when the applier
// is not the manager "kubectl", the only one the server keeps it in sync for (rules.md kubectl.annotation-sync).
func (a *analysis) staleAnnotation() {
	obj := a.after
	if obj == nil {
		obj = a.live
	}
	s, _ := annotationsOf(obj)[merge.LastAppliedAnnotation].(string)
	if s == "" || a.manager == merge.KubectlManager {
		return
	}
	a.add(Advice{ID: IDClientSideApplyLeftovers, Severity: SeverityInfo,
		Message: fmt.Sprintf("the last-applied annotation stays and goes stale: the server rewrites it only for the manager %q, so a later client-side `kubectl apply` would compute its changes from an old configuration and may revert or delete fields", merge.KubectlManager),
		Fix:     fmt.Sprintf("remove it once: `kubectl annotate %s %s-` (or apply with `kubectl apply --server-side`, which keeps it current)", a.target(obj), merge.LastAppliedAnnotation),
		Paths:   []string{fieldpath.PathString(lastAppliedPath())}})
}

// target names the object for a kubectl command: deployment.apps/web -n shop.
func (a *analysis) target(obj map[string]any) string {
	return objectRef(a.gvk, obj)
}

func indexOf(entries []fieldpath.Entry, ref fieldpath.ManagerRef) int {
	for i, e := range entries {
		if e.Manager == ref.Manager && e.Operation == ref.Operation && e.Subresource == ref.Subresource &&
			(e.Operation == fieldpath.OperationApply || e.APIVersion == ref.APIVersion) {
			return i
		}
	}
	return 0
}

// topmost keeps the paths no other path of the list is a prefix of: a deleted list item
// stands for its fields.
func topmost(paths []string) []string {
	var out []string
	for _, p := range paths {
		covered := false
		for _, q := range paths {
			if q != p && strings.HasPrefix(p, q) && len(p) > len(q) && (p[len(q)] == '.' || p[len(q)] == '[') {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, p)
		}
	}
	return out
}
