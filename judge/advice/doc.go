// Package advice checks an apply against the contract server-side apply exists to keep —
// people write spec, controllers write status, every field has one owner — and says, before
// the merge, when a change breaks it and what to do instead.
//
// # The model
//
// The engine (package merge) predicts one write: the object, its managedFields, the
// conflicts with both values, who gains and loses which fields, what is deleted. [Analyze]
// reads that prediction together with the live object and the manifest and turns the
// classic mistakes into [Advice]: a stable id, a severity, one line saying what happens,
// one line saying what to do instead, and the fields and managers concerned. It never
// fails; what it cannot judge (no prediction, no schema) it leaves out.
//
// Managers are judged by their entries. An Apply entry is someone declaring intent; an
// Update entry is a program writing what it computed (a controller), unless it is an
// imperative kubectl command (kubectl-edit, kubectl-scale …: a change by hand) or a
// leftover: kubectl-client-side-apply, client-side apply's record, and before-first-apply,
// the server's record of an object nobody tracked.
//
// The live object's own health is a separate question, answered by [StateOf] as one
// "state" line: has the controller observed the current generation, are the replica
// counters at their target (convergence), and has any condition been unhealthy for longer
// than a grace time (health). Convergence is not health: a converged object can be stuck.
//
// Every id can be silenced with [Options].Disabled; [Known] lists them.
//
// # The advice
//
// status-in-manifest (warning): the manifest sets fields the endpoint resets — status on a
// main resource with a status subresource, spec (and for some kinds metadata or labels) on
// /status. The server drops them without a word: the apply neither sets nor owns them. The
// engine's own reset table decides ([merge.RestoreResetFields]); an empty `status: {}` is
// not reported. Fix: remove them; write status through /status, spec through the main
// resource.
//
// fights-controller (warning): the manifest sets a field a controller owns through an
// Update — an autoscaler's spec.replicas (through /scale or a PUT), a controller's
// annotation. Without force the apply is refused with a 409; with force (Argo CD and Flux
// always force) the apply takes the field and the controller writes it back at its next
// sync, for ever. Fix: drop the field from the manifest (for replicas, put the floor in the
// HPA's minReplicas), or hand it over deliberately with --force-conflicts and stop the
// controller.
//
// overrides-manual-change (info): the manifest sets a field last changed by hand with an
// imperative kubectl command. Fix: fold the change into the manifest, or take it with force.
//
// client-side-apply-leftovers (warning, info): client-side apply's traces. When the applier
// migrates them (`kubectl apply --server-side`, Argo CD), says so and names what the first
// apply after the migration deletes. When they stay (a raw apply, another manager), lists
// the fields they co-own with the applier — dropping those from the manifest will never
// delete them — and those they alone own; with an [Options].Engine, predicts what one
// `kubectl apply --server-side` would do. A refused apply's conflicts with a leftover are
// explained as such. A last-applied annotation that only the manager "kubectl" keeps in
// sync goes stale under any other manager (info). Fix: apply once with `kubectl apply
// --server-side`, or remove the entry with a JSON patch of metadata.managedFields, or the
// annotation with kubectl annotate.
//
// helm-stale-migration (warning): Helm 4, applying server-side over a release Helm 3 (or
// `--server-side=false`) wrote, first patches managedFields to turn its client-side entry
// into its Apply entry; when the apply after it is refused, the patch stays written and
// the revision is recorded failed with apply_method ssa, so the next `helm upgrade`
// applies server-side again and meets the same conflict. Fix: resolve the conflict in the
// chart (the other manager's value in the values, or the field left out) or take it with
// `helm upgrade --force-conflicts`; a rollback does not undo the migration.
//
// With the Helm applier, fights-controller's and overrides-manual-change's fixes are in
// the chart: an autoscaler's replicas left out (a value set to null, the chart's
// autoscaling switch), a CA injector's caBundle not rendered, an admission controller's
// value given to the chart or the field left out of the template; `--force-conflicts`
// only takes the field back until the controller writes it again.
//
// co-owned-field-kept (info): fields the applier stops applying stay in the object because
// another manager still owns them. Fix: the co-owner must drop them too, or take them over
// and drop them.
//
// item-removed-despite-co-owner (warning): a keyed-list item the applier drops is deleted
// although another manager owns a field inside it: owning a sub-field does not keep an item.
// Fix: keep the item (its keys are enough) or have the other manager apply the item.
//
// co-owner-of-controller-value (warning): the apply makes the applier co-owner of a value a
// controller owns (same value, so no conflict). When the controller changes it, its update
// silently takes the field, and the next apply of the manifest conflicts. Fix: leave the
// field to the controller.
//
// apiversion-mismatch (warning): the live object's managers recorded their fields at
// versions the engine cannot convert to the manifest's as the server does (a CRD's
// conversion webhook, a kind known only from an OpenAPI document): the engine converts by
// structure, so ownership of fields the versions name differently is approximate; or at
// versions the server no longer serves, whose entries it drops. Built-in conversions and
// CRDs without a webhook are converted as the server converts them and need no advice.
// Fix: write the manifest at the managers' version.
//
// apiversion-removed (warning) and apiversion-deprecated (info): the manifest's apiVersion
// is no longer served by, or deprecated in, the Kubernetes minor of the schemas given
// (Options.Schemas); [Retirements] is the table, and with schemas any alpha or beta
// version of a built-in kind that has a stable version counts as deprecated. Fix: the
// replacement apiVersion, with what changed.
//
// cluster-policy (info): the server's refusal names privileged or hostProcess containers,
// which kube-apiserver refuses only when run with --allow-privileged=false (the flag's own
// default), predicted only when asked (kubeapiserver.Config.ForbidPrivileged, the CLI's
// --allow-privileged=false): kubeadm, kind, k3s and the managed clusters run with true.
// Fix: predict without it if the cluster allows them.
// It also says when a Service's IP families are refused (RequireDualStack, an IPv6 family
// or cluster IP) for a cluster whose service IP families were not declared (Options:
// taken to be IPv4 alone, kube-apiserver's single --service-cluster-ip-range of the
// recording server). Fix: kubeapiserver.Config.ServiceIPFamilies (the CLI's
// --service-ip-families IPv4,IPv6) if the cluster is dual-stack.
//
// denied-by-policy (warning): a ValidatingAdmissionPolicy of the cluster refuses the write
// (the refusal names the policy and binding; with the cluster state, Options.Cluster, the
// validation whose expression does not hold and where the policy was read), or the
// namespace's pod-security.kubernetes.io/enforce level does. Fix: change the manifest so
// that the validation holds (or the Pod meets the level); exceptions are the policy
// owner's (the binding's matchResources, its params, a matchCondition).
//
// warned-by-policy (info): a binding with validationActions Warn reports a validation that
// does not hold; the write goes through. Fix: the same, before the binding denies.
//
// not-converged (info, state): the controller has not observed the current generation, or
// the replica counters (updated, ready, available; for a DaemonSet scheduled and
// misscheduled too) are not at the desired count. Fix: judge the apply against a settled
// object; `kubectl rollout status`.
//
// condition-unhealthy (warning, state): a condition has been False or Unknown — True for
// failure conditions such as ReplicaFailure, Failed, Stalled, Degraded or node pressure —
// for longer than [Options].ConditionGrace (five minutes), measured from its
// lastTransitionTime to [Options].Now; a ProgressDeadlineExceeded is reported at once.
// Fix: find the cause; re-applying will not change it.
package advice
