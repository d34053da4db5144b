package advice

import (
	"fmt"
	"strings"

	"github.com/ssa-diff/ssa-diff/merge"
)

// This file is the advice for Helm 4's fights (Applier helm): the fixes of
// fights-controller in the chart's values and Helm's flags, and helm-stale-migration.

// helmFightFix is the fix of a fight between a Helm release and the controller of c: an
// autoscaler's replicas, a CA injector's caBundle, a field an admission controller or
// operator writes. Each is fixed in the chart (its values, or its template), not with
// --force-conflicts, which takes the field back at every upgrade while the controller
// keeps writing it.
func helmFightFix(c *contest, replicas bool) string {
	caBundle := false
	for _, p := range c.paths {
		caBundle = caBundle || strings.HasSuffix(p, ".caBundle")
	}
	switch {
	case replicas:
		return fmt.Sprintf("stop the chart from setting spec.replicas while %q scales it: set the value that renders it to null (`--set replicaCount=null`, or the chart's own switch, such as autoscaling.enabled=true, where its template leaves replicas out), so Helm releases it to the autoscaler; `helm upgrade --force-conflicts` would take it back at every upgrade, and the autoscaler would scale it again", c.ref.Manager)
	case caBundle:
		return fmt.Sprintf("leave caBundle out of the chart's webhook configuration (render it only when set: `{{- with .Values.caBundle }}`, and do not set it) so that the CA injector %q keeps writing it; `helm upgrade --force-conflicts` would put the chart's value back and break TLS to the webhook until the injector runs again", c.ref.Manager)
	}
	return fmt.Sprintf("give the chart the value %q writes (in its values: -f values.yaml or --set), or leave %s out of the template so that Helm stops applying %s; `helm upgrade --force-conflicts` takes %s back at every upgrade and %q writes %s again (an admission webhook mutates it on every write)",
		c.ref.Manager, listPaths(c.paths), plural(len(c.paths), "it", "them"), plural(len(c.paths), "it", "them"), c.ref.Manager, plural(len(c.paths), "it", "them"))
}

// helmStaleMigration: Helm patched managedFields to move its client-side entry into its
// server-side one, then the apply was refused. The patch stays: the object is now owned by
// helm's Apply entry, the revision is recorded failed with apply_method ssa, and the next
// `helm upgrade` (--server-side=auto follows that failed revision) applies server-side
// again, into the same conflict unless it is resolved.
func (a *analysis) helmStaleMigration() {
	if !a.applier.RecordsRevisions || a.res == nil || a.res.Rejection == nil || len(a.res.Steps) < 2 {
		return
	}
	first, last := a.res.Steps[0], a.res.Steps[len(a.res.Steps)-1]
	if !strings.HasPrefix(first.Description, "managedFields migration") || first.Code >= 300 || last.Code < 300 {
		return
	}
	var managers []string
	for _, c := range a.res.Conflicts {
		managers = append(managers, c.Manager.Manager)
	}
	managers = unique(managers)
	a.add(Advice{ID: IDHelmStaleMigration, Severity: SeverityWarning,
		Message:  fmt.Sprintf("Helm's migration patch is written before the apply is refused, and stays: %q's client-side entry is now its Apply entry; the revision is recorded failed with apply_method ssa, so the next `helm upgrade` applies server-side again (auto follows the last revision) and meets the same conflict", a.manager),
		Fix:      fmt.Sprintf("resolve the conflict before upgrading again: give the chart the value %s holds (values) or stop it rendering the field; or take it with `helm upgrade --force-conflicts`. A rollback to the client-side revision patches fields back but leaves helm's Apply entry", quoteAll(managers)),
		Managers: managers})
}

// helmServerSide reports whether Helm's requests for the object include a server-side
// apply (its steps: an apply, after a migration patch or not).
func helmServerSide(res *merge.Result) bool {
	if res == nil {
		return false
	}
	for _, s := range res.Steps {
		if strings.HasPrefix(s.Description, "apply") {
			return true
		}
	}
	return false
}
