package defaults

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/testkit"
	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/kube"
)

// splitKey is a kinds key ("apps/v1/Deployment") as apiVersion and kind.
func splitKey(key string) (apiVersion, kind string) {
	i := strings.LastIndexByte(key, '/')
	return key[:i], key[i+1:]
}

// sameAsDefault fails t when DefaultOwned of a copy of obj differs from Default of another
// copy: the object written, or the error.
func sameAsDefault(t *testing.T, r Release, apiVersion, kind string, obj map[string]any) {
	t.Helper()
	want := unstructured.DeepCopy(obj).(map[string]any)
	errWant := r.Default(apiVersion, kind, want)
	got := unstructured.DeepCopy(obj).(map[string]any)
	errGot := r.DefaultOwned(apiVersion, kind, got)
	if (errWant == nil) != (errGot == nil) || errWant != nil && errWant.Error() != errGot.Error() {
		t.Fatalf("%s %s %s: errors differ: owned %v, Default %v", r.Kubernetes(), apiVersion, kind, errGot, errWant)
	}
	if errWant == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%s %s %s: DefaultOwned differs from Default:\n%s", r.Kubernetes(), apiVersion, kind, testkit.Diff(want, got))
	}
}

// randomValue is a value of type t as a client might send it, built from the generated
// table: fields left out, null, empty lists and maps, unknown members, numbers as floats,
// quantities and times not in their canonical form. depth bounds the nesting.
func randomValue(rng *rand.Rand, t int, depth int) any {
	td := &generatedTypes[t]
	if depth <= 0 || rng.IntN(12) == 0 {
		return nil
	}
	pick := func(vs ...any) any { return vs[rng.IntN(len(vs))] }
	switch td.kind {
	case kindString:
		return pick("", "a", "IfNotPresent", "TCP")
	case kindBool:
		return pick(true, false)
	case kindInt, kindUint:
		return pick(int64(0), int64(3), float64(80), int64(-1))
	case kindFloat:
		return pick(int64(0), float64(0.5), int64(2))
	case kindBytes:
		return pick("", "aGk=", "aGk")
	case kindPointer:
		return randomValue(rng, td.elem, depth)
	case kindSlice:
		n := rng.IntN(3)
		out := make([]any, n)
		for i := range out {
			out[i] = randomValue(rng, td.elem, depth-1)
		}
		return out
	case kindMap:
		out := map[string]any{}
		for i := rng.IntN(3); i > 0; i-- {
			out[pick("a", "b", "c").(string)] = randomValue(rng, td.elem, depth-1)
		}
		return out
	case kindStruct:
		out := map[string]any{}
		var fill func(td *typeDef)
		fill = func(td *typeDef) {
			for _, f := range td.fields() {
				if f.flags&inline != 0 {
					fill(&generatedTypes[f.typ])
					continue
				}
				if rng.IntN(2) == 0 {
					out[f.name()] = randomValue(rng, f.typ, depth-1)
				}
			}
		}
		fill(td)
		if rng.IntN(8) == 0 {
			out["unknownField"] = pick(int64(1), map[string]any{"x": []any{}})
		}
		return out
	case kindQuantity:
		return pick("0.5", "1000m", int64(1), "2048Mi", float64(1.5))
	case kindIntOrString:
		return pick(int64(8080), "http", float64(1))
	case kindTime:
		return pick("2026-01-02T03:04:05.678+02:00", "2026-01-02T03:04:05Z")
	case kindMicroTime:
		return pick("2026-01-02T03:04:05.678+02:00", "2026-01-02T03:04:05.123456Z")
	case kindDuration:
		return pick("60s", "1m0s", "0s")
	case kindRaw:
		return pick(map[string]any{"a": []any{int64(1)}}, "x", []any{})
	case kindSchemaOrBool:
		return pick(true, randomValue(rng, td.elem, depth-1))
	case kindSchemaOrArray:
		return pick(randomValue(rng, td.elem, depth-1), []any{randomValue(rng, td.elem, depth-1)}, []any{})
	case kindSchemaOrStringArray:
		return pick(randomValue(rng, td.elem, depth-1), []any{"a", "b"}, []any{})
	}
	return nil
}

// DefaultOwned, which rewrites the caller's maps and lists in place from its first pass
// on, writes what Default writes, and fails as it fails: for every built-in kind at every
// minor, on objects built at random from the kind's Go types, on the objects the recorded
// servers stored, and on the table's inputs.
func TestDefaultOwnedIsDefault(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 12))
	stored := testkit.StoredObjects(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range stored {
			if !yield(n) {
				return
			}
		}
	})
	for _, m := range kube.Minors() {
		r := MustFor(m)
		for _, k := range r.r.kinds() {
			av, kind := splitKey(k.key())
			sameAsDefault(t, r, av, kind, map[string]any{})
			for range 40 {
				obj, _ := randomValue(rng, k.typ, 9).(map[string]any)
				if obj == nil {
					obj = map[string]any{}
				}
				obj["apiVersion"], obj["kind"] = av, kind
				sameAsDefault(t, r, av, kind, obj)
			}
		}
		for _, name := range names {
			obj := stored[name]
			av, _ := obj["apiVersion"].(string)
			kind, _ := obj["kind"].(string)
			if r.Known(av, kind) {
				sameAsDefault(t, r, av, kind, obj)
			}
		}
		for _, s := range ownedSeeds {
			av, kind := splitKey(s.kind)
			if r.Known(av, kind) {
				var v map[string]any
				if err := json.Unmarshal([]byte(s.obj), &v); err != nil {
					t.Fatal(err)
				}
				sameAsDefault(t, r, av, kind, unstructured.CopyAsDecoded(v))
			}
		}
	}
}

// DefaultOwned writes in place: the caller's maps are the object's after it (Default's
// first pass builds new ones and leaves the caller's as they were).
func TestDefaultOwnedRewritesInPlace(t *testing.T) {
	in := func() map[string]any {
		return map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"name": "c", "image": "i", "bogus": int64(1)}}}}}}
	}
	obj := in()
	spec := obj["spec"].(map[string]any)
	if err := newest().DefaultOwned("apps/v1", "Deployment", obj); err != nil {
		t.Fatal(err)
	}
	if reflect.ValueOf(obj["spec"]).UnsafePointer() != reflect.ValueOf(spec).UnsafePointer() {
		t.Error("DefaultOwned made a new spec map")
	}
	if _, ok := spec["replicas"]; !ok {
		t.Errorf("the caller's spec map was not defaulted: %v", spec)
	}
	obj = in()
	spec = obj["spec"].(map[string]any)
	if err := newest().Default("apps/v1", "Deployment", obj); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(map[string]any{"spec": spec}, in()) {
		t.Errorf("Default changed the caller's spec map: %v", spec)
	}
}

// ownedSeeds are objects neither canonical nor defaulted, for TestDefaultOwnedIsDefault and
// FuzzDefaultOwned.
var ownedSeeds = []struct{ kind, obj string }{
	{"apps/v1/Deployment", `{"metadata":{"name":"a","labels":{}},"spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"c","image":"i","resources":{"limits":{"cpu":"0.5","memory":1000}},"ports":[{"containerPort":80,"x":1}]}],"volumes":[]}},"selector":null},"status":{}}`},
	{"v1/ConfigMap", `{"metadata":{"name":"a","bogus":1},"data":{"a":null,"b":"x"},"extra":[]}`},
	{"v1/Service", `{"spec":{"ports":[{"port":80,"targetPort":"http"},{"port":1.5}],"clusterIPs":[]},"metadata":{"creationTimestamp":"2026-01-02T03:04:05.678+02:00"}}`},
	{"v1/Service", `{"spec":{"type":"NodePort","ports":[{"port":53}]}}`},
	{"rbac.authorization.k8s.io/v1/Role", `{"rules":[],"metadata":null}`},
	{"v1/Secret", `{"metadata":{},"immutable":false,"data":{"k":"aGk="},"stringData":{"a":"b"}}`},
	{"v1/Secret", `{"data":{"k":"not base64"}}`},
	{"apps/v1/StatefulSet", `{"spec":{"volumeClaimTemplates":[{"metadata":{"name":"d"},"spec":{"resources":{"requests":{"storage":"1Gi"}}}}],"template":{"spec":{"containers":[{"name":"c","image":"i"}]}}}}`},
	{"batch/v1/CronJob", `{"spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"i:1","env":[{"name":"N","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}]}]}}}}}}`},
	{"apiextensions.k8s.io/v1/CustomResourceDefinition", `{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object","additionalProperties":false,"items":[{"type":"string"}],"x-kubernetes-preserve-unknown-fields":true}}}]}}`},
	{"autoscaling/v2/HorizontalPodAutoscaler", `{"spec":{"maxReplicas":3,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}]}}`},
	{"v1/Pod", `{"spec":{"containers":[{"name":"c","image":"i","ports":[{"containerPort":"x"}]}]}}`},
}

// FuzzDefaultOwned holds DefaultOwned to Default on any object of any kind at any minor.
func FuzzDefaultOwned(f *testing.F) {
	newestKinds := newest().r.kinds()
	for _, s := range ownedSeeds {
		i := slices.IndexFunc(newestKinds, func(k kindType) bool { return k.key() == s.kind })
		if i < 0 {
			f.Fatalf("no kind %s", s.kind)
		}
		f.Add(uint16(i), uint8(len(kube.Minors())-1), s.obj)
	}
	f.Fuzz(func(t *testing.T, kind uint16, minor uint8, text string) {
		if !json.Valid([]byte(text)) {
			return
		}
		v, ok := testkit.DecodeJSON(t, []byte(text)).(map[string]any)
		if !ok || v == nil {
			return
		}
		ms := kube.Minors()
		r := MustFor(ms[int(minor)%len(ms)])
		kinds := r.r.kinds()
		k := kinds[int(kind)%len(kinds)]
		av, kd := splitKey(k.key())
		sameAsDefault(t, r, av, kd, v)
	})
}
