package wire

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
)

// HelperName is the helper program's name.
const HelperName = "ssa-diff-admission"

// FindHelper finds the helper program: the path getenv("SSA_DIFF_ADMISSION") names, else
// the program beside the running executable (a release ships both), else the one on the
// PATH.
func FindHelper(getenv func(string) string) (string, error) {
	if getenv != nil {
		if p := getenv("SSA_DIFF_ADMISSION"); p != "" {
			if _, err := os.Stat(p); err != nil {
				return "", err
			}
			return p, nil
		}
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), HelperName+filepath.Ext(exe))
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(HelperName); err == nil {
		return p, nil
	}
	return "", errors.New(HelperName + " was not found beside ssa-diff or on the PATH (go install github.com/ssa-diff/ssa-diff/cmd/ssa-diff-admission@latest)")
}
