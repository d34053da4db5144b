package advice

import (
	"testing"
	"time"
)

func condition(typ, status, reason, message string, since time.Time) map[string]any {
	return map[string]any{"type": typ, "status": status, "reason": reason, "message": message,
		"lastTransitionTime": since.UTC().Format(time.RFC3339), "lastUpdateTime": since.UTC().Format(time.RFC3339)}
}

func TestStateNotObserved(t *testing.T) {
	// generation 2, status of generation 1: the controller has not seen the last change.
	c := loadCase(t, "conflict-multiple-managers")
	s, ok := StateOf(c.Live, Options{Now: c.NowTime()})
	if !ok || s.Observed || s.Converged || !s.Healthy {
		t.Fatalf("state %+v", s)
	}
	if len(s.Advice) != 1 || s.Advice[0].ID != IDNotConverged || s.Advice[0].Paths[0] != ".status.observedGeneration" {
		t.Fatalf("advice %s", dump(s.Advice))
	}
	mustContain(t, "message", s.Advice[0].Message, "has not observed generation 2 yet (status is of generation 1)", "0/6 ready")
	mustContain(t, "fix", s.Advice[0].Fix, "kubectl rollout status deployment.apps/pricing -n conflict-multiple-managers")
	mustContain(t, "line", s.String(), "state: not converged (generation 2, observed 1, 0/6 updated, 0/6 ready, 0/6 available)")
	// Silenced.
	s, _ = StateOf(c.Live, Options{Now: c.NowTime(), Disabled: map[string]bool{IDNotConverged: true}})
	if len(s.Advice) != 0 {
		t.Fatalf("silenced advice %s", dump(s.Advice))
	}
}

func TestStateRolloutPending(t *testing.T) {
	// The deployment controller's status: generation observed, three pods not yet available.
	c := loadCase(t, "update-status-controller")
	s, ok := StateOf(c.Want, Options{Now: c.NowTime()})
	if !ok || !s.Observed || s.Converged || !s.Healthy {
		t.Fatalf("state %+v", s)
	}
	if len(s.Advice) != 1 || s.Advice[0].ID != IDNotConverged {
		t.Fatalf("advice %s", dump(s.Advice))
	}
	mustContain(t, "message", s.Advice[0].Message, "0/3 ready, 0/3 available")
	mustContain(t, "line", s.String(), "3/3 updated", "conditions healthy")
}

func TestStateConverged(t *testing.T) {
	c := loadCase(t, "status-update-then-spec-apply")
	setPath(c.Live, int64(2), "status", "updatedReplicas")
	now := c.NowTime()
	s, ok := StateOf(c.Live, Options{Now: now})
	if !ok || !s.Converged || !s.Healthy || len(s.Advice) != 0 {
		t.Fatalf("state %+v %s", s, dump(s.Advice))
	}
	if got := s.String(); got != "state: converged (generation 1, observed 1, 2/2 updated, 2/2 ready, 2/2 available)" {
		t.Fatalf("line %q", got)
	}
	// A rollout that ran out of time is reported at once; a fresh False condition is not.
	setPath(c.Live, []any{
		condition("Progressing", "False", "ProgressDeadlineExceeded", `ReplicaSet "catalog-7d9f" has timed out progressing.`, now.Add(-time.Minute)),
		condition("Available", "False", "MinimumReplicasUnavailable", "Deployment does not have minimum availability.", now.Add(-time.Minute)),
	}, "status", "conditions")
	s, _ = StateOf(c.Live, Options{Now: now})
	if len(s.Conditions) != 2 || !s.Conditions[0].Reported || s.Conditions[1].Reported || !s.Conditions[1].Bad {
		t.Fatalf("conditions %+v", s.Conditions)
	}
	if len(s.Advice) != 1 || s.Advice[0].ID != IDConditionUnhealthy {
		t.Fatalf("advice %s", dump(s.Advice))
	}
	mustContain(t, "message", s.Advice[0].Message, "Progressing=False for 1m0s (ProgressDeadlineExceeded")
}

func TestStateConvergedButUnhealthy(t *testing.T) {
	// The HPA has observed its spec, but has not been able to read CPU metrics for hours:
	// converged, not healthy. ScalingLimited=False is a state, not a failure.
	c := loadCase(t, "hpa-v2-metrics-apply")
	hpa := c.Want
	now := c.NowTime().Add(6 * time.Hour)
	since := c.NowTime().Add(time.Minute)
	hpa["status"] = map[string]any{"observedGeneration": int64(1), "currentReplicas": int64(2), "desiredReplicas": int64(2),
		"conditions": []any{
			condition("AbleToScale", "True", "SucceededGetScale", "the HPA controller was able to get the target's current scale", since),
			condition("ScalingActive", "False", "FailedGetResourceMetric", "the HPA was unable to compute the replica count: failed to get cpu utilization: missing request for cpu in container app of Pod checkout-6b8d7-x2x9q", since),
			condition("ScalingLimited", "False", "DesiredWithinRange", "the desired count is within the acceptable range", since),
		}}
	s, ok := StateOf(hpa, Options{Now: now})
	if !ok || !s.Converged || s.Healthy {
		t.Fatalf("state %+v", s)
	}
	if len(s.Advice) != 1 || s.Advice[0].ID != IDConditionUnhealthy || s.Advice[0].Paths[0] != `.status.conditions[type="ScalingActive"]` {
		t.Fatalf("advice %s", dump(s.Advice))
	}
	mustContain(t, "message", s.Advice[0].Message, "ScalingActive=False for 5h59m0s (FailedGetResourceMetric:", "although the object has converged")
	mustContain(t, "fix", s.Advice[0].Fix, "convergence is not health", "kubectl describe horizontalpodautoscaler.autoscaling/checkout-hpa -n hpa-v2-metrics-apply")
	mustContain(t, "line", s.String(), "state: converged (generation 1, observed 1); unhealthy: ScalingActive=False")
	// A longer grace time hides it.
	s, _ = StateOf(hpa, Options{Now: now, ConditionGrace: 12 * time.Hour})
	if !s.Healthy || len(s.Advice) != 0 {
		t.Fatalf("within grace: %+v", s)
	}
}

func TestStateDaemonSet(t *testing.T) {
	ds := map[string]any{"apiVersion": "apps/v1", "kind": "DaemonSet",
		"metadata": map[string]any{"name": "node-exporter", "namespace": "monitoring", "generation": int64(4)},
		"spec":     map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "node-exporter"}}},
		"status": map[string]any{"observedGeneration": int64(4), "desiredNumberScheduled": int64(3), "currentNumberScheduled": int64(3),
			"updatedNumberScheduled": int64(3), "numberReady": int64(2), "numberAvailable": int64(2), "numberUnavailable": int64(1), "numberMisscheduled": int64(0)}}
	s, ok := StateOf(ds, Options{Now: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)})
	if !ok || !s.Observed || s.Converged {
		t.Fatalf("state %+v", s)
	}
	mustContain(t, "message", s.Advice[0].Message, "2/3 ready, 2/3 available")
	if !sameStrings(s.Advice[0].Paths, []string{".status.numberReady", ".status.numberAvailable"}) {
		t.Fatalf("paths %v", s.Advice[0].Paths)
	}
}

func TestStateNothingToJudge(t *testing.T) {
	c := loadCase(t, "prune-sole-owner-map-keys") // a ConfigMap
	if s, ok := StateOf(c.Live, Options{}); ok {
		t.Fatalf("state of a ConfigMap: %+v", s)
	}
	if _, ok := StateOf(nil, Options{}); ok {
		t.Fatal("state of nothing")
	}
}
