// Package predict is one run of ssa-diff as a library: the minor it predicts, decided first,
// and each apply predicted and judged in one call, the answer typed data.
//
// # The model
//
// A run predicts one Kubernetes minor (kube.Minor). [MinorChoice.For] decides it before
// anything is predicted: the minor the user named wins; otherwise the minor of the cluster
// the live state comes from (a dump's record, the cluster's /version), refused when ssa-diff
// does not predict it, unless the user asked for the nearest one; with nothing known, the
// newest released minor (kube.Default). The run's schemas (schema.Registry) and model (server/kubeapiserver) are
// then built at that minor.
//
// A [Run] holds what every prediction of the run shares: the [Predictor] (the engine,
// [Engine], on which the run's applier sends its requests), the applier (package
// appliers), the schemas, the [judge.Judge] of the live state, the subresource, force, the
// time, and the advice's options. [Run.Predict] takes one [Apply] — a manifest and the live
// object it applies to, at an endpoint — and returns a [Prediction]:
//
//   - the request as the applier sends it: a namespaced object that names no namespace gets
//     the one it applies to when the client writes it in (kubectl and the GitOps
//     controllers do, a raw API request does not), unless the server does not serve the
//     kind (the client refuses it and sends nothing);
//   - the engine's answer (merge.Result) and the live object it compares with (the server
//     reads it at the request's version);
//   - what the answer rests on that ssa-diff could not see (judge approximations), the
//     fields a refusal is about, the advice on the spec/status discipline and the live
//     object's state (package judge/advice);
//   - for a refusal with conflicts, when asked, the same apply predicted with force: what
//     taking the fields would do.
//
// What the live state is evidence of is judged for each apply too ([Evidence.Judge]): an
// object the cluster read could not read, a namespace a dump does not say, a create of a
// kind the dump holds none of (it may just not have been dumped), a live object without
// managedFields, a dump printed without them. And [Run.Pruned] says which live objects the
// applier deletes because no manifest names them: those its prune rule claims
// (appliers.Applier.Prunes), in the namespaces the apply visits.
//
// # Inputs
//
// A run's inputs are read as the command reads them, so that a Go program embedding the
// engine need not decode YAML itself. An [Object] is one Kubernetes object as decoded JSON
// (map[string]any: maps, slices, strings, bools, int64, float64 and nil — what
// merge.Request takes), with the place it was read from ([Source]: file, document, List
// item, line). [Files] reads paths the way kubectl reads -f: a file is a stream of YAML
// documents or JSON values, a directory is read recursively (its .yaml, .yml and .json
// files in lexical order), Lists — the output of `kubectl get -o json` — stand for their
// items. [Bytes] reads one stream held in memory. Input is bounded (128 MiB in all,
// nesting and aliases limited), and bad input is an error naming the file, document, line
// and field; the objects that could be read are returned beside it. [ClusterState] reads
// the objects the cluster's admission chain reads.
//
// [Match] pairs manifests with live objects by group, kind, namespace and name, as the
// server would address the apply: a namespaced kind whose manifest names no namespace goes
// to the namespace given, which kinds are namespaced is read from a schema.Registry (custom
// resources included once their CRDs are added). A [Pair] whose Live is nil creates its
// object.
//
// Nothing here reads flags, nor decides an exit status: the command (package cli) reads
// its flags, reports each Prediction, and applies its policy to the report.
package predict
