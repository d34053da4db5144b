// Package cli is the ssa-diff command: it reads manifests and live objects, asks the engine
// (package merge) what the API server would do with each apply, and prints the answer.
//
//	ssa-diff [flags] MANIFESTS [LIVE]
//	ssa-diff [flags] -k KUSTOMIZATION [-f MORE] [LIVE]
//	ssa-diff blame LIVE
//	ssa-diff version
//	ssa-diff completion bash|zsh|fish|powershell
//	ssa-diff __complete WORDS... CURRENT   (also as kubectl_complete-ssa_diff: package internal/completion)
//
// Run is the whole command behind a testable signature; main only calls it and exits with
// the status it returns:
//
//	0  nothing would change
//	1  something would change (the object, or who owns which fields)
//	2  ssa-diff could not predict (bad usage, unreadable or malformed input)
//	3  the server would reject at least one apply (conflicts or any other refusal)
//	4  a policy fails: a --fail-on category other than rejected, or a --protect manager
//	   losing fields
//
// Main is Run for the program itself: SIGINT and SIGTERM stop the run (package interrupt) —
// the cluster's requests cancelled, no prediction started, nothing more written — with the
// statuses 130 and 143. --output-file (FILE, and each FORMAT=PATH: one prediction, several
// formats) and --save-live are written all at once (package outfiles, on package atomicfile): a run
// stopped half-way leaves the previous file.
//
// The pieces live in sub-packages: input reads files and pairs manifests with live objects,
// render builds kustomizations as kubectl apply -k does (attributing objects and fields to the
// files they came from), report is the versioned result model, output prints it in each format.
// What is not flags, options or output glue lives beside them, one job a package: gather (the
// run's inputs read, paired and planned from one Options; the engine of their minor), emit (the
// report written as the run predicts; the progress line), flagvalue (the flags' checked values,
// the appliers' options as flags, the usage), completion (the shell scripts and __complete),
// helmrun (--applier helm's release), livestate (the live state's record and evidence, a
// cluster read, --save-live), mistakes (a newcomer's mistakes), rawpatch (patches that name no
// object), schemafiles (--schema and --crd, for any minor), shard (a shard's slots and record),
// plan (the run's slots in order, their steps, each result settled), outfiles (the report's
// files, written all at once), blametext (blame's printing), gctune and interrupt (the
// process's settings for Main). Objects are predicted in parallel by a bounded pool of workers;
// results are printed in input order.
// Manifests for the same object are applied one after the other, each to the object the
// previous one leaves, as kubectl would.
//
// # The GitOps pre-merge gate
//
// The appliers kubectl (the `kubectl apply --server-side` sequence), api (one request),
// argocd and flux (the controllers' forced syncs, appliers.ArgoCD and appliers.Flux)
// are chosen with --applier. Each result is made and judged in one call
// (report.Verdict.Judge) by the policy of judge/gate (--fail-on, --allow-takeover-from,
// --protect) into findings — rejected, conflict, takeover, protected, deletion, error,
// warning — each at the manifest line of its field. Failing findings decide the exit status;
// the CI formats (github, junit, markdown) and --summary print them. A result is let go
// once printed unless the format needs them all at the end (json, yaml), so a long run's
// memory does not grow with its output; a progress line shows on a terminal.
//
// # Rendering, pruning, strict mode
//
// Manifests are rendered as the appliers render them (package gather): -k and kustomization
// directories through package render, `helm template` output on standard input attributed
// to its templates (input.Loader.SourceComments). A finding's line comes from the object's
// locator (input.Object.LocateFieldPath), which for a rendered object may be in another file
// (the patch that sets the field). With --prune, the live objects the applier would delete
// become results of action prune (predict.Run.Pruned: Argo CD's tracking, Flux's owner labels,
// kubectl's selector pruner). What a prediction rests on that ssa-diff cannot see becomes
// approximations with a reason (judge.Judge.Approximations: no schema, OpenAPI v2, version conversion,
// admission webhooks of the live state), which --fail-on approximate fails on. A refusal's
// fields (judge.Judge.RefusalFields) put its finding at the field's line, with the schema's closest name
// for a field it does not declare.
package cli
