package advice

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ssa-diff/ssa-diff/schema"
)

// State is the live object's convergence and health, read from its status. It is a report
// of its own, printed as one "state" line beside the apply's advice: an apply can be clean
// while the object it lands on is stuck, and a converged object can be unhealthy.
type State struct {
	// Generation is metadata.generation; ObservedGeneration is status.observedGeneration
	// (HasObservedGeneration false when the status has none).
	Generation            int64 `json:"generation,omitempty"`
	ObservedGeneration    int64 `json:"observedGeneration,omitempty"`
	HasObservedGeneration bool  `json:"hasObservedGeneration,omitempty"`
	// Observed is true when the controller has seen the current spec (or nothing says it
	// has not).
	Observed bool `json:"observed"`
	// Counters are the workload's replica counters against the desired count.
	Counters []Counter `json:"counters,omitempty"`
	// Converged is Observed with every counter at its target.
	Converged bool `json:"converged"`
	// Conditions are status.conditions, each judged.
	Conditions []Condition `json:"conditions,omitempty"`
	// Healthy is true when no condition has been unhealthy for longer than the grace time.
	Healthy bool `json:"healthy"`
	// Advice holds not-converged and condition-unhealthy, minus the silenced ones.
	Advice []Advice `json:"advice,omitempty"`
}

// Counter is one replica counter of a workload.
type Counter struct {
	// Name is the counter as people say it: "ready", "available", "updated", "misscheduled".
	Name string `json:"name"`
	// Path is the status field.
	Path string `json:"path"`
	Have int64  `json:"have"`
	Want int64  `json:"want"`
}

// Done reports whether the counter reached its target.
func (c Counter) Done() bool { return c.Have == c.Want }

// Condition is one entry of status.conditions, judged.
type Condition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	// Since is lastTransitionTime, nil when absent or unreadable.
	Since *time.Time `json:"since,omitempty"`
	// For is how long the condition has had its status (zero without Since).
	For time.Duration `json:"for,omitempty"`
	// Bad is true when the status is the unhealthy one for this type: False or Unknown, or
	// True for a failure condition (ReplicaFailure, Failed, Stalled, Degraded, node
	// pressure …). Neutral types (Suspended, ScalingLimited, Reconciling …) are never bad.
	Bad bool `json:"bad,omitempty"`
	// Reported is true when Bad and older than the grace time (or of unknown age, or past a
	// deadline already).
	Reported bool `json:"reported,omitempty"`
}

// StateOf judges the live object's status. It reports false when the object has nothing to
// judge: no generation to compare, no replica counters and no conditions.
func StateOf(live map[string]any, opts Options) (*State, bool) {
	if live == nil {
		return nil, false
	}
	status, _ := live["status"].(map[string]any)
	md, _ := live["metadata"].(map[string]any)
	gvk := schema.GVKOf(live)
	s := &State{Observed: true, Healthy: true}
	gen, hasGen := integer(md["generation"])
	s.Generation = gen
	s.ObservedGeneration, s.HasObservedGeneration = integer(status["observedGeneration"])
	workload := isWorkload(gvk)
	judged := false
	switch {
	case hasGen && s.HasObservedGeneration:
		s.Observed, judged = s.ObservedGeneration >= gen, true
	case hasGen && workload:
		s.Observed, judged = false, true
	}
	s.Counters = counters(gvk, live, status)
	s.Converged = s.Observed
	for _, c := range s.Counters {
		judged = true
		if !c.Done() {
			s.Converged = false
		}
	}
	now, grace := opts.now(), opts.grace()
	list, _ := status["conditions"].([]any)
	for _, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			continue
		}
		judged = true
		c := Condition{}
		c.Type, _ = m["type"].(string)
		c.Status, _ = m["status"].(string)
		c.Reason, _ = m["reason"].(string)
		c.Message, _ = m["message"].(string)
		if ts, _ := m["lastTransitionTime"].(string); ts != "" {
			if t, err := time.Parse(time.RFC3339, ts); err == nil {
				t = t.UTC()
				c.Since = &t
				c.For = now.Sub(t)
			}
		}
		c.Bad = badCondition(c.Type, c.Status)
		c.Reported = c.Bad && (c.Since == nil || c.For >= grace || c.Reason == "ProgressDeadlineExceeded")
		if c.Reported {
			s.Healthy = false
		}
		s.Conditions = append(s.Conditions, c)
	}
	if !judged {
		return nil, false
	}
	s.Advice = order(s.advice(gvk, live), opts)
	return s, true
}

func (s *State) advice(gvk schema.GVK, live map[string]any) []Advice {
	var out []Advice
	target := objectRef(gvk, live)
	if !s.Converged {
		var parts []string
		var paths []string
		if !s.Observed {
			if s.HasObservedGeneration {
				parts = append(parts, fmt.Sprintf("the controller has not observed generation %d yet (status is of generation %d)", s.Generation, s.ObservedGeneration))
			} else {
				parts = append(parts, fmt.Sprintf("no controller has reported on generation %d yet", s.Generation))
			}
			paths = append(paths, ".status.observedGeneration")
		}
		if pending := s.pending(); pending != "" {
			parts = append(parts, pending)
			for _, c := range s.Counters {
				if !c.Done() {
					paths = append(paths, c.Path)
				}
			}
		}
		out = append(out, Advice{ID: IDNotConverged, Severity: SeverityInfo,
			Message: "the live object has not converged: " + strings.Join(parts, "; "),
			Fix:     fmt.Sprintf("judge the apply against a settled object: wait for the rollout (`kubectl rollout status %s`) and look at its events if it does not finish", target),
			Paths:   paths})
	}
	for _, c := range s.Conditions {
		if !c.Reported {
			continue
		}
		msg := "the live object's condition " + c.String()
		if s.Converged {
			msg += ", although the object has converged"
		}
		out = append(out, Advice{ID: IDConditionUnhealthy, Severity: SeverityWarning,
			Message: msg,
			Fix:     fmt.Sprintf("convergence is not health, and re-applying will not change it: find the cause behind %s in `kubectl describe %s` and its pods' events", reasonOr(c), target),
			Paths:   []string{fmt.Sprintf(".status.conditions[type=%q]", c.Type)}})
	}
	return out
}

func reasonOr(c Condition) string {
	if c.Reason != "" {
		return c.Reason
	}
	return c.Type + "=" + c.Status
}

// pending prints the counters that are not at their target: "0/3 ready, 0/3 available".
func (s *State) pending() string {
	var parts []string
	for _, c := range s.Counters {
		if !c.Done() {
			parts = append(parts, c.String())
		}
	}
	return strings.Join(parts, ", ")
}

// String prints a counter: "2/3 ready", or "1 misscheduled".
func (c Counter) String() string {
	if c.Want == 0 && c.Name == "misscheduled" {
		return fmt.Sprintf("%d %s", c.Have, c.Name)
	}
	return fmt.Sprintf("%d/%d %s", c.Have, c.Want, c.Name)
}

// String prints a condition: Available=False for 2h5m (MinimumReplicasUnavailable: …).
func (c Condition) String() string {
	s := c.Type + "=" + c.Status
	if c.Since != nil {
		s += " for " + c.For.Truncate(time.Second).String()
	}
	switch {
	case c.Reason != "" && c.Message != "":
		s += fmt.Sprintf(" (%s: %s)", c.Reason, c.Message)
	case c.Reason != "":
		s += " (" + c.Reason + ")"
	case c.Message != "":
		s += " (" + c.Message + ")"
	}
	return s
}

// String is the state line: convergence first, then health.
func (s *State) String() string {
	var b strings.Builder
	b.WriteString("state: ")
	if s.Converged {
		b.WriteString("converged")
	} else {
		b.WriteString("not converged")
	}
	var details []string
	if s.HasObservedGeneration || !s.Observed {
		details = append(details, fmt.Sprintf("generation %d, observed %d", s.Generation, s.ObservedGeneration))
	}
	for _, c := range s.Counters {
		details = append(details, c.String())
	}
	if len(details) > 0 {
		b.WriteString(" (" + strings.Join(details, ", ") + ")")
	}
	var bad []string
	for _, c := range s.Conditions {
		if c.Reported {
			bad = append(bad, c.String())
		}
	}
	switch {
	case len(bad) > 0:
		b.WriteString("; unhealthy: " + strings.Join(bad, "; "))
	case len(s.Conditions) > 0:
		b.WriteString("; conditions healthy")
	}
	return b.String()
}

// badCondition says whether a condition's status is the unhealthy one for its type.
func badCondition(typ, status string) bool {
	switch typ {
	case "Suspended", "ScalingLimited", "Reconciling", "Resizing", "FileSystemResizePending", "Paused":
		return false
	case "ReplicaFailure", "Failed", "FailureTarget", "Stalled", "Degraded",
		"MemoryPressure", "DiskPressure", "PIDPressure", "NetworkUnavailable":
		return status == "True" || status == "Unknown"
	}
	return status == "False" || status == "Unknown"
}

func isWorkload(gvk schema.GVK) bool {
	switch {
	case gvk.Group == "apps" && (gvk.Kind == "Deployment" || gvk.Kind == "StatefulSet" || gvk.Kind == "DaemonSet" || gvk.Kind == "ReplicaSet"):
		return true
	case gvk.Group == "" && gvk.Kind == "ReplicationController":
		return true
	}
	return false
}

// counters reads a workload's replica counters.
func counters(gvk schema.GVK, live, status map[string]any) []Counter {
	if !isWorkload(gvk) {
		return nil
	}
	spec, _ := live["spec"].(map[string]any)
	get := func(field string) int64 {
		n, _ := integer(status[field])
		return n
	}
	c := func(name, field string, want int64) Counter {
		return Counter{Name: name, Path: ".status." + field, Have: get(field), Want: want}
	}
	if gvk.Kind == "DaemonSet" {
		want := get("desiredNumberScheduled")
		return []Counter{c("scheduled", "currentNumberScheduled", want), c("updated", "updatedNumberScheduled", want),
			c("ready", "numberReady", want), c("available", "numberAvailable", want), c("misscheduled", "numberMisscheduled", 0)}
	}
	want, ok := integer(spec["replicas"])
	if !ok {
		want = 1
	}
	switch gvk.Kind {
	case "Deployment", "StatefulSet":
		return []Counter{c("updated", "updatedReplicas", want), c("ready", "readyReplicas", want), c("available", "availableReplicas", want)}
	}
	return []Counter{c("ready", "readyReplicas", want), c("available", "availableReplicas", want)}
}

func integer(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case float64:
		return int64(n), true
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

// objectRef names an object for kubectl: deployment.apps/web -n shop.
func objectRef(gvk schema.GVK, obj map[string]any) string {
	md, _ := obj["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	ns, _ := md["namespace"].(string)
	r := strings.ToLower(gvk.Kind)
	if gvk.Group != "" {
		r += "." + gvk.Group
	}
	s := r + "/" + name
	if ns != "" {
		s += " -n " + ns
	}
	return s
}
