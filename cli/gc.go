package cli

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The garbage collector's setting for a whole-repository run. Go's default (GOGC=100) lets
// the heap grow to twice what is live; a run allocates its input's size many times over
// (every prediction builds and drops its trees), so collecting less often saves a fifth
// of its CPU. ssa-diff lets the heap grow to three times what is live (GOGC=200) but not
// past a soft limit of three times the input it has read (32 MiB at least): a run stays
// within a few times its input. When what is live approaches that limit — objects that
// decode to more than the input's multiple — the limit moves up to twice what is live, so
// that the collector never runs without pause near it. GOGC or GOMEMLIMIT in the
// environment turn all of this off: the runtime then does as they say.

const (
	gcPercent     = 200
	gcLimitFactor = 3
	gcMinLimit    = 32 << 20
)

// gcLimit is the soft memory limit for a run that has read input bytes, or false when the
// environment sets the collector itself.
func gcLimit(getenv func(string) string, input int64) (int64, bool) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return 0, false
	}
	return max(gcLimitFactor*input, gcMinLimit), true
}

// raisedLimit is the limit once live bytes are live: twice them when they pass two thirds
// of it.
func raisedLimit(limit, live int64) int64 {
	if live > limit/3*2 {
		return 2 * live
	}
	return limit
}

// gcTuning is the collector's setting while a run lasts.
type gcTuning struct {
	input   chan int64
	done    chan struct{}
	stopped chan struct{}
	percent int
	limit   int64
}

// tuneGC sets the collector for a run, its limit that of an input of 0 bytes until
// readInput tells how much was read, and watches what is live until stop. getenv reads the
// environment; nil when it sets the collector itself.
func tuneGC(getenv func(string) string) *gcTuning {
	limit, ok := gcLimit(getenv, 0)
	if !ok {
		return nil
	}
	t := &gcTuning{input: make(chan int64), done: make(chan struct{}), stopped: make(chan struct{})}
	t.percent = debug.SetGCPercent(gcPercent)
	t.limit = debug.SetMemoryLimit(limit)
	go t.watch(getenv, limit)
	return t
}

func (t *gcTuning) watch(getenv func(string) string, limit int64) {
	defer close(t.stopped)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		next := limit
		select {
		case <-t.done:
			return
		case n := <-t.input:
			next, _ = gcLimit(getenv, n)
		case <-tick.C:
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				next = raisedLimit(limit, int64(sample[0].Value.Uint64()))
			}
		}
		if next != limit {
			limit = next
			debug.SetMemoryLimit(limit)
		}
	}
}

// readInput sets the limit for input bytes read.
func (t *gcTuning) readInput(n int64) {
	if t != nil {
		t.input <- n
	}
}

// stop ends the watch and restores the settings found.
func (t *gcTuning) stop() {
	if t == nil {
		return
	}
	close(t.done)
	<-t.stopped
	debug.SetGCPercent(t.percent)
	debug.SetMemoryLimit(t.limit)
}
