// Package helmrun is --applier helm in a run of the command: a [Release] (the flags that
// name it and say what Helm does) finds its records among the live objects (a dump's, or
// listed from the cluster: [Release.ClusterRecords]), reads them into the release's history
// as Helm reads it, takes a rollback's manifests from its target revision
// ([Release.RollbackManifests]), and predicts the whole Helm command once
// ([Release.Run], appliers.RunHelm) before the objects are reported one by one, each
// answered by the appliers.HelmApply it returns. What Helm would say of the command (its
// revision, a dry run, objects kept) comes back as [Message]s, in order, for the command to
// print.
//
// The records are decoded by internal/helmrelease; the command's plan and its requests are
// package appliers'.
package helmrun
