// Package benchcorpus generates a realistic GitOps repository and the live state of the
// cluster it deploys to, for benchmarks and end-to-end tests of ssa-diff.
//
// # What is generated
//
// The repository holds teams (one Namespace each) of applications. An application is a
// Deployment with two to four containers (the service, an Envoy sidecar, a log shipper,
// sometimes a metrics exporter, sometimes an init container), its Service, its ConfigMap,
// and — for some — a HorizontalPodAutoscaler (autoscaling/v2), a ServiceMonitor
// (monitoring.coreos.com/v1) and a Certificate (cert-manager.io/v1); the two custom kinds
// come with their CustomResourceDefinitions in the repository and in the cluster.
//
// # How the live state is made
//
// The live objects are not written by hand: every application lives through a history of
// writes predicted by the ssa-diff engine itself (package merge), so their metadata and
// managedFields are what a kube-apiserver 1.37 would hold. A history starts with the
// object's creation by one of the appliers found in real clusters (Argo CD's forced
// server-side apply, Flux's kustomize-controller, `kubectl apply --server-side`, the
// client-side `kubectl apply` with its last-applied annotation, Helm's updates), goes through
// the controllers' writes (the Deployment controller's revision annotation and /status, the
// HPA's /scale and /status, cert-manager's /status, the Service IP allocator) and people's
// (kubectl edit, kubectl rollout restart, kubectl label), and ends with a second sync of the
// application's previous version. The pull request under test is then the repository at the
// next version: most applications unchanged, some with a new image, changed or removed
// configuration, a removed environment variable, replicas pinned under an HPA, new labels or
// containers; a few are new (creates) and some live applications are not in the repository.
//
// Everything is deterministic for a seed: the same [Options] give the same bytes.
package benchcorpus
