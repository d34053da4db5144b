// Package atomicfile replaces files all at once, for the generators of this module: a
// reader, or a run that fails half-way, never sees half a file.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces path with data (mode 0644) through a temporary file renamed over it.
func Write(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
