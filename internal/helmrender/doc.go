// Package helmrender renders a chart as Helm 4 renders it for an install or an upgrade,
// with Helm's own libraries (helm.sh/helm/v4: the chart loader, the values merge, the
// template engine, the manifest sorter): the manifest Helm stores in the release record
// and applies, the chart's crds/ files, and the hooks it runs apart.
//
// The model. Helm renders with the release's name, namespace and next revision, IsInstall
// or IsUpgrade, and the cluster's capabilities (its version and API versions; offline,
// Helm's defaults at the Kubernetes minor given). An upgrade given no values (-f, --set …)
// reuses the values of the release it starts from; --reuse-values merges them under the
// new ones, --reset-then-reuse-values merges them over the new chart's. The engine's
// output is sorted into hooks and manifests by kind, in Helm's install order, and written
// as the release record stores it ("---\n# Source: <template>\n<document>\n" each).
//
// Only the plugin binary (cmd/helm-ssa-diff) links this package: Helm's libraries bring
// client-go's typed clients and kubectl with them, which the ssa-diff binary must not start
// with (internal/testkit's dependency fences).
package helmrender
