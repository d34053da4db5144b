// Package merge predicts what the Kubernetes API server does with a write to an object
// under server-side field management: the object it stores, the managedFields it records,
// and the conflicts or other refusals it answers.
//
// # The model
//
// An object's fields are owned by managers (package fieldpath). A write is either an Apply —
// the manager declares the fields it wants to own and their values — or an Update (PUT,
// PATCH, POST), which simply gives the writer every field it changed. The API server runs
// every write through the same chain of steps, outermost first:
//
//  0. the request's group, version and kind must be served (else 404 from the server, or
//     the client's own refusal: kubectl's "no matches for kind"); the stored object is
//     read at the request's version, converted through the kind's internal version
//     (package internal/conversion), and managedFields entries recorded at other versions are
//     compared after converting the object to their versions — entries at versions the
//     server no longer serves are dropped;
//  1. the manager name and the body's group/version/kind are checked (400, 422);
//  2. for the manager "kubectl", conflicts on fields whose last-applied value still matches
//     the live object are allowed, and the last-applied annotation is kept in sync;
//  3. an object nobody tracks yet gets a before-first-apply Update entry owning everything;
//  4. structured-merge-diff merges the body into the live object, computes the applier's
//     field set, removes fields the applier stopped applying that nobody else owns, and
//     finds the fields other managers own with other values — the conflicts;
//  5. fields of the subresource's reset table (status on the main resource, spec on
//     /status …) are neither owned nor conflicted on;
//  6. the system metadata (name, uid, resourceVersion …) is never tracked, empty entries
//     disappear, Update entries past ten are folded into ancient-changes, and changed
//     entries get the current time;
//  7. the registry defaults the object and applies its own rules (status reset, generation
//     moved when the strategy's comparison of the decoded objects says the spec changed)
//     and validates it, on the internal version — an apply whose step 4 changed nothing
//     goes on with the object the server holds, not one read back from the request's
//     version, only the last-applied annotation of step 2 rewritten; the store keeps the
//     stored managedFields times when only they changed; the answer is at the request's
//     version.
//
// What the server assigns and no prediction can know — a uid, the time, an allocated IP or
// port, a Job's uid-based selector — is never invented: [Result.Assigned] names it.
//
// [Engine.Apply] runs that chain for one apply; [Engine.Update] for a PUT, [Engine.Patch] for
// a JSON merge, strategic merge or JSON patch — applied first to the object as the server
// encodes it, with the patch libraries the server uses — and [Engine.Create] for a POST;
// [Engine.Send] dispatches on a [Verb]. A write through /scale runs the verb's field
// management on an autoscaling/v1 Scale the registry makes of the parent, with entries made
// of the parent's, and carries the result back to the parent (scale.go). Clients apply in
// sequences of requests: a [Sequence] ([Engine.Begin]) predicts them one after the other
// and sums them up as one [Result] relative to the live object. Package appliers
// holds the sequences of kubectl, Argo CD and Flux. Every refusal comes back
// as a [StatusError] worded byte for byte as the server words it; everything else — the
// predicted object, managedFields, conflicts with both values, ownership moves, deleted
// fields — is data on the [Result].
//
// Step 4 is structured-merge-diff's own code, with shortcuts. Where that code ranges over
// Go maps and meets a failing conversion at two versions, the server answers either error;
// a failed run is made again with the managers and versions in sorted order, so a request
// gets one of the server's answers, the same every time (stableupdater.go;
// FuzzStableUpdater holds it to structured-merge-diff's answers). Its prune, three walks over
// the object, is skipped when the applier keeps every field it owned, where it provably
// removes nothing (fieldapply.go says why; FuzzEngine and the differential test against the
// Kubernetes field manager hold both paths to the same answers). The typing's validation,
// the body's field set, the comparison of the live and the merged object, their equality
// and the reconciling of each entry's set with the schema, and the merge itself, are walked
// on the unstructured values and the sets themselves (valuewalks.go, setwalks.go,
// comparewalk.go, mergewalk.go; list items found by itemid.go's keys), each handing to
// structured-merge-diff what it cannot answer plainly (FuzzSetWalks and FuzzMergeWalk
// hold each to structured-merge-diff's walk). Force changes nothing in
// those walks but what becomes of the conflicts (an error, or fields taken from their
// owners), so an apply that met conflicts keeps them, and the same apply with force — the
// kubectl relaxation's, the forced request after a 409, or a later request given that
// answer as [Request.Unforced] — only runs the ownership step on them
// (TestForcedAfterConflictsAgrees holds it to structured-merge-diff's updater).
//
// Rule ids in comments (conflict.message-many, untracked.first-apply, …) are those of
// docs/rules.md, the one catalogue of the server's rules in the repository.
package merge
