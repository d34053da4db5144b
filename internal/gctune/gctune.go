package gctune

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

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

// Tuning is the collector's setting while a run lasts.
type Tuning struct {
	done    chan struct{}
	stopped chan struct{}
	percent int
	limit   int64
}

// Reading lets the heap grow to three times what is live (GOGC=200) while the input is
// read, and returns what puts the setting found back; nil when the environment sets the
// collector itself. Reading keeps most of what it allocates, so what is live is at most
// about the input read so far, and the heap stays within the limit Tune then sets; with
// Go's default, reading the 1,000-object corpus took 19 collections of a heap of 4 to 13 MB.
func Reading(getenv func(string) string) func() {
	if _, ok := gcLimit(getenv, 0); !ok {
		return nil
	}
	percent := debug.SetGCPercent(gcPercent)
	return func() { debug.SetGCPercent(percent) }
}

// Tune sets the collector for the rest of a run that has read input bytes, and watches
// what is live until stop. getenv reads the environment; nil when it sets the collector
// itself.
func Tune(getenv func(string) string, input int64) *Tuning {
	limit, ok := gcLimit(getenv, input)
	if !ok {
		return nil
	}
	t := &Tuning{done: make(chan struct{}), stopped: make(chan struct{})}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	live := func() int64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(sample[0].Value.Uint64())
	}
	if collected() {
		limit = raisedLimit(limit, live())
	}
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

// Stop ends the watch and restores the settings found.
func (t *Tuning) Stop() {
	if t == nil {
		return
	}
	close(t.done)
	<-t.stopped
	debug.SetGCPercent(t.percent)
	debug.SetMemoryLimit(t.limit)
}

// collected reports whether a collection has ended since the process started. Until one
// has, what is live (/gc/heap/live:bytes, what the last collection marked) is 0 and leaves
// the limit as it is; a run too small to have collected while reading skips the first
// read of runtime/metrics, which makes the runtime build its table of every metric.
func collected() bool {
	var stats debug.GCStats
	debug.ReadGCStats(&stats)
	return stats.NumGC > 0
}
