package output

import (
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/report"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// forDisplay prepares the live and predicted objects of a diff: managedFields removed unless
// shown, Secret values masked unless shown. The inputs are not modified.
func forDisplay(live, pred map[string]any, opts Options) (map[string]any, map[string]any) {
	if !opts.ShowManagedFields {
		live, pred = withoutManagedFields(live), withoutManagedFields(pred)
	}
	if !opts.ShowSecrets && (isSecret(live) || isSecret(pred)) {
		live, pred = maskSecret(live, pred)
	}
	return live, pred
}

// The one rule for Secrets, which every format follows unless --show-secrets: the values of
// a v1 Secret's data and stringData, and its last-applied annotation (which holds the same
// values), are masked — in diffs (maskSecret), in the ownership map, and in the values of
// conflicts (secretValuePath).

// isSecret reports whether obj is a v1 Secret.
func isSecret(obj map[string]any) bool {
	return obj != nil && isSecretKind(obj["apiVersion"], obj["kind"])
}

func isSecretKind(apiVersion, kind any) bool { return kind == "Secret" && apiVersion == "v1" }

// secretValueFields are the fields of a Secret whose values are masked.
func secretValueFields() []string { return []string{"data", "stringData"} }

// secretValuePath reports whether path (".data.password") is a masked value of res, a Secret.
func secretValuePath(res *report.Result, path string) bool {
	if !isSecretKind(res.APIVersion, res.Kind) {
		return false
	}
	for _, p := range append(secretValueFields(), "metadata.annotations."+lastApplied) {
		p = "." + p
		if path == p || strings.HasPrefix(path, p+".") {
			return true
		}
	}
	return false
}

// shallowWithMeta copies obj and its metadata map so both can be edited.
func shallowWithMeta(obj map[string]any) (map[string]any, map[string]any) {
	c := make(map[string]any, len(obj))
	for k, v := range obj {
		c[k] = v
	}
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		return c, nil
	}
	m := make(map[string]any, len(md))
	for k, v := range md {
		m[k] = v
	}
	c["metadata"] = m
	return c, m
}

func withoutManagedFields(obj map[string]any) map[string]any {
	if obj == nil {
		return nil
	}
	md, _ := obj["metadata"].(map[string]any)
	if _, ok := md["managedFields"]; !ok {
		return obj
	}
	c, m := shallowWithMeta(obj)
	delete(m, "managedFields")
	return c
}

// maskSecret hides the values of a Secret's data and stringData as kubectl diff does: a value
// present on both sides prints as *** when equal and as "*** (before)" / "*** (after)" when it
// changes; a value on one side only prints as ***. The last-applied annotation, which holds the
// same values, is masked too.
func maskSecret(from, to map[string]any) (map[string]any, map[string]any) {
	from, to = copyForMask(from), copyForMask(to)
	for _, field := range secretValueFields() {
		f, _ := from[field].(map[string]any)
		t, _ := to[field].(map[string]any)
		nf, nt := map[string]any{}, map[string]any{}
		for k, v := range f {
			if tv, ok := t[k]; ok && !unstructured.EqualJSON(v, tv) {
				nf[k], nt[k] = "*** (before)", "*** (after)"
				continue
			}
			nf[k] = "***"
		}
		for k := range t {
			if _, done := nt[k]; !done {
				nt[k] = "***"
			}
		}
		if f != nil {
			from[field] = nf
		}
		if t != nil {
			to[field] = nt
		}
	}
	maskAnnotation(from, to)
	return from, to
}

func copyForMask(obj map[string]any) map[string]any {
	if obj == nil {
		return nil
	}
	c, _ := shallowWithMeta(obj)
	return c
}

func maskAnnotation(from, to map[string]any) {
	get := func(obj map[string]any) (map[string]any, bool) {
		md, _ := obj["metadata"].(map[string]any)
		ann, _ := md["annotations"].(map[string]any)
		_, ok := ann[lastApplied]
		return ann, ok
	}
	fa, fok := get(from)
	ta, tok := get(to)
	set := func(obj, ann map[string]any, v string) {
		c := make(map[string]any, len(ann))
		for k, x := range ann {
			c[k] = x
		}
		c[lastApplied] = v
		obj["metadata"].(map[string]any)["annotations"] = c
	}
	switch {
	case fok && tok && !unstructured.EqualJSON(fa[lastApplied], ta[lastApplied]):
		set(from, fa, "*** (before)")
		set(to, ta, "*** (after)")
	default:
		if fok {
			set(from, fa, "***")
		}
		if tok {
			set(to, ta, "***")
		}
	}
}

// maskConflict is a conflict's values at path of res as shown: both masked when they are a
// Secret's (secretValuePath), unless ShowSecrets.
func (o Options) maskConflict(res *report.Result, path, live, applied string) (string, string) {
	if !o.ShowSecrets && secretValuePath(res, path) {
		return "***", "***"
	}
	return live, applied
}
