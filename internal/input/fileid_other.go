//go:build !unix

package input

import "io/fs"

// fileID identifies a file whatever the path it is reached by; without inode numbers
// directories are told apart by nothing, and a walk that follows links is bounded by
// Limits.MaxFiles alone.
type fileID struct{}

func idOf(fs.FileInfo) (fileID, bool) { return fileID{}, false }
