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
// fluxcd/pkg/ssa) is named in its comment. The functions know nothing of files or flags:
// the command picks one, and options say what a user configures about the controller.
package appliers
