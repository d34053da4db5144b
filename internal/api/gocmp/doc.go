// Package gocmp prints the difference of two internal API values as a server before 1.34
// prints it: go-cmp's cmp.Diff of the release's own internal Go types.
//
// Kubernetes 1.32 and 1.33 refuse a change to an existing ephemeral container with the
// difference of the two containers as cmp.Diff writes it (from 1.34 apimachinery's JSON
// diff, which package internal/validation prints itself). cmp.Diff's text follows the Go
// types: their names (`core.EphemeralContainer{`), the fields they have and their order
// (`... // 20 identical fields`). So the values, held in package internal/api's types (the
// latest release's), are copied field by field into the release's own types (packages
// core132 and core133, generated from k8s.io/kubernetes v1.32.13 and v1.33.13 by ./gen:
// 1.33 added a lifecycle's StopSignal) — fields the release has not are left out — and given
// to go-cmp (1.32 links v0.6.0, 1.33 v0.7.0: their reports are the same code; this links
// v0.7.0).
//
// go-cmp's reflection over method sets turns off the linker's dead code elimination, so
// ssa-diff does not link this package: its helper program ssa-diff-admission does, and
// [Print] is what it answers the model's request with (package internal/admission/wire's
// Diff: the two values as encoding/json writes the internal types).
//
// go-cmp varies its output on purpose: each process picks once whether the two columns
// that mark a line (`  `, `- `, `+ `) are spaces or non-breaking spaces (U+00A0). Which one
// a server's process picked cannot be known: the diffs are written with spaces, always, and
// Deterministic is a server's text written so, for comparing a recorded answer.
package gocmp
