package release

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/buildinfo"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// unpack reads an archive's files: name → content.
func unpack(t *testing.T, path string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	if strings.HasSuffix(path, ".zip") {
		z, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		defer z.Close()
		for _, f := range z.File {
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(r)
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			files[f.Name] = b
		}
		return files
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[h.Name] = b
	}
	return files
}

func sha256File(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// checksums reads checksums.txt: archive name → SHA-256.
func checksums(t *testing.T, dist string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dist, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 {
			t.Fatalf("checksums.txt: %q is not `SUM  NAME`", sc.Text())
		}
		sums[name] = sum
	}
	return sums
}

// binaryPlatform says which OS and architecture an executable is for.
func binaryPlatform(data []byte) (goos, goarch string, static bool, err error) {
	r := bytes.NewReader(data)
	if f, err := elf.NewFile(r); err == nil {
		static = true
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				static = false
			}
		}
		switch f.Machine {
		case elf.EM_X86_64:
			return "linux", "amd64", static, nil
		case elf.EM_AARCH64:
			return "linux", "arm64", static, nil
		}
		return "linux", f.Machine.String(), static, nil
	}
	if f, err := macho.NewFile(r); err == nil {
		switch f.Cpu {
		case macho.CpuAmd64:
			return "darwin", "amd64", true, nil
		case macho.CpuArm64:
			return "darwin", "arm64", true, nil
		}
		return "darwin", f.Cpu.String(), true, nil
	}
	if f, err := pe.NewFile(r); err == nil {
		switch f.Machine {
		case pe.IMAGE_FILE_MACHINE_AMD64:
			return "windows", "amd64", true, nil
		case pe.IMAGE_FILE_MACHINE_ARM64:
			return "windows", "arm64", true, nil
		}
		return "windows", fmt.Sprint(f.Machine), true, nil
	}
	return "", "", false, fmt.Errorf("not an ELF, Mach-O or PE executable")
}

// TestSnapshotArchives: goreleaser's archives, one per platform built, each named with the
// tag, holding the binary of its platform (static where that can be seen: ELF), the
// admission helper beside it, the licence and the README, each listed in checksums.txt with its SHA-256; the host's binary
// runs and says the tag and the commit, and was built with the profile default.pgo
// (profile-guided optimisation, which goreleaser's go build applies by default).
func TestSnapshotArchives(t *testing.T) {
	r := snapshot(t)
	sums := checksums(t, r.dist)
	var platforms []string
	for _, a := range r.archives() {
		if got := sha256File(t, a.Path); sums[a.Name] != got {
			t.Errorf("%s: checksums.txt says %q, its SHA-256 is %s", a.Name, sums[a.Name], got)
		}
		if a.Extra.ID != "ssa-diff" {
			// Another build's archive (a plugin's): its own test says what it holds.
			continue
		}
		platforms = append(platforms, a.Goos+"/"+a.Goarch)
		ext := "tar.gz"
		if a.Goos == "windows" {
			ext = "zip"
		}
		if want := fmt.Sprintf("ssa-diff_%s_%s_%s.%s", testTag, a.Goos, a.Goarch, ext); a.Name != want {
			t.Errorf("archive %s, want %s (.krew.yaml names it so)", a.Name, want)
		}
		files := unpack(t, a.Path)
		var names []string
		for n := range files {
			names = append(names, n)
		}
		sort.Strings(names)
		bin := "ssa-diff"
		if a.Goos == "windows" {
			bin += ".exe"
		}
		helper := strings.Replace(bin, "ssa-diff", "ssa-diff-admission", 1)
		want := []string{"LICENSE", "README.md", bin, helper}
		sort.Strings(want)
		if want := strings.Join(want, " "); strings.Join(names, " ") != want {
			t.Errorf("%s holds %v, want %s", a.Name, names, want)
		}
		goos, goarch, static, err := binaryPlatform(files[bin])
		if err != nil || goos != a.Goos || goarch != a.Goarch || !static {
			t.Errorf("%s: its %s is for %s/%s (static %v), %v", a.Name, bin, goos, goarch, static, err)
		}
		fi, _ := os.Stat(a.Path)
		t.Logf("%s: %.1f MB, its binary %.1f MB", a.Name, float64(fi.Size())/1e6, float64(len(files[bin]))/1e6)

		if a.Goos != runtime.GOOS || a.Goarch != runtime.GOARCH {
			continue
		}
		dir := t.TempDir()
		exe := filepath.Join(dir, bin)
		if err := os.WriteFile(exe, files[bin], 0o755); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(exe, "version").CombinedOutput()
		version := "ssa-diff " + testTag + "-snapshot\n"
		if err != nil || !strings.HasPrefix(string(out), version) || !namesCommit(string(out), r.commit) {
			t.Errorf("%s version: %v, want %q and the commit %s:\n%s", a.Name, err, version, r.commit, out)
		}
		if pgo := buildSetting(t, exe, "-pgo"); pgo != "default.pgo" {
			t.Errorf("%s: its binary was built with -pgo=%q, want default.pgo (the profile beside main.go, which -pgo=auto applies)", a.Name, pgo)
		}
	}
	sort.Strings(platforms)
	want := runtime.GOOS + "/" + runtime.GOARCH
	if allTargets() {
		want = "darwin/amd64 darwin/arm64 linux/amd64 linux/arm64 windows/amd64 windows/arm64"
	}
	if strings.Join(platforms, " ") != want {
		t.Errorf("archives for %v, want %s", platforms, want)
	}
	if len(sums) != len(r.archives()) {
		t.Errorf("checksums.txt lists %d files, for %d archives", len(sums), len(r.archives()))
	}
}

// buildSetting is the value of a build setting recorded in a Go binary ("" when absent).
func buildSetting(t *testing.T, exe, key string) string {
	t.Helper()
	info, err := buildinfo.ReadFile(exe)
	if err != nil {
		t.Fatalf("%s: %v", exe, err)
	}
	for _, s := range info.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}

// namesCommit: the version output names the commit, alone (linked by the release) or with its
// time when the Go toolchain also stamped the repository's information into the build.
func namesCommit(out, commit string) bool {
	return strings.Contains(out, "\n  commit:     "+commit+"\n") || strings.Contains(out, "\n  commit:     "+commit+" (")
}
