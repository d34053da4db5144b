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
// past a soft limit of four times the input it has read (32 MiB at least): a run stays
// within a few times its input. When what is live passes half that limit — objects that
// decode to more than the input's multiple — the limit moves up to twice what is live, so
// that the heap may always grow as far as with Go's default: never more collections. GOGC or GOMEMLIMIT in the
// environment turn all of this off: the runtime then does as they say.

const (
	gcPercent     = 200
	gcLimitFactor = 4
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

// raisedLimit is the limit once live bytes are live: at least twice them, so that the
// heap may always grow as far as Go's default lets it.
func raisedLimit(limit, live int64) int64 {
	return max(limit, 2*live)
}

// gcTuning is the collector's setting while a run lasts.
type gcTuning struct {
	done    chan struct{}
	stopped chan struct{}
	percent int
	limit   int64
}

// readingGC lets the heap grow to three times what is live (GOGC=200) while the input is
// read, and returns what puts the setting found back; nil when the environment sets the
// collector itself. Reading keeps most of what it allocates, so what is live is at most
// about the input read so far, and the heap stays within the limit tuneGC then sets; with
// Go's default, reading the 1,000-object corpus took 19 collections of a heap of 4 to 13 MB.
func readingGC(getenv func(string) string) func() {
	if _, ok := gcLimit(getenv, 0); !ok {
		return nil
	}
	percent := debug.SetGCPercent(gcPercent)
	return func() { debug.SetGCPercent(percent) }
}

// tuneGC sets the collector for the rest of a run that has read input bytes, and watches
// what is live until stop. getenv reads the environment; nil when it sets the collector
// itself.
func tuneGC(getenv func(string) string, input int64) *gcTuning {
	limit, ok := gcLimit(getenv, input)
	if !ok {
		return nil
	}
	t := &gcTuning{done: make(chan struct{}), stopped: make(chan struct{})}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	live := func() int64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(sample[0].Value.Uint64())
	}
	limit = raisedLimit(limit, live())
	t.limit = debug.SetMemoryLimit(limit)
	t.percent = debug.SetGCPercent(gcPercent)
	go func() {
		defer close(t.stopped)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-t.done:
				return
			case <-tick.C:
			}
			if next := raisedLimit(limit, live()); next != limit {
				limit = next
				debug.SetMemoryLimit(limit)
			}
		}
	}()
	return t
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
