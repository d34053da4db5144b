package emit

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	var buf bytes.Buffer
	var n atomic.Int64
	p := startProgress(&buf, 10, func() int64 { return n.Add(1) }, time.Nanosecond)
	// Two updates, however slowly the machine runs.
	for deadline := time.Now().Add(20 * time.Second); n.Load() < 2 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	p.stop()
	out := buf.String()
	if !strings.HasPrefix(out, "\rssa-diff: 1 of 10 objects predicted (10%)\x1b[K") || !strings.HasSuffix(out, "\r\x1b[K") || strings.Count(out, "\r") < 3 {
		t.Errorf("progress %q", out)
	}
	buf.Reset()
	p = startProgress(&buf, 10, func() int64 { return 0 }, time.Hour)
	p.stop()
	if buf.Len() != 0 {
		t.Errorf("a short run shows progress: %q", buf.String())
	}
}
