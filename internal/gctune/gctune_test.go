package gctune

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func env(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

func TestGCLimit(t *testing.T) {
	for _, c := range []struct {
		name  string
		env   func(string) string
		input int64
		limit int64
		ok    bool
	}{
		{"a small input: the floor", env(), 1 << 20, 32 << 20, true},
		{"a repository: four times its input", env(), 100 << 20, 400 << 20, true},
		{"GOGC set: the runtime's", env("GOGC", "100"), 100 << 20, 0, false},
		{"GOMEMLIMIT set: the runtime's", env("GOMEMLIMIT", "1GiB"), 100 << 20, 0, false},
	} {
		limit, ok := gcLimit(c.env, c.input)
		if limit != c.limit || ok != c.ok {
			t.Errorf("%s: gcLimit = %d, %v; want %d, %v", c.name, limit, ok, c.limit, c.ok)
		}
	}
}

func TestRaisedLimit(t *testing.T) {
	for _, c := range []struct{ limit, live, want int64 }{
		{90, 10, 90}, {90, 45, 90}, {90, 46, 92}, {90, 200, 400},
	} {
		if got := raisedLimit(c.limit, c.live); got != c.want {
			t.Errorf("raisedLimit(%d, %d) = %d, want %d", c.limit, c.live, got, c.want)
		}
	}
}

// TestTuneGC sets the collector of this process for a moment, and checks it is put back.
func TestTuneGC(t *testing.T) {
	if Tune(env("GOGC", "off"), 1<<20) != nil {
		t.Fatal("tuned the collector although GOGC is set")
	}
	percent := debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	limit := debug.SetMemoryLimit(-1)

	g := Tune(env(), 1<<30)
	if p := debug.SetGCPercent(gcPercent); p != gcPercent {
		t.Errorf("GC percent %d, want %d", p, gcPercent)
	}
	if l := debug.SetMemoryLimit(-1); l != 4<<30 {
		t.Errorf("memory limit %d after 1 GiB of input, want 4 GiB", l)
	}
	g.Stop()
	if p := debug.SetGCPercent(percent); p != percent {
		t.Errorf("GC percent %d after stop, want %d", p, percent)
	}
	if l := debug.SetMemoryLimit(-1); l != limit {
		t.Errorf("memory limit %d after stop, want %d", l, limit)
	}
}

// TestReadingGC sets the collector of this process for a moment, and checks it is put back.
func TestReadingGC(t *testing.T) {
	if Reading(env("GOMEMLIMIT", "1GiB")) != nil {
		t.Fatal("tuned the collector although GOMEMLIMIT is set")
	}
	percent := debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	restore := Reading(env())
	if p := debug.SetGCPercent(gcPercent); p != gcPercent {
		t.Errorf("GC percent %d while reading, want %d", p, gcPercent)
	}
	restore()
	if p := debug.SetGCPercent(percent); p != percent {
		t.Errorf("GC percent %d after reading, want %d", p, percent)
	}
}

// TestTuneRaisesToWhatIsLive: once a collection has run, Tune reads what it marked live and
// sets the limit to twice that when it is above the input's multiple (Tune skips the read
// only while no collection has ended: nothing is marked live then).
func TestTuneRaisesToWhatIsLive(t *testing.T) {
	live := make([]byte, 40<<20)
	runtime.GC()
	if !collected() {
		t.Fatal("a collection ran, and collected says none has")
	}
	limit := debug.SetMemoryLimit(-1)
	g := Tune(env(), 1) // the floor, 32 MiB: below twice what is live
	got := debug.SetMemoryLimit(-1)
	g.Stop()
	runtime.KeepAlive(live)
	if got < 80<<20 {
		t.Errorf("memory limit %d with 40 MiB live, want at least 80 MiB", got)
	}
	if l := debug.SetMemoryLimit(-1); l != limit {
		t.Errorf("memory limit %d after stop, want %d", l, limit)
	}
}
