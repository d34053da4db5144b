package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
)

// Until Commit, the target is the previous file; after, the new one with its mode, and no
// temporary file is left.
func TestCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.txt")
	if err := os.WriteFile(path, []byte("previous\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("half")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "previous\n" {
		t.Errorf("before the commit the target is %q", data)
	}
	names := testkit.DirNames(t, dir)
	if len(names) != 2 || !strings.HasPrefix(names[0], ".report.txt.tmp-") {
		t.Errorf("while writing, the folder holds %q: want the target and .report.txt.tmp-*", names)
	}
	if _, err := f.Write([]byte(" and whole\n")); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the new file: %v, %v; want mode 0600", info, err)
	}
	if data, _ := os.ReadFile(path); string(data) != "half and whole\n" {
		t.Errorf("after the commit the target is %q", data)
	}
	if names := testkit.DirNames(t, dir); len(names) != 1 {
		t.Errorf("after the commit the folder holds %q", names)
	}
	f.Abort() // after a commit: nothing
	if _, err := os.Stat(path); err != nil {
		t.Errorf("Abort after Commit removed the file: %v", err)
	}
	if _, err := f.Write([]byte("x")); err == nil {
		t.Error("a write after the commit succeeded")
	}
	if err := f.Commit(); err == nil {
		t.Error("a second commit succeeded")
	}
}

// Abort leaves the previous file, or none, and no temporary file.
func TestAbort(t *testing.T) {
	dir := t.TempDir()
	for _, previous := range []string{"", "previous\n"} {
		path := filepath.Join(dir, "live.json")
		os.Remove(path)
		if previous != "" {
			if err := os.WriteFile(path, []byte(previous), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		f, err := Create(path, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("part of it"))
		f.Abort()
		data, err := os.ReadFile(path)
		switch {
		case previous == "" && !os.IsNotExist(err):
			t.Errorf("no previous file: after the abort %q, %v", data, err)
		case previous != "" && string(data) != previous:
			t.Errorf("after the abort the target is %q, %v", data, err)
		}
		want := 0
		if previous != "" {
			want = 1
		}
		if names := testkit.DirNames(t, dir); len(names) != want {
			t.Errorf("after the abort the folder holds %q", names)
		}
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	for _, data := range []string{"first", "second, longer"} {
		if err := WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != data {
			t.Errorf("got %q, want %q", got, data)
		}
	}
	if names := testkit.DirNames(t, dir); len(names) != 1 {
		t.Errorf("the folder holds %q", names)
	}
}

// Where the file cannot be: the error names it, and nothing is left behind.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Create(filepath.Join(dir, "missing", "out.json"), 0o644); err == nil || !strings.Contains(err.Error(), "missing/out.json") {
		t.Errorf("a missing folder: %v", err)
	}
	if _, err := Create(dir, 0o644); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a folder as the target: %v", err)
	}
	// A target the rename cannot replace (a non-empty folder created while writing).
	path := filepath.Join(dir, "late")
	f, err := Create(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(path, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err == nil || !strings.Contains(err.Error(), "cannot write "+path) {
		t.Errorf("a failed rename: %v", err)
	}
	if names := testkit.DirNames(t, dir); len(names) != 1 || names[0] != "late" {
		t.Errorf("after a failed commit the folder holds %q", names)
	}
}

// A target that is not a regular file (a pipe, a terminal, /dev/stdout) is written in
// place: it cannot be replaced.
func TestStream(t *testing.T) {
	f, err := Create(os.DevNull, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(os.DevNull); err != nil || info.Mode().IsRegular() {
		t.Errorf("%s was replaced: %v, %v", os.DevNull, info, err)
	}
}
