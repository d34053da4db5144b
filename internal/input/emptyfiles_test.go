package input

import (
	"errors"
	"strings"
	"testing"
)

// Files holding no object are left out, and said; a run of only such files is refused as
// kubectl refuses it.
func TestWithoutEmptyFiles(t *testing.T) {
	empty := Entry{Err: fileError("empty.yaml", ErrNoObjects)}
	bad := Entry{Err: fileError("bad.yaml", errors.New("not YAML"))}
	obj := Parse("web.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n"))[0]
	kept, left, err := WithoutEmptyFiles([]Entry{empty, obj, bad})
	if err != nil || len(kept) != 2 || kept[0].Object != obj.Object || kept[1].Err != bad.Err || len(left) != 1 || left[0] != empty.Err {
		t.Errorf("got %v, %v, %v", kept, left, err)
	}
	all := []Entry{obj, bad}
	if kept, left, err := WithoutEmptyFiles(all); err != nil || len(kept) != 2 || left != nil {
		t.Errorf("nothing empty: got %v, %v, %v", kept, left, err)
	}
	if _, _, err := WithoutEmptyFiles([]Entry{empty}); err == nil || !strings.Contains(err.Error(), "no objects passed to apply") || !errors.Is(err, ErrNoObjects) {
		t.Errorf("only empty files: %v", err)
	}
}
