package crdvalidation

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

var (
	flagObjects = flag.Int("crdval.objects", envInt("CRDVAL_OBJECTS", 1500), "objects to validate")
	flagPerCRD  = flag.Int("crdval.percrd", envInt("CRDVAL_PER_CRD", 60), "objects per generated CRD")
	flagSeed    = flag.Int64("crdval.seed", int64(envInt("CRDVAL_SEED", 1)), "first seed")
	flagShow    = flag.Int("crdval.show", 5, "divergences to print in full")
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// selfType normalizes the name the server gives a rule's type (it changes on every
// compilation: "selfType" and the clock's nanoseconds).
var selfType = regexp.MustCompile(`selfType[0-9]+`)

func texts(errs field.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = selfType.ReplaceAllString(string(e.Type)+"|"+e.Error(), "selfType")
	}
	sort.Strings(out)
	return out
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		out[i] = selfType.ReplaceAllString(out[i], "selfType")
	}
	sort.Strings(out)
	return out
}

type outcome struct {
	errs     []string
	warnings []string
	panicked any
}

func (o outcome) same(p outcome) bool {
	if o.panicked != nil || p.panicked != nil {
		// The server crashing (500) is predicted as such, never as an answer.
		return o.panicked != nil && p.panicked != nil
	}
	return strings.Join(o.errs, "\n") == strings.Join(p.errs, "\n") &&
		strings.Join(o.warnings, "\n") == strings.Join(p.warnings, "\n")
}

type divergence struct {
	seed              int64
	crd               map[string]any
	sub               string
	obj, old          map[string]any
	server, predicted outcome
}

func (d divergence) String() string {
	j := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	spec := d.crd["spec"].(map[string]any)
	return fmt.Sprintf("seed %d (subresource %q)\nschema: %s\nobject: %s\nold: %s\nserver:    %q warnings %q panic %v\npredicted: %q warnings %q panic %v",
		d.seed, d.sub, j(spec["versions"]), j(d.obj), j(d.old), d.server.errs, d.server.warnings, d.server.panicked,
		d.predicted.errs, d.predicted.warnings, d.predicted.panicked)
}

var categories = []struct{ name, re string }{
	{"tail", `some validation rules were not checked`},
	{"budget", `cost budget|call cost exceeds`},
	{"compile", `rule compile error|compiler initialization`},
	{"msgexpr-fail", `messageExpression`},
	{"eval-error", `evaluating rule|did not match a supported operator`},
	{"cel-message", `failed rule:|must be valid|spaced message|value is not allowed|fallback message|bad value|constant message|size |type `},
	{"type", `must be of type`},
	{"pattern", `should match`},
	{"bounds", `should be (greater|less)`},
	{"multipleOf", `multiple of`},
	{"length", `chars long|Too long`},
	{"items", `items|Too many`},
	{"properties", `properties`},
	{"enum", `Unsupported value`},
	{"required", `Required value`},
	{"duplicate", `Duplicate value`},
	{"combinator", `anyOf|oneOf|allOf|\(not\)`},
	{"metadata", `^[A-Za-z]+\|metadata`},
	{"typemeta", `^[A-Za-z]+\|(apiVersion|kind):`},
	{"embedded", `apiVersion|kind|metadata`},
	{"scale", `replicas|selector`},
}

var categoryRes = func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(categories))
	for i, c := range categories {
		out[i] = regexp.MustCompile(c.re)
	}
	return out
}()

func category(e string) string {
	for i, re := range categoryRes {
		if re.MatchString(e) {
			return categories[i].name
		}
	}
	return "other"
}

// runSeed draws one CRD and n objects for it, and compares both sides on each.
func runSeed(seed int64, n int) (ran, refused int, kinds map[string]int, divs []divergence, err error) {
	g := NewGen(seed)
	c := g.CRD()
	kinds = map[string]int{}
	srv, err := NewOracle(c.CRD, c.Version)
	if err != nil {
		return 0, 0, nil, nil, fmt.Errorf("oracle: %w", err)
	}
	ours, err := NewOurs(c.CRD, c.Version)
	if err != nil {
		return 0, 0, nil, nil, fmt.Errorf("ssa-diff cannot load the CRD: %w", err)
	}
	draws(g, c, n, func(verb, sub string, obj, old map[string]any) {
		kinds[verb]++
		se, sw, sp := srv.Validate(sub, obj, old)
		oe, ow, op := ours.Validate(sub, obj, old)
		s := outcome{texts(se), sortedCopy(sw), sp}
		p := outcome{texts(oe), sortedCopy(ow), op}
		ran++
		if len(se) > 0 {
			refused++
		}
		for _, e := range s.errs {
			c := category(e)
			kinds["err:"+c]++
			if c == "other" && os.Getenv("CRDVAL_SHOW_OTHER") != "" {
				fmt.Println("OTHER:", e)
			}
		}
		if len(sw) > 0 {
			kinds["warned"]++
		}
		if !s.same(p) {
			// The server lists some errors in Go map order, and stops at the first failure
			// it meets in that order: a prediction that is one of its possible answers matches.
			matched := false
			for try := 0; try < 30 && !matched; try++ {
				se, sw, sp := srv.Validate(sub, obj, old)
				matched = outcome{texts(se), sortedCopy(sw), sp}.same(p)
			}
			if matched {
				kinds["map-order"]++
				return
			}
			divs = append(divs, divergence{seed: seed, crd: c.CRD, sub: sub, obj: obj, old: old, server: s, predicted: p})
		}
	})
	return ran, refused, kinds, divs, nil
}

// draws makes a seed's n writes of the CRD c, in order: the verb counted ("create",
// "update", "status"), the subresource, the object and the old one (nil for a create).
func draws(g *Gen, c *Generated, n int, write func(verb, sub string, obj, old map[string]any)) {
	for i := 0; i < n; i++ {
		chaos := []float64{0, 0.05, 0.2}[g.intn(3)]
		switch g.intn(10) {
		case 0, 1, 2, 3:
			write("create", "", g.Object(c, chaos), nil)
		case 4, 5, 6, 7, 8:
			obj, old := g.Update(c, chaos)
			write("update", "", obj, old)
		default:
			obj, old := g.Update(c, chaos)
			if c.Status {
				write("status", "status", obj, old)
			} else {
				write("update", "", obj, old)
			}
		}
	}
}

// TestDifferential compares ssa-diff's validation of custom resources with
// apiextensions-apiserver's on generated CRDs and objects (-crdval.objects, CRDVAL_OBJECTS).
func TestDifferential(t *testing.T) {
	total, per := *flagObjects, *flagPerCRD
	if total <= 0 {
		t.Skip("no objects requested")
	}
	seeds := (total + per - 1) / per
	var (
		next, ran, refused atomic.Int64
		mu                 sync.Mutex
		divs               []divergence
		errs               []string
		kinds              = map[string]int{}
		wg                 sync.WaitGroup
		start              = time.Now()
	)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(seeds) {
					return
				}
				seed := *flagSeed + i
				n, r, k, d, err := runSeed(seed, per)
				ran.Add(int64(n))
				refused.Add(int64(r))
				mu.Lock()
				if err != nil {
					errs = append(errs, fmt.Sprintf("seed %d: %v", seed, err))
				}
				divs = append(divs, d...)
				for kk, v := range k {
					kinds[kk] += v
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("%d objects (%v) over %d CRDs in %v: %d refused by the server, %d divergences, %d CRD errors",
		ran.Load(), kinds, seeds, time.Since(start).Round(time.Millisecond), refused.Load(), len(divs), len(errs))
	for i, e := range errs {
		if i < 10 {
			t.Errorf("%s", e)
		}
	}
	sort.Slice(divs, func(i, j int) bool { return divs[i].seed < divs[j].seed })
	for i, d := range divs {
		if i < *flagShow {
			t.Errorf("divergence:\n%s", d)
		}
	}
	if len(divs) > *flagShow {
		t.Errorf("... and %d more divergences", len(divs)-*flagShow)
	}
}
