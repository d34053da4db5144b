// Command gen writes what follows from the list of minors (kube/releases.txt) besides the
// tables the other generators write: the module files the table generators build each
// minor with, and the minors the report's JSON schema allows. Run from the repository's
// root (`make generate` runs it first):
//
//	go run ./kube/gen
//
// The table generators schema/gen and internal/defaults/gen build once per minor: their
// go.mod pins the newest release, go.1.<minor>.mod each older one. For every minor listed
// without its module file (or with one pinning another release), gen writes it from go.mod —
// k8s.io/kubernetes and its staging modules at the listed release, every other requirement
// left for `go mod tidy` to take from that release's own requirements — and runs go mod tidy
// on it; a module file of a minor no longer listed is removed. When the newest minor listed
// is not the one go.mod pins, go.mod becomes the older minor's go.1.<minor>.mod and is
// rewritten for the newest. The generators' code may still need changes for a new release
// (a new structured-merge-diff major version, a new kind in schema/gen's table): their
// builds say so.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/kube"
)

// generators are the modules that build once per minor, from the repository's root.
var generators = []string{"schema/gen", "internal/defaults/gen"}

func main() {
	schemaPath := flag.String("report-schema", "docs/report.schema.json", "the report's JSON schema, whose kubernetesVersion lists the minors")
	noTidy := flag.Bool("no-tidy", false, "write the module files without running go mod tidy on them")
	flag.Parse()
	for _, dir := range generators {
		if err := syncModfiles(dir, !*noTidy); err != nil {
			log.Fatalf("%s: %v", dir, err)
		}
	}
	if err := writeReportSchema(*schemaPath); err != nil {
		log.Fatalf("%s: %v", *schemaPath, err)
	}
}

// kubernetesRE finds the release a module file pins.
var kubernetesRE = regexp.MustCompile(`(?m)^\s*k8s\.io/kubernetes (v1\.(\d+)\.\d+\S*)`)

// syncModfiles makes dir's module files those of the minors listed.
func syncModfiles(dir string, tidy bool) error {
	gomod := filepath.Join(dir, "go.mod")
	text, err := os.ReadFile(gomod)
	if err != nil {
		return err
	}
	pinned := kubernetesRE.FindSubmatch(text)
	if pinned == nil {
		return fmt.Errorf("go.mod requires no k8s.io/kubernetes")
	}
	newest := "v" + kube.Newest().Release()
	if string(pinned[1]) != newest {
		// A newer minor listed: the pinned one keeps its build as go.1.<minor>.mod.
		if old := modfile(dir, string(pinned[2])); !exists(old) {
			if err := copyFile(gomod, old); err != nil {
				return err
			}
			if err := copyFile(strings.TrimSuffix(gomod, ".mod")+".sum", strings.TrimSuffix(old, ".mod")+".sum"); err != nil {
				return err
			}
		}
		if err := retarget(dir, "go.mod", text, string(pinned[1]), newest, tidy); err != nil {
			return err
		}
		text, _ = os.ReadFile(gomod)
	}
	listed := map[string]bool{}
	for _, m := range kube.Minors() {
		minor := strings.TrimPrefix(m.String(), "1.")
		listed[minor] = true
		if m == kube.Newest() {
			continue
		}
		path := modfile(dir, minor)
		release := "v" + m.Release()
		if have, err := os.ReadFile(path); err == nil {
			if p := kubernetesRE.FindSubmatch(have); p != nil && string(p[1]) == release {
				continue
			}
		}
		if err := retarget(dir, filepath.Base(path), text, newest, release, tidy); err != nil {
			return err
		}
		fmt.Printf("%s: wrote %s for %s\n", dir, filepath.Base(path), release)
	}
	// The module files of minors no longer listed.
	files, err := filepath.Glob(filepath.Join(dir, "go.1.*.mod"))
	if err != nil {
		return err
	}
	for _, f := range files {
		minor := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "go.1."), ".mod")
		if !listed[minor] {
			fmt.Printf("%s: removed %s, a minor no longer listed\n", dir, filepath.Base(f))
			os.Remove(f)
			os.Remove(strings.TrimSuffix(f, ".mod") + ".sum")
		}
	}
	return nil
}

// stagingModules are the modules the release's own go.mod replaces with its staging
// directories (./staging/src/k8s.io/…), read from the module proxy.
func stagingModules(release string) (map[string]bool, error) {
	cmd := exec.Command("go", "mod", "download", "-json", "k8s.io/kubernetes@"+release)
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go mod download k8s.io/kubernetes@%s: %w", release, err)
	}
	var info struct{ GoMod string }
	if err := json.Unmarshal(b, &info); err != nil {
		return nil, fmt.Errorf("go mod download k8s.io/kubernetes@%s: %w", release, err)
	}
	mod, err := os.ReadFile(info.GoMod)
	if err != nil {
		return nil, err
	}
	staged := stagedIn(string(mod))
	if len(staged) == 0 {
		return nil, fmt.Errorf("k8s.io/kubernetes@%s: its go.mod replaces no staging module", release)
	}
	return staged, nil
}

// stagedIn are the modules a go.mod of k8s.io/kubernetes replaces with a staging directory,
// in a replace block or a replace line.
func stagedIn(mod string) map[string]bool {
	staged := map[string]bool{}
	for _, line := range strings.Split(mod, "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && f[0] == "replace" {
			f = f[1:]
		}
		if len(f) == 3 && f[1] == "=>" && strings.HasPrefix(f[2], "./staging/") {
			staged[f[0]] = true
		}
	}
	return staged
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func modfile(dir, minor string) string { return filepath.Join(dir, "go.1."+minor+".mod") }

// retarget writes dir/name: the module file text (pinning release from) rewritten to pin
// release to. k8s.io/kubernetes and its staging modules (v0.<minor>.<patch> of from) move to
// the release; the other modules of Kubernetes and every indirect requirement are dropped,
// for go mod tidy to take them from the release's own requirements (kube-openapi,
// structured-merge-diff, cel-go, … at the versions that release was built with); the
// generator's own requirements (a YAML library) stay. The replace block of the staging modules moves alike.
//
// The staging modules are those of the release to: a module staged in one release and not in
// the other (k8s.io/streaming is staged from 1.37 on, not at 1.32) leaves the requirements and
// the replace block, or joins the replace block.
func retarget(dir, name string, text []byte, from, to string, tidy bool) error {
	staging := "v0" + strings.TrimPrefix(from, "v1")
	toStaging := "v0" + strings.TrimPrefix(to, "v1")
	staged, err := stagingModules(to)
	if err != nil {
		return err
	}
	replaced := map[string]bool{}
	var out bytes.Buffer
	inRequire, inReplace := false, false
	for _, line := range strings.SplitAfter(string(text), "\n") {
		trimmed := strings.TrimSpace(line)
		f := strings.Fields(trimmed)
		switch {
		case strings.HasPrefix(trimmed, "require ("):
			inRequire = true
		case strings.HasPrefix(trimmed, "replace ("):
			inReplace = true
		case inRequire && trimmed == ")":
			inRequire = false
		case inReplace && trimmed == ")":
			inReplace = false
			// The release's staging modules the other release did not stage.
			for _, m := range sortedKeys(staged) {
				if !replaced[m] {
					out.WriteString("\t" + m + " => " + m + " " + toStaging + "\n")
				}
			}
		case inRequire && trimmed != "" && !strings.HasPrefix(trimmed, "//"):
			switch {
			case f[0] == "k8s.io/kubernetes":
				line = strings.Replace(line, from, to, 1)
			case strings.HasPrefix(f[0], "k8s.io/") && f[1] == staging && staged[f[0]]:
				line = strings.Replace(line, staging, toStaging, 1)
			case strings.Contains(line, "// indirect") || strings.HasPrefix(f[0], "k8s.io/") || strings.HasPrefix(f[0], "sigs.k8s.io/"):
				continue // tidy takes it from the release's requirements
			}
			// The generator's own other requirements stay.
		case inReplace && len(f) >= 3 && f[1] == "=>" && strings.HasPrefix(f[0], "k8s.io/"):
			if !staged[f[0]] {
				continue // not staged in this release
			}
			replaced[f[0]] = true
			line = strings.ReplaceAll(line, " "+staging, " "+toStaging)
		default:
			line = strings.ReplaceAll(line, " "+staging, " "+toStaging)
		}
		out.WriteString(line)
	}
	if err := os.WriteFile(filepath.Join(dir, name), out.Bytes(), 0o644); err != nil {
		return err
	}
	if !tidy {
		return nil
	}
	args := []string{"mod", "tidy"}
	if name != "go.mod" {
		args = append(args, "-modfile="+name)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

// enumRE is the list of minors of the report's schema.
var enumRE = regexp.MustCompile(`("kubernetesVersion": \{\s*"enum": \[)([^\]]*)(\n\s*\])`)

// writeReportSchema lists the minors in the report schema's kubernetesVersion.
func writeReportSchema(path string) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	m := enumRE.FindSubmatchIndex(text)
	if m == nil {
		return fmt.Errorf("no kubernetesVersion enum")
	}
	items := string(text[m[4]:m[5]])
	indent := items[:len(items)-len(strings.TrimLeft(items, "\n \t"))]
	var list []string
	for _, v := range kube.Minors() {
		list = append(list, indent+`"`+v.String()+`"`)
	}
	out := append(append(append([]byte{}, text[:m[4]]...), strings.Join(list, ",")...), text[m[5]:]...)
	if bytes.Equal(out, text) {
		return nil
	}
	return os.WriteFile(path, out, 0o644)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}
