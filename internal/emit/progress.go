package emit

import (
	"fmt"
	"io"
	"time"
)

// progress keeps a line on a terminal's error stream up to date with how many objects are
// predicted, once a run has gone on for a while; stop erases it.
type progress struct {
	quit, done chan struct{}
}

func startProgress(w io.Writer, total int, count func() int64, delay time.Duration) *progress {
	if delay <= 0 {
		delay = time.Second
	}
	p := &progress{quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		shown := false
		timer := time.NewTimer(delay)
		defer timer.Stop()
		select {
		case <-p.quit:
			return
		case <-timer.C:
		}
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			n := count()
			pct := 100
			if total > 0 {
				pct = int(n * 100 / int64(total))
			}
			fmt.Fprintf(w, "\rssa-diff: %d of %d objects predicted (%d%%)\x1b[K", n, total, pct)
			shown = true
			select {
			case <-p.quit:
				if shown {
					io.WriteString(w, "\r\x1b[K")
				}
				return
			case <-tick.C:
			}
		}
	}()
	return p
}

func (p *progress) stop() {
	close(p.quit)
	<-p.done
}
