// Package helmplugin is `helm ssa-diff`: the Helm 4 plugin that renders a chart as
// `helm install`, `helm upgrade` or `helm rollback` would (package helmrender, Helm's own
// libraries) and predicts what the command does to the cluster with ssa-diff's Helm
// applier — the requests per object, who owns what afterwards, the 409 conflicts and the
// refusals that helm-diff and `helm upgrade --dry-run=server` do not show.
//
// The model. A plugin is run by helm with the arguments after its name and Helm's
// environment (HELM_NAMESPACE, HELM_KUBECONTEXT, KUBECONFIG, HELM_DRIVER, the repository
// and registry configuration). [Main] reads the release's records (from the cluster, or
// from a dump given with --live), renders the chart at the revision the command would
// make (an upgrade given no values reuses the release's, as Helm does), then runs the
// ssa-diff command on the rendered manifest with --applier helm and the command's flags:
// the report, its formats and exit statuses are ssa-diff's.
package helmplugin
