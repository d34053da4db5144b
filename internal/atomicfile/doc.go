// Package atomicfile writes a file so that whoever reads it — a later step of a CI job, or
// the user after a run that was interrupted, killed or failed half-way — finds the previous
// file (or none) or the whole new one, never a part of it.
//
// The data goes to a temporary file in the target's directory (so that the rename is one
// operation of one file system), named after the target and hidden (".NAME.tmp-RANDOM"); a
// commit syncs it to disk, gives it its mode and renames it over the target, an abort
// removes it. A process killed outright (SIGKILL, a power cut) leaves the temporary file
// behind, never a short target.
//
// A target that exists and is not a regular file — a terminal, a pipe, /dev/stdout — cannot
// be replaced: it is written in place, as a stream.
package atomicfile
