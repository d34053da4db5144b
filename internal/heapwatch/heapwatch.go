// Package heapwatch measures, for tests and benchmarks, how much Go heap a piece of work
// holds at its worst: the heap in use is sampled every 2 ms while the work runs.
package heapwatch

import (
	"runtime"
	"time"
)

// Peak runs f and returns the heap in use just before it (after a collection) and the most
// it held meanwhile, in bytes.
func Peak(f func()) (before, peak uint64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before = m.HeapInuse
	done := make(chan struct{})
	result := make(chan uint64)
	go func() {
		var max uint64
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > max {
				max = m.HeapInuse
			}
			select {
			case <-done:
				// What f left held counts too.
				runtime.ReadMemStats(&m)
				if m.HeapInuse > max {
					max = m.HeapInuse
				}
				result <- max
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	return before, <-result
}
