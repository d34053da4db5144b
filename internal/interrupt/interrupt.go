package interrupt

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/ssa-diff/ssa-diff/internal/stackreserve"
)

// The exit statuses of an interrupted run.
const (
	ExitInterrupted = 128 + 2  // SIGINT
	ExitTerminated  = 128 + 15 // SIGTERM
)

// interruptGrace is how long an interrupted run has to stop before the process exits
// anyway (a read blocked where nothing can cancel it: standard input, a credential
// plugin). A second signal exits at once.
const interruptGrace = 3 * time.Second

// Run runs f with a context that ends at the first SIGINT or SIGTERM, and
// returns its exit status, or, after a signal, the signal's.
func Run(prog string, stderr io.Writer, f func(ctx context.Context) int) int {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		stackreserve.Reserve() // the command nests deep: one growth instead of six
		done <- f(ctx)
	}()
	select {
	case code := <-done:
		return code
	case sig := <-sigs:
		cancel()
		fmt.Fprintf(stderr, "%s: %s: stopped; files being written are left as they were\n", prog, signalName(sig))
		timer := time.NewTimer(interruptGrace)
		defer timer.Stop()
		select {
		case <-done:
		case <-sigs:
		case <-timer.C:
		}
		return signalStatus(sig)
	}
}

func signalName(sig os.Signal) string {
	if sig == syscall.SIGTERM {
		return "terminated (SIGTERM)"
	}
	return "interrupted (SIGINT)"
}

func signalStatus(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return ExitTerminated
	}
	return ExitInterrupted
}
