// Package completion is ssa-diff's shell completion: the scripts of `ssa-diff completion
// bash|zsh|fish|powershell`, and the answers to completion requests (`ssa-diff __complete
// WORDS... CURRENT`, and the same from kubectl_complete-ssa_diff, the executable kubectl runs
// to complete `kubectl ssa-diff ...`).
//
// Both are made of a [Command]: the command's own flag sets read into [Flag]s ([FlagsOf]),
// each with what its value is — a fixed set (formats, minors, appliers …), files,
// directories, or FORMAT= then a file (--output-file) — so that they list every flag and
// never go stale. bash, zsh and fish get static scripts ([Command.Script]); PowerShell's
// script and the kubectl plugin's completion executable ask the binary itself
// ([Command.Complete]), whose [Answer] is cobra's protocol, which kubectl reads: one
// candidate a line (a tab, then its description), then a line ":DIRECTIVE".
//
// The package knows the command's subcommands and the shells; the command knows its flags.
package completion
