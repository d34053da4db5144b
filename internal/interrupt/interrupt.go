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
// returns its exit status, or, after a signal, the signal's. The signals are caught until
// Run returns.
func Run(prog string, stderr io.Writer, f func(ctx context.Context) int) int {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	return run(prog, stderr, sigs, f)
}

// RunToExit is Run for a process that exits with the status as soon as it is answered (a
// command's main): the signals stay caught until the process exits, and one that comes
// after f has answered changes nothing. Not handing them back spares the runtime's signal
// thread a round trip for each signal, two thread switches, in every run.
func RunToExit(prog string, stderr io.Writer, f func(ctx context.Context) int) int {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	return run(prog, stderr, sigs, f)
}

// run runs f until it answers or a signal comes on sigs.
func run(prog string, stderr io.Writer, sigs chan os.Signal, f func(ctx context.Context) int) int {
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
