package differential

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/ssa-diff/ssa-diff/conformance/differential/oracle"
	"github.com/ssa-diff/ssa-diff/kube"
	"k8s.io/klog/v2"
)

var (
	flagSteps  = flag.Int("diff.steps", envInt("DIFF_STEPS", 8000), "generated steps of TestDifferential (env DIFF_STEPS)")
	flagStart  = flag.Int64("diff.seed", int64(envInt("DIFF_SEED", 1)), "first seed of TestDifferential (env DIFF_SEED)")
	flagOps    = flag.Int("diff.ops", envInt("DIFF_OPS", 25), "ops per generated sequence (env DIFF_OPS)")
	flagRecord = flag.String("diff.record", os.Getenv("DIFF_RECORD")+os.Getenv("SSA_DIFF_RECORD"), "directory to write shrunk divergences into as case files (env DIFF_RECORD)")
	flagShrink = flag.Int("diff.shrink", envInt("DIFF_SHRINK", 2), "divergences shrunk per kind/category/verb (env DIFF_SHRINK)")
	flagMinor  = flag.String("diff.minor", envString("DIFF_MINOR", InProcessMinor.String()), "Kubernetes minor of TestDifferential's oracle and engine, 1.37 in-process, 1.32–1.36 and 1.38 as a process (env DIFF_MINOR)")
	flagOracle = flag.String("diff.oracle", envString("DIFF_ORACLE", ""), "prebuilt oracle program of -diff.minor (else built from its module; env DIFF_ORACLE)")
	flagTC     = flag.String("diff.toolchain", envString("DIFF_ORACLE_TOOLCHAIN", ""), "Go toolchain the oracle's build asks for, in place of its minor's own (1.38: go1.27.3; env DIFF_ORACLE_TOOLCHAIN)")
)

// envString reads DIFF_<NAME>, or SSA_DIFF_<NAME>.
func envString(name, def string) string {
	for _, n := range []string{"SSA_" + name, name} {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return def
}

// oracles returns, for the minor of -diff.minor, a function starting one oracle per
// worker, and the minor.
func oracles(t *testing.T) (func() (Predictor, func(), error), kube.Minor) {
	t.Helper()
	m, err := kube.ParseMinor(*flagMinor)
	if err != nil {
		t.Fatalf("-diff.minor: %v", err)
	}
	if m == InProcessMinor {
		return func() (Predictor, func(), error) {
			srv, err := NewOracle()
			return srv, func() {}, err
		}, m
	}
	bin := *flagOracle
	if bin == "" {
		t0 := time.Now()
		if bin, err = BuildOracle(m, t.TempDir(), *flagTC); err != nil {
			t.Fatal(err)
		}
		t.Logf("built the oracle of %s in %v", m, time.Since(t0).Round(time.Millisecond))
	}
	return func() (Predictor, func(), error) {
		p, err := StartProcess(bin)
		if err != nil {
			return nil, nil, err
		}
		return p, func() {
			if err := p.Close(); err != nil {
				t.Error(err)
			}
		}, nil
	}, m
}

// envInt reads DIFF_<NAME>, or SSA_DIFF_<NAME> (the Makefile's spelling), as an integer.
func envInt(name string, def int) int {
	for _, n := range []string{"SSA_" + name, name} {
		if v, err := strconv.Atoi(os.Getenv(n)); err == nil {
			return v
		}
	}
	return def
}

// TestDifferential generates seeded sequences and compares the engine with the API
// server's field manager after every step. `go test` runs a bounded number of steps;
// DIFF_STEPS (or -diff.steps) runs more.
func TestDifferential(t *testing.T) {
	steps, ops := *flagSteps, *flagOps
	if steps <= 0 || ops <= 0 {
		t.Skip("no steps requested")
	}
	start, minor := oracles(t)
	nseq := (steps + ops - 1) / ops
	first := *flagStart
	workers := runtime.GOMAXPROCS(0)

	type found struct {
		seed int64
		d    *Divergence
		c    *Case
	}
	var (
		next    atomic.Int64
		ran     atomic.Int64
		busy    atomic.Int64 // nanoseconds spent comparing (shrinking aside)
		mu      sync.Mutex
		divs    []found
		shrunk  = map[string]int{}
		errs    []error
		wg      sync.WaitGroup
		started = time.Now()
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// srv, in-process, gives the generator its types; orc answers.
			srv, err := NewOracle()
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
				return
			}
			orc, stop, err := start()
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
				return
			}
			defer stop()
			eng, err := NewEngine(minor)
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
				return
			}
			for {
				i := next.Add(1) - 1
				if i >= int64(nseq) {
					return
				}
				seed := first + i
				t0 := time.Now()
				n, d, err := runSeed(srv, orc, eng, seed, ops)
				busy.Add(int64(time.Since(t0)))
				ran.Add(int64(n))
				if err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("seed %d: %w", seed, err))
					mu.Unlock()
					continue
				}
				if d == nil {
					continue
				}
				sig := d.Kind + "/" + d.Category + "/" + d.Request.Verb + "/" + d.Request.Subresource
				mu.Lock()
				doShrink := shrunk[sig] < *flagShrink
				shrunk[sig]++
				mu.Unlock()
				f := found{seed: seed, d: d}
				if doShrink {
					f.c = shrinkSeed(srv, orc, eng, seed, ops, d)
				}
				mu.Lock()
				divs = append(divs, f)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(started)
	for _, err := range errs {
		t.Error(err)
	}
	sort.Slice(divs, func(i, j int) bool { return divs[i].seed < divs[j].seed })
	counts := map[string]int{}
	for _, f := range divs {
		counts[f.d.Kind+"/"+f.d.Category+"/"+f.d.Request.Verb+"/"+f.d.Request.Subresource]++
		if f.c == nil {
			continue
		}
		msg := fmt.Sprintf("seed %d: %s %s%s by %q diverges at step %d (%s)\n%s", f.seed, f.d.Kind, f.d.Request.Verb,
			sub(f.d.Request.Subresource), f.d.Request.Manager, f.d.Step, f.c.Category, f.c.Diff)
		if dir := *flagRecord; dir != "" {
			path, err := NewCaseFile(f.c, f.seed).Write(dir)
			if err != nil {
				t.Error(err)
			}
			msg += "\nrecorded as " + path
		} else {
			msg += "\nminimal case:\n" + Pretty(map[string]any{"live": f.c.Live, "request": f.c.Request})
		}
		t.Error(msg)
	}
	perStep := time.Duration(busy.Load() / max(ran.Load(), 1))
	t.Logf("Kubernetes %s: %d steps in %d sequences (seeds %d..%d, %d ops each) in %v on %d workers (%v per step and worker, shrinking aside: %.0f steps/s per worker); %d divergences %v",
		minor, ran.Load(), nseq, first, first+int64(nseq)-1, ops, elapsed.Round(time.Millisecond), workers,
		perStep.Round(time.Microsecond), 1/perStep.Seconds(), len(divs), counts)
}

func sub(s string) string {
	if s == "" {
		return ""
	}
	return " /" + s
}

// runSeed generates and runs one sequence, op by op, on both predictors (the generator
// draws from the types of srv, the in-process oracle; orc answers).
func runSeed(srv *oracle.Server, orc, eng Predictor, seed int64, ops int) (int, *Divergence, error) {
	g, err := NewGenerator(srv, seed)
	if err != nil {
		return 0, nil, err
	}
	var live map[string]any
	for i := 0; i < ops; i++ {
		op := g.Next(live)
		want, d, err := Step(g.Kind, orc, eng, live, op)
		if err != nil {
			return i, nil, err
		}
		if d != nil {
			d.Step = i
			return i + 1, d, nil
		}
		live = advance(g.Kind, live, want, i, op.Now)
	}
	return ops, nil, nil
}

// shrinkSeed regenerates the ops of a diverging seed and shrinks them.
func shrinkSeed(srv *oracle.Server, orc, eng Predictor, seed int64, ops int, d *Divergence) *Case {
	g, err := NewGenerator(srv, seed)
	if err != nil {
		return nil
	}
	var seq []Op
	var live map[string]any
	for i := 0; i <= d.Step; i++ {
		op := g.Next(live)
		seq = append(seq, op)
		r, err := Do(orc, op.Verb, Request(g.Kind, live, op))
		if err != nil {
			return nil
		}
		live = advance(g.Kind, live, r, i, op.Now)
	}
	s, err := NewShrinker(srv, eng, g.Kind)
	if err != nil {
		return nil
	}
	s.Oracle = orc
	return s.Shrink(seq, d)
}

// TestCases replays the regression cases of testdata/: the engine must give the
// recorded answer, and the oracle must still give it (else the harness drifted).
func TestCases(t *testing.T) {
	cases, files, err := ReadCases("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no regression cases in testdata/")
	}
	srv, err := NewOracle()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := NewEngine(InProcessMinor)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		c := cases[f]
		t.Run(f, func(t *testing.T) {
			k, ok := KindByName(c.Kind)
			if !ok {
				t.Fatalf("unknown kind %q", c.Kind)
			}
			op, err := c.Op()
			if err != nil {
				t.Fatal(err)
			}
			want := c.Expected.Response()
			o, err := Do(srv, op.Verb, Request(k, c.Live, op))
			if err != nil {
				t.Fatal(err)
			}
			if cat, diff := Compare(want, o); cat != "" {
				t.Errorf("the oracle no longer gives the recorded answer (%s):\n%s", cat, diff)
			}
			got, err := Do(eng, op.Verb, Request(k, c.Live, op))
			if err != nil {
				t.Fatalf("engine: %v", err)
			}
			if cat, diff := Compare(want, got); cat != "" {
				t.Errorf("engine diverges from the server (%s):\n%s", cat, diff)
			}
		})
	}
}

func TestMain(m *testing.M) {
	// The field manager logs "[SHOULD NOT HAPPEN]" when an update cannot be tracked; the
	// generator makes such updates on purpose.
	klog.SetLogger(logr.Discard())
	os.Exit(m.Run())
}
