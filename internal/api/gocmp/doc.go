// Package gocmp prints the difference of two internal API values as a server before 1.34
// prints it: go-cmp's cmp.Diff of the release's own internal Go types.
//
// Kubernetes 1.33 refuses a change to an existing ephemeral container with the
// difference of the two containers as cmp.Diff writes it (from 1.34 apimachinery's JSON
// diff, which package internal/validation prints itself). cmp.Diff's text follows the Go
// types: their names (`core.EphemeralContainer{`), the fields they have and their order
// (`... // 20 identical fields`). So the values, held in package internal/api's types (the
// latest release's), are copied field by field into 1.33's own types (package core133,
// generated from k8s.io/kubernetes v1.33.13 by ./gen) — fields 1.33 has not are left out —
// and given to the same go-cmp the release links (v0.7.0).
//
// go-cmp varies its output on purpose: each process picks once whether the two columns
// that mark a line (`  `, `- `, `+ `) are spaces or non-breaking spaces (U+00A0). Which one
// a server's process picked cannot be known: Diff writes spaces, always, and Deterministic
// is a server's text written so, for comparing a recorded answer.
package gocmp
