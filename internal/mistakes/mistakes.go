package mistakes

import (
	"fmt"
	"os"
	"sort"
	"strings"
)

// InputPaths refuses the paths (manifests' and the live state's, as given) ssa-diff cannot
// read as the user meant them: a URL (unless a file is so named), standard input ("-")
// given more than once.
func InputPaths(paths []string) error {
	stdin := 0
	for _, p := range paths {
		if isURL(p) {
			if _, err := os.Stat(p); err == nil {
				continue // a file so named
			}
			return fmt.Errorf("%s is a URL: ssa-diff reads no manifests from the network (kubectl apply -f URL downloads them); download it first, then give the file: curl -fsSLo manifest.yaml '%s' && ssa-diff -f manifest.yaml LIVE", p, p)
		}
		if p == stdinName {
			stdin++
		}
	}
	if stdin > 1 {
		return fmt.Errorf("standard input (-) is given %d times, and it can be read only once: give the manifests on standard input and the live state as a file (kubectl get ... -o json --show-managed-fields > live.json), or both as files", stdin)
	}
	return nil
}

// stdinName is the path that names standard input.
const stdinName = "-"

// isURL reports a path that is an http or https URL.
func isURL(p string) bool {
	l := strings.ToLower(p)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// Swapped refuses MANIFESTS (manifestsPath) and LIVE (livePath) given the wrong way round:
// every manifest carries metadata.managedFields (manifestsManaged), as a dump of the
// cluster does, and no live object does (liveManaged). It is asked only of one MANIFESTS
// path and a LIVE dump, both holding objects.
func Swapped(manifestsPath, livePath string, manifestsManaged, liveManaged []bool) error {
	for _, m := range manifestsManaged {
		if !m {
			return nil
		}
	}
	for _, m := range liveManaged {
		if m {
			return nil
		}
	}
	return fmt.Errorf("MANIFESTS and LIVE look swapped: every object of MANIFESTS (%s) carries metadata.managedFields, as a dump of the cluster does, and no object of LIVE (%s) does, as a manifest does not; give the manifests first and the live state second: %s", manifestsPath, livePath, suggestCommand(livePath, manifestsPath))
}

// exportedFields are the fields of an object the server sets, which a manifest exported
// from the cluster (kubectl get -o yaml) carries, and what each does to an apply.
var exportedFields = []struct{ pointer, says string }{
	{"/metadata/resourceVersion", "the apply succeeds only while the object is at that version (the server answers 409 once anyone changes it)"},
	{"/metadata/uid", "the apply succeeds only on that very object (a recreated one, or another cluster's, answers 409)"},
	{"/metadata/creationTimestamp", ""},
	{"/status", "the apply ignores it (status is written through /status)"},
}

// Exported says, for a manifest that carries what only the server sets, that it was most
// likely exported from the cluster and what that does; "" for one that does not. line is
// the manifest's line of a JSON Pointer.
func Exported(manifest map[string]any, line func(pointer string) int) string {
	var found, effects []string
	for _, f := range exportedFields {
		if !hasPointer(manifest, f.pointer) {
			continue
		}
		found = append(found, fmt.Sprintf("%s (line %d)", pointerToDots(f.pointer), line(f.pointer)))
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

// Variables names the values of a manifest that hold a variable nobody substituted
// (${replicas}: Flux's postBuild.substitute, envsubst), which the server reads as it is
// (a string where a number goes is its 500). Asked only of a refused or failed apply; line
// is the manifest's line of a JSON Pointer.
func Variables(manifest map[string]any, line func(pointer string) int) []string {
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
					path, line(pointer), v, name))
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

// andList is "a, b and c".
func andList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
