package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

var (
	markerRE = regexp.MustCompile(`^\s*//\s*\+k8s:supportsSubresource="?(/[a-z]+)"?`)
	typeRE   = regexp.MustCompile(`^type (\w+) struct`)
)

// markerCheck compares the table's status and scale columns with the
// +k8s:supportsSubresource markers of the Go types in k8s.io/api (read from
// the module cache). Types without any marker (the extension API servers'
// types, and many types of older releases) are not checked.
func markerCheck(kinds []kind, m minor) (checked int, err error) {
	dirs := map[string]string{} // Go package path -> directory
	subresources := map[string]map[string][]string{}
	var problems []string
	for _, k := range kinds {
		pkg := k.goType.PkgPath()
		if _, ok := subresources[pkg]; !ok {
			dir, err := packageDir(pkg, dirs)
			if err != nil {
				return checked, err
			}
			m, err := readMarkers(dir)
			if err != nil {
				return checked, err
			}
			subresources[pkg] = m
		}
		subs, ok := subresources[pkg][k.goType.Name()]
		if !ok {
			// No marker on the type: older releases (k8s.io/api v0.34) mark only some
			// types of a package; the typed clients' cross-check covers it.
			continue
		}
		checked++
		has := func(s string) bool {
			for _, x := range subs {
				if x == s {
					return true
				}
			}
			return false
		}
		if has("/status") != k.status || has("/scale") != k.scale {
			if _, ok := knownDisagreements["marker"][gvKind{k.group, k.version, k.kind}]; ok {
				continue
			}
			if m.number < markersComplete && (!has("/status") || k.status) && (!has("/scale") || k.scale) {
				continue // only the markers a release has are held to the table
			}
			problems = append(problems, fmt.Sprintf("%s/%s %s: table status=%t scale=%t, markers %v",
				k.group, k.version, k.kind, k.status, k.scale, subs))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return checked, fmt.Errorf("the resource table disagrees with +k8s:supportsSubresource markers:\n  %s", strings.Join(problems, "\n  "))
	}
	return checked, nil
}

// packageDir finds the source directory of a package of the build's
// modules with `go list`, caching per module.
func packageDir(pkg string, cache map[string]string) (string, error) {
	if d, ok := cache[pkg]; ok {
		return d, nil
	}
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", pkg).Output()
	if err != nil {
		return "", fmt.Errorf("go list %s: %w", pkg, err)
	}
	d := strings.TrimSpace(string(out))
	cache[pkg] = d
	return d, nil
}

// readMarkers maps each struct type of a package to the subresources its
// doc comment declares.
func readMarkers(dir string) (map[string][]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	res := map[string][]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || strings.HasPrefix(filepath.Base(f), "zz_generated") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var pending []string
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if m := markerRE.FindStringSubmatch(line); m != nil {
				pending = append(pending, m[1])
				continue
			}
			if m := typeRE.FindStringSubmatch(line); m != nil {
				if len(pending) > 0 {
					res[m[1]] = pending
				}
				pending = nil
			}
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
	}
	return res, nil
}
