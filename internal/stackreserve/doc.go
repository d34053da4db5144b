// Package stackreserve gives a goroutine, once and up front, the stack its work will grow
// to, instead of letting the runtime grow it step by step.
//
// A goroutine starts with a small stack (2 KiB when the process starts). Each time a call
// needs more than is left, the runtime allocates a stack twice as large, copies the old one
// over and adjusts every pointer into it: a goroutine whose calls nest 100 KiB deep is
// copied six times, each copy walking all the frames live at that moment. A short process
// such as one prediction pays this on every goroutine it starts (the main goroutine while
// the dependencies initialise, the command, the readers and the workers): about 2% of a
// plain run's instructions.
//
// Reserve calls a function whose frame is Size bytes while the goroutine's stack is still
// nearly empty: the runtime grows the stack once, straight to a size that holds that frame,
// and copies only the few frames live at that point. Later calls nest within it without
// growing. The memory is the stack's own: the garbage collector may shrink a stack that
// stays mostly unused, which costs a later growth, never a wrong result.
//
// Importing the package reserves the main goroutine's stack in its initialisation: the
// package imports nothing with an initialisation of its own, so the linker, which runs the
// initialisations of the packages ready to run in the order of their import paths, runs it
// among the first, before the dependencies whose initialisations nest deepest
// (structured-merge-diff's own schema, parsed by reflection; protobuf's descriptors).
package stackreserve
