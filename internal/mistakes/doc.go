// Package mistakes answers a newcomer's first mistakes with what happened and what to do:
// on the command line before anything is read (a URL given as a file, standard input given
// twice: InputPaths), in the inputs' shape (MANIFESTS and LIVE swapped: Swapped), and in a
// manifest, beside its prediction (one exported from the cluster: Exported; a variable
// nobody substituted, asked of a refused apply: Variables). Each answer is an error or a
// warning's words; where a manifest's field is named, at its line (the caller's line
// function, which reads the manifest's positions).
package mistakes
