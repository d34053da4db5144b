// Command busy reads an execution trace (runtime/trace; `pgo -trace FILE` writes one of the
// command's run) and says when the CPUs wait: how long the run had 0, 1, 2 … goroutines
// running, per window how many ran on average and which (by the function each goroutine
// started in), and, whenever fewer ran than GOMAXPROCS, what the others were doing — their
// states, counted in time, so that "a worker waits for a channel while the goroutine that
// fills it is runnable" stands out from "nothing left to do".
//
//	go run ./busy [-w 100ms] [-from 0s] [-to 1h] [-samples 1.5] TRACE
//
// A goroutine in a system call is not counted as running, though its thread may be using a
// CPU (reading a file, writing the report to a file): compare with the process's own CPU
// time. With -samples N it prints, for each window where fewer than N goroutines ran, the
// CPU profile's samples in it by their innermost frames (the trace holds them when a CPU
// profile ran alongside, as pgo's does).
package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/exp/trace"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "busy:", err)
		os.Exit(1)
	}
}

// run is the command: flags and the trace's path in args, the report to out.
func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("busy", flag.ContinueOnError)
	window := fs.Duration("w", 100*time.Millisecond, "the window")
	from := fs.Duration("from", 0, "the idle states counted from")
	to := fs.Duration("to", time.Hour, "… and up to")
	samples := fs.Float64("samples", 0, "print the CPU samples of windows where fewer goroutines ran")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("want one trace")
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := trace.NewReader(f)
	if err != nil {
		return err
	}
	t := newTally(int64(*window), int64(*from), int64(*to))
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		t.event(ev)
	}
	t.advance(t.last)
	t.print(out, *samples)
	return nil
}

// tally is what busy counts of a trace.
type tally struct {
	window, from, to int64
	start            trace.Time
	started          bool
	last             int64 // the time of the last event, from the trace's start

	procs   int
	kind    map[trace.GoID]string // the function each goroutine started in
	state   map[trace.GoID]string
	since   map[trace.GoID]int64 // when each running goroutine started running
	running int

	byCount map[int]int64              // time with n goroutines running
	perWin  map[int64]map[string]int64 // running time per window and kind
	idle    map[string]int64           // time with fewer than procs running, by the others' states
	samples map[int64]map[string]int
}

func newTally(window, from, to int64) *tally {
	return &tally{window: window, from: from, to: to, procs: 1, kind: map[trace.GoID]string{}, state: map[trace.GoID]string{},
		since: map[trace.GoID]int64{}, byCount: map[int]int64{}, perWin: map[int64]map[string]int64{},
		idle: map[string]int64{}, samples: map[int64]map[string]int{}}
}

func (t *tally) event(ev trace.Event) {
	if !t.started {
		t.start, t.started = ev.Time(), true
	}
	now := int64(ev.Time() - t.start)
	switch ev.Kind() {
	case trace.EventMetric:
		if m := ev.Metric(); m.Name == "/sched/gomaxprocs:threads" {
			t.procs = int(m.Value.Uint64())
		}
	case trace.EventStackSample:
		w := now / t.window
		if t.samples[w] == nil {
			t.samples[w] = map[string]int{}
		}
		t.samples[w][innermost(ev.Stack(), 2)]++
	case trace.EventStateTransition:
		st := ev.StateTransition()
		if st.Resource.Kind != trace.ResourceGoroutine {
			return
		}
		g := st.Resource.Goroutine()
		was, is := st.Goroutine()
		if _, ok := t.kind[g]; !ok || was == trace.GoNotExist {
			t.kind[g] = kindOf(st.Stack)
		}
		t.advance(now)
		t.state[g] = stateName(is, st.Reason)
		switch {
		case is == trace.GoRunning && was != trace.GoRunning:
			t.since[g] = now
			t.running++
		case was == trace.GoRunning && is != trace.GoRunning:
			s, ok := t.since[g]
			if !ok {
				s = 0 // running since before the trace
			} else {
				t.running--
			}
			delete(t.since, g)
			t.add(t.kind[g], s, now)
		}
	}
}

// advance counts the time from the last event to now with the goroutines as they were.
func (t *tally) advance(now int64) {
	if now <= t.last {
		return
	}
	t.byCount[t.running] += now - t.last
	if t.running < t.procs && t.last >= t.from && t.last < t.to {
		t.idle[t.others()] += now - t.last
	}
	t.last = now
}

// others describes the goroutines that are not done, by kind and state: runnable (r),
// running (R), in a system call (S), waiting (W, with the reason).
func (t *tally) others() string {
	var s []string
	for g, st := range t.state {
		k := t.kind[g]
		if st == "" || st == "done" || strings.HasPrefix(k, "runtime/trace.") || strings.HasPrefix(k, "os/signal.") ||
			strings.HasPrefix(k, "runtime.") && st != "R" && st != "r" {
			continue
		}
		s = append(s, t.kind[g]+":"+st)
	}
	slices.Sort(s)
	return fmt.Sprintf("%d running | %s", t.running, strings.Join(s, " "))
}

// add counts a goroutine of kind running from s to e, window by window.
func (t *tally) add(kind string, s, e int64) {
	for s < e {
		w := s / t.window
		end := min(e, (w+1)*t.window)
		if t.perWin[w] == nil {
			t.perWin[w] = map[string]int64{}
		}
		t.perWin[w][kind] += end - s
		s = end
	}
}

func (t *tally) print(out io.Writer, samples float64) {
	total := int64(0)
	for _, d := range t.byCount {
		total += d
	}
	fmt.Fprintf(out, "%.3f s, GOMAXPROCS %d; goroutines running:", float64(total)/1e9, t.procs)
	for _, n := range slices.Sorted(maps.Keys(t.byCount)) {
		fmt.Fprintf(out, " %d for %.1f%%", n, 100*float64(t.byCount[n])/float64(total))
	}
	fmt.Fprintf(out, "\n\nfewer than %d running (from %v to %v), by what the others did:\n", t.procs, time.Duration(t.from), time.Duration(t.to))
	for i, k := range sortedByValue(t.idle) {
		if i == 15 {
			break
		}
		fmt.Fprintf(out, "  %7.3f s  %s\n", float64(t.idle[k])/1e9, k)
	}
	fmt.Fprintf(out, "\nper %v: goroutines running on average, by kind\n", time.Duration(t.window))
	last := t.last / t.window
	for w := int64(0); w <= last; w++ {
		sum := int64(0)
		for _, d := range t.perWin[w] {
			sum += d
		}
		busy := float64(sum) / float64(t.window)
		fmt.Fprintf(out, "%8.2f s %5.2f |", float64(w*t.window)/1e9, busy)
		for i, k := range sortedByValue(t.perWin[w]) {
			if i == 4 {
				break
			}
			fmt.Fprintf(out, " %s %.2f;", k, float64(t.perWin[w][k])/float64(t.window))
		}
		fmt.Fprintln(out)
		if busy < samples {
			for i, k := range sortedByValue(t.samples[w]) {
				if i == 5 {
					break
				}
				fmt.Fprintf(out, "%18d %s\n", t.samples[w][k], k)
			}
		}
	}
}

// kindOf names a goroutine by the first function of its starting stack that is not the
// runtime's ("GC" for the collector's workers).
func kindOf(s trace.Stack) string {
	first := ""
	for f := range s.Frames() {
		if strings.HasPrefix(f.Func, "runtime.gcBgMarkWorker") {
			return "GC"
		}
		if first == "" && !strings.HasPrefix(f.Func, "runtime.") {
			first = f.Func
		}
	}
	if first == "" {
		return "runtime."
	}
	return strings.TrimPrefix(first, "github.com/ssa-diff/ssa-diff/")
}

func stateName(s trace.GoState, reason string) string {
	switch s {
	case trace.GoRunning:
		return "R"
	case trace.GoRunnable:
		return "r"
	case trace.GoSyscall:
		return "S"
	case trace.GoWaiting:
		return "W(" + reason + ")"
	case trace.GoNotExist:
		return "done"
	}
	return ""
}

// innermost names a sample by its n innermost frames outside the runtime.
func innermost(s trace.Stack, n int) string {
	var names []string
	for f := range s.Frames() {
		if strings.HasPrefix(f.Func, "runtime.") && len(names) == 0 {
			continue
		}
		names = append(names, strings.TrimPrefix(f.Func, "github.com/ssa-diff/ssa-diff/"))
		if len(names) == n {
			break
		}
	}
	return strings.Join(names, " < ")
}

func sortedByValue[V int | int64](m map[string]V) []string {
	return slices.SortedFunc(maps.Keys(m), func(a, b string) int {
		return cmp.Or(cmp.Compare(m[b], m[a]), strings.Compare(a, b))
	})
}
