//go:build unix

package input

import (
	"io/fs"
	"syscall"
)

// fileID identifies a file whatever the path it is reached by.
type fileID struct{ dev, ino uint64 }

func idOf(info fs.FileInfo) (fileID, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true //nolint:unconvert // the field types differ by platform
}
