package input

import (
	"os"
	"runtime"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/stackreserve"
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

// A run's other input, the live dump, is one file read after the manifests; ReadAhead
// reads it ahead the same way, while the manifests are read (see ReadAhead).

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
	next, budget := 0, l.limits.MaxInputBytes-l.read-l.reserved
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
			stackreserve.Reserve() // parsing nests deep: one growth instead of several
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

// fileAhead is a file ReadAhead reads: with which settings, and the input it reserved.
type fileAhead struct {
	settings fileSettings
	reserved int64
	result   aheadResult
}

// ReadAhead starts reading the file at path in another goroutine, as Load reads it with
// the settings configure gives a copy of the loader (Load's other settings do not matter
// to a file): a run reads its live dump while it reads its manifests. A later Load(path)
// with those settings takes what was read, counting it then, when the limits on all input
// together could not have changed it — the rule for a directory's files read ahead — and
// reads the file again itself otherwise; with other settings it reads the file itself and
// leaves what was read ahead to a later Load. The entries, errors and counts are those of
// reading it in order, byte for byte. The file's size (plus one byte) is reserved from
// what the input limit leaves until Load takes it, so reading ahead, the directories'
// files included, never reads past the limit. Nothing is read ahead on one CPU, for
// standard input, a directory or anything but a regular file, nor for a file that does
// not fit in what the limit leaves.
func (l *Loader) ReadAhead(path string, configure func(*Loader)) {
	l.init()
	if runtime.GOMAXPROCS(0) < 2 || path == StdinName || l.ahead[path] != nil {
		return
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size()+1 > l.limits.MaxInputBytes-l.read-l.reserved {
		return
	}
	as := l.settings().loader()
	configure(as)
	f := &fileAhead{settings: as.settings(), reserved: info.Size() + 1, result: aheadResult{done: make(chan struct{})}}
	if l.ahead == nil {
		l.ahead = map[string]*fileAhead{}
	}
	l.ahead[path] = f
	l.reserved += f.reserved
	go func() {
		stackreserve.Reserve()
		readFileAhead(f.settings, l.limits, path, info.Size(), &f.result)
	}()
}

// adoptAhead returns the entries and documents of the file at path as ReadAhead read it,
// counting them as read, when it was read ahead with l's settings and the limits allow
// (adopt); false when l must read it itself.
func (l *Loader) adoptAhead(path string) ([]Entry, int, bool) {
	f := l.ahead[path]
	if f == nil || f.settings != l.settings() {
		return nil, 0, false
	}
	delete(l.ahead, path)
	l.reserved -= f.reserved
	return l.adopt(&f.result)
}
