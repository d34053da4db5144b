package input

import (
	"os"
	"runtime"
	"sync"
)

// Reading a directory is parsing its files one after the other, and parsing YAML is most of
// a run's time before it can predict anything (on two CPUs, a fifth of the 1,000-object
// corpus's run). So while Load takes the files in order, other goroutines parse the next
// ones ahead, each file with a loader of its own, fresh: what a file holds does not depend
// on the files before it — only the limits on all input together (bytes and objects read so
// far) do. Load adopts a file read ahead only when those limits could not have made any
// difference to it; otherwise it reads the file again itself, the plain way. Either way
// the entries, errors and counts are those of reading the files in order, byte for byte.
//
// Reading ahead never reads past the input limit: each file reserves its size (as stat
// says, plus one byte to see it end) from what the limit leaves, and a file that turns out
// longer stops there and is read again in order; once the reservations reach the limit,
// the files left are not read ahead.

// aheadResult is one file read ahead.
type aheadResult struct {
	done    chan struct{}
	ok      bool // read ahead (false: not tried, or read past its reservation)
	entries []Entry
	docs    int
	read    int64
	objects int
}

// readAhead parses files ahead of Load in the goroutines of a pool.
type readAhead struct {
	results []aheadResult
	stop    chan struct{}
	wg      sync.WaitGroup
}

// startReadAhead starts parsing files (skip marks those not to parse: rendered directories)
// with GOMAXPROCS goroutines, or returns nil when that would not help: one CPU, one file.
func (l *Loader) startReadAhead(files []string, skip map[string]bool) *readAhead {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || len(files) < 2 {
		return nil
	}
	a := &readAhead{results: make([]aheadResult, len(files)), stop: make(chan struct{})}
	for i := range a.results {
		a.results[i].done = make(chan struct{})
	}
	var mu sync.Mutex
	next, budget := 0, l.limits.MaxInputBytes-l.read
	// take hands out the next file in order with its reservation; false when none is left
	// or the input limit leaves none to reserve.
	take := func() (int, int64, bool) {
		mu.Lock()
		defer mu.Unlock()
		for next < len(files) {
			i := next
			next++
			if skip[files[i]] {
				close(a.results[i].done)
				continue
			}
			info, err := os.Stat(files[i])
			if err != nil || !info.Mode().IsRegular() || info.Size()+1 > budget {
				// Load reads it and, the limit being near, whatever follows.
				for j := i; j < len(files); j++ {
					close(a.results[j].done)
				}
				next = len(files)
				return 0, 0, false
			}
			budget -= info.Size() + 1
			return i, info.Size(), true
		}
		return 0, 0, false
	}
	settings, limits := l.settings(), l.limits
	for range workers {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			for {
				select {
				case <-a.stop:
					return
				default:
				}
				i, size, ok := take()
				if !ok {
					return
				}
				readFileAhead(settings, limits, files[i], size, &a.results[i])
			}
		}()
	}
	return a
}

// fileSettings are the settings of a Loader that decide how a file is read.
type fileSettings struct {
	noFieldLines, compactManagedFields, deferDecoding bool
	sourceCommentsInFiles, requestBodies              bool
	sourceRoot                                        string
}

func (l *Loader) settings() fileSettings {
	return fileSettings{noFieldLines: l.NoFieldLines, compactManagedFields: l.CompactManagedFields, deferDecoding: l.DeferDecoding,
		sourceCommentsInFiles: l.SourceCommentsInFiles, requestBodies: l.RequestBodies, sourceRoot: l.SourceRoot}
}

// loader is a new Loader of these settings.
func (s fileSettings) loader() *Loader {
	return &Loader{NoFieldLines: s.noFieldLines, CompactManagedFields: s.compactManagedFields, DeferDecoding: s.deferDecoding,
		SourceCommentsInFiles: s.sourceCommentsInFiles, RequestBodies: s.requestBodies, SourceRoot: s.sourceRoot}
}

// readFileAhead parses one file with a loader of its own, of settings s and the limits
// lim, that may read only size+1 bytes (its reservation) and has read nothing before.
func readFileAhead(s fileSettings, lim Limits, path string, size int64, r *aheadResult) {
	defer close(r.done)
	c := s.loader()
	c.started, c.limits = true, lim
	c.limits.MaxInputBytes = size + 1
	r.entries, r.docs = c.loadFile(path)
	// A file longer than stat said was cut at its reservation; an object limit reached in
	// it depends on what was read before: both are read again in order.
	r.ok = c.read <= size && !c.objectLimitSaid
	r.read, r.objects = c.read, c.objects
}

// adopt waits for file i and returns its entries and documents as l would read it now,
// counting them as read; false when it must be read in order (not read ahead, or the limits
// on all input together would have cut it).
func (a *readAhead) adopt(l *Loader, i int) ([]Entry, int, bool) {
	if a == nil {
		return nil, 0, false
	}
	return l.adopt(&a.results[i])
}

// adopt waits for r and returns its entries and documents as l would read its file now,
// counting them as read; false when it must be read in order (not read ahead, or the
// limits on all input together would have cut it).
func (l *Loader) adopt(r *aheadResult) ([]Entry, int, bool) {
	<-r.done
	if !r.ok || l.read+r.read > l.limits.MaxInputBytes || l.objects+r.objects > l.limits.MaxObjects {
		return nil, 0, false
	}
	l.read += r.read
	l.objects += r.objects
	entries, docs := r.entries, r.docs
	r.entries = nil
	return entries, docs, true
}

// close stops reading ahead and waits for the goroutines.
func (a *readAhead) close() {
	if a == nil {
		return
	}
	close(a.stop)
	a.wg.Wait()
}
