package validation

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"testing"

	"github.com/ssa-diff/ssa-diff/internal/serverconfig"
	ours "github.com/ssa-diff/ssa-diff/internal/validation"
	"github.com/ssa-diff/ssa-diff/internal/validation/registry"
	"github.com/ssa-diff/ssa-diff/kube"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/randfill"
)

// writesPerKind bounds the test: SSA_DIFF_OBJECTS raises it (make conformance-long).
func writesPerKind(t *testing.T) int {
	if s := os.Getenv("SSA_DIFF_OBJECTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if testing.Short() {
		return 150
	}
	return 1000
}

func fixtures() string {
	if d := os.Getenv("SSA_DIFF_FIXTURES"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "fixtures")
}

// linkedMinor is the minor of the k8s.io/kubernetes this module links (go.mod): ours answers
// at it, not at the newest listed (a pre-release may be listed ahead of it).
const linkedMinor = kube.Minor(37)

// ourAnswer is ssa-diff's answer to the write the server ran.
func ourAnswer(w *Write) (*Answer, bool, error) {
	sub := ""
	if w.Status {
		sub = "status"
	}
	res, err := ours.Validate(serverconfig.MustFor(linkedMinor), w.GVK.GroupVersion().String(), w.GVK.Kind, sub, w.Prepared, w.StoredOld)
	var p registry.ServerPanic
	if errors.As(err, &p) {
		// Where the server's validation panics, ours says so.
		return &Answer{Other: "panic: " + p.Reason}, true, nil
	}
	if err != nil || !res.Known {
		return nil, res.Known, err
	}
	if len(res.Errors) == 0 {
		w.OurWarnings = res.Warnings
		return nil, true, nil
	}
	md, _ := w.Prepared["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	gk := schema.GroupKind{Group: ours.ErrorGroup(w.GVK.Group, w.GVK.Kind), Kind: w.GVK.Kind}
	st := apierrors.NewInvalid(gk, name, res.Errors).ErrStatus
	return &Answer{Message: st.Message, Causes: st.Details.Causes}, true, nil
}

// agree says whether two answers are the same: byte for byte, or the same errors in another
// order (the server ranges over maps for some rules; rules.md valid.builtin).
func agree(a, b *Answer) (same, reordered bool) {
	if (a == nil) != (b == nil) {
		return false, false
	}
	if a == nil {
		return true, false
	}
	if a.Other != "" || b.Other != "" {
		return a.Other == b.Other, false
	}
	if a.Message == b.Message && causesEqual(a.Causes, b.Causes) {
		return true, false
	}
	if len(a.Message) == len(b.Message) && causesEqual(sortedCauses(a.Causes), sortedCauses(b.Causes)) {
		return true, true
	}
	return false, false
}

// sameWarnings: the same warnings, in any order (the server ranges over maps for some).
func sameWarnings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(a)
	sort.Strings(b)
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// volumeIndex is the index of a pod template volume in an error's field.
var volumeIndex = regexp.MustCompile(`^spec\.template\.spec\.volumes\[\d+\]`)

// sameVolumesInAnyOrder: the answers differ only in the indexes of the template's volumes.
// A StatefulSet's pod template is validated with a volume per claim template put first, in
// the order the server's map iteration gives them: with two claim templates or more, the
// server itself reports the same error at varying indexes.
func sameVolumesInAnyOrder(a, b *Answer) bool {
	if a == nil || b == nil || a.Other != "" || b.Other != "" || len(a.Causes) != len(b.Causes) {
		return false
	}
	strip := func(c []metav1.StatusCause) []metav1.StatusCause {
		out := make([]metav1.StatusCause, len(c))
		for i, x := range c {
			x.Field = volumeIndex.ReplaceAllString(x.Field, "spec.template.spec.volumes[*]")
			out[i] = x
		}
		return sortedCauses(out)
	}
	return causesEqual(strip(a.Causes), strip(b.Causes))
}

func causesEqual(a, b []metav1.StatusCause) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sortedCauses(c []metav1.StatusCause) []metav1.StatusCause {
	out := append([]metav1.StatusCause(nil), c...)
	sort.Slice(out, func(i, j int) bool {
		return fmt.Sprint(out[i]) < fmt.Sprint(out[j])
	})
	return out
}

// TestValidationMatchesServer: for every ported kind, creates and updates of its seeds, of
// random mutations of them and of random objects, validated by the server's registry and
// by ssa-diff, must get the same answer.
func TestValidationMatchesServer(t *testing.T) {
	server := NewServer()
	n := writesPerKind(t)
	table := strategies()
	var gvks []schema.GroupVersionKind
	for gvk := range table {
		gvks = append(gvks, gvk)
	}
	sort.Slice(gvks, func(i, j int) bool { return gvks[i].String() < gvks[j].String() })
	totals := map[string]int{}
	for ki, gvk := range gvks {
		st := table[gvk]
		t.Run(gvk.Group+"_"+gvk.Version+"_"+gvk.Kind, func(t *testing.T) {
			seeds, err := Seeds(gvk, fixtures())
			if err != nil {
				t.Fatal(err)
			}
			pool := NewPool(seeds)
			r := rand.New(rand.NewPCG(uint64(ki)+1, 7))
			f := Filler(int64(ki) + 1)
			stats := map[string]int{}
			rules := ruleCounts{}
			shown := 0
			for i := 0; i < n; i++ {
				w, desc := nextWrite(t, server, gvk, st, seeds, pool, r, f, i)
				if w == nil {
					continue
				}
				if err := server.Run(st, w); err != nil {
					if errors.Is(err, errSkip) {
						stats["skipped"]++
						continue
					}
					t.Fatalf("%s: %v", desc, err)
				}
				mine, known, err := ourAnswer(w)
				if errors.Is(err, registry.ErrNotPredicted) {
					// The answer depends on the cluster (a namespace's labels): ssa-diff
					// says it does not predict it.
					stats["notPredicted"]++
					continue
				}
				if err != nil {
					t.Fatalf("%s: ssa-diff: %v", desc, err)
				}
				if st.Warnings && w.ServerError == nil && len(w.ServerWarnings) > 0 {
					stats["warned"]++
				}
				if st.Warnings && w.ServerError == nil && mine == nil && !sameWarnings(w.OurWarnings, w.ServerWarnings) {
					w.ServerError = &Answer{Other: fmt.Sprintf("accepted with warnings %q", w.ServerWarnings)}
					mine = &Answer{Other: fmt.Sprintf("accepted with warnings %q", w.OurWarnings)}
				}
				if !known {
					t.Fatalf("%s: ssa-diff does not know the kind's validation", gvk)
				}
				stats["compared"]++
				if w.ServerError != nil {
					stats["refused"]++
					rules.add(w.ServerError)
				}
				same, reordered := agree(w.ServerError, mine)
				if !same && gvk.Kind == "StatefulSet" && sameVolumesInAnyOrder(w.ServerError, mine) {
					same, reordered = true, true
				}
				switch {
				case !same:
					stats["diverged"]++
					if shown++; shown <= 5 {
						in, _ := json.Marshal(w.Prepared)
						t.Errorf("%s\n server: %s\n ours:   %s\n object: %s%s", desc, w.ServerError, mine, in, causeDiff(w.ServerError, mine))
					}
				case reordered:
					stats["reordered"]++
				}
			}
			t.Logf("%s: %v", gvk, stats)
			rules.log(t)
			for k, v := range stats {
				totals[k] += v
			}
		})
	}
	t.Logf("all kinds: %v", totals)
}

// nextWrite is the i-th write of a run: creates of seeds, mutated seeds and random objects,
// and updates from a seed to its mutation (through /status too, for kinds that have it).
func nextWrite(t *testing.T, s *Server, gvk schema.GroupVersionKind, st Strategies, seeds []map[string]any, pool Pool, r *rand.Rand, f *randfill.Filler, i int) (*Write, string) {
	w := &Write{GVK: gvk, Namespace: "ns"}
	body := func(obj map[string]any) []byte {
		md, _ := obj["metadata"].(map[string]any)
		if st.Namespaced && md != nil {
			if ns, _ := md["namespace"].(string); ns != "" {
				w.Namespace = ns
			} else {
				md["namespace"] = w.Namespace
			}
		}
		b, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// The handlers check the name and namespace of an update against the URL, and the
	// stored object's resourceVersion is the body's, before the registry validates.
	update := func(obj, old map[string]any) {
		md, _ := obj["metadata"].(map[string]any)
		omd, _ := old["metadata"].(map[string]any)
		if md == nil || omd == nil {
			return
		}
		omd["resourceVersion"] = "42"
		md["resourceVersion"] = "42"
		md["name"] = omd["name"]
		md["namespace"] = omd["namespace"]
	}
	switch {
	case len(seeds) > 0 && i < len(seeds):
		w.Obj = body(deepCopy(seeds[i]).(map[string]any))
		return w, fmt.Sprintf("create of seed %d", i)
	case len(seeds) > 0 && r.IntN(4) != 0:
		seed := deepCopy(seeds[r.IntN(len(seeds))]).(map[string]any)
		mutated, ms := MutateFrom(seed, r, pool)
		w.Obj = body(mutated)
		if r.IntN(2) == 0 {
			update(mutated, seed)
			w.Obj = body(mutated)
			w.Old = body(seed)
			w.Status = st.Status != nil && r.IntN(3) == 0
			if status, ok := seed["status"].(map[string]any); w.Status && ok && r.IntN(2) == 0 {
				// Half the /status writes change the status alone: the rest of a random
				// mutation is mostly spec, which the status strategy puts back.
				mutated = deepCopy(seed).(map[string]any)
				mutated["status"], ms = MutateFrom(status, r, pool)
				update(mutated, seed)
				w.Obj = body(mutated)
				return w, fmt.Sprintf("update of a seed's status, %v", ms)
			}
			return w, fmt.Sprintf("update of a seed, %v (status %v)", ms, w.Status)
		}
		return w, fmt.Sprintf("create of a seed, %v", ms)
	default:
		random := func() map[string]any {
			b, err := Random(s.Scheme, gvk, f)
			if err != nil {
				t.Fatal(err)
			}
			obj, _ := decodeJSON(b)
			return obj
		}
		obj := random()
		w.Obj = body(obj)
		if r.IntN(3) == 0 {
			old := random()
			update(obj, old)
			w.Obj = body(obj)
			w.Old = body(old)
			w.Status = st.Status != nil && r.IntN(2) == 0
			return w, "update of a random object to another"
		}
		return w, "create of a random object"
	}
}

// causeDiff shows the causes when the messages agree but the causes do not.
func causeDiff(a, b *Answer) string {
	if a == nil || b == nil || a.Message != b.Message {
		return ""
	}
	return fmt.Sprintf("\n server causes: %+v\n our causes:    %+v", a.Causes, b.Causes)
}
