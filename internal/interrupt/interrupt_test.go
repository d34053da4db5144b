//go:build unix

package interrupt

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRun: a run that ends answers its status; SIGTERM cancels the run's context, says so
// on stderr and answers 143.
func TestRun(t *testing.T) {
	var stderr strings.Builder
	if code := Run("ssa-diff", &stderr, func(context.Context) int { return 3 }); code != 3 || stderr.Len() != 0 {
		t.Errorf("exit %d, %q", code, stderr.String())
	}
	code := Run("ssa-diff", &stderr, func(ctx context.Context) int {
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
			t.Error("the context was not cancelled")
		}
		return 0
	})
	if code != ExitTerminated || stderr.String() != "ssa-diff: terminated (SIGTERM): stopped; files being written are left as they were\n" {
		t.Errorf("SIGTERM: exit %d, %q", code, stderr.String())
	}
}

// TestRunToExit: as Run, a run answers its status and SIGTERM stops it with 143; once it
// has answered, the signals stay caught (the process exits at once), so a SIGTERM then
// leaves the process running (without the handler it would end this test's process).
func TestRunToExit(t *testing.T) {
	var stderr strings.Builder
	if code := RunToExit("ssa-diff", &stderr, func(context.Context) int { return 1 }); code != 1 || stderr.Len() != 0 {
		t.Errorf("exit %d, %q", code, stderr.String())
	}
	code := RunToExit("ssa-diff", &stderr, func(ctx context.Context) int {
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
		<-ctx.Done()
		return 0
	})
	if code != ExitTerminated || stderr.String() != "ssa-diff: terminated (SIGTERM): stopped; files being written are left as they were\n" {
		t.Errorf("SIGTERM: exit %d, %q", code, stderr.String())
	}
	defer signal.Reset(os.Interrupt, syscall.SIGTERM)
	_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
	time.Sleep(100 * time.Millisecond)
}
