package output

import (
	"testing"
	"time"
)

// TestAgo: kubectl's AGE column, as duration.HumanDuration prints it.
func TestAgo(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                             "0s ago",
		45 * time.Second:              "45s ago",
		5*time.Minute + 3*time.Second: "5m3s ago",
		12 * time.Minute:              "12m ago",
		2*time.Hour + 23*time.Minute:  "143m ago",
		3*time.Hour + 20*time.Minute:  "3h20m ago",
		3 * time.Hour:                 "3h ago",
		30 * time.Hour:                "30h ago",
		5*24*time.Hour + 4*time.Hour:  "5d4h ago",
		40 * 24 * time.Hour:           "40d ago",
		(2*365 + 40) * 24 * time.Hour: "2y40d ago",
		-time.Minute:                  "in the future",
	} {
		if got := Ago(now.Add(-d), now); got != want {
			t.Errorf("Ago(%v) = %q, want %q", d, got, want)
		}
	}
}
