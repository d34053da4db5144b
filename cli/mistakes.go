package cli

// This file answers a newcomer's first mistakes on the command line with what happened and
// what to do, before anything is read: a URL given as a file, standard input given twice.
// The mistakes only the input shows (MANIFESTS and LIVE swapped, an exported manifest, an
// unsubstituted variable) are answered where it is read.

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/input"
	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/merge"
)

// usageError prints a mistake on the command line with the one prefix every error of the
// command has, "error: ", and where the usage is (`cmd --help`); it returns exit status 2.
func usageError(stderr io.Writer, cmd, msg string) int {
	fmt.Fprintf(stderr, "error: %s\nRun '%s --help' for usage.\n", msg, cmd)
	return report.ExitError
}

// checkInputPaths refuses the paths ssa-diff cannot read as the user meant them.
func (o *options) checkInputPaths() error {
	stdin := 0
	for _, p := range o.inputPaths() {
		if isURL(p) {
			if _, err := os.Stat(p); err == nil {
				continue // a file so named
			}
			return fmt.Errorf("%s is a URL: ssa-diff reads no manifests from the network (kubectl apply -f URL downloads them); download it first, then give the file: curl -fsSLo manifest.yaml '%s' && ssa-diff -f manifest.yaml LIVE", p, p)
		}
		if p == input.StdinName {
			stdin++
		}
	}
	if stdin > 1 {
		return fmt.Errorf("standard input (-) is given %d times, and it can be read only once: give the manifests on standard input and the live state as a file (kubectl get ... -o json --show-managed-fields > live.json), or both as files", stdin)
	}
	return nil
}

// inputPaths are the manifests' and the live state's paths, as given.
func (o *options) inputPaths() []string {
	paths := append([]string(nil), o.manifests...)
	paths = append(paths, o.render.kustomize...)
	if o.live != "" {
		paths = append(paths, o.live)
	}
	return paths
}

// isURL reports a path that is an http or https URL.
func isURL(p string) bool {
	l := strings.ToLower(p)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// exportedFields are the fields of an object the server sets, which a manifest exported
// from the cluster (kubectl get -o yaml) carries, and what each does to an apply.
var exportedFields = []struct{ pointer, says string }{
	{"/metadata/resourceVersion", "the apply succeeds only while the object is at that version (the server answers 409 once anyone changes it)"},
	{"/metadata/uid", "the apply succeeds only on that very object (a recreated one, or another cluster's, answers 409)"},
	{"/metadata/creationTimestamp", ""},
	{"/status", "the apply ignores it (status is written through /status)"},
}

// exportHint says, for a manifest that carries what only the server sets, that it was most
// likely exported from the cluster and what that does; "" for one that does not.
func exportHint(p *input.Pair, manifest map[string]any) string {
	var found, effects []string
	for _, f := range exportedFields {
		if !hasPointer(manifest, f.pointer) {
			continue
		}
		found = append(found, fmt.Sprintf("%s (line %d)", pointerToDots(f.pointer), p.Manifest.Line(f.pointer)))
		if f.says != "" {
			effects = append(effects, pointerToDots(f.pointer)+": "+f.says)
		}
	}
	// creationTimestamp alone is what kubectl create --dry-run -o yaml writes (null).
	if len(effects) == 0 {
		return ""
	}
	return fmt.Sprintf("the manifest carries %s, which only the server sets: it looks exported from the cluster (kubectl get -o yaml); %s. Remove them from the manifest",
		andList(found), strings.Join(effects, "; "))
}

// hasPointer reports whether obj has a non-null value at a JSON Pointer of map keys.
func hasPointer(obj map[string]any, pointer string) bool {
	var v any = obj
	for _, k := range strings.Split(pointer, "/")[1:] {
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if v, ok = m[k]; !ok {
			return false
		}
	}
	return v != nil
}

// pointerToDots is a JSON Pointer of map keys as a field path: /metadata/uid, .metadata.uid.
func pointerToDots(pointer string) string { return strings.ReplaceAll(pointer, "/", ".") }

// maxVariableHints bounds the unsubstituted variables one result names.
const maxVariableHints = 3

// variableHints names the values of a manifest that hold a variable nobody substituted
// (${replicas}: Flux's postBuild.substitute, envsubst), which the server reads as it is
// (a string where a number goes is its 500). Asked only of a refused or failed apply.
func variableHints(p *input.Pair, manifest map[string]any) []string {
	var out []string
	var walk func(v any, pointer, path string)
	walk = func(v any, pointer, path string) {
		if len(out) == maxVariableHints {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(v[k], pointer+"/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"), path+"."+k)
			}
		case []any:
			for i, x := range v {
				walk(x, fmt.Sprintf("%s/%d", pointer, i), fmt.Sprintf("%s[%d]", path, i))
			}
		case string:
			if name := variableIn(v); name != "" {
				out = append(out, fmt.Sprintf("%s (line %d) is %q: the variable ${%s} was never substituted (Flux substitutes it from the Kustomization's postBuild.substitute and substituteFrom; elsewhere envsubst does): substitute it before predicting, e.g. envsubst < manifest.yaml | ssa-diff - live.json",
					path, p.Manifest.Line(pointer), v, name))
			}
		}
	}
	walk(manifest, "", "")
	return out
}

// variableIn is the name of the first ${NAME} (or ${NAME:=default}, as Flux writes it) in
// s, "" when there is none.
func variableIn(s string) string {
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return ""
		}
		s = s[i+2:]
		n := 0
		for n < len(s) && (s[n] == '_' || s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || n > 0 && s[n] >= '0' && s[n] <= '9') {
			n++
		}
		if n > 0 && n < len(s) && strings.ContainsRune("}:=-", rune(s[n])) {
			return s[:n]
		}
	}
}

// applies reports a run whose requests are applies (not a raw update, patch or create, nor
// one of kubectl's other commands), for which a manifest is what a person wrote.
func (o *options) applies() bool {
	return (o.verbs.v == "" || o.verbs.v == merge.VerbApply) && o.verbs.cmd == nil
}

// checkSwapped refuses MANIFESTS and LIVE given the wrong way round: every manifest
// carries metadata.managedFields, as a dump of the cluster does, and no live object does.
func (c *session) checkSwapped(paths []string, manifests []*input.Object, ls *liveState) error {
	if c.live == "" || ls.record != nil || len(manifests) == 0 || len(ls.objs) == 0 || len(paths) != 1 || len(c.render.kustomize) > 0 {
		return nil
	}
	for _, o := range manifests {
		if !o.HasManagedFields() {
			return nil
		}
	}
	for _, o := range ls.objs {
		if o.HasManagedFields() {
			return nil
		}
	}
	return fmt.Errorf("MANIFESTS and LIVE look swapped: every object of MANIFESTS (%s) carries metadata.managedFields, as a dump of the cluster does, and no object of LIVE (%s) does, as a manifest does not; give the manifests first and the live state second: %s", paths[0], c.live, suggestCommand(c.live, paths[0]))
}

// suggestCommand is "ssa-diff A B" with the arguments quoted where a shell needs it.
func suggestCommand(args ...string) string {
	out := "ssa-diff"
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"$`\\\\*?[]{}()<>|&;#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out += " " + a
	}
	return out
}
