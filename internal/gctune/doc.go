// Package gctune sets the garbage collector for one run of the command (the process's
// setting: the command's Main asks for it, Run and RunAs do not).
//
// The setting for a whole-repository run: Go's default (GOGC=100) lets
// the heap grow to twice what is live; a run allocates its input's size many times over
// (every prediction builds and drops its trees), so collecting less often saves a fifth
// of its CPU. ssa-diff lets the heap grow to three times what is live (GOGC=200) but not
// past a soft limit of four times the input it has read (32 MiB at least): a run stays
// within a few times its input. When what is live passes half that limit — objects that
// decode to more than the input's multiple — the limit moves up to twice what is live, so
// that the heap may always grow as far as with Go's default: never more collections. GOGC or GOMEMLIMIT in the
// environment turn all of this off: the runtime then does as they say.
//
// Reading sets it while the input is read; Tune, once the input's size is known, for the
// rest of the run, watching what is live until Stop.
package gctune
