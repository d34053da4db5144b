// Package helmrelease reads Helm's release records: what a Helm 3 or Helm 4 install,
// upgrade or rollback left in the cluster for the next one to read.
//
// The model. Helm keeps one record per revision of a release, in the release's namespace,
// as a Secret (the default driver) or a ConfigMap (HELM_DRIVER=configmap) named
// sh.helm.release.v1.<release>.v<revision>, labelled owner=helm, name=<release>,
// status=<status>, version=<revision>. Its data key "release" holds the release as JSON,
// gzip-compressed (best compression) and written in standard base64; a Secret's data is
// base64 once more, as every Secret's is. Helm reads a record back by undoing both — the
// gzip only when the bytes start with gzip's magic number — and skips, without a word, a
// record it cannot decode.
//
// What the next command reads from the history:
//
//   - the last revision (the highest version, whatever its status: failed and superseded
//     ones count): `helm upgrade --server-side=auto` applies server-side exactly when its
//     apply_method is "ssa" — a Helm 3 record has none, and stays client-side;
//   - the last deployed revision (by its status label): the manifest an upgrade compares
//     with (the objects it patches, the ones it deletes) and, with the revision's
//     apply_method, whether the upgrade migrates client-side ownership first;
//   - one given revision: what `helm rollback` goes back to, its manifest and its
//     apply_method.
//
// [Decode] reads the data of one record, [FromObject] one stored Secret or ConfigMap, and
// [Find] a release's history among the objects of a dump or a cluster's list. Nothing here
// writes a record or talks to a cluster.
package helmrelease
