package defaulting

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ssa-diff/ssa-diff/kube"
)

func schemaGVK(apiVersion, kind string) schema.GroupVersionKind {
	gv, _ := schema.ParseGroupVersion(apiVersion)
	return gv.WithKind(kind)
}

// firstDifferences lists the paths where the server's object (want) and
// the prediction (got) differ, with both values.
func firstDifferences(want, got any) string {
	var out []string
	var walk func(p string, w, g any)
	walk = func(p string, w, g any) {
		if len(out) >= 8 {
			return
		}
		wm, wok := w.(map[string]any)
		gm, gok := g.(map[string]any)
		if wok && gok {
			keys := map[string]bool{}
			for k := range wm {
				keys[k] = true
			}
			for k := range gm {
				keys[k] = true
			}
			ks := make([]string, 0, len(keys))
			for k := range keys {
				ks = append(ks, k)
			}
			sort.Strings(ks)
			for _, k := range ks {
				_, win := wm[k]
				_, gin := gm[k]
				if win != gin {
					out = append(out, fmt.Sprintf("%s.%s: server has it: %v (%s), predicted has it: %v (%s)", p, k, win, short(wm[k]), gin, short(gm[k])))
					continue
				}
				walk(p+"."+k, wm[k], gm[k])
			}
			return
		}
		wl, wok := w.([]any)
		gl, gok := g.([]any)
		if wok && gok && len(wl) == len(gl) {
			for i := range wl {
				walk(fmt.Sprintf("%s[%d]", p, i), wl[i], gl[i])
			}
			return
		}
		if !reflect.DeepEqual(w, g) {
			out = append(out, fmt.Sprintf("%s: server %s, predicted %s", p, short(w), short(g)))
		}
	}
	walk("", want, got)
	return strings.Join(out, "\n")
}

func short(v any) string {
	s := fmt.Sprintf("%#v", v)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// linkedMinor is the minor of the k8s.io/kubernetes this module links (go.mod): the
// server's code these tests hold ssa-diff's tables to.
const linkedMinor = kube.Minor(37)
