package testkit

import (
	"os"
	"testing"
)

// DirNames are the names in dir, sorted: what a run left in a folder.
func DirNames(t testing.TB, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(des))
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}
