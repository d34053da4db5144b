package library

import (
	"strings"
	"testing"
)

// slowPlugin is a policy plugin that is ready only at its nth WaitForReady, as the policy
// plugins are on a busy machine: each WaitForReady gives up after its own ten seconds.
type slowPlugin struct{ calls, readyAt int }

func (p *slowPlugin) WaitForReady() bool {
	p.calls++
	return p.calls >= p.readyAt
}

func TestWaitReadyOutlastsThePluginsOwnWait(t *testing.T) {
	p := &slowPlugin{readyAt: 3}
	if err := waitReady("ValidatingAdmissionPolicy", p, policiesReadyWithin); err != nil {
		t.Fatal(err)
	}
	if p.calls != 3 {
		t.Errorf("WaitForReady asked %d times, want 3 (until ready)", p.calls)
	}
}

func TestWaitReadyGivesUpAtItsLimit(t *testing.T) {
	p := &slowPlugin{readyAt: 1 << 30}
	err := waitReady("MutatingAdmissionPolicy", p, 0)
	if err == nil || !strings.Contains(err.Error(), "MutatingAdmissionPolicy: the cluster's policies were not ready") {
		t.Fatalf("err = %v, want the plugin named and not ready", err)
	}
	if p.calls != 1 {
		t.Errorf("WaitForReady asked %d times, want 1", p.calls)
	}
}

func TestWaitReadyWithoutAPlugin(t *testing.T) {
	var none any
	if err := waitReady("ValidatingAdmissionPolicy", none, 0); err != nil {
		t.Fatal(err)
	}
}
