package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// File is a file being written; the target changes only at Commit.
type File struct {
	path string
	perm os.FileMode
	f    *os.File
	// stream: the target is not a regular file and is written in place.
	stream bool
	done   bool
}

// Create starts writing path. perm is the mode the file gets at Commit (a file replaced
// gets perm too, not the mode it had).
func Create(path string, perm os.FileMode) (*File, error) {
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		if info.IsDir() {
			return nil, fmt.Errorf("%s is a directory", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &File{path: path, f: f, stream: true}, nil
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return &File{path: path, perm: perm, f: f}, nil
}

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, fmt.Errorf("%s: written after its commit or abort", f.path)
	}
	return f.f.Write(p)
}

// Name is the path of the target.
func (f *File) Name() string { return f.path }

// Commit puts what was written in place of the target. On error the target is unchanged
// and the temporary file removed.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("%s: committed after its commit or abort", f.path)
	}
	f.done = true
	if f.stream {
		return f.f.Close()
	}
	tmp := f.f.Name()
	err := f.f.Chmod(f.perm)
	if err == nil {
		err = f.f.Sync()
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, f.path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", f.path, err)
	}
	return nil
}

// Abort drops what was written: the target stays as it was. After Commit it does nothing,
// so that it can be deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	_ = f.f.Close()
	if !f.stream {
		_ = os.Remove(f.f.Name())
	}
}

// WriteFile replaces path with data, all at once.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return f.Commit()
}

var _ io.Writer = (*File)(nil)
