// Package appliers predicts what the clients people apply with send to the API server for
// one object, and what comes of it: `kubectl apply --server-side` ([Kubectl]), an Argo CD
// server-side sync ([ArgoCD]) and a Flux kustomize-controller apply ([Flux]).
//
// A client rarely sends one request. kubectl follows its apply with an apply of the
// last-applied annotation and a patch that folds client-side apply's owners into its own
// entry, then applies again; Argo CD first migrates the client-side owner it was told
// about, then runs kubectl's sequence with force; Flux patches the managers it takes over
// and the metadata it cleans up, dry-runs, and applies only when something drifted. Each
// function runs that sequence on a [merge.Sequence]: every request is predicted by the
// engine as the server would answer it, each one's live object is the previous one's
// answer, and the result sums the sequence up relative to the live object given — the
// requests in Steps, the ownership every manager lost over the whole sequence (entries a
// client renamed or merged away included), and the conflicts a forced apply overrode.
//
// What each step follows upstream (kubectl 1.37, Argo CD 3.x with gitops-engine, Flux's
// fluxcd/pkg/ssa) is named in its comment. The functions know nothing of files; each
// options type says what a user configures about the controller.
//
// # The list of appliers
//
// [Kinds] is the one list of the appliers ssa-diff predicts. A [Kind] says everything the
// rest of the program asks of an applier: its name (--applier, the report), what it
// predicts (the usage), its own options (flags such as --argocd-app, with the values they
// take), how advice words its apply and its force, what it prunes, and how it is built from
// what the user said ([Settings]). The command, the completion, the advice (package
// judge/advice) and the report read the list; none names an applier. Adding an applier is
// its file — the Applier type, its sequence of requests, its Kind — and one line in Kinds
// (internal/testkit TestAddingAMinorAndAnApplier builds the binary with a fake one).
package appliers
