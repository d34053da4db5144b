package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	for _, text := range []string{"first", "second"} {
		if err := Write(p, []byte(text)); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(p); string(b) != text {
			t.Errorf("file = %q, want %q", b, text)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files left in the directory, want 1", len(entries))
	}
}
