package differential

import (
	"math"
	"math/rand"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// Generated objects, their parts and their edits are valid for the kind's schema (no
// duplicates: apply configurations must not have any), and a seed gives the same values.
func TestGeneratedValuesAreValid(t *testing.T) {
	srv, err := NewOracle()
	if err != nil {
		t.Fatal(err)
	}
	for i := range Kinds {
		k := &Kinds[i]
		for seed := int64(0); seed < 30; seed++ {
			g, pt, err := newGenerator(srv, k, rand.New(rand.NewSource(seed)))
			if err != nil {
				t.Fatal(err)
			}
			v := g.Value(pt.TypeRef, "", 40).(map[string]any)
			g2, _, _ := newGenerator(srv, k, rand.New(rand.NewSource(seed)))
			if v2 := g2.Value(pt.TypeRef, "", 40); canonical(v) != canonical(v2) {
				t.Fatalf("%s seed %d: not reproducible", k.Name, seed)
			}
			part := g.Subset(pt.TypeRef, v, 0.5)
			edit := g.Mutate(pt.TypeRef, v, 0.3, "")
			merged := g.Merge(pt.TypeRef, part, edit)
			for name, x := range map[string]any{"value": v, "subset": part, "mutation": edit, "merge": merged} {
				if _, err := pt.FromUnstructured(x.(map[string]any)); err != nil {
					t.Errorf("%s seed %d: the %s is not valid: %v\n%s", k.Name, seed, name, err, Pretty(x))
				}
			}
			dup := g.Mutate(pt.TypeRef, v, 0, "")
			if g.Duplicate(pt.TypeRef, dup) {
				if _, err := pt.FromUnstructured(dup.(map[string]any), typed.AllowDuplicates); err != nil {
					t.Errorf("%s seed %d: the value with a duplicate is not valid: %v", k.Name, seed, err)
				}
			}
		}
	}
}

// A seed gives the same sequence of requests every time.
func TestSeedsAreReproducible(t *testing.T) {
	srv, err := NewOracle()
	if err != nil {
		t.Fatal(err)
	}
	for seed := int64(1); seed <= 20; seed++ {
		var runs [2]string
		for i := range runs {
			g, err := NewGenerator(srv, seed)
			if err != nil {
				t.Fatal(err)
			}
			seq, err := g.Sequence(srv, 25)
			if err != nil {
				t.Fatal(err)
			}
			runs[i] = canonical(seq)
		}
		if runs[0] != runs[1] {
			t.Fatalf("seed %d gives two different sequences", seed)
		}
	}
}

// A live object whose replica count is a fraction is not real (the server's Go int32
// refuses it on decoding): no /scale is made against one, and one is against a whole
// count. (Seed 359 at 1.33 and 1.37: a /scale of a StatefulSet holding 2.25.)
func TestNoScaleOfAFractionalReplicaCount(t *testing.T) {
	srv, err := NewOracle()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		replicas  any
		wantScale bool
	}{{2.25, false}, {0.5, false}, {int64(2), true}, {float64(3), true}} {
		replicas, scales := c.replicas, 0
		for seed := int64(1); seed <= 400; seed++ {
			g, err := NewGenerator(srv, seed)
			if err != nil {
				t.Fatal(err)
			}
			if !g.Kind.Scale {
				continue
			}
			live := g.fresh(1)
			spec, _ := live["spec"].(map[string]any)
			if spec == nil {
				spec = map[string]any{}
				live["spec"] = spec
			}
			spec["replicas"] = replicas
			for i := 0; i < 20; i++ {
				if op := g.Next(live); op.Subresource == "scale" {
					scales++
				}
			}
		}
		if c.wantScale != (scales > 0) {
			t.Errorf("replicas %v: %d ops through /scale, want some: %v", replicas, scales, c.wantScale)
		}
	}
}

// Time fields (untyped to structured-merge-diff) hold RFC 3339 times in generated values,
// parts and edits, as in every object an API server stores, but one in gen's
// refusedOneIn or so, which the server refuses (TestGeneratedObjectsMostlyDecode).
func TestGeneratedTimesAreTimes(t *testing.T) {
	srv, err := NewOracle()
	if err != nil {
		t.Fatal(err)
	}
	seen, bad := 0, 0
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				p := k
				if path != "" {
					p = path + "." + k
				}
				if s, isMap := c.(map[string]any); isMap || c == nil {
					walk(p, s)
					continue
				}
				if _, isList := c.([]any); !isList && (k == "time" || k == "startedAt" || k == "finishedAt" || strings.HasSuffix(k, "Time") || strings.HasSuffix(k, "Timestamp")) {
					seen++
					if s, ok := c.(string); !ok || !isRFC3339(s) {
						bad++
						t.Logf("%s = %#v, not a time", p, c)
					}
					continue
				}
				walk(p, c)
			}
		case []any:
			for _, c := range x {
				walk(path, c)
			}
		}
	}
	for i := range Kinds {
		k := &Kinds[i]
		for seed := int64(0); seed < 30; seed++ {
			g, pt, err := newGenerator(srv, k, rand.New(rand.NewSource(seed)))
			if err != nil {
				t.Fatal(err)
			}
			v := g.Value(pt.TypeRef, "", 40).(map[string]any)
			walk("", v)
			walk("", g.Mutate(pt.TypeRef, v, 0.5, ""))
		}
	}
	if seen == 0 || bad*8 > seen {
		t.Errorf("%d of %d generated times are not times: want some times, and at most an eighth not", bad, seen)
	}
}

// A ConfigMap's binaryData holds base64, which the server's decoding into the Go type
// requires: every generated ConfigMap, and every edit of one, decodes. (Differential seed
// 778483: a live binaryData "b", which no API server stores, made the oracle's no-op check
// compare the objects unstructured and stamp a time the server keeps.)
func TestGeneratedBytesAreBase64(t *testing.T) {
	srv, err := NewOracle()
	if err != nil {
		t.Fatal(err)
	}
	k, ok := KindByName("configmap")
	if !ok {
		t.Fatal("no configmap kind")
	}
	seen := 0
	for seed := int64(0); seed < 100; seed++ {
		g, pt, err := newGenerator(srv, k, rand.New(rand.NewSource(seed)))
		if err != nil {
			t.Fatal(err)
		}
		v := g.Value(pt.TypeRef, "", 40).(map[string]any)
		for name, x := range map[string]any{"value": v, "mutation": g.Mutate(pt.TypeRef, v, 0.5, "")} {
			m := x.(map[string]any)
			if b, ok := m["binaryData"].(map[string]any); ok && len(b) > 0 {
				seen++
			}
			var cm corev1.ConfigMap
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, &cm); err != nil {
				t.Errorf("seed %d: the %s does not decode as a ConfigMap: %v\n%s", seed, name, err, Pretty(m))
			}
		}
	}
	if seen == 0 {
		t.Error("no binaryData generated")
	}
}

func isRFC3339(s string) bool {
	_, err := time.Parse(time.RFC3339, s)
	return err == nil
}

// A built-in kind's numbers are integers, the HorizontalPodAutoscaler's too; the custom
// kind's may have a fraction. (Differential seeds 359 and 1063: a fraction in a live
// StatefulSet's replicas and a Pod's volume, which no API server stores.)
func TestFractionsOnlyWhereAServerCouldHoldThem(t *testing.T) {
	srv, err := NewOracle()
	if err != nil {
		t.Fatal(err)
	}
	fractions := map[string]int{}
	var count func(v any) int
	count = func(v any) int {
		n := 0
		switch x := v.(type) {
		case map[string]any:
			for _, c := range x {
				n += count(c)
			}
		case []any:
			for _, c := range x {
				n += count(c)
			}
		case float64:
			if x != math.Trunc(x) {
				n++
			}
		}
		return n
	}
	for seed := int64(1); seed <= 300; seed++ {
		g, err := NewGenerator(srv, seed)
		if err != nil {
			t.Fatal(err)
		}
		fractions[g.Kind.Name] += count(g.g.Value(g.pt.TypeRef, "", 60))
	}
	for _, k := range Kinds {
		may := k.GVK.Group == "example.com"
		if n := fractions[k.Name]; (n > 0) != may {
			t.Errorf("%s: %d numbers with a fraction (want some: %v)", k.Name, n, may)
		}
	}
}

// Built-in objects mostly decode into their Go types: the untyped scalars the generator
// writes into an int-or-string or a quantity are values those types take, but one in
// gen's refusedOneIn or so, which the server refuses (and the engine must too: refusals
// are coverage). Before, a quarter of int-or-strings and nearly half the quantities were
// refused (a boolean, "10%", "http"), and the oracle stored them (differential seeds
// 901030, 901192, 1201511).
func TestGeneratedObjectsMostlyDecode(t *testing.T) {
	srv, err := NewOracle()
	if err != nil {
		t.Fatal(err)
	}
	decoded, refused := 0, 0
	for i := range Kinds {
		k := &Kinds[i]
		if k.GVK.Group == "example.com" {
			continue
		}
		for seed := int64(0); seed < 100; seed++ {
			g, pt, err := newGenerator(srv, k, rand.New(rand.NewSource(seed)))
			if err != nil {
				t.Fatal(err)
			}
			v := g.Value(pt.TypeRef, "", 40).(map[string]any)
			v["apiVersion"], v["kind"] = k.GVK.GroupVersion().String(), k.GVK.Kind
			into, err := clientscheme.Scheme.New(k.GVK)
			if err != nil {
				t.Fatal(err)
			}
			if runtime.DefaultUnstructuredConverter.FromUnstructured(v, into) == nil {
				decoded++
			} else {
				refused++
			}
		}
	}
	t.Logf("%d generated built-in objects decode, %d do not", decoded, refused)
	if refused == 0 || refused*5 > decoded+refused {
		t.Errorf("%d of %d generated built-in objects do not decode into their Go types: want some, and at most a fifth", refused, decoded+refused)
	}
}

// No generated object, part or edit carries managedFields, an embedded object's (a pod
// template's) included: the oracle runs no registry strategy, and the store's no-op check
// ignores every entry's time, where kube-apiserver writes the object, the template's
// change having moved its generation (differential seed 1201275).
func TestNoEntriesInEmbeddedMetadata(t *testing.T) {
	srv, err := NewOracle()
	if err != nil {
		t.Fatal(err)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				if k == "managedFields" && strings.HasSuffix("."+path, ".metadata") {
					t.Errorf("%s.managedFields generated", path)
				}
				walk(path+"."+k, c)
			}
		case []any:
			for _, c := range x {
				walk(path, c)
			}
		}
	}
	for i := range Kinds {
		k := &Kinds[i]
		for seed := int64(0); seed < 50; seed++ {
			g, pt, err := newGenerator(srv, k, rand.New(rand.NewSource(seed)))
			if err != nil {
				t.Fatal(err)
			}
			v := g.Value(pt.TypeRef, "", 60).(map[string]any)
			walk("", v)
			walk("", g.Mutate(pt.TypeRef, v, 0.5, ""))
		}
	}
}
